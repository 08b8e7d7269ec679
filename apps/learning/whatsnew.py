"""What's new for a learner: resources added to the guides, topics and paths they use, and the
sections they had finished that gained items (so a finished section turning unfinished is
explained). Read by the What's new page (`learning:whats-new`) and the dashboard's block.

*Since their last visit*: each learner has a "seen up to" time (`WhatsNewSeen`), their sign-up
until they first open What's new. Opening the page moves it to that moment (after the page is
read with the old one); "Mark as seen" on the dashboard's block moves it to the moment the block
was shown. Additions after it are *new*: the dashboard shows a block only when there are some;
the page marks them "New" and also lists the additions of the last `WINDOW` (from sign-up at the
earliest), so reopening it does not empty it.

*Used*: a guide or topic holding a resource the learner has progress on (a status or a note), a
path they follow or have progress on. *Added*: an entry's first publishing (`Entry.added_at`), a
step resource's joining its step (`StepResource.added_at`); rows from before those dates were
recorded have none and never show. A topic's additions are resources new to the catalog (their
first visible entry added in the window) filed under it: filing an old resource under a topic
is not dated. Only what learners may see: the catalog's `entries_added`, `topic_membership`
and the paths' published steps, all from the one owner of visibility.

Warm, it costs two queries beyond the learner's statuses and follows (their "seen up to", and
the page's write of it): the rest is read from the per-version memo.
"""

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from apps.catalog import selectors as catalog_selectors
from apps.catalog.models import Entry, Resource, Section
from apps.core.content import memoized
from apps.learning.models import WhatsNewSeen
from apps.paths import selectors as path_selectors
from apps.progress.models import FINISHED

WINDOW = timedelta(days=30)  # the page lists at least this much, "New" or not


@dataclass(frozen=True)
class Place:
    """Where a resource was added that concerns the learner."""

    kind: str  # "guide", "topic" or "path"
    label: str  # "Guide › Section", "Topic", "Path › Step"
    url: str
    short: str  # the guide's, topic's or path's title


@dataclass
class Addition:
    """A resource added to something the learner uses, with every such place."""

    resource: Resource
    added_at: datetime  # the latest of its additions
    status: str  # the learner's, as pages spell it ("" for not started)
    is_new: bool = False  # added after their "seen up to"
    places: list[Place] = field(default_factory=list)
    place_set: set[Place] = field(default_factory=set, repr=False)  # `places`, to look up


@dataclass
class GainedSection:
    """A section the learner had finished that gained items they have not finished yet."""

    section: Section  # from the visible tree: .guide, .ancestors
    entries: list[Entry]  # its additions, newest first
    is_new: bool  # one of them is after their "seen up to"

    @property
    def label(self) -> str:
        return " › ".join([*(str(s) for s in self.section.ancestors), str(self.section)])

    @property
    def url(self) -> str:
        return f"{self.section.guide.get_absolute_url()}#{self.section.anchor}"


@dataclass
class WhatsNew:
    seen_up_to: datetime  # additions after it are new
    since: datetime  # additions after it are listed
    additions: list[Addition]  # newest first
    sections: list[GainedSection]  # in guide order

    @property
    def new_additions(self) -> list[Addition]:
        return [addition for addition in self.additions if addition.is_new]

    @property
    def new_sections(self) -> list[GainedSection]:
        return [gained for gained in self.sections if gained.is_new]

    @property
    def anything_new(self) -> bool:
        return any(a.is_new for a in self.additions) or any(s.is_new for s in self.sections)


def seen_up_to(*, user) -> datetime:
    """The learner's "seen up to": the last time they opened What's new (or marked it seen), else
    their sign-up. One query."""
    seen = WhatsNewSeen.objects.filter(user=user).values_list("seen_up_to", flat=True).first()
    return seen or user.date_joined


def page_since(*, user, seen: datetime, now: datetime) -> datetime:
    """Where the page's list starts: their "seen up to" or `WINDOW` ago, whichever is earlier,
    but never before they signed up."""
    return max(user.date_joined, min(seen, now - WINDOW))


def whats_new(*, statuses, follows: dict, seen: datetime, since: datetime) -> WhatsNew:
    """What was added after ``since`` to what the learner uses (their `statuses` and `follows`,
    read by the caller), marked new when after ``seen``. No query when the memo is warm."""
    mine = set(statuses) | set(statuses.noted)
    structure = catalog_selectors.guide_structure()
    membership = catalog_selectors.topic_membership()
    guides_used = {
        pk for pk, held in structure.guide_resources.items() if not held.isdisjoint(mine)
    }
    topics_used = {pk for pk, held in membership.resources_of.items() if not held.isdisjoint(mine)}
    entries = catalog_selectors.entries_added_since(since)
    first_added = catalog_selectors.first_added()
    guide_places = _guide_places()
    topic_places: dict[int, Place] = {}
    additions: dict[int, Addition] = {}

    def add(resource, added_at, place):
        addition = additions.get(resource.id)
        if addition is None:
            addition = additions[resource.id] = Addition(
                resource=resource, added_at=added_at, status=statuses.get(resource.id, "")
            )
        addition.added_at = max(addition.added_at, added_at)
        addition.is_new = addition.is_new or added_at > seen
        if place not in addition.place_set:
            addition.place_set.add(place)
            addition.places.append(place)

    for entry in entries:
        if entry.section.guide_id in guides_used:
            add(entry.resource, entry.added_at, guide_places[entry.id])
        if first_added.get(entry.resource_id) == entry.added_at:  # new to the catalog
            for topic_id in membership.topics_of.get(entry.resource_id, ()):
                if topic_id in topics_used:
                    if topic_id not in topic_places:
                        topic = membership.topics[topic_id]
                        topic_places[topic_id] = Place(
                            "topic", topic.title, topic.get_absolute_url(), topic.title
                        )
                    add(entry.resource, entry.added_at, topic_places[topic_id])
    for path in path_selectors.published_paths():
        if path.id not in follows and mine.isdisjoint(
            item.resource_id for step in path.ordered_steps for item in step.published_items
        ):
            continue
        for step in path.ordered_steps:
            added = [
                item
                for item in step.published_items
                if item.added_at is not None and item.added_at > since
            ]
            if not added:
                continue
            place = Place(
                "path",
                f"{path.title} › {step.title}",
                f"{path.get_absolute_url()}#{step.anchor}",
                path.title,
            )
            for item in added:
                add(item.resource, item.added_at, place)
    return WhatsNew(
        seen_up_to=seen,
        since=since,
        additions=sorted(
            additions.values(), key=lambda a: (a.added_at, a.resource.title), reverse=True
        ),
        sections=_gained_sections(entries, guides_used, structure, statuses, seen),
    )


def _guide_places() -> dict[int, Place]:
    """{entry id: its Place} for every entry of `entries_added`: built once per content version
    with them (a page's What's new reads thousands at a grown catalog: a place built per entry
    per request was most of the dashboard's time), shared, read-only."""

    def build():
        return {
            entry.id: Place(
                "guide",
                catalog_selectors.entry_where(entry),
                f"{entry.section.guide.get_absolute_url()}#{entry.section.anchor}",
                entry.section.guide.title,
            )
            for entry in catalog_selectors.entries_added()
        }

    return memoized("whats-new-guide-places", build, catalog_selectors.PLACED)


def _gained_sections(entries, guides_used, structure, statuses, seen) -> list[GainedSection]:
    """Sections whose every item but those added was finished, with an added one not finished:
    the innermost of them (labelled with their ancestors, so a parent is not listed again)."""
    added_in: dict[int, list[Entry]] = defaultdict(list)
    sections: dict[int, Section] = {}
    for entry in entries:
        if entry.section.guide_id not in guides_used:
            continue
        for holder in (entry.section, *entry.section.ancestors):
            added_in[holder.id].append(entry)
            sections[holder.id] = holder
    gained = []
    for section_id, added in added_in.items():
        added_ids = {entry.resource_id for entry in added}
        before = structure.section_resources.get(section_id, frozenset()) - added_ids
        if not before or any(statuses.get(pk) not in FINISHED for pk in before):
            continue  # not finished before the additions
        if all(statuses.get(pk) in FINISHED for pk in added_ids):
            continue  # finished again since
        gained.append(
            GainedSection(
                section=sections[section_id],
                entries=added,
                is_new=any(entry.added_at > seen for entry in added),
            )
        )
    # The innermost: a section whose subsection is listed is in that one's label already.
    outer = {ancestor.id for g in gained for ancestor in g.section.ancestors}
    return sorted(
        (g for g in gained if g.section.id not in outer),
        key=lambda g: (g.section.guide.position, g.section.guide_id, g.section.position),
    )
