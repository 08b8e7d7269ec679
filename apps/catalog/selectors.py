"""Reads behind the learner-facing catalog pages, and the one owner of what learners may see.

Each page costs a constant number of queries however large the catalog grows: rows are
fetched with their relations in bulk and arranged in Python.

What a learner sees: only published guides, sections, entries and resources. A section is
also hidden when one of its ancestors is unpublished, and a hidden section hides its
entries, so a curator can withdraw a whole branch of a guide with one switch. A resource is
visible only through a visible entry (`visible_resources`). Everything else (search, resource
pages, ticks, paths, topics, suggestions, progress bars, exports, the dashboard) asks
`visible_resources`, `visible_entries` and `guide_structure`.
"""

import re
from collections import Counter, defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.contrib.postgres.search import SearchQuery, SearchRank, SearchVectorField
from django.core.exceptions import ValidationError
from django.core.paginator import Page, Paginator
from django.db import connection
from django.db.models import (
    BooleanField,
    Case,
    Count,
    Exists,
    Expression,
    Func,
    Prefetch,
    Q,
    QuerySet,
    TextField,
    Value,
    When,
    prefetch_related_objects,
)
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext, gettext_lazy

from apps.catalog import search
from apps.catalog.forms import TIER_CHOICES
from apps.catalog.models import (
    Entry,
    Guide,
    Kind,
    Priority,
    Resource,
    ResourceLink,
    Section,
    Topic,
    url_key,
)
from apps.core.content import memoized, table_tokens

if TYPE_CHECKING:  # django-stubs is a development dependency
    from django_stubs_ext import StrOrPromise

SEARCH_PAGE_SIZE = 20
# A topic page's rows per page. Every topic of the seeded catalog fits on one (the largest has 72
# resources), so its pages are unchanged; at the catalog grown ×6 a topic of 1,033 resources was
# one page of 2.1 MB of HTML and a 17.6 MiB memo entry, now eleven of about 200 KB.
TOPIC_PAGE_SIZE = 100
SEARCH_MAX_WORDS = (
    8  # each word is a few LIKEs and a regex per row, counted twice: a bound on the cost
)
SEARCH_CONFIG = "english"
PRIORITY_LABELS: list[tuple[str, "StrOrPromise"]] = [
    (Priority.MUST, gettext_lazy("Must read")),
    (Priority.MAYBE, gettext_lazy("Maybe")),
]  # as the badges say it


# The content tokens (apps.core.content) each memoized read is built from: a write elsewhere
# rebuilds none of it. VISIBLE: which guides, sections, entries and resources learners see, and
# the resources' own fields (a guide's title and description have tokens of their own, not here);
# GUIDE_TREE: sections with their guides as whole objects (titles shown); PLACED: both.
VISIBLE = ("catalog_guide", "catalog_section", "catalog_entry", "catalog_resource")
GUIDE_TREE = table_tokens("catalog_guide", "catalog_section")
PLACED = (*GUIDE_TREE, "catalog_entry", "catalog_resource")
TOPICS = (*VISIBLE, "catalog_topic", "catalog_resource_topics")


# --- What learners may see -------------------------------------------------------------------
def visible_resources() -> QuerySet:
    """Every resource a learner may see: the one rule search, resource pages, ticks (visitors'
    and learners'), paths, topics, "did you mean" and exports ask.

    A resource is visible when it is published itself AND a visible entry lists it: a
    published entry in a published section (every ancestor section published too) of a
    published guide (`visible_entries`). A draft guide's resources are therefore hidden, and so
    are those listed only under an unpublished section or entry. A path does not publish a
    resource: a path is a reading order over the guides, so a step lists only visible resources
    (a path cannot leak a draft guide's). A resource in no guide at all (its entry removed by a
    sync) is hidden too. Learners keep their progress on a hidden resource: it stays in the
    database, in "Download all my data", and reappears when the resource is visible again.
    """
    return Resource.objects.filter(
        is_published=True, id__in=visible_entries().values("resource_id")
    )


def visible_resource_ids() -> frozenset:
    """The ids of `visible_resources`, per content version (the same rule, read from the memo)."""
    return guide_structure().all_resources


def visible_resources_by_id() -> dict[int, Resource]:
    """{id: Resource} of every visible resource; shared per content version, read-only."""
    return memoized("visible-resources", lambda: {r.id: r for r in visible_resources()}, VISIBLE)


def visible_url_keys() -> dict[str, int]:
    """{url_key: resource id} of every visible resource's URL and extra links, for matching a
    link to a resource (a resource's own URL wins over another's extra link); per content version."""

    def build():
        visible = visible_resources()
        keys = dict(
            ResourceLink.objects.filter(resource__in=visible).values_list("url_key", "resource_id")
        )
        keys.update(visible.exclude(url_key="").values_list("url_key", "id"))
        return keys

    return memoized("visible-url-keys", build, (*VISIBLE, "catalog_resourcelink"))


def visible_resource_for_url(url: str) -> Resource | None:
    """The visible resource a link is (by ``url_key``, the URL identity: its URL or an extra
    link), or None; no query when warm."""
    from apps.catalog.importer.urls import normalize_url  # the importer's package, read lazily

    resource_id = visible_url_keys().get(url_key(normalize_url(url)))
    return visible_resources_by_id().get(resource_id) if resource_id else None


def visible_resource(*, uuid) -> Resource:
    """The visible resource with this uuid (a uuid or its text), or Http404; no query when warm.
    Shared, so read-only."""
    by_uuid = memoized(
        "visible-resources-by-uuid",
        lambda: {r.uuid: r for r in visible_resources_by_id().values()},
        VISIBLE,
    )
    try:
        return by_uuid[Resource._meta.get_field("uuid").to_python(uuid)]
    except (KeyError, ValidationError):
        raise Http404("No Resource matches the given query.") from None


# --- Page data -------------------------------------------------------------------------------
@dataclass
class FacetOption:
    value: str
    label: str
    count: int
    active: bool


@dataclass
class Facet:
    """One filter group ("Tier", "Kind") with the values present and how many rows each would show."""

    name: str
    label: "StrOrPromise"
    options: list[FacetOption]
    active: bool
    total: int  # rows the other filters leave, with or without a value for this facet

    @property
    def worth_showing(self) -> bool:
        """Hide a choice that would change nothing (every row has the one value present)."""
        return (
            self.active
            or len(self.options) > 1
            or any(option.count < self.total for option in self.options)
        )


@dataclass
class GuideContents:
    guide: Guide
    sections: list[Section]  # top-level sections, each with .shown_subsections and .shown_entries
    contents: list[Section]  # the table of contents (all visible, unfiltered)
    facets: list[Facet]  # only those worth showing
    shown_count: int
    total_count: int


@dataclass
class TopicContents:
    topic: Topic
    resource_ids: tuple[int, ...]  # every resource the filters keep, in page order (topic_page)
    facets: list[Facet]
    total_count: int  # on the topic, whatever the filters


@dataclass
class GuideSummary:
    guide: Guide
    section_count: int
    resource_count: int


@dataclass
class CatalogOverview:
    guides: list[GuideSummary]
    topics: list[Topic]  # each with .resource_count
    resource_count: int = field(default=0)


# --- Visibility ------------------------------------------------------------------------------
class _SectionTree:
    """The visible sections of published guides, each knowing its ancestors and depth.

    One query. Sections keep document order; ``hidden_ids`` are published sections hidden
    by an unpublished ancestor, which SQL alone cannot see.
    """

    def __init__(self, guide: Guide | None = None):
        sections = Section.objects.filter(guide__is_published=True).select_related("guide")
        if guide is not None:
            sections = sections.filter(guide=guide)
        by_id = {
            section.id: section
            for section in sections.order_by("guide__position", "guide_id", "position")
        }
        self.visible: dict[int, Section] = {}
        self.hidden_ids: set[int] = set()
        for section in by_id.values():
            ancestors = _ancestors(section, by_id)
            if section.is_published and all(a.is_published for a in ancestors):
                section.ancestors = ancestors
                section.heading_level = min(len(ancestors) + 2, 6)  # the page title is the h1
                section.badges = _section_badges(section)
                section.subsections = []
                section.shown_entries = []
                self.visible[section.id] = section
            elif section.is_published:
                self.hidden_ids.add(section.id)
        self.roots: list[Section] = []
        for section in self.visible.values():
            parent = self.visible.get(section.parent_id) if section.parent_id else None
            (parent.subsections if parent else self.roots).append(section)

    def entries(self, entries: QuerySet) -> QuerySet:
        """Narrow an Entry queryset to published entries of published resources in visible sections."""
        return (
            entries.filter(is_published=True, resource__is_published=True)
            .filter(section__is_published=True, section__guide__is_published=True)
            .exclude(section_id__in=self.hidden_ids)
        )

    def place(self, entry: Entry) -> Entry:
        """Point the entry at its tree section and resolve the tier/priority it inherits from headings."""
        entry.section = self.visible[entry.section_id]
        lineage = [entry.section, *reversed(entry.section.ancestors)]
        entry.effective_tier = entry.tier or next((s.tier for s in lineage if s.tier), None)
        entry.effective_priority = entry.priority or next(
            (s.priority for s in lineage if s.priority), ""
        )
        return entry


def _ancestors(section: Section, by_id: dict[int, Section]) -> list[Section]:
    """Root first. Guards against a parent in another guide or a cycle typed into the admin."""
    chain, seen, parent_id = [], {section.id}, section.parent_id
    while parent_id in by_id and parent_id not in seen:
        seen.add(parent_id)
        chain.append(by_id[parent_id])
        parent_id = by_id[parent_id].parent_id
    return chain[::-1]


@dataclass
class Badge:
    label: str
    modifier: str = ""


def _section_badges(section: Section) -> list[Badge]:
    """The heading's annotations, leaving out what its title already says ("Tier 1", "MUST")."""
    title = section.title.strip().rstrip(":").lower()
    badges = []
    if section.tier and title != f"tier {section.tier}":
        badges.append(
            Badge(gettext("Tier %(tier)s") % {"tier": section.tier}, f"tier-{section.tier}")
        )
    if section.priority and title != section.priority:
        badges.append(Badge(str(dict(PRIORITY_LABELS)[section.priority]), section.priority))
    badges += [Badge(text) for text in (section.phase, section.effort) if text]
    return badges


def _attach_guides(resources: list[Resource]) -> None:
    """Give each resource ``.placements`` (its visible entries, in guide order) and
    ``.guide_entries`` (its first entry in each guide, for "appears in" badges)."""
    placements = published_placements()
    for resource in resources:
        resource.placements = placements.get(resource.id, [])
        first_in_guide: dict[int, Entry] = {}
        for entry in resource.placements:
            first_in_guide.setdefault(entry.section.guide_id, entry)
        resource.guide_entries = list(first_in_guide.values())


def published_placements() -> dict[int, list[Entry]]:
    """{resource_id: its visible entries in guide order}, for the whole catalog: two queries
    once per content version and worker (apps.core.content); shared, so read-only."""
    return memoized("placements", _placements_build, PLACED)


def _placements_build():
    tree = visible_tree()
    placements: dict[int, list[Entry]] = {}
    entries = tree.entries(Entry.objects.all()).order_by(
        "section__guide__position", "section__guide_id", "section__position", "position"
    )
    for entry in entries:
        placements.setdefault(entry.resource_id, []).append(tree.place(entry))
    return placements


def visible_entries() -> QuerySet:
    """Every entry a learner may see (published entry, resource, section, every ancestor section
    and guide): the one definition everyone asks."""
    return visible_tree().entries(Entry.objects.all())


def visible_tree() -> "_SectionTree":
    """The visible sections of every published guide; shared per content version, read-only."""
    return memoized("section-tree", _SectionTree, GUIDE_TREE)


def guide_entries(*, guide: Guide) -> list[Entry]:
    """The guide's visible entries in reading order, with resource and section; shared, read-only."""
    return memoized(
        ("guide-entries", guide.id),
        lambda: list(
            visible_entries()
            .filter(section__guide=guide)
            .select_related("resource", "section")
            .order_by("section__position", "position")
        ),
        VISIBLE,
    )


@dataclass(frozen=True)
class GuideStructure:
    """Which resources each guide and each visible section (with its subsections) holds."""

    guide_resources: dict  # guide_id -> frozenset of resource ids
    guide_sections: dict  # guide_id -> ids of its sections holding any resource
    section_resources: dict  # section_id -> frozenset of resource ids (its whole subtree)
    all_resources: frozenset


def guide_structure() -> GuideStructure:
    """Built from the visible catalog once per content version (apps.core.content)."""
    return memoized("guide-structure", _guide_structure_build, VISIBLE)


def _guide_structure_build() -> GuideStructure:
    tree = visible_tree()
    per_guide, per_section = defaultdict(set), defaultdict(set)
    for guide_id, section_id, resource_id in tree.entries(Entry.objects.all()).values_list(
        "section__guide_id", "section_id", "resource_id"
    ):
        per_guide[guide_id].add(resource_id)
        section = tree.visible[section_id]
        for holder in (section, *section.ancestors):
            per_section[holder.id].add(resource_id)
    guide_sections = defaultdict(list)
    for section_id in per_section:
        guide_sections[tree.visible[section_id].guide_id].append(section_id)
    return GuideStructure(
        guide_resources={guide_id: frozenset(ids) for guide_id, ids in per_guide.items()},
        guide_sections={guide_id: tuple(ids) for guide_id, ids in guide_sections.items()},
        section_resources={section_id: frozenset(ids) for section_id, ids in per_section.items()},
        all_resources=frozenset().union(*per_guide.values()),
    )


def guides_with_top_sections() -> list[Guide]:
    """Published guides with their visible top-level sections (`.top_sections`); shared, read-only."""

    def build():
        tree = visible_tree()
        guides = list(Guide.objects.published())
        for guide in guides:
            guide.top_sections = [section for section in tree.roots if section.guide_id == guide.id]
        return guides

    return memoized("guides-top-sections", build, GUIDE_TREE)


def _facet(name: str, label: "StrOrPromise", choices, counts: Counter, active: str | None) -> Facet:
    """Options for the values that occur (plus the active one, so it can be switched off)."""
    options = [
        FacetOption(
            value=value, label=choice_label, count=counts.get(value, 0), active=value == active
        )
        for value, choice_label in choices
        if counts.get(value) or value == active
    ]
    return Facet(
        name=name, label=label, options=options, active=bool(active), total=sum(counts.values())
    )


# --- Home ------------------------------------------------------------------------------------
def catalog_overview() -> CatalogOverview:
    """The published guides with section/resource counts, and the topics with resource counts."""
    tree = visible_tree()
    section_counts = Counter(section.guide_id for section in tree.visible.values())
    resource_counts = dict(
        tree.entries(Entry.objects.all())
        .order_by()
        .values("section__guide")
        .annotate(resources=Count("resource", distinct=True))
        .values_list("section__guide", "resources")
    )
    guides = [
        GuideSummary(
            guide=guide,
            section_count=section_counts[guide.id],
            resource_count=resource_counts.get(guide.id, 0),
        )
        for guide in Guide.objects.published()
    ]
    return CatalogOverview(
        guides=guides, topics=topic_list(), resource_count=len(visible_resource_ids())
    )


# --- Additions (What's new, the feeds) -------------------------------------------------------
def entries_added() -> list[Entry]:
    """Every visible entry, newest addition first (`Entry.added_at`, its first publishing), each
    with ``.resource`` and its tree section (``.section.guide``, ``.section.ancestors``): what the
    feeds and the learners' What's new read. Shared per content version, read-only."""

    def build():
        tree = visible_tree()
        entries = (
            visible_entries()
            .exclude(added_at=None)
            .select_related("resource")
            .order_by("-added_at", "-id")
        )
        return [tree.place(entry) for entry in entries]

    return memoized("entries-added", build, PLACED)


def entries_added_since(since) -> list[Entry]:
    """`entries_added` after ``since`` (None: all of them), newest first."""
    if since is None:
        return entries_added()
    added = []
    for entry in entries_added():
        if entry.added_at <= since:
            break
        added.append(entry)
    return added


def entry_where(entry: Entry) -> str:
    """ "Guide › Section › Subsection": where an entry of `entries_added` is."""
    return " › ".join(
        [entry.section.guide.title, *(str(s) for s in entry.section.ancestors), str(entry.section)]
    )


def first_added() -> dict:
    """{resource_id: when its first visible entry was added}: when it became new to the catalog
    (among the entries that have a date). Per content version, read-only."""

    def build():
        first: dict = {}
        for entry in entries_added():  # newest first: the last one seen is the earliest
            first[entry.resource_id] = entry.added_at
        return first

    return memoized("first-added", build, VISIBLE)


@dataclass(frozen=True)
class TopicMembership:
    """Which visible resources each published topic holds, and the other way round."""

    topics: dict  # topic_id -> Topic (published), in the topics' order
    resources_of: dict  # topic_id -> frozenset of visible resource ids
    topics_of: dict  # resource_id -> tuple of topic ids


def topic_membership() -> TopicMembership:
    """Built once per content version (two queries cold, none warm); shared, read-only."""

    def build():
        visible = visible_resource_ids()
        topics = {topic.id: topic for topic in Topic.objects.published()}
        resources_of, topics_of = defaultdict(set), defaultdict(list)
        pairs = Resource.topics.through.objects.filter(topic_id__in=list(topics)).values_list(
            "topic_id", "resource_id"
        )
        for topic_id, resource_id in pairs.order_by("topic_id", "resource_id"):
            if resource_id in visible:
                resources_of[topic_id].add(resource_id)
                topics_of[resource_id].append(topic_id)
        return TopicMembership(
            topics=topics,
            resources_of={pk: frozenset(ids) for pk, ids in resources_of.items()},
            topics_of={pk: tuple(ids) for pk, ids in topics_of.items()},
        )

    return memoized("topic-membership", build, TOPICS)


# --- Guide -----------------------------------------------------------------------------------
GUIDE_FACETS = (
    ("tier", gettext_lazy("Tier"), TIER_CHOICES),
    ("priority", gettext_lazy("Priority"), PRIORITY_LABELS),
    ("kind", gettext_lazy("Kind"), Kind.choices),
)


def _entry_facet_value(entry: Entry, name: str) -> str:
    if name == "tier":
        return str(entry.effective_tier or "")
    if name == "priority":
        return entry.effective_priority
    return entry.resource.kind


def guide_contents(*, guide: Guide, filters: dict[str, str]) -> GuideContents:
    """The guide's visible sections as a tree holding the entries that pass ``filters``.

    ``filters`` maps "tier", "priority", "kind" to a value (already validated). Tier and
    priority are inherited from the headings above an entry when it has none of its own.
    With filters on, sections with nothing left in them are dropped. Each entry's resource has
    its extra links as a list, ``.extra_links`` (a list, not a manager: Django makes a queryset per
    row for a prefetched manager, a fifth of a cold guide build at 225 entries).
    """
    tree = _SectionTree(guide=guide)
    entries = [
        tree.place(entry)
        for entry in tree.entries(Entry.objects.filter(section__guide=guide))
        .select_related("resource")
        .prefetch_related(Prefetch("resource__links", to_attr="extra_links"))
        .order_by("section__position", "position")
    ]

    def passes(entry: Entry, ignore: str | None = None) -> bool:
        return all(
            name == ignore or _entry_facet_value(entry, name) == want
            for name, want in filters.items()
        )

    facets = [
        _facet(
            name,
            label,
            choices,
            Counter(
                _entry_facet_value(entry, name) for entry in entries if passes(entry, ignore=name)
            ),
            filters.get(name),
        )
        for name, label, choices in GUIDE_FACETS
    ]
    facets = [facet for facet in facets if facet.worth_showing]
    shown = [entry for entry in entries if passes(entry)]
    for entry in shown:
        entry.section.shown_entries.append(entry)

    for section in tree.roots:
        _prune(section, keep_empty=not filters)
    sections = [section for section in tree.roots if section.keep]
    # A guide under one big heading is better navigated by the headings inside it.
    contents = tree.roots[0].subsections if len(tree.roots) == 1 else tree.roots
    return GuideContents(
        guide=guide,
        sections=sections,
        contents=contents,
        facets=facets,
        shown_count=len(shown),
        total_count=len(entries),
    )


def _prune(section: Section, *, keep_empty: bool) -> None:
    """Set ``.shown_subsections`` and ``.keep``: a section stays if it (or a descendant) shows an entry."""
    for child in section.subsections:
        _prune(child, keep_empty=keep_empty)
    section.shown_subsections = [child for child in section.subsections if child.keep]
    section.keep = keep_empty or bool(section.shown_entries or section.shown_subsections)


# --- Resource --------------------------------------------------------------------------------
def resource_details(*, uuid) -> Resource:
    """The visible resource with ``.links``, ``.published_topics`` and ``.placements`` (every
    guide and section). Http404 if none."""
    resource = get_object_or_404(visible_resources(), uuid=uuid)
    prefetch_related_objects(
        [resource],
        "links",
        Prefetch("topics", queryset=Topic.objects.published(), to_attr="published_topics"),
    )
    _attach_guides([resource])
    return resource


# --- Topics ----------------------------------------------------------------------------------
def topic_list() -> list[Topic]:
    """Published topics, each with ``.resource_count``: its visible resources."""
    return list(
        Topic.objects.published().annotate(
            resource_count=Count("resources", filter=Q(resources__in=visible_resources()))
        )
    )


def topic_contents(*, topic: Topic, filters: dict[str, str]) -> TopicContents:
    """The ids of the topic's visible resources from every guide that the filters keep, in the
    order its pages list them (title, then id: a page boundary never splits a tie differently
    from one request to the next), and the filters' counts. Two queries."""
    resources = visible_resources().filter(topics=topic)
    kind_counts = Counter(
        dict(resources.order_by().values("kind").annotate(n=Count("id")).values_list("kind", "n"))
    )
    if filters.get("kind"):
        resources = resources.filter(kind=filters["kind"])
    return TopicContents(
        topic=topic,
        resource_ids=tuple(resources.order_by("title", "id").values_list("id", flat=True)),
        facets=[
            facet
            for facet in [
                _facet("kind", gettext_lazy("Kind"), Kind.choices, kind_counts, filters.get("kind"))
            ]
            if facet.worth_showing
        ],
        total_count=sum(kind_counts.values()),
    )


def topic_page(*, resource_ids: Sequence[int], page_number) -> Page:
    """One page (TOPIC_PAGE_SIZE) of `resource_ids` (topic_contents's, or those a learner's status
    filter keeps of them): its resources in that order, each with .placements and .guide_entries.
    A page number out of range gives the last page, one that is not a number the first (Django's
    `Paginator.get_page`, as search's pages). One query."""
    page = Paginator(resource_ids, TOPIC_PAGE_SIZE).get_page(page_number)
    by_id = {
        resource.id: resource
        for resource in visible_resources().filter(id__in=list(page.object_list))
    }
    resources = [by_id[pk] for pk in page.object_list if pk in by_id]
    _attach_guides(resources)
    page.object_list = resources
    return page


# --- Search ----------------------------------------------------------------------------------
class _SearchText(Func):
    """What a word is looked for in: the resource's title, author, description and its URL's
    host ("horace.io"), one per line (a line break is no gap: no form runs from one field into
    the next). One node of SQL written out, not a tree of Concat and Substr: a query references
    it a few times per word, and Django copies and compiles a tree at each reference (measured:
    most of an 8-word search's time went there)."""

    output_field = TextField()

    def as_sql(self, compiler, connection, **extra):  # type: ignore[override]  # builds its own SQL
        table = compiler.quote_name(compiler.query.get_initial_alias())
        title, author, description, url = (
            f"{table}.{connection.ops.quote_name(name)}"
            for name in ("title", "author", "description", "url")
        )
        rest = f"substr({url}, instr({url}, '://') + 3)"
        host = {  # without a URL, ""
            "postgresql": f"substring({url} from '://([^/?#]+)')",
            "sqlite": f"substr({rest}, 1, instr({rest} || '/', '/') - 1)",
        }[connection.vendor]
        line = "char(10)" if connection.vendor == "sqlite" else "chr(10)"
        parts = [title, author, description, f"COALESCE({host}, '')"]
        return f"({f' || {line} || '.join(parts)})", []


class _StoredColumn(Func):
    """A column PostgreSQL keeps for search on catalog_resource, outside the model (see
    catalog/0006): read only where a query names it, never loaded with a resource."""

    def __init__(self, name: str, output_field):
        self.column = name
        super().__init__(output_field=output_field)

    def as_sql(self, compiler, connection, **extra):  # type: ignore[override]  # a column
        table = compiler.quote_name(compiler.query.get_initial_alias())
        return f"{table}.{connection.ops.quote_name(self.column)}", []


class _SquashedHas(Func):
    """The resource's squashed text (catalog/0006: its search text without the characters a
    joined word may be split by) has ``text`` squashed alike, in any case: an ILIKE its trigram
    index answers. Every row `_has_word` finds passes it, so it picks the candidates."""

    output_field = BooleanField()

    def __init__(self, text: str):
        squashed = _SPLITTERS.sub("", text)
        self.pattern = "%" + _LIKE_SPECIAL.sub(r"\\\g<0>", squashed) + "%"
        super().__init__()

    def as_sql(self, compiler, connection, **extra):  # type: ignore[override]  # one ILIKE
        table = compiler.quote_name(compiler.query.get_initial_alias())
        return f"{table}.{connection.ops.quote_name('search_squashed')} ILIKE %s", [self.pattern]


_SPLITTERS = re.compile(r"[-_/.: ]")  # as catalog/0006 squashes: apps.catalog.search `_GAP`
_LIKE_SPECIAL = re.compile(r"[\\%_]")


def _candidates(words: list[str]) -> Q:
    """PostgreSQL: a resource with any word in any form (`_has_word`) has it in its squashed text;
    an OR of indexed ILIKEs that every search result passes, so the search reads the index."""
    found = Q()
    for word in words:
        forms = search.word_forms(word) if search.is_plain(word) else (word,)
        for form in forms:
            found |= Q(_SquashedHas(form))
    return found


def _has_word(word: str, field: str = "search_text") -> Q:
    """``word`` in one of its forms (apps.catalog.search) occurs in ``field``; a word with
    websearch syntax ("-training", '"exact') as typed."""
    if not search.is_plain(word):
        return Q(**{f"{field}__icontains": word})
    found = Q()
    for form in search.word_forms(word):
        found |= Q(**{f"{field}__icontains": form})
        if len(form) >= search.JOINED_MIN_LENGTH:
            joined = Q(**{f"{field}__iregex": search.joined_pattern(form)})
            if connection.vendor == "sqlite":
                # SQLite runs the regex in Python: only where the form's first and last two
                # letters occur (a word is rarely split after its first letter), two LIKEs in C.
                first, last = (Q(**{f"{field}__icontains": part}) for part in (form[:2], form[-2:]))
                joined = first & last & joined
            found |= joined
    return found


def _count_of(conditions: list[Q]):
    """How many of ``conditions`` a row meets, as an SQL expression: a balanced sum, so its depth
    grows with the log of their number (SQLite's parser has a fixed stack)."""
    terms: list[Expression] = [
        Case(When(condition, then=Value(1)), default=Value(0)) for condition in conditions
    ]
    if not terms:
        return Value(0)
    while len(terms) > 1:
        terms = [a + b for a, b in zip(terms[::2], terms[1::2], strict=False)] + (
            [terms[-1]] if len(terms) % 2 else []
        )
    return terms[0]


def search_words(query: str) -> list[str]:
    """The words of a query as search reads them (apps.catalog.search.query_words)."""
    return search.query_words(query, SEARCH_MAX_WORDS)


def _spelling_query(words: list[str]):
    """Every plain word in any of its spellings, as a full-text query; None if no word has two."""
    if not any(len(search.spellings(word)) > 1 for word in words if search.is_plain(word)):
        return None
    combined = None
    for word in filter(search.is_plain, words):
        combined = _word_query(word) if combined is None else combined & _word_query(word)
    return combined


def _word_query(word: str) -> SearchQuery:
    """One plain word in any of its spellings, as a full-text query."""
    either = None
    for spelling in search.spellings(word):
        one = SearchQuery(spelling, search_type="plain", config=SEARCH_CONFIG)
        either = one if either is None else either | one
    assert either is not None  # spellings() holds at least the word itself
    return either


def search_resources(query: str, *, filters: dict | None = None) -> QuerySet:
    """Visible resources matching ``query`` over title, author, description and the URL's host,
    best first, narrowed by ``filters`` ("kind", "guide": a published guide's slug; validated).

    Forgiving (apps.catalog.search): a word is found joined or split ("kvcache" finds "KV cache",
    "FlashAttention-3" finds "Flash Attention 3"), and British and American spellings find each
    other. Every word must match; when no resource has them all, those with any of them are
    found, the most words first. Then titles: the query as the whole title, then at its start,
    then in it, then the most words in the title. PostgreSQL also matches with full-text search
    (stems, websearch syntax) and ranks by it (title weighs most, then author, then description)
    before the title in alphabetical order. One SQL query, in time linear in the (capped) words;
    on PostgreSQL it reads the rows its indexes pick (catalog/0006), not the whole catalog.
    """
    words = search_words(query)
    resources = visible_resources()
    if not words:
        return resources.none()
    filters = filters or {}
    if filters.get("kind"):
        resources = resources.filter(kind=filters["kind"])
    if filters.get("guide"):
        guide = next((g for g in guides_with_top_sections() if g.slug == filters["guide"]), None)
        held = (
            guide_structure().guide_resources.get(guide.id, frozenset()) if guide else frozenset()
        )
        resources = resources.filter(id__in=sorted(held))
    postgres = connection.vendor == "postgresql"
    resources = resources.alias(search_text=_SearchText())
    plain = [word for word in words if search.is_plain(word)]
    word_found = [_has_word(word) for word in plain]
    every_word = Q()
    for word in words:
        every_word &= _has_word(word)
    rank: Expression = Value(0.0)
    if postgres:
        # The stored, indexed vector (catalog/0006): title weighs most, then author, then
        # description. Rows are read from the indexes: a full-text match, or a word in a form
        # the trigram index finds; the patterns then check only those.
        vector = _StoredColumn("search_document", SearchVectorField())
        text_query = SearchQuery(" ".join(words), search_type="websearch", config=SEARCH_CONFIG)
        spelled = _spelling_query(words)
        if spelled is not None:
            text_query = text_query | spelled
        resources = resources.alias(document=vector).filter(
            Q(document=text_query) | _candidates(words)
        )
        rank = SearchRank(vector, text_query)
        # Full-text matches count for every word; the any-word fallback counts words by the
        # patterns alone (a document per word per row would cost more than the rest together).
        every_word |= Q(document=text_query)
    matched = every_word
    words_found: Expression = Value(len(plain))
    if len(plain) > 1:  # no resource has every word: any word will do, the most words first
        any_word = Q()
        for found in word_found:
            any_word |= found
        somewhere = Exists(resources.filter(every_word))  # one subquery, stops at the first row
        matched |= ~somewhere & any_word
        words_found = Case(When(somewhere, then=words_found), default=_count_of(word_found))
    # The query's words run together (a Chinese run whole, not as its pairs).
    phrase = "".join(filter(search.is_plain, search.split_joined(query).split()[:SEARCH_MAX_WORDS]))
    title_phrase = Case(
        When(title__iregex=search.joined_pattern(phrase, at="whole"), then=Value(3)),
        When(title__iregex=search.joined_pattern(phrase, at="start"), then=Value(2)),
        When(title__iregex=search.joined_pattern(phrase), then=Value(1)),
        default=Value(0),
    )
    return (
        resources.filter(matched)
        .annotate(
            words_found=words_found,
            title_phrase=title_phrase if len(plain) == len(words) else Value(0),
            title_words=_count_of([_has_word(word, field="title") for word in plain]),
            rank=rank,
        )
        .order_by("-words_found", "-title_phrase", "-title_words", "-rank", "title", "id")
    )


def search_ids(query: str, *, filters: dict | None = None) -> list[int]:
    """The ids of every resource ``search_resources`` finds (all pages)."""
    return list(search_resources(query, filters=filters).values_list("id", flat=True))


def search_page(
    *, query: str, page_number, filters: dict | None = None, within: Collection[int] | None = None
) -> Page:
    """One page of results (an out-of-range or junk page number gives the nearest real page).
    ``page.some_words``: no resource has every word, these have some of them. Then, or with no
    results at all, ``page.suggestion`` is a query whose every word finds something ("did you
    mean"), or ""; ``page.other_script``: the query is in a script the catalog is not (a hint).
    ``within``: only these resources (a learner's status filter); no suggestion then."""
    results = search_resources(query, filters=filters)
    if within is not None:
        results = results.filter(id__in=sorted(within))
    page = Paginator(results, SEARCH_PAGE_SIZE).get_page(page_number)
    page.object_list = list(page.object_list)
    _attach_guides(page.object_list)
    page.some_words = bool(page.object_list) and not _has_every_word(page.object_list[0], query)
    page.suggestion = ""
    page.other_script = not page.object_list and search.in_another_script(query)
    if (page.some_words or not page.object_list) and within is None:
        # The words as typed: a Chinese run whole, as the glossary knows it.
        suggested = search.suggestion(search.split_joined(query).split()[:SEARCH_MAX_WORDS])
        best = search_resources(suggested, filters=filters).first() if suggested else None
        if best is not None and _has_every_word(best, suggested):
            page.suggestion = suggested
    return page


def _has_every_word(resource: Resource, query: str) -> bool:
    """A result of ``search_resources(query)`` has every word (not found by the any-word fallback)."""
    return resource.words_found == len(list(filter(search.is_plain, search_words(query))))
