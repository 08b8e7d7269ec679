"""Reads of learner progress. Counts are computed from Progress rows with a fixed number of
queries, however many guides, sections, entries or rows there are."""

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import timedelta

from django.db.models import Count
from django.db.models.functions import TruncDate
from django.utils import timezone

from apps.catalog.models import Entry, Guide
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
    rows = Progress.objects.filter(user=user).exclude(status=Status.NOT_STARTED)
    if resource_ids is not None:
        rows = rows.filter(resource_id__in=list(resource_ids))
    return dict(rows.values_list("resource_id", "status"))


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


def guide_tallies(*, user, guides=None) -> dict[int, GuideTally]:
    """Per-guide and per-section (subtree) tallies for every published guide, in 3 queries."""
    from apps.catalog.models import Section

    guides = list(guides if guides is not None else Guide.objects.published())
    guide_ids = [guide.id for guide in guides]
    parent_of = dict(
        Section.objects.filter(guide_id__in=guide_ids, is_published=True).values_list("id", "parent_id")
    )
    pairs = list(
        published_entries().filter(section__guide_id__in=guide_ids).values_list("section__guide_id", "section_id", "resource_id")
    )
    resource_ids = {resource_id for _, _, resource_id in pairs}
    statuses = statuses_for(user=user, resource_ids=resource_ids)

    per_guide = defaultdict(set)
    per_section = defaultdict(set)
    for guide_id, section_id, resource_id in pairs:
        per_guide[guide_id].add(resource_id)
        node = section_id
        while node is not None and node in parent_of:
            per_section[node].add(resource_id)
            node = parent_of[node]
    result = {}
    for guide in guides:
        result[guide.id] = GuideTally(
            guide=guide,
            tally=Tally.of(per_guide[guide.id], statuses),
            sections={
                section_id: Tally.of(ids, statuses)
                for section_id, ids in per_section.items()
                if section_id in parent_of
            },
        )
    return result


def overall_tally(*, user) -> Tally:
    resource_ids = set(published_entries().values_list("resource_id", flat=True).distinct())
    return Tally.of(resource_ids, statuses_for(user=user, resource_ids=resource_ids))


def recently_completed(*, user, limit=5):
    return list(
        Progress.objects.filter(user=user, status=Status.DONE, resource__is_published=True)
        .select_related("resource")
        .order_by("-completed_at")[:limit]
    )


def in_progress(*, user, limit=5):
    return list(
        Progress.objects.filter(user=user, status=Status.IN_PROGRESS, resource__is_published=True)
        .select_related("resource")
        .order_by("-updated_at")[:limit]
    )


def last_guide(*, user):
    """The published guide holding the resource the user most recently changed."""
    latest = (
        Activity.objects.filter(user=user, resource__entries__section__guide__is_published=True)
        .order_by("-occurred_at")
        .values_list("resource__entries__section__guide_id", flat=True)
        .first()
    )
    return Guide.objects.published().filter(id=latest).first() if latest else None


def continue_in_guide(*, user, guide, limit=5):
    """The next unfinished entries of `guide`, in the guide's own order (skips done and skipped)."""
    finished = Progress.objects.filter(user=user, status__in=[Status.DONE, Status.SKIPPED]).values("resource_id")
    entries = (
        published_entries()
        .filter(section__guide=guide)
        .exclude(resource_id__in=finished)
        .select_related("resource", "section")
        .order_by("section__position", "position")
    )
    seen, result = set(), []
    for entry in entries[: limit * 4]:
        if entry.resource_id not in seen:
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
    """Daily activity counts for the heatmap, and current/longest streaks (2 queries)."""
    today = today or timezone.localdate()
    start = today - timedelta(days=today.weekday() + 1 + 52 * 7)  # a Sunday, 53 columns back
    per_day = Counter(
        dict(
            Activity.objects.filter(user=user, occurred_at__date__gte=start)
            .annotate(day=TruncDate("occurred_at"))
            .values("day")
            .annotate(n=Count("id"))
            .values_list("day", "n")
        )
    )
    days = [(start + timedelta(days=i), per_day.get(start + timedelta(days=i), 0)) for i in range((today - start).days + 1)]
    all_days = sorted(
        set(
            Activity.objects.filter(user=user)
            .annotate(day=TruncDate("occurred_at"))
            .values_list("day", flat=True)
            .distinct()
        )
    )
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
