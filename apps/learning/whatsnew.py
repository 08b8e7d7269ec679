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

The dashboard's block (`whats_new_block`) shows the page's "New" numbers, its newest few and its
new gained sections without building every addition: it reads `_index`, each place's additions
in date order, built once per content version (tests/learning/test_whats_new_block.py holds it to
`whats_new`'s numbers).
"""

from bisect import bisect_right
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
        sections=_gained_sections(guides_used, structure, statuses, seen, since),
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


def _gained_sections(guides_used, structure, statuses, seen, since) -> list[GainedSection]:
    """Sections whose every item but those added after `since` was finished, with an added one
    not finished: the innermost of them (labelled with their ancestors, so a parent is not listed
    again). Each section's additions come from the index, newest first."""
    added_in: dict[int, tuple] = {}
    sections: dict[int, Section] = {}
    for section_id, (section, dates, entries) in _index().holders.items():
        if section.guide_id in guides_used:
            count = len(dates) - bisect_right(dates, since)
            if count:
                added_in[section_id], sections[section_id] = list(entries[:count]), section
    finished = frozenset().union(
        *(ids for status, ids in statuses.ids_by_status.items() if status in FINISHED)
    )
    gained = []
    for section_id, added in added_in.items():
        added_ids = {entry.resource_id for entry in added}
        before = structure.section_resources.get(section_id, frozenset()) - added_ids
        if not before or not before <= finished:
            continue  # not finished before the additions
        if added_ids <= finished:
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


# --- The dashboard's block ---------------------------------------------------------------------
# The block shows how many resources are new, the newest few and the new gained sections: the
# page's numbers, without building an Addition for everything added since the learner's "seen up
# to" (thousands, for a learner who never opened What's new). An index built once per content
# version keeps each guide's, topic's and path's additions in date order, so a request takes the
# new ones of the places it uses by bisection and counts them with set unions.

BLOCK_NEWEST = 3  # additions the block names


@dataclass(frozen=True)
class _Timeline:
    """One place's additions (a guide, a topic or a path), oldest first, ordered as the page ranks
    them (date, then title): `keys[i]` is (added_at, title), `resource_ids[i]` its resource."""

    keys: tuple
    resource_ids: tuple

    def since(self, when: datetime) -> int:
        """The index of the first addition after `when`."""
        return bisect_right(self.keys, when, key=lambda key: key[0])


@dataclass(frozen=True)
class _Index:
    guides: dict  # guide id -> _Timeline
    topics: dict  # topic id -> _Timeline (resources new to the catalog filed under it)
    paths: dict  # path id -> _Timeline
    path_resources: dict  # path id -> frozenset of its published resource ids
    # resource id -> [(order, "guide"|"topic"|"path", place id, added_at, Place, Resource)]: every
    # addition of it, `order` being the page's (whats_new's) order of its places.
    placements: dict
    # section id -> (its tree section, its and its subsections' entries' dates oldest first, the
    # entries newest first): what a finished section gained (_gained_sections).
    holders: dict


def _index() -> _Index:
    def build():
        first = catalog_selectors.first_added()
        membership = catalog_selectors.topic_membership()
        guide_places = _guide_places()
        rows: dict = {"guide": defaultdict(list), "topic": defaultdict(list), "path": {}}
        placements: dict = defaultdict(list)
        order = 0

        def place_at(kind, place_id, entry_resource, added_at, place):
            nonlocal order
            order += 1
            rows[kind][place_id].append(((added_at, entry_resource.title), entry_resource.id))
            placements[entry_resource.id].append(
                (order, kind, place_id, added_at, place, entry_resource)
            )

        topic_places: dict = {}
        held: dict = {}
        for entry in catalog_selectors.entries_added():  # newest first, as whats_new reads them
            for holder in (entry.section, *entry.section.ancestors):
                held.setdefault(holder.id, (holder, []))[1].append(entry)
            place_at(
                "guide",
                entry.section.guide_id,
                entry.resource,
                entry.added_at,
                guide_places[entry.id],
            )
            if first.get(entry.resource_id) == entry.added_at:
                for topic_id in membership.topics_of.get(entry.resource_id, ()):
                    if topic_id not in topic_places:
                        topic = membership.topics[topic_id]
                        topic_places[topic_id] = Place(
                            "topic", topic.title, topic.get_absolute_url(), topic.title
                        )
                    place_at(
                        "topic", topic_id, entry.resource, entry.added_at, topic_places[topic_id]
                    )
        path_resources = {}
        for path in path_selectors.published_paths():
            rows["path"][path.id] = []
            path_resources[path.id] = frozenset(
                item.resource_id for step in path.ordered_steps for item in step.published_items
            )
            for step in path.ordered_steps:
                place = Place(
                    "path",
                    f"{path.title} › {step.title}",
                    f"{path.get_absolute_url()}#{step.anchor}",
                    path.title,
                )
                for item in step.published_items:
                    if item.added_at is not None:
                        place_at("path", path.id, item.resource, item.added_at, place)

        def timelines(kind):
            return {
                place_id: _Timeline(
                    keys=tuple(key for key, _ in sorted(found, key=lambda row: row[0])),
                    resource_ids=tuple(pk for _, pk in sorted(found, key=lambda row: row[0])),
                )
                for place_id, found in rows[kind].items()
            }

        return _Index(
            guides=timelines("guide"),
            topics=timelines("topic"),
            paths=timelines("path"),
            path_resources=path_resources,
            placements=dict(placements),
            holders={
                pk: (section, tuple(entry.added_at for entry in reversed(found)), tuple(found))
                for pk, (section, found) in held.items()
            },
        )

    return memoized(
        "whats-new-index",
        build,
        (
            *catalog_selectors.PLACED,
            *catalog_selectors.TOPICS,
            *path_selectors.path_titled_tokens(),
        ),
    )


@dataclass
class WhatsNewBlock:
    """What the dashboard's block shows: the page's "New" numbers and the newest few."""

    seen_up_to: datetime
    new_count: int  # resources added since "seen up to" to what the learner uses
    newest: list[Addition]  # the newest BLOCK_NEWEST of them, as the page lists them
    new_sections: list[GainedSection]  # the page's new gained sections

    @property
    def anything_new(self) -> bool:
        return bool(self.new_count or self.new_sections)


def whats_new_block(*, statuses, follows: dict, seen: datetime, since: datetime) -> WhatsNewBlock:
    """The dashboard's block for the learner (their `statuses` and `follows`, read by the caller):
    the resources new since `seen` and the sections the page (listing from `since`, page_since)
    marks new. Equal to whats_new(…, seen=seen, since=since)'s new additions and new sections,
    without building them all. No query when the memo is warm."""
    index = _index()
    mine = set(statuses) | set(statuses.noted)
    structure = catalog_selectors.guide_structure()
    membership = catalog_selectors.topic_membership()
    used = {
        "guide": {
            pk for pk, held in structure.guide_resources.items() if not held.isdisjoint(mine)
        },
        "topic": {pk for pk, held in membership.resources_of.items() if not held.isdisjoint(mine)},
        "path": {
            pk
            for pk, held in index.path_resources.items()
            if pk in follows or not held.isdisjoint(mine)
        },
    }
    timelines = [
        timeline
        for kind, by_place in (
            ("guide", index.guides),
            ("topic", index.topics),
            ("path", index.paths),
        )
        for place_id, timeline in by_place.items()
        if place_id in used[kind]
    ]
    new_ids: set = set()
    latest: dict = {}  # candidate resource id -> its latest (added_at, title) seen in the walks
    for timeline in timelines:
        start = timeline.since(seen)
        new_ids.update(timeline.resource_ids[start:])
        # A resource among the newest few overall is among the newest few distinct ones of the
        # place where its latest addition is, and its key there is its own: walking each place's
        # newest until that many distinct finds every one of them (and no key above its own).
        distinct: set = set()
        for at in range(len(timeline.keys) - 1, start - 1, -1):
            pk = timeline.resource_ids[at]
            if pk not in distinct:
                if len(distinct) == BLOCK_NEWEST:
                    break
                distinct.add(pk)
                if pk not in latest or latest[pk] < timeline.keys[at]:
                    latest[pk] = timeline.keys[at]
    top = sorted(latest, key=latest.__getitem__, reverse=True)[:BLOCK_NEWEST]
    newest = [_block_addition(index, pk, used, statuses, seen) for pk in top]
    sections = _gained_sections(used["guide"], structure, statuses, seen, since)
    return WhatsNewBlock(
        seen_up_to=seen,
        new_count=len(new_ids),
        newest=newest,
        new_sections=[gained for gained in sections if gained.is_new],
    )


def _block_addition(index, pk, used, statuses, seen) -> Addition:
    """The Addition of resource `pk` from its new placements in the places the learner uses."""
    addition = None
    for _, kind, place_id, added_at, place, resource in sorted(
        index.placements[pk], key=lambda row: row[0]
    ):
        if place_id not in used[kind] or added_at <= seen:
            continue
        if addition is None:
            addition = Addition(
                resource=resource, added_at=added_at, status=statuses.get(pk, ""), is_new=True
            )
        addition.added_at = max(addition.added_at, added_at)
        if place not in addition.place_set:
            addition.place_set.add(place)
            addition.places.append(place)
    assert addition is not None  # a candidate has a new placement
    return addition
