"""Reads of study groups: who may see a group, and its board (per-member bars, the week's
finishes, the group's next up) and activity.

Who may see a group: its members only (`membership_for`: anyone else gets a 404, the same answer
as a group that does not exist). What members see of each other: their progress on the group's
published paths and guides, counted by the owners of those numbers (paths.selectors for a path's
bar, progress.selectors for a guide's), so a member's bar here is the bar on their own page. A
member who hides their progress shows as "hidden" and counts in nothing the others see (the
week, the activity, next up). Notes are never read.

A board costs a fixed number of queries whatever the number of members (one read of every
member's statuses on the group's resources, one of the week's finishes).
"""

from dataclasses import dataclass, field
from datetime import datetime, time, timedelta

from django.core.paginator import Page, Paginator
from django.http import Http404
from django.utils import timezone

from apps.catalog.models import Resource
from apps.catalog.selectors import guide_entries, guides_with_top_sections, visible_resources_by_id
from apps.groups.models import Membership, Role, StudyGroup
from apps.learning.widgets import Bar
from apps.paths.selectors import path_detail, path_outline, published_paths
from apps.progress.models import FINISHED, Progress, Status
from apps.progress.selectors import Statuses, Tally, guide_tally, statuses_of_learners

ACTIVITY_PER_PAGE = 30
WEEK_LIMIT = 50  # the board's "this week" list; the activity page has the rest


def memberships_for(*, user) -> list[Membership]:
    """The learner's memberships, with their groups and each group's member count."""
    from django.db.models import Count

    return list(
        Membership.objects.filter(user=user)
        .select_related("group")
        .annotate(members=Count("group__memberships"))
        .order_by("group__name", "group_id")
    )


def membership_for(*, user, uuid) -> Membership:
    """`user`'s membership of the group `uuid`, its group loaded; Http404 for anyone else (an
    outsider, a removed member, a visitor), as for a group that does not exist."""
    if not user.is_authenticated:
        raise Http404("No such group.")
    try:
        return Membership.objects.select_related("group").get(user=user, group__uuid=uuid)
    except Membership.DoesNotExist:
        raise Http404("No such group.") from None


def group_members(*, group) -> list[Membership]:
    """The group's members, the owner first, then by joining; users loaded."""
    members = list(Membership.objects.filter(group=group).select_related("user"))
    members.sort(key=lambda member: (member.role != Role.OWNER, member.joined_at, member.pk))
    return members


def member_name(user) -> str:
    """How a member is named to the others: the part of their address before the @ (never the
    whole address: members are not told each other's mail)."""
    return (user.email or user.get_username()).split("@")[0]


@dataclass(frozen=True)
class Plan:
    """One of the group's paths or guides as learners may see it now: its visible resources in
    reading order. `source` is the LearningPath or Guide (shared, read-only)."""

    kind: str  # "path" or "guide"
    source: object
    resources: tuple  # Resource, in order, each once
    resource_ids: frozenset

    @property
    def key(self) -> str:
        return f"{self.kind}-{self.source.uuid}"  # type: ignore[attr-defined]

    @property
    def title(self) -> str:
        return self.source.title  # type: ignore[attr-defined]

    def tally(self, *, user, statuses) -> Tally:
        """The member's bar on this path or guide: asked of the owner of that bar."""
        if self.kind == "path":
            return path_detail(path=self.source, user=user, statuses=statuses, follows={}).tally
        return guide_tally(guide=self.source, statuses=statuses)


def group_plans(*, group) -> list[Plan]:
    """The group's published paths (in the paths' order), then its published guides (in the
    guides' order); an unpublished one is left out, as it is everywhere else."""
    path_ids = set(group.paths.values_list("id", flat=True))
    guide_ids = set(group.guides.values_list("id", flat=True))
    plans = []
    for path in published_paths():
        if path.id in path_ids:
            resources = _unique(
                item.resource for step in path_outline(path).steps for item, _ in step.items
            )
            plans.append(Plan("path", path, resources, frozenset(r.id for r in resources)))
    for guide in guides_with_top_sections():
        if guide.id in guide_ids:
            resources = _unique(entry.resource for entry in guide_entries(guide=guide))
            plans.append(Plan("guide", guide, resources, frozenset(r.id for r in resources)))
    return plans


def _unique(resources) -> tuple:
    seen, ordered = set(), []
    for resource in resources:
        if resource.id not in seen:
            seen.add(resource.id)
            ordered.append(resource)
    return tuple(ordered)


@dataclass
class MemberRow:
    membership: Membership
    name: str
    tally: Tally | None  # None: hidden from the viewer
    bar: Bar | None = None
    is_viewer: bool = False


@dataclass(frozen=True)
class NextUp:
    """The group's next up on a plan: the first resource, in reading order, that at least half of
    the members showing their progress have not finished (done or skipped)."""

    resource: Resource
    finished: int  # members showing progress who finished it
    counted: int  # members showing progress


@dataclass
class PlanBoard:
    plan: Plan
    rows: list = field(default_factory=list)
    next_up: NextUp | None = None


@dataclass(frozen=True)
class Finish:
    name: str
    resource: Resource
    at: datetime


@dataclass
class Board:
    group: StudyGroup
    viewer: Membership
    members: list
    plans: list
    week: list  # Finish, newest first (at most WEEK_LIMIT)
    week_start: datetime
    week_more: bool  # more finishes this week than listed

    @property
    def shown_count(self) -> int:
        return sum(1 for member in self.members if not member.progress_hidden)


def group_board(*, viewer: Membership) -> Board:
    """The group page: every member's bar on each plan (the viewer's own even when hidden from
    the others), the group's next up per plan, and this week's finishes."""
    group = viewer.group
    members = group_members(group=group)
    plans = group_plans(group=group)
    every_id = frozenset().union(*(plan.resource_ids for plan in plans))
    statuses = statuses_of_learners(
        user_ids=[member.user_id for member in members], resource_ids=every_id
    )
    shown = [member for member in members if not member.progress_hidden]
    boards = []
    for plan in plans:
        board = PlanBoard(plan=plan)
        for member in members:
            mine = member.pk == viewer.pk
            visible = mine or not member.progress_hidden
            tally = (
                plan.tally(user=member.user, statuses=statuses[member.user_id]) if visible else None
            )
            name = member_name(member.user)
            board.rows.append(
                MemberRow(
                    membership=member,
                    name=name,
                    tally=tally,
                    bar=Bar(f"bar-{plan.key}-m{member.pk}", f"{plan.title} · {name}", tally)
                    if tally is not None
                    else None,
                    is_viewer=mine,
                )
            )
        board.next_up = _next_up(plan, [statuses[member.user_id] for member in shown])
        boards.append(board)
    week_start = week_start_of(timezone.localdate())
    finishes = _finishes(
        members=shown, resource_ids=every_id, since=week_start, limit=WEEK_LIMIT + 1
    )
    return Board(
        group=group,
        viewer=viewer,
        members=members,
        plans=boards,
        week=finishes[:WEEK_LIMIT],
        week_start=week_start,
        week_more=len(finishes) > WEEK_LIMIT,
    )


def _next_up(plan: Plan, statuses: list[Statuses]) -> NextUp | None:
    counted = len(statuses)
    for resource in plan.resources:
        finished = sum(1 for mine in statuses if mine.get(resource.id) in FINISHED)
        if (counted - finished) * 2 >= counted:
            return NextUp(resource=resource, finished=finished, counted=counted)
    return None


def week_start_of(day) -> datetime:
    """Monday 00:00 of `day`'s week, in the current time zone (the viewer's on a page)."""
    monday = day - timedelta(days=day.weekday())
    return timezone.make_aware(datetime.combine(monday, time.min))


def _finishes(*, members, resource_ids, since=None, until=None, limit=None) -> list[Finish]:
    """What `members` finished (marked done) among `resource_ids`, newest first, as Finishes."""
    names = {member.user_id: member_name(member.user) for member in members}
    rows = _finish_rows(user_ids=list(names), resource_ids=resource_ids, since=since, until=until)
    if limit is not None:
        rows = rows[:limit]
    resources = visible_resources_by_id()
    return [
        Finish(names[user_id], resources[resource_id], at)
        for user_id, resource_id, at in rows
        if resource_id in resources
    ]


def _finish_rows(*, user_ids, resource_ids, since=None, until=None):
    rows = Progress.objects.filter(
        user_id__in=user_ids, resource_id__in=list(resource_ids), status=Status.DONE
    )
    if since is not None:
        rows = rows.filter(completed_at__gte=since)
    if until is not None:
        rows = rows.filter(completed_at__lt=until)
    return rows.order_by("-completed_at", "-pk").values_list(
        "user_id", "resource_id", "completed_at"
    )


def group_week(*, group, since, until) -> tuple[list[Finish], list[PlanBoard]]:
    """What the weekly mail says: the finishes of members showing progress between `since` and
    `until`, and the group's next up on each plan."""
    members = group_members(group=group)
    shown = [member for member in members if not member.progress_hidden]
    plans = group_plans(group=group)
    every_id = frozenset().union(*(plan.resource_ids for plan in plans))
    statuses = statuses_of_learners(
        user_ids=[member.user_id for member in shown], resource_ids=every_id
    )
    boards = [
        PlanBoard(plan=plan, next_up=_next_up(plan, [statuses[m.user_id] for m in shown]))
        for plan in plans
    ]
    return _finishes(members=shown, resource_ids=every_id, since=since, until=until), boards


def group_activity(*, group, page_number) -> Page:
    """Every finish of the members showing progress on the group's paths and guides, newest first,
    ACTIVITY_PER_PAGE a page (Finishes; an unknown page number: the last page)."""
    members = [m for m in group_members(group=group) if not m.progress_hidden]
    every_id = frozenset().union(*(plan.resource_ids for plan in group_plans(group=group)))
    names = {member.user_id: member_name(member.user) for member in members}
    visible = visible_resources_by_id()
    rows = _finish_rows(user_ids=list(names), resource_ids=every_id & visible.keys())
    page = Paginator(rows, ACTIVITY_PER_PAGE).get_page(page_number)
    page.object_list = [
        Finish(names[user_id], visible[resource_id], at) for user_id, resource_id, at in page
    ]
    return page


@dataclass(frozen=True)
class Choices:
    paths: list
    guides: list


def plan_choices() -> Choices:
    """What a group may work through: the published curated paths and guides."""
    return Choices(paths=list(published_paths()), guides=list(guides_with_top_sections()))
