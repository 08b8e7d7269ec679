"""Reads of learning paths with a learner's progress: per-step tallies, next up and pace.

Each function runs a fixed number of queries whatever the number of steps or resources.
"""

import math
from dataclasses import dataclass, field
from datetime import timedelta

from django.core.exceptions import ValidationError
from django.db.models import Exists, OuterRef, Prefetch, Q, Subquery, prefetch_related_objects
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from apps.catalog.models import Kind, Resource
from apps.catalog.selectors import VISIBLE, visible_resources
from apps.core.content import content_token_names, memoized
from apps.paths.models import (
    LearningPath,
    OwnPath,
    OwnStep,
    OwnStepItem,
    PathFollow,
    PathStep,
    StepResource,
)
from apps.progress.models import FINISHED, OwnResource, Status
from apps.progress.selectors import Tally, owner_named, statuses_for, tickable_resource

# Rough effort when a resource has no estimate of its own (minutes).
DEFAULT_MINUTES = {
    Kind.PAPER: 180,
    Kind.ARTICLE: 45,
    Kind.VIDEO: 60,
    Kind.COURSE: 30 * 60,
    Kind.BOOK: 40 * 60,
    Kind.REPO: 120,
    Kind.TOOL: 60,
    Kind.TALK: 60,
    Kind.SLIDES: 45,
    Kind.THREAD: 15,
    Kind.SITE: 90,
    Kind.DOCS: 90,
    Kind.CONCEPT: 120,
    Kind.CHAPTER: 180,
}


def resource_minutes(resource):
    return resource.effort_minutes or DEFAULT_MINUTES.get(resource.kind, 60)


@dataclass
class StepView:
    step: PathStep
    items: list  # [(StepResource, status)]
    tally: Tally
    minutes: int

    @property
    def resource_ids(self):
        return [item.resource_id for item, _ in self.items]


@dataclass
class Pace:
    hours_per_week: int
    expected_finish: object
    ahead_minutes: int  # negative when behind

    @property
    def ahead(self):
        return self.ahead_minutes >= 0

    @property
    def gap_hours(self):
        return round(abs(self.ahead_minutes) / 60, 1)

    @property
    def on_track(self):
        return self.gap_hours == 0


@dataclass
class PathView:
    path: LearningPath
    steps: list = field(default_factory=list)
    tally: Tally = field(default_factory=Tally)
    minutes: int = 0
    done_minutes: int = 0
    next_up: tuple | None = None  # (StepView, StepResource)
    follow: PathFollow | None = None
    pace: Pace | None = None

    @property
    def hours(self):
        return math.ceil(self.minutes / 60)


def path_tokens() -> tuple[str, ...]:
    """The content tokens (apps.core.content) a path's steps are built from: the paths' tables and
    which resources learners see (catalog.selectors.VISIBLE); not topics, extra links, or a guide's
    title."""
    return (*content_token_names("paths"), *VISIBLE)


def path_titled_tokens() -> tuple[str, ...]:
    """path_tokens and the guides' titles: what a path shows with the guide it comes from."""
    return (*path_tokens(), "catalog_guide.title")


def steps_prefetch(steps, items_relation: str, items, *, to_attr: str = "ordered_steps"):
    """A path's steps in order (`.<to_attr>`), each with `items` (its items learners may see, in
    order) as `.published_items`: the one shape every path's plan is built from (_plans_of),
    a curated path's or an own one's."""
    return Prefetch(
        "steps",
        queryset=steps.order_by("position").prefetch_related(
            Prefetch(items_relation, queryset=items.order_by("position"), to_attr="published_items")
        ),
        to_attr=to_attr,
    )


def _steps_prefetch():
    """A curated path's steps, each with its visible resources."""
    return steps_prefetch(
        PathStep.objects.select_related("section__guide"),
        "step_resources",
        StepResource.objects.filter(resource__in=visible_resources()).select_related("resource"),
    )


@dataclass(frozen=True)
class StepPlan:
    """A step's learner-free part: its published items, the resources they are, its effort."""

    step: PathStep
    items: tuple  # StepResource, in order
    resource_ids: frozenset
    minutes: int
    # What finishing each resource is worth: its own effort, scaled so the step's add up to the
    # step's (a curator's estimate, when it has one). Pace credits this per resource.
    credit: dict = field(default_factory=dict)


def _plan(path) -> tuple[tuple[StepPlan, ...], frozenset]:
    """`path`'s steps (prefetched) as StepPlans, and every resource of the path; per content
    version, as a path's steps cannot change without moving it."""

    return memoized(("path-plan", path.id), lambda: _plans_of(path.ordered_steps), path_tokens())


def _step_plan(step, items) -> StepPlan:
    own = {item.resource_id: resource_minutes(item.resource) for item in items}
    minutes = step.effort_hours * 60 if step.effort_hours else sum(own.values())
    total = sum(own.values())
    return StepPlan(
        step=step,
        items=tuple(items),
        resource_ids=frozenset(own),
        minutes=minutes,
        credit={pk: mine * minutes / total for pk, mine in own.items()} if total else {},
    )


def _plans_of(steps) -> tuple[tuple[StepPlan, ...], frozenset]:
    """Steps (each with `.published_items`, in order) as StepPlans, and every resource of them."""
    plans = tuple(_step_plan(step, step.published_items) for step in steps)
    return plans, frozenset().union(*(plan.resource_ids for plan in plans))


def _build(path, statuses, follow, today, plan=None):
    """`path`'s view from `statuses` and `follow`: tallies, next up, pace. `plan` is its steps as
    StepPlans when they are not a curated path's (a learner's own path, see own_path_view)."""
    view = PathView(path=path, follow=follow)
    plans, resource_ids = plan if plan is not None else _plan(path)
    status_of = statuses.get
    done_minutes = skipped_minutes = 0
    for plan in plans:
        items = [(item, status_of(item.resource_id, "")) for item in plan.items]
        step_view = StepView(
            step=plan.step,
            items=items,
            tally=Tally.of(plan.resource_ids, statuses),
            minutes=plan.minutes,
        )
        view.steps.append(step_view)
        view.minutes += plan.minutes
        if view.next_up is None:
            view.next_up = next(
                ((step_view, item) for item, status in items if status not in FINISHED), None
            )
        # Each resource finished is credited its own effort, not a share of the step's: three
        # articles ticked in a step that also holds a 100-hour course are three articles' hours.
        for pk, worth in plan.credit.items():
            status = status_of(pk)
            if status == Status.DONE:
                done_minutes += worth
            elif status == Status.SKIPPED:
                skipped_minutes += worth
    view.done_minutes = round(done_minutes)
    view.tally = Tally.of(resource_ids, statuses)
    if follow and follow.hours_per_week:
        weekly = follow.hours_per_week * 60
        remaining = max(view.minutes - view.done_minutes - round(skipped_minutes), 0)
        weeks_in = max((today - timezone.localdate(follow.followed_at)).days, 0) / 7
        view.pace = Pace(
            hours_per_week=follow.hours_per_week,
            expected_finish=today + timedelta(weeks=remaining / weekly),
            # Measured from the day of following: what was done before is the baseline, not a lead.
            ahead_minutes=round(
                view.done_minutes - follow.done_minutes_at_follow - weeks_in * weekly
            ),
        )
    return view


def follows_for(*, user) -> dict:
    """{path_id: PathFollow} of the learner's follows."""
    return (
        {follow.path_id: follow for follow in PathFollow.objects.filter(user=user)}
        if user.is_authenticated
        else {}
    )


def _views(*, user, paths, statuses=None, follows=None):
    """PathViews of `paths` (steps prefetched) for `user`: one round trip, whatever their number."""
    paths = list(paths)
    if statuses is None:
        statuses = statuses_for(user=user)
    if follows is None:
        follows = follows_for(user=user)
    today = timezone.localdate()
    return [_build(path, statuses, follows.get(path.id), today) for path in paths]


def published_paths() -> list[LearningPath]:
    """Every published path with its steps and their resources, built once per content version
    (apps.core.content): shared by all requests of a worker, so read-only."""
    return memoized(
        "paths",
        lambda: list(
            LearningPath.objects.published()
            .select_related("guide")
            .prefetch_related(_steps_prefetch())
        ),
        path_titled_tokens(),
    )


def published_path(**lookup) -> LearningPath:
    """The published path whose one `lookup` field (slug or uuid) matches, prefetched; or Http404."""
    [(field, value)] = lookup.items()
    try:
        # slug or uuid: a concrete field, never a reverse relation
        value = LearningPath._meta.get_field(field).to_python(value)  # type: ignore[union-attr]
    except ValidationError:
        raise Http404("Not a valid path key.") from None
    for path in published_paths():
        if getattr(path, field) == value:
            return path
    raise Http404("No published learning path matches the given query.")


def path_list(*, user):
    return _views(user=user, paths=published_paths())


def path_detail(*, path, user, statuses=None, follows=None):
    """The path's view for `user`; `path` (looked up by the caller) names which. The learner's
    statuses and follows are read unless the caller has them."""
    prefetched = next(
        (candidate for candidate in published_paths() if candidate.id == path.id), None
    )
    if prefetched is None:  # not published (a curator's preview) or changed since the lookup
        prefetch_related_objects([path], _steps_prefetch())
        prefetched = path
    return _views(user=user, paths=[prefetched], statuses=statuses, follows=follows)[0]


def path_outline(path) -> PathView:
    """`path` (prefetched) as nobody has started it: steps, resources and effort."""
    return _build(path, {}, None, timezone.localdate())


def followed_paths(*, user, statuses, follows):
    """The learner's followed paths, oldest follow first, from their statuses and follows (read by the caller)."""
    followed = sorted(
        (path for path in published_paths() if path.id in follows),
        key=lambda path: follows[path.id].followed_at,
    )
    return _views(user=user, paths=followed, statuses=statuses, follows=follows)


def path_scope(*, user, path_uuid, resource, statuses):
    """What a tick on a path page refreshes: the path bar, its steps holding `resource`, next up
    and the pace; from the learner's statuses, read by the caller, and their follow of it."""
    try:
        path = published_path(uuid=path_uuid)
    except Http404:
        return None
    follows = {follow.path_id: follow for follow in PathFollow.objects.filter(user=user, path=path)}
    view = path_detail(path=path, user=user, statuses=statuses, follows=follows)
    return _scope_of(view, resource)


def _scope_of(view, resource):
    """(view, the steps of `view` holding `resource`, the slots of its items there)."""
    steps = [step for step in view.steps if resource.id in step.resource_ids]
    slots = [
        str(item.uuid)
        for step in steps
        for item, _ in step.items
        if item.resource_id == resource.id
    ]
    return view, steps, slots


def followed_paths_export(*, user) -> list[dict]:
    """The paths `user` follows, as "Download all my data" writes them (and the import reads them
    back, see apps.paths.signals)."""
    return [
        {
            "path": str(follow.path.uuid),
            "slug": follow.path.slug,
            "title": follow.path.title,
            "followed_at": follow.followed_at.isoformat(),
            "hours_per_week": follow.hours_per_week,
            "done_minutes_at_follow": follow.done_minutes_at_follow,
        }
        for follow in PathFollow.objects.filter(user=user)
        .select_related("path")
        .order_by("followed_at", "pk")
    ]


# A learner's own paths (OwnPath). Who may see one is decided here and nowhere else: its owner
# always, anyone else (a visitor too) only while it is published, and then by its slug alone.
# What its steps show is decided here too: the resources learners may see
# (catalog.selectors.visible_resources), like a curated path's, and to the owner alone also their
# own resources (progress.models.OwnResource, named as they named them). Anyone else never sees
# the owner's own resources, nor counts them; the owner's notes are never part of what another sees.


def own_steps_prefetch(*, owner=None):
    """An own path's steps as `owner` sees them (`.owner_steps`: the catalog's resources and their
    own), or as anyone else does (no `owner`: `.ordered_steps`, the catalog's only). One query for
    the steps and one for their items, whatever their number."""
    items = OwnStepItem.objects.select_related("resource")
    if owner is None:
        return steps_prefetch(
            OwnStep.objects.all(), "items", items.filter(resource__in=visible_resources())
        )
    mine = OwnResource.objects.filter(user=owner, resource=OuterRef("resource"))
    items = items.annotate(
        in_catalog=Exists(visible_resources().filter(pk=OuterRef("resource"))),
        own_pk=Subquery(mine.values("pk")[:1]),
        own_title=Subquery(mine.values("title")[:1]),
        own_kind=Subquery(mine.values("kind")[:1]),
        own_author=Subquery(mine.values("author")[:1]),
    ).filter(Q(in_catalog=True) | Q(own_pk__isnull=False))
    return steps_prefetch(OwnStep.objects.all(), "items", items, to_attr="owner_steps")


def _own_named_items(steps):
    """The owner's own resources among `steps`' items, named as the owner named them (a link the
    catalog lists keeps the catalog's name)."""
    for step in steps:
        for item in step.published_items:
            if item.own_pk and not item.in_catalog:
                owner_named(
                    item.resource,
                    own_pk=item.own_pk,
                    title=item.own_title,
                    kind=item.own_kind,
                    author=item.own_author,
                )
    return steps


def own_paths_for(*, user) -> list[OwnPath]:
    """The learner's own paths, newest first (a visitor has none); steps not read."""
    if not user.is_authenticated:
        return []
    return list(OwnPath.objects.filter(owner=user).order_by("-created_at", "-pk"))


def own_path_for_owner(*, user, uuid) -> OwnPath:
    """`user`'s own path with this uuid, or Http404 (another learner's and a visitor alike)."""
    if not user.is_authenticated:
        raise Http404("No such path.")
    try:
        return OwnPath.objects.get(owner=user, uuid=uuid)
    except (OwnPath.DoesNotExist, ValidationError):
        raise Http404("No such path.") from None


def own_path_published(*, slug) -> OwnPath:
    """The published own path at `slug`, or Http404 (unpublished ones are nobody's to see here)."""
    try:
        return OwnPath.objects.select_related("owner").get(slug=slug, published=True)
    except OwnPath.DoesNotExist:
        raise Http404("No published path has this link.") from None


def own_path_follow(path: OwnPath) -> PathFollow:
    """The owner's follow of their own path, as the pace reads it (unsaved: the path holds it)."""
    return PathFollow(
        user_id=path.owner_id,
        followed_at=path.created_at,
        hours_per_week=path.hours_per_week,
        done_minutes_at_follow=path.done_minutes_at_follow,
    )


def own_path_view(*, path: OwnPath, user, statuses=None) -> PathView:
    """`path`'s view for `user`: its owner's with their own resources and their pace; anyone
    else's with the catalog's resources only and without a follow. Three queries (steps, their
    items with resources, the statuses) whatever its size."""
    mine = user.is_authenticated and user.pk == path.owner_id
    plan = _own_plan(path, for_owner=mine)
    if statuses is None:
        statuses = statuses_for(user=user)
    follow = own_path_follow(path) if mine else None
    return _build(path, statuses, follow, timezone.localdate(), plan=plan)


def own_path_scope(*, user, path_uuid, resource, statuses):
    """What a tick on an own path's page refreshes, as path_scope does for a curated one: the
    path's bar, its steps holding `resource`, next up and (to its owner) the pace, from the view
    that page shows `user` (own_path_view). The page is the owner's, or the published one for
    anyone; None for any other path (not theirs and not published, or no such path)."""
    shown = OwnPath.objects.filter(published=True)
    if user.is_authenticated:
        shown = OwnPath.objects.filter(Q(owner=user) | Q(published=True))
    try:
        path = shown.get(uuid=path_uuid)
    except (OwnPath.DoesNotExist, ValidationError):
        return None
    return _scope_of(own_path_view(path=path, user=user, statuses=statuses), resource)


def own_path_outline(path: OwnPath, *, user) -> PathView:
    """`path` as nobody has started it, as `user` sees it: its owner with their own resources,
    anyone else (a visitor too) with the catalog's only. `user` is required: which one decides
    what a private resource shows to."""
    mine = user.is_authenticated and user.pk == path.owner_id
    return _build(path, {}, None, timezone.localdate(), plan=_own_plan(path, for_owner=mine))


def _own_plan(path, *, for_owner: bool):
    """An own path's steps as StepPlans, as its owner or as anyone else sees them (read once per
    path object and viewer: a prefetched one is reused)."""
    if for_owner:
        prefetch_related_objects([path], own_steps_prefetch(owner=path.owner_id))
        return _plans_of(_own_named_items(path.owner_steps))
    prefetch_related_objects([path], own_steps_prefetch())
    return _plans_of(path.ordered_steps)


# What a learner is told when the resource they would add is neither the catalog's nor theirs.
NOT_ADDABLE = _("Only a resource in the catalog or one of your own can be added to your path.")


def addable_resource(*, user, uuid) -> Resource | None:
    """The resource with this uuid if `user` may put it in their own path: one they may tick
    (progress.selectors.tickable_resource: one learners may see, or one of `user`'s own, named as
    they named it); else None (another learner's own resource, a hidden one, no such uuid)."""
    try:
        return tickable_resource(user=user, uuid=uuid)
    except Http404:
        return None


def resources_to_add(*, query: str, user=None, limit: int = 20) -> list:
    """What the path editor's search finds for `query` (empty for a blank one): catalog resources
    learners may see whose title or author holds it, then `user`'s own resources whose title,
    author or link does (named as they named them, `.own_pk` set; one query more)."""
    query = query.strip()
    if not query:
        return []
    found = list(
        visible_resources()
        .filter(Q(title__icontains=query) | Q(author__icontains=query))
        .order_by("title")[:limit]
    )
    if user is not None and user.is_authenticated:
        own = (
            OwnResource.objects.filter(user=user)
            .filter(
                Q(title__icontains=query)
                | Q(author__icontains=query)
                | Q(resource__url__icontains=query)
            )
            .exclude(resource__in=visible_resources())
            .select_related("resource")
            .order_by("title")[:limit]
        )
        found += [
            owner_named(
                row.resource, own_pk=row.pk, title=row.title, kind=row.kind, author=row.author
            )
            for row in own
        ]
    return found


@dataclass
class FollowedPaths:
    """The paths a learner follows, as the dashboard and the API list them (see paths_followed)."""

    views: list  # PathView, curated and own, oldest start first
    own_count: int  # every own path of the learner, shown or not

    @property
    def own_uuids(self) -> set:
        """The uuids of the own paths among `views` (a page marks them "your path")."""
        return {view.path.uuid for view in self.views if isinstance(view.path, OwnPath)}

    @property
    def own_hidden(self) -> int:
        """The learner's own paths left out of `views` (past `own_limit`)."""
        return self.own_count - len(self.own_uuids)


def paths_followed(*, user, statuses, follows, own_limit=None) -> FollowedPaths:
    """The curated paths `user` follows (followed_paths) and their own paths, which they follow by
    owning them: the newest `own_limit` (all when None). In the order they were started, oldest
    first: a curated path from the day it was followed, an own path from the day it was made.
    From the learner's statuses and follows (read by the caller), one query for the own paths and,
    when there are any, two for their steps and items, whatever their number."""
    views = followed_paths(user=user, statuses=statuses, follows=follows)
    own = own_paths_for(user=user)
    shown = own if own_limit is None else own[:own_limit]
    if shown:
        prefetch_related_objects(shown, own_steps_prefetch(owner=user.pk))
    views += [own_path_view(path=path, user=user, statuses=statuses) for path in shown]
    views.sort(key=lambda view: view.follow.followed_at)
    return FollowedPaths(views=views, own_count=len(own))
