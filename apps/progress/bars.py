"""The progress bars a page shows, each with a stable DOM id, so a tick can refresh them in place.

A tick's form names its page's *scope* (``guide:<uuid>``, ``topic:<slug>``, ``dashboard`` …);
`bars_for_scope` recomputes exactly the bars that page holds for the ticked resource.
"""

from dataclasses import dataclass

from django.http import Http404

from apps.catalog.models import Guide, Section, Topic
from apps.core.content import memoized, published_get
from apps.core.db import Read
from apps.progress.selectors import (
    Tally,
    dashboard_guides,
    guide_entries,
    guide_structure,
    guide_tallies,
    overall_tally,
    statuses_read,
    tallies_of,
)


@dataclass
class Bar:
    dom_id: str
    label: str
    tally: Tally
    compact: bool = False  # a bar among others (sections, steps, the dashboard's guides): no percentage


def guide_bar(guide, tally, *, compact=False):
    return Bar(f"bar-guide-{guide.uuid}", guide.title, tally, compact)


def section_bar(section, tally):
    return Bar(f"bar-section-{section.uuid}", str(section), tally, compact=True)


def topic_bar(topic, tally):
    return Bar(f"bar-topic-{topic.slug}", topic.title, tally)


def overall_bar(tally):
    return Bar("bar-overall", "All guides", tally)


def topic_tally(*, topic, statuses):
    """Over what the topic page lists: the topic's published resources."""
    resource_ids = memoized(
        ("topic-resources", topic.id), lambda: frozenset(topic.resources.published().values_list("id", flat=True))
    )
    return Tally.of(resource_ids, statuses)


def step_bar(step_view):
    return Bar(f"bar-step-{step_view.step.uuid}", step_view.step.title, step_view.tally, compact=True)


def path_bar(path_view):
    return Bar(f"bar-path-{path_view.path.uuid}", path_view.path.title, path_view.tally)


def bars_for_scope(*, user, scope, resource, statuses, follows):
    """(bars, other_slots, path_view): bars to refresh, the ids of the resource's other ticks
    on that page, and on a path page the path (its "next up" is refreshed too). From the learner's
    statuses and follows, as read right after the tick (`scope_reads`)."""
    kind, _, key = (scope or "").partition(":")
    if kind == "path":
        from apps.paths.selectors import path_scope

        found = path_scope(user=user, path_uuid=key, resource=resource, statuses=statuses, follows=follows)
        if found is None:
            return [], [], None
        view, steps, slots = found
        return [path_bar(view)] + [step_bar(step) for step in steps], slots, view
    if kind == "guide":
        try:
            guide = published_get(Guide, uuid=key)
        except Http404:
            return [], [], None
        tallies = guide_tallies(guide=guide, statuses=statuses, holding=resource.id)
        bars = [guide_bar(guide, tallies.tally)] + [
            section_bar(section, tallies.sections[section.id])
            for section in _published_sections(guide)
            if section.id in tallies.sections
        ]
        entry_uuids = [str(entry.uuid) for entry in guide_entries(guide=guide) if entry.resource_id == resource.id]
        return bars, entry_uuids, None
    if kind == "topic":
        try:
            topic = published_get(Topic, slug=key)
        except Http404:
            return [], [], None
        return [topic_bar(topic, topic_tally(topic=topic, statuses=statuses))], [], None
    if kind == "dashboard":
        return [overall_bar(overall_tally(statuses=statuses))] + dashboard_bars(statuses=statuses), [], None
    return [], [], None


def scope_reads(*, user) -> tuple[Read, Read]:
    """What `bars_for_scope` works from, for any scope: the learner's statuses and follows."""
    from apps.paths.selectors import follows_read

    return statuses_read(user=user), follows_read(user=user)


def dashboard_bars(*, statuses) -> list[Bar]:
    """The dashboard's compact bars, each guide's followed by its top-level sections', for the
    learner's `statuses`."""
    tallies = dashboard_tallies(statuses=statuses)
    return [Bar(dom_id, label, tallies[dom_id], compact=True) for dom_id, label, _ in _dashboard_bar_slots()]


def dashboard_tallies(*, statuses) -> dict[str, Tally]:
    """{dom id: tally} of every dashboard bar (`pages.guide_bars` makes a hole for each)."""
    return tallies_of(((dom_id, ids) for dom_id, _, ids in _dashboard_bar_slots()), statuses)


def _dashboard_bar_slots() -> list[tuple]:
    """(dom id, label, resource ids) of every dashboard bar, in page order: each guide's, then its
    top-level sections' that hold anything. Per content version (a bar's id and label cost more to
    make than to fill)."""

    def build():
        structure = guide_structure()
        slots = []
        for guide in dashboard_guides():
            bar = guide_bar(guide, None)
            slots.append((bar.dom_id, bar.label, structure.guide_resources.get(guide.id, frozenset())))
            for section in guide.top_sections:
                if section.id in structure.section_resources:
                    bar = section_bar(section, None)
                    slots.append((bar.dom_id, bar.label, structure.section_resources[section.id]))
        return slots

    return memoized("dashboard-bar-slots", build)


def _published_sections(guide) -> list[Section]:
    """The guide's published sections in page order; shared per content version, read-only."""
    return memoized(
        ("guide-sections", guide.id), lambda: list(Section.objects.filter(guide=guide, is_published=True).order_by("position"))
    )

