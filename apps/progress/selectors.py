"""Reads of learner progress. Counts are computed from Progress rows with a fixed number of
queries, however many guides, sections, entries or rows there are."""

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import timedelta

from django.db import connection
from django.db.models import Case, Count, Prefetch, When
from django.db.models.functions import TruncDate
from django.utils import timezone

from apps.catalog.models import Entry, Guide, Resource, Section
from apps.core.content import memoized
from apps.progress.models import Activity, Progress, Status


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
        tally = cls(total=len(resource_ids))
        for resource_id in resource_ids:
            status = statuses.get(resource_id)
            if status == Status.DONE:
                tally.done += 1
            elif status == Status.SKIPPED:
                tally.skipped += 1
            elif status == Status.IN_PROGRESS:
                tally.in_progress += 1
        return tally


def statuses_for(*, user, resource_ids=None) -> dict[int, str]:
    """{resource_id: status} for the user's started/done/skipped resources (one query)."""
    if not user.is_authenticated:
        return {}
    if resource_ids is None:
        # Every learner page runs this; as plain SQL it costs half of what the ORM adds to it.
        with connection.cursor() as cursor:
            cursor.execute(_ALL_STATUSES_SQL, [user.pk, Status.NOT_STARTED])
            return dict(cursor.fetchall())
    rows = Progress.objects.filter(user=user, resource_id__in=list(resource_ids)).exclude(status=Status.NOT_STARTED)
    return dict(rows.values_list("resource_id", "status"))


_ALL_STATUSES_SQL = f"SELECT resource_id, status FROM {Progress._meta.db_table} WHERE user_id = %s AND status <> %s"


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


def guide_tallies(*, user, guides=None, statuses=None) -> dict[int, GuideTally]:
    """Per-guide and per-section (subtree) tallies of every published guide (or of `guides`):
    one query, for the learner's statuses (none when the caller has them)."""
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
    since: object  # completed_at when done, started_at when in progress, else None


def progress_rows(*, user) -> list[ProgressRow]:
    """The learner's started, done and skipped resources that are published (one query; one
    date per row, as converting timestamps is most of what reading 500 rows costs)."""
    resources = published_resources()
    since = Case(
        When(status=Status.DONE, then="completed_at"), When(status=Status.IN_PROGRESS, then="started_at"), default=None
    )
    rows = (
        Progress.objects.filter(user=user)
        .exclude(status=Status.NOT_STARTED)
        .values_list("resource_id", "status", since)
    )
    return [ProgressRow(resources[pk], status, at) for pk, status, at in rows if pk in resources]


def published_resources() -> dict:
    """{id: Resource} of every published resource; shared per content version, read-only."""
    return memoized("published-resources", lambda: {r.id: r for r in Resource.objects.published()})


def recently_completed(rows: list[ProgressRow], limit=5) -> list[ProgressRow]:
    done = [row for row in rows if row.status == Status.DONE and row.since]
    return sorted(done, key=lambda row: row.since, reverse=True)[:limit]


def in_progress(rows: list[ProgressRow], limit=5) -> list[ProgressRow]:
    """Most recently started first."""
    started = [row for row in rows if row.status == Status.IN_PROGRESS and row.since]
    return sorted(started, key=lambda row: row.since, reverse=True)[:limit]


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
    recent = Activity.objects.filter(user=user).order_by("-occurred_at").values_list("resource_id", flat=True)
    for resource_id in recent[:50]:
        for guide in guides:
            if resource_id in structure.guide_resources.get(guide.id, ()):
                return guide
    return None


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
    """Daily activity counts for the heatmap, and current/longest streaks (1 query)."""
    today = today or timezone.localdate()
    start = today - timedelta(days=today.weekday() + 1 + 52 * 7)  # a Sunday, 53 columns back
    every_day = dict(  # all of the learner's active days, one grouped query
        Activity.objects.filter(user=user)
        .annotate(day=TruncDate("occurred_at"))
        .order_by("day")
        .values("day")
        .annotate(n=Count("id"))
        .values_list("day", "n")
    )
    per_day = {day: n for day, n in every_day.items() if start <= day <= today}
    days = [(start + timedelta(days=i), per_day.get(start + timedelta(days=i), 0)) for i in range((today - start).days + 1)]
    all_days = sorted(every_day)
    longest = run = 0
    previous = None
    for day in all_days:
        run = run + 1 if previous and day - previous == timedelta(days=1) else 1
        longest = max(longest, run)
        previous = day
    current = 0
    if all_days and (today - all_days[-1]).days <= 1:
        current = 1
        for earlier, later in zip(reversed(all_days[:-1]), reversed(all_days)):
            if later - earlier != timedelta(days=1):
                break
            current += 1
    busiest = max(per_day.items(), key=lambda item: item[1]) if per_day else None
    return ActivityYear(
        days=days,
        total=sum(per_day.values()),
        active_days=sum(1 for _, n in days if n),
        current_streak=current,
        longest_streak=longest,
        busiest=busiest,
    )
