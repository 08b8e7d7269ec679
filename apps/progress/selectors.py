"""Reads of learner progress. Counts are computed from Progress rows with a fixed number of
queries, however many guides, sections, entries or rows there are."""

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db.models import Count, F, OuterRef, Q, Subquery, Value
from django.db.models.functions import TruncDate
from django.http import Http404
from django.utils import timezone

from apps.catalog import search
from apps.catalog.models import Resource
from apps.catalog.selectors import (
    SEARCH_MAX_WORDS,
    guide_entries,
    guide_structure,
    visible_resource,
    visible_resources_by_id,
)
from apps.progress.models import FINISHED, OwnResource, Progress, Status

if TYPE_CHECKING:  # django-stubs is a development dependency
    from django_stubs_ext import StrOrPromise


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
    none: frozenset[int] = frozenset()
    done, skipped, started = (
        groups.get(status, none) for status in (Status.DONE, Status.SKIPPED, Status.IN_PROGRESS)
    )
    return {
        key: Tally(len(ids), len(ids & done), len(ids & skipped), len(ids & started))
        for key, ids in sets
    }


class Statuses(dict):
    """A learner's {resource_id: status}, also grouped by status once, so that each of a page's
    many tallies is a few set intersections. Read-only once a tally has been taken. `noted`: the
    resources the learner has a note on (rows show a marker), when read by statuses_for."""

    noted: frozenset = frozenset()

    @cached_property
    def ids_by_status(self) -> dict[str, frozenset]:
        groups = defaultdict(set)
        for resource_id, status in self.items():
            groups[status].add(resource_id)
        return {status: frozenset(ids) for status, ids in groups.items()}


def statuses_for(*, user) -> Statuses:
    """{resource_id: status} of the learner's started, done and skipped resources, and the ones
    they have a note on (`.noted`), in one query."""
    if not user.is_authenticated:
        return Statuses()
    # Two halves, each read from its covering index alone (no heap pages: see Progress.Meta); a
    # started resource with a note comes from both.
    mine = Progress.objects.filter(user=user).order_by()
    rows = (
        mine.exclude(status=Status.NOT_STARTED)
        .annotate(has_note=Value(False))
        .values_list("resource_id", "status", "has_note")
        .union(
            mine.exclude(note="")
            .annotate(has_note=Value(True))
            .values_list("resource_id", "status", "has_note"),
            all=True,
        )
    )
    statuses, noted = Statuses(), set()
    for resource_id, status, has_note in rows:
        if shown := Status.shown(status):
            statuses[resource_id] = shown
        if has_note:
            noted.add(resource_id)
    statuses.noted = frozenset(noted)
    return statuses


def statuses_of_learners(*, user_ids, resource_ids) -> dict[int, Statuses]:
    """{user_id: Statuses} of several learners, over `resource_ids` only, in one query whatever
    their number (a study group's board). Notes are not read: nothing shared with others says
    whether a learner has one."""
    by_user = {user_id: Statuses() for user_id in user_ids}
    rows = (
        Progress.objects.filter(user_id__in=list(by_user), resource_id__in=list(resource_ids))
        .exclude(status=Status.NOT_STARTED)
        .order_by()
        .values_list("user_id", "resource_id", "status")
    )
    for user_id, resource_id, status in rows:
        if shown := Status.shown(status):
            by_user[user_id][resource_id] = shown
    return by_user


def tickable_resource(*, user, uuid) -> Resource:
    """The resource with this uuid if `user` may set a status on it: one learners may see
    (catalog.selectors.visible_resource: a visitor's tick too), or one of `user`'s own resources
    (the hidden link row of their OwnResource, named as they named it; fetched for this request
    alone). Http404 otherwise: another learner's own resource, a hidden one, no such uuid. The one
    rule the tick, and what may go in an own path (paths.selectors.addable_resource), ask."""
    try:
        return visible_resource(uuid=uuid)
    except Http404:
        if not user.is_authenticated:
            raise
    try:
        own = OwnResource.objects.select_related("resource").get(user=user, resource__uuid=uuid)
    except (OwnResource.DoesNotExist, ValidationError):
        raise Http404("No Resource matches the given query.") from None
    return owner_named(
        own.resource, own_pk=own.pk, title=own.title, kind=own.kind, author=own.author
    )


def owner_named(resource, *, own_pk, title, kind, author):
    """`resource` (a hidden link row, fetched for this request alone: never shared nor saved) as
    the learner named it in their OwnResource `own_pk`: its title, kind and author, and `own_pk`
    (their row in "My resources")."""
    resource.title, resource.kind, resource.author = title, kind, author
    resource.own_pk = own_pk
    return resource


def progress_row(*, user, resource) -> Progress | None:
    """The learner's row for one resource, if any."""
    return Progress.objects.filter(user=user, resource=resource).first()


@dataclass
class GuideTally:
    tally: Tally
    sections: dict = field(default_factory=dict)  # section_id -> Tally (subtree)


def guide_tallies(*, guide, statuses, holding=None) -> GuideTally:
    """The guide's tally and its sections' (each over its subtree), for the learner's `statuses`.
    With `holding` (a resource id), only the sections whose subtree holds that resource."""
    structure = guide_structure()
    return GuideTally(
        tally=guide_tally(guide=guide, statuses=statuses),
        sections={
            section_id: Tally.of(structure.section_resources[section_id], statuses)
            for section_id in structure.guide_sections.get(guide.id, ())
            if holding is None or holding in structure.section_resources[section_id]
        },
    )


def guide_tally(*, guide, statuses) -> Tally:
    """The guide's own bar: over its visible resources, for the learner's `statuses`."""
    return Tally.of(guide_structure().guide_resources.get(guide.id, ()), statuses)


def overall_tally(*, statuses) -> Tally:
    return Tally.of(guide_structure().all_resources, statuses)


@dataclass(frozen=True)
class ProgressRow:
    resource: object  # a published Resource, shared (read-only)
    status: str
    since: object  # completed_at when done, started_at when in progress


@dataclass
class Overview:
    """What the dashboard shows of a learner's rows, from one read of them all."""

    statuses: Statuses
    in_progress: list  # ProgressRow, most recently started first
    done: list  # ProgressRow, most recently finished first
    recent: list  # resource ids, most recently changed first


def progress_overview(*, user, limit=5) -> Overview:
    """The learner's statuses, their latest started and finished published resources and what
    they changed last: one query over their rows (a few hundred), arranged in Python."""
    resources = visible_resources_by_id()
    rows = list(
        Progress.objects.filter(user=user)
        .order_by("-updated_at")
        .values_list("resource_id", "status", "started_at", "completed_at")
    )
    statuses = Statuses(
        (resource_id, Status.shown(status))
        for resource_id, status, _, _ in rows
        if Status.shown(status)
    )

    def latest(status, since):
        shown = [
            (row[since], row[0])
            for row in rows
            if row[1] == status and row[since] and row[0] in resources
        ]
        # the `since` column of a row is a date (started_at or completed_at), never None here
        shown.sort(key=lambda item: item[0], reverse=True)  # type: ignore[arg-type,return-value]
        return [
            ProgressRow(resources[resource_id], status, at) for at, resource_id in shown[:limit]
        ]

    return Overview(
        statuses=statuses,
        in_progress=latest(Status.IN_PROGRESS, 2),
        done=latest(Status.DONE, 3),
        recent=[row[0] for row in rows[:50]],
    )


def last_guide(*, guides, recent):
    """Of `guides`, the one holding the resource the learner most recently changed (None if none)."""
    structure = guide_structure()
    for resource_id in recent:
        for guide in guides:
            if resource_id in structure.guide_resources.get(guide.id, ()):
                return guide
    return None


def continue_in_guide(*, guide, statuses, limit=5):
    """The next unfinished visible entries of `guide`, in the guide's own order (skips done and skipped)."""
    seen, result = set(), []
    for entry in guide_entries(guide=guide):
        if entry.resource_id not in seen and statuses.get(entry.resource_id) not in FINISHED:
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


def activity_year(*, user, zone=None, today=None) -> ActivityYear:
    """The heatmap and the current/longest streaks: a day counts the resources the learner started
    or finished on it (one each, however many clicks), in `zone` (default: the active time zone,
    the learner's own). Read from the Progress rows' dates, so unticking takes a tick's day back
    and imported rows land on their own days."""
    zone = zone or timezone.get_current_timezone()
    today = today or timezone.localdate(timezone=zone)
    start = today - timedelta(days=today.weekday() + 1 + 52 * 7)  # a Sunday, 53 columns back
    counts: defaultdict[date, int] = defaultdict(int)
    # Grouped by the database, one row per active day: on PostgreSQL 28 ms for 25,000 rows where
    # reading the rows into Python took 140-310 ms (a typical learner's few hundred: ~8 ms).
    for day, count in _days_finished(user, zone).union(_days_started(user, zone), all=True):
        counts[day.toordinal()] += count
    return _activity_year(dict(sorted(counts.items())), start, today)


def _days_finished(user, zone):
    return (
        # Done is exactly the rows with a completion (a constraint): the partial index's condition.
        Progress.objects.filter(user=user, status=Status.DONE, completed_at__isnull=False)
        .annotate(day=TruncDate("completed_at", tzinfo=zone))
        .order_by()
        .values("day")
        .annotate(count=Count("pk"))
        .values_list("day", "count")
    )


def _days_started(user, zone):
    """Starts, except on the day the same resource was finished (it counts once that day)."""
    return (
        Progress.objects.filter(user=user, started_at__isnull=False)
        .annotate(
            day=TruncDate("started_at", tzinfo=zone),
            finished=TruncDate("completed_at", tzinfo=zone),
        )
        .filter(Q(finished__isnull=True) | ~Q(day=F("finished")))
        .order_by()
        .values("day")
        .annotate(count=Count("pk"))
        .values_list("day", "count")
    )


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
        days=list(zip(dates, daily, strict=True)),
        total=total,
        active_days=len(daily) - daily.count(0),
        current_streak=run if previous is not None and last - previous <= 1 else 0,
        longest_streak=longest,
        busiest=(dates[busiest], daily[busiest]) if total else None,
    )


@lru_cache(maxsize=4)
def _dates(start, length: int) -> tuple:
    return tuple(start + timedelta(days=offset) for offset in range(length))


@dataclass(frozen=True)
class NoteRow:
    resource: Resource  # a published Resource, shared (read-only)
    status: str
    note: str
    started_at: datetime | None
    updated_at: datetime

    @property
    def status_label(self):
        """The status's label, "" when not started (a row kept for its note)."""
        return Status(self.status).label if Status.shown(self.status) else ""


@dataclass
class Notebook:
    """The learner's notes and in-progress resources (published ones), newest first, matching a search."""

    notes: list  # NoteRow with a note, most recently changed first
    in_progress: list  # NoteRow in progress, most recently started first
    query: str
    total_notes: int  # before the search
    total_in_progress: int


def notebook(*, user, query: str = "") -> Notebook:
    """One read of the learner's rows that have a note or are in progress (their own only). The
    search keeps a row when every word of `query` is in its resource's title or author or its note,
    in any of the forms the catalog's search finds (apps.catalog.search: "optimise" finds
    "optimize", "kvcache" "KV cache"), ignoring case: linear in the rows and the words."""
    resources = visible_resources_by_id()
    rows = [
        NoteRow(resources[resource_id], status, note, started_at, updated_at)
        for resource_id, status, note, started_at, updated_at in Progress.objects.filter(user=user)
        .filter(Q(status=Status.IN_PROGRESS) | ~Q(note=""))
        .order_by("-updated_at")
        .values_list("resource_id", "status", "note", "started_at", "updated_at")
        if resource_id in resources
    ]
    notes = [row for row in rows if row.note]
    started = sorted(
        (row for row in rows if row.status == Status.IN_PROGRESS),
        key=lambda row: row.started_at or row.updated_at,
        reverse=True,
    )
    words = search.query_words(query, SEARCH_MAX_WORDS)

    def matches(row):  # as the catalog's search reads words: spellings, joined and split forms
        return search.text_has_words(
            f"{row.resource.title}\n{row.resource.author}\n{row.note}", words
        )

    return Notebook(
        notes=[row for row in notes if matches(row)] if words else notes,
        in_progress=[row for row in started if matches(row)] if words else started,
        query=query,
        total_notes=len(notes),
        total_in_progress=len(started),
    )


@dataclass(frozen=True)
class OwnRow:
    """One of a learner's own resources as their list shows it. ``catalog`` is the visible catalog
    resource it has become (curators listed the link), else None."""

    own: Any
    status: str
    note: str
    started_at: Any
    completed_at: Any
    catalog: Any

    @property
    def status_label(self) -> "StrOrPromise":
        return Status(self.status).label if self.status else ""


def own_rows(
    *, user, query: str = "", pks=None, limit: int | None = None, offset: int = 0
) -> list[OwnRow]:
    """``user``'s own resources, newest first, with their progress: one query (the progress by
    subqueries), whatever their number; ``query`` keeps those whose title, author, link or note
    has it."""
    mine = Progress.objects.filter(user=user, resource=OuterRef("resource"))
    rows = (
        OwnResource.objects.filter(user=user)
        .select_related("resource")
        .annotate(
            my_status=Subquery(mine.values("status")[:1]),
            my_note=Subquery(mine.values("note")[:1]),
            my_started=Subquery(mine.values("started_at")[:1]),
            my_completed=Subquery(mine.values("completed_at")[:1]),
        )
    )
    if pks is not None:
        rows = rows.filter(pk__in=pks)
    if query:
        rows = rows.filter(
            Q(title__icontains=query)
            | Q(author__icontains=query)
            | Q(resource__url__icontains=query)
            | Q(my_note__icontains=query)
        )
    if limit is not None:
        rows = rows[offset : offset + limit]
    visible = visible_resources_by_id()
    return [
        OwnRow(
            own=row,
            status=Status.shown(row.my_status),
            note=row.my_note or "",
            started_at=row.my_started,
            completed_at=row.my_completed,
            catalog=visible.get(row.resource_id),
        )
        for row in rows
    ]


OWN_PAGE_SIZE = 50


@dataclass(frozen=True)
class OwnPage:
    rows: list[OwnRow]
    total: int
    number: int
    pages: int


def own_count(*, user) -> int:
    """How many own resources ``user`` has saved: the list's "Saved N"."""
    return OwnResource.objects.filter(user=user).count()


def own_page(*, user, page_number=1) -> OwnPage:
    """One page of ``user``'s own resources (OWN_PAGE_SIZE, newest first) and how many there are:
    two queries (the count, the page). A page past the last is the last."""
    total = own_count(user=user)
    pages = max(1, -(-total // OWN_PAGE_SIZE))
    try:
        number = min(max(1, int(page_number)), pages)
    except (TypeError, ValueError):
        number = 1
    rows = own_rows(user=user, limit=OWN_PAGE_SIZE, offset=(number - 1) * OWN_PAGE_SIZE)
    return OwnPage(rows=rows, total=total, number=number, pages=pages)
