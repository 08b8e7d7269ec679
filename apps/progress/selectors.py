"""Reads of learner progress. Counts are computed from Progress rows with a fixed number of
queries, however many guides, sections, entries or rows there are."""

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import timedelta
from functools import cached_property

from django.db import connection
from django.db.models import Prefetch
from django.utils import timezone

from apps.catalog.models import Entry, Guide, Resource, Section
from apps.core.content import memoized
from apps.progress.models import Activity, ActivityDay, Progress, Status


@dataclass
class Tally:
    """Progress over a set of resources: done / (total − skipped)."""

    total: int = 0
    done: int = 0
    skipped: int = 0
    in_progress: int = 0

    @property
    def countable(self):
        return self.total - self.skipped

    @property
    def progress_max(self):
        """A <progress> needs a positive max; nothing countable reads as 0 of 1."""
        return self.countable or 1

    @property
    def percent(self):
        return round(100 * self.done / self.countable) if self.countable else 0

    @property
    def complete(self):
        return self.countable > 0 and self.done == self.countable

    @classmethod
    def of(cls, resource_ids, statuses):
        """The tally of `resource_ids` (a set, or any iterable of distinct ids) for `statuses`."""
        ids = resource_ids if isinstance(resource_ids, (set, frozenset)) else set(resource_ids)
        groups = (statuses if isinstance(statuses, Statuses) else Statuses(statuses)).ids_by_status
        none = frozenset()
        return cls(
            total=len(ids),
            done=len(ids & groups.get(Status.DONE, none)),
            skipped=len(ids & groups.get(Status.SKIPPED, none)),
            in_progress=len(ids & groups.get(Status.IN_PROGRESS, none)),
        )


class Statuses(dict):
    """A learner's {resource_id: status}, also grouped by status once, so that each of a page's
    many tallies is a few set intersections. Read-only once a tally has been taken."""

    @cached_property
    def ids_by_status(self) -> dict[str, frozenset]:
        groups = defaultdict(set)
        for resource_id, status in self.items():
            groups[status].add(resource_id)
        return {status: frozenset(ids) for status, ids in groups.items()}


def statuses_for(*, user, resource_ids=None) -> Statuses:
    """{resource_id: status} for the user's started/done/skipped resources (one query)."""
    if not user.is_authenticated:
        return Statuses()
    if resource_ids is None:
        # Every learner page runs this; as plain SQL it costs half of what the ORM adds to it.
        with connection.cursor() as cursor:
            cursor.execute(_ALL_STATUSES_SQL, [user.pk, Status.NOT_STARTED])
            return Statuses(cursor.fetchall())
    rows = Progress.objects.filter(user=user, resource_id__in=list(resource_ids)).exclude(status=Status.NOT_STARTED)
    return Statuses(rows.values_list("resource_id", "status"))


_ALL_STATUSES_SQL = f"SELECT resource_id, status FROM {Progress._meta.db_table} WHERE user_id = %s AND status <> %s"


def progress_row(*, user, resource, for_update=False) -> Progress | None:
    """The learner's row for one resource, if any; `for_update` locks it until the transaction
    ends, where the database can. Plain SQL: the resource page and every tick read it."""
    lock = " FOR UPDATE" if for_update and connection.features.has_select_for_update else ""
    return next(iter(Progress.objects.raw(_ONE_ROW_SQL + lock, [user.pk, resource.pk])), None)


_ONE_ROW_SQL = f"SELECT * FROM {Progress._meta.db_table} WHERE user_id = %s AND resource_id = %s"


def published_entries():
    """Entries a learner may see: published entry, resource, section and guide."""
    return Entry.objects.filter(
        is_published=True,
        resource__is_published=True,
        section__is_published=True,
        section__guide__is_published=True,
    )


@dataclass
class GuideTally:
    guide: Guide
    tally: Tally
    sections: dict = field(default_factory=dict)  # section_id -> Tally (subtree)


@dataclass(frozen=True)
class GuideStructure:
    """Which resources each guide and each section (with its subsections) holds, learner-free."""

    guide_resources: dict  # guide_id -> frozenset of resource ids
    guide_sections: dict  # guide_id -> ids of its sections holding any resource
    section_resources: dict  # section_id -> frozenset of resource ids (its whole subtree)
    all_resources: frozenset


def guide_structure() -> GuideStructure:
    """Built from the published catalog once per content version (apps.core.content)."""
    return memoized("guide-structure", _guide_structure_build)


def _guide_structure_build() -> GuideStructure:
    sections = {
        section_id: (parent_id, guide_id)
        for section_id, parent_id, guide_id in Section.objects.filter(
            guide__is_published=True, is_published=True
        ).values_list("id", "parent_id", "guide_id")
    }
    per_guide, per_section = defaultdict(set), defaultdict(set)
    for guide_id, section_id, resource_id in published_entries().values_list(
        "section__guide_id", "section_id", "resource_id"
    ):
        per_guide[guide_id].add(resource_id)
        node, seen = section_id, set()
        while node in sections and node not in seen:
            seen.add(node)
            per_section[node].add(resource_id)
            node = sections[node][0]
    guide_sections = defaultdict(list)
    for section_id in per_section:
        guide_sections[sections[section_id][1]].append(section_id)
    return GuideStructure(
        guide_resources={guide_id: frozenset(ids) for guide_id, ids in per_guide.items()},
        guide_sections={guide_id: tuple(ids) for guide_id, ids in guide_sections.items()},
        section_resources={section_id: frozenset(ids) for section_id, ids in per_section.items()},
        all_resources=frozenset().union(*per_guide.values()),
    )


def guide_tallies(*, user, guides=None, statuses=None, holding=None) -> dict[int, GuideTally]:
    """Per-guide and per-section (subtree) tallies of every published guide (or of `guides`):
    one query, for the learner's statuses (none when the caller has them). With `holding` (a
    resource id), only the sections whose subtree holds that resource are tallied."""
    structure = guide_structure()
    guides = list(guides if guides is not None else Guide.objects.published())
    if statuses is None:
        statuses = statuses_for(user=user)
    return {
        guide.id: GuideTally(
            guide=guide,
            tally=Tally.of(structure.guide_resources.get(guide.id, ()), statuses),
            sections={
                section_id: Tally.of(structure.section_resources[section_id], statuses)
                for section_id in structure.guide_sections.get(guide.id, ())
                if holding is None or holding in structure.section_resources[section_id]
            },
        )
        for guide in guides
    }


def overall_tally(*, user, statuses=None) -> Tally:
    if statuses is None:
        statuses = statuses_for(user=user)
    return Tally.of(guide_structure().all_resources, statuses)


@dataclass(frozen=True)
class ProgressRow:
    resource: object  # a published Resource, shared (read-only)
    status: str
    since: object  # completed_at when done, started_at when in progress


def latest_rows(*, user, limit=5) -> dict[str, list[ProgressRow]]:
    """The learner's most recently finished and most recently started published resources,
    newest first, `limit` of each (one query, reading only the rows shown)."""
    rows = Progress.objects.raw(_LATEST_SQL, [Status.DONE, user.pk, Status.DONE, Status.IN_PROGRESS, limit])
    resources = published_resources()
    latest = {Status.DONE: [], Status.IN_PROGRESS: []}
    for row in rows:
        if row.resource_id in resources:
            since = row.completed_at if row.status == Status.DONE else row.started_at
            latest[row.status].append(ProgressRow(resources[row.resource_id], row.status, since))
    return latest


# Plain SQL (portable to SQLite): the ORM spends longer compiling this window query than the
# database spends running it.
_LATEST_SQL = f"""
SELECT id, resource_id, status, started_at, completed_at FROM (
  SELECT p.id, p.resource_id, p.status, p.started_at, p.completed_at, ROW_NUMBER() OVER (
    PARTITION BY p.status ORDER BY CASE WHEN p.status = %s THEN p.completed_at ELSE p.started_at END DESC
  ) AS latest
  FROM {Progress._meta.db_table} p JOIN {Resource._meta.db_table} r ON r.id = p.resource_id
  WHERE p.user_id = %s AND r.is_published
    AND ((p.status = %s AND p.completed_at IS NOT NULL) OR (p.status = %s AND p.started_at IS NOT NULL))
) ranked WHERE latest <= %s ORDER BY status, latest"""


def published_resources() -> dict:
    """{id: Resource} of every published resource; shared per content version, read-only."""
    return memoized("published-resources", lambda: {r.id: r for r in Resource.objects.published()})


def dashboard_guides():
    """Published guides with their top-level sections; shared per content version, read-only."""
    return memoized(
        "dashboard-guides",
        lambda: list(
            Guide.objects.published().prefetch_related(
                Prefetch("sections", queryset=Section.objects.filter(parent=None, is_published=True), to_attr="top_sections")
            )
        ),
    )


def last_guide(*, user, guides):
    """Of `guides`, the one holding the resource the user most recently changed (None if none)."""
    structure = guide_structure()
    with connection.cursor() as cursor:
        cursor.execute(_RECENTLY_CHANGED_SQL, [user.pk])
        recent = [resource_id for (resource_id,) in cursor.fetchall()]
    for resource_id in recent:
        for guide in guides:
            if resource_id in structure.guide_resources.get(guide.id, ()):
                return guide
    return None


_RECENTLY_CHANGED_SQL = (
    f"SELECT resource_id FROM {Activity._meta.db_table} WHERE user_id = %s ORDER BY occurred_at DESC LIMIT 50"
)


def guide_entries(*, guide) -> list:
    """The guide's published entries in reading order, with resource and section; shared, read-only."""
    return memoized(
        ("guide-entries", guide.id),
        lambda: list(
            published_entries()
            .filter(section__guide=guide)
            .select_related("resource", "section")
            .order_by("section__position", "position")
        ),
    )


def continue_in_guide(*, guide, statuses, limit=5):
    """The next unfinished entries of `guide`, in the guide's own order (skips done and skipped)."""
    seen, result = set(), []
    for entry in guide_entries(guide=guide):
        if entry.resource_id not in seen and statuses.get(entry.resource_id) not in (Status.DONE, Status.SKIPPED):
            seen.add(entry.resource_id)
            result.append(entry)
            if len(result) == limit:
                break
    return result


@dataclass
class ActivityYear:
    days: list  # [(date, count)] oldest first, exactly 371 days ending today (53 full weeks)
    total: int
    active_days: int
    current_streak: int
    longest_streak: int
    busiest: tuple | None


def activity_year(*, user, today=None) -> ActivityYear:
    """Daily activity counts for the heatmap, and current/longest streaks (1 query, of ActivityDay)."""
    today = today or timezone.localdate()
    start = today - timedelta(days=today.weekday() + 1 + 52 * 7)  # a Sunday, 53 columns back
    counts = {  # every active day of the learner's, oldest first, as ordinals: a few hundred rows
        day.toordinal(): n
        for day, n in ActivityDay.objects.filter(user=user).order_by("day").values_list("day", "count")
    }
    first, last = start.toordinal(), today.toordinal()
    days = [(start + timedelta(days=offset), counts.get(first + offset, 0)) for offset in range(last - first + 1)]
    shown = [(day, n) for day, n in days if n]
    longest = run = 0
    previous = None
    for day in counts:
        run = run + 1 if day - 1 == previous else 1
        longest = max(longest, run)
        previous = day
    current = run if previous is not None and last - previous <= 1 else 0
    return ActivityYear(
        days=days,
        total=sum(n for _, n in shown),
        active_days=len(shown),
        current_streak=current,
        longest_streak=longest,
        busiest=max(shown, key=lambda item: item[1]) if shown else None,
    )
