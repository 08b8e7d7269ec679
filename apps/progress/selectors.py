"""Reads of learner progress. Counts are computed from Progress rows with a fixed number of
queries, however many guides, sections, entries or rows there are."""

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import timedelta
from functools import cached_property, lru_cache

from django.db.models import Prefetch
from django.utils import timezone

from apps.catalog.models import Entry, Guide, Resource, Section
from apps.core.content import memoized
from apps.core.db import Read, aware, columns, instance_from_row, read_one
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
        return tallies_of([(None, ids)], statuses)[None]


def tallies_of(sets, statuses) -> dict:
    """{key: Tally} of each (key, frozenset of resource ids) in `sets`, for `statuses`: three set
    intersections each, with the statuses grouped once."""
    groups = (statuses if isinstance(statuses, Statuses) else Statuses(statuses)).ids_by_status
    none = frozenset()
    done, skipped, started = (groups.get(status, none) for status in (Status.DONE, Status.SKIPPED, Status.IN_PROGRESS))
    return {key: Tally(len(ids), len(ids & done), len(ids & skipped), len(ids & started)) for key, ids in sets}


class Statuses(dict):
    """A learner's {resource_id: status}, also grouped by status once, so that each of a page's
    many tallies is a few set intersections. Read-only once a tally has been taken."""

    @cached_property
    def ids_by_status(self) -> dict[str, frozenset]:
        groups = defaultdict(set)
        for resource_id, status in self.items():
            groups[status].add(resource_id)
        return {status: frozenset(ids) for status, ids in groups.items()}


def statuses_for(*, user) -> Statuses:
    """{resource_id: status} for the user's started/done/skipped resources (one query)."""
    if not user.is_authenticated:
        return Statuses()
    return read_one(statuses_read(user=user))


def statuses_read(*, user) -> Read:
    """All of the learner's statuses, as plain SQL: every learner page reads them, and the ORM
    costs more than the query."""
    return Read(_ALL_STATUSES_SQL, [user.pk, Status.NOT_STARTED], Statuses)


_ALL_STATUSES_SQL = f"SELECT resource_id, status FROM {Progress._meta.db_table} WHERE user_id = %s AND status <> %s"


def progress_row(*, user, resource) -> Progress | None:
    """The learner's row for one resource, if any. Plain SQL: the resource page and
    `progress_set_status` (imports, a tick made before signing in) read it."""
    read = Read(_ONE_ROW_SQL, [user.pk, resource.pk], lambda rows: instance_from_row(Progress, rows[0]) if rows else None)
    return read_one(read)


_ONE_ROW_SQL = f"SELECT {', '.join(columns(Progress))} FROM {Progress._meta.db_table} WHERE user_id = %s AND resource_id = %s"


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


def guide_tallies(*, guide, statuses, holding=None) -> GuideTally:
    """The guide's tally and its sections' (each over its subtree), for the learner's `statuses`.
    With `holding` (a resource id), only the sections whose subtree holds that resource."""
    structure = guide_structure()
    return GuideTally(
        tally=Tally.of(structure.guide_resources.get(guide.id, ()), statuses),
        sections={
            section_id: Tally.of(structure.section_resources[section_id], statuses)
            for section_id in structure.guide_sections.get(guide.id, ())
            if holding is None or holding in structure.section_resources[section_id]
        },
    )


def overall_tally(*, statuses) -> Tally:
    return Tally.of(guide_structure().all_resources, statuses)


@dataclass(frozen=True)
class ProgressRow:
    resource: object  # a published Resource, shared (read-only)
    status: str
    since: object  # completed_at when done, started_at when in progress


def latest_read(*, user, limit=5) -> Read:
    """The learner's most recently finished and most recently started published resources,
    newest first, `limit` of each. Two index-ordered reads, no join: each reads `limit` rows more
    than there are unpublished resources, so `limit` published ones are among them whenever the
    learner has that many."""
    resources = published_resources()
    take = limit + unpublished_count()

    def parse(rows):
        latest = {Status.DONE: [], Status.IN_PROGRESS: []}
        for resource_id, status, since in rows:
            shown = latest[status]
            if resource_id in resources and len(shown) < limit:
                shown.append(ProgressRow(resources[resource_id], status, aware(since)))
        return latest

    return Read(_LATEST_SQL, [user.pk, take, user.pk, take], parse)


# Plain SQL, portable to SQLite (hence the outer SELECTs around each ordered, limited read). Each
# read follows its partial index (Progress.Meta.indexes), which a planner uses only when the
# statuses are written into the SQL, not passed as parameters.
_LATEST_SQL = f"""
SELECT * FROM (SELECT resource_id, status, completed_at FROM {Progress._meta.db_table}
  WHERE user_id = %s AND status = '{Status.DONE.value}' AND completed_at IS NOT NULL ORDER BY completed_at DESC LIMIT %s) AS done
UNION ALL
SELECT * FROM (SELECT resource_id, status, started_at FROM {Progress._meta.db_table}
  WHERE user_id = %s AND status = '{Status.IN_PROGRESS.value}' AND started_at IS NOT NULL ORDER BY started_at DESC LIMIT %s) AS started"""


def unpublished_count() -> int:
    """How many resources are not published; per content version."""
    return memoized("unpublished-resources", lambda: Resource.objects.filter(is_published=False).count())


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


def last_guide(*, guides, recent):
    """Of `guides`, the one holding the resource the learner most recently changed (None if none);
    `recent` is `recently_changed_read`'s result."""
    structure = guide_structure()
    for resource_id in recent:
        for guide in guides:
            if resource_id in structure.guide_resources.get(guide.id, ()):
                return guide
    return None


def recently_changed_read(*, user) -> Read:
    """The resources of the learner's latest changes, newest first."""
    return Read(_RECENTLY_CHANGED_SQL, [user.pk], lambda rows: [resource_id for (resource_id,) in rows])


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
    days: list  # [(date, count)] oldest first, from the Sunday 52 weeks before this week's to today (365 to 371 days, 53 columns)
    total: int
    active_days: int
    current_streak: int
    longest_streak: int
    busiest: tuple | None


def activity_year_read(*, user, today=None) -> Read:
    """Daily activity counts for the heatmap, and current/longest streaks (of ActivityDay)."""
    today = today or timezone.localdate()
    start = today - timedelta(days=today.weekday() + 1 + 52 * 7)  # a Sunday, 53 columns back
    # Every active day of the learner's, oldest first: a few hundred rows.
    return Read(_ACTIVE_DAYS_SQL, [user.pk], lambda rows: _activity_year({day.toordinal(): n for day, n in rows}, start, today))


def _activity_year(counts, start, today) -> ActivityYear:
    first, last = start.toordinal(), today.toordinal()
    daily = [counts.get(ordinal, 0) for ordinal in range(first, last + 1)]
    dates = _dates(start, len(daily))
    longest = run = 0
    previous = None
    for day in counts:
        run = run + 1 if day - 1 == previous else 1
        longest = max(longest, run)
        previous = day
    total = sum(daily)
    busiest = max(range(len(daily)), key=daily.__getitem__)  # the first of the busiest days
    return ActivityYear(
        days=list(zip(dates, daily)),
        total=total,
        active_days=len(daily) - daily.count(0),
        current_streak=run if previous is not None and last - previous <= 1 else 0,
        longest_streak=longest,
        busiest=(dates[busiest], daily[busiest]) if total else None,
    )


@lru_cache(maxsize=4)
def _dates(start, length: int) -> tuple:
    return tuple(start + timedelta(days=offset) for offset in range(length))


_ACTIVE_DAYS_SQL = f"SELECT day, count FROM {ActivityDay._meta.db_table} WHERE user_id = %s ORDER BY day"
