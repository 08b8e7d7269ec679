"""From parse trees to an import plan: stable uuids, one resource per URL, topics, reading paths.

The plan is plain data; nothing here writes. ``plan_import`` plans one uploaded guide and
looks up which of its resources the catalog already holds; ``plan_catalog`` plans the
five bundled guides together, without the database, for the fixtures.
"""

import re
import uuid
from dataclasses import dataclass, field
from decimal import Decimal

from django.utils.text import slugify

from apps.catalog.importer import paths, sources, topics
from apps.catalog.importer.books import book_key, resolve_book
from apps.catalog.importer.errors import CatalogImportError
from apps.catalog.importer.parsed import ParsedGuide, ParsedItem, ParsedSection
from apps.catalog.importer.parser import parse_guide
from apps.catalog.importer.urls import (
    is_same_work,
    normalize_url,
    query_items,
    route_fragment,
    same_page_key,
    title_from_url,
)

# Every uuid the importer makes is uuid5 in this namespace over a stable key, so
# re-importing (or rebuilding the fixtures) gives the same uuids.
NAMESPACE = uuid.UUID("6f1c3a52-9d0e-4b8e-a1a4-5b7c2f0d9e11")
TITLE_MAX = 300


def stable_uuid(*parts: str) -> uuid.UUID:
    return uuid.uuid5(NAMESPACE, "\x1f".join(parts))


def resource_key(url: str | None, kind: str, title: str) -> str:
    """A resource's identity: its normalized URL, or for URL-less ones (books, concepts) kind + title."""
    return f"url:{url}" if url else f"{kind}:{book_key(title)}"


@dataclass
class PlannedLink:
    uuid: uuid.UUID
    url: str
    label: str
    position: int


@dataclass
class PlannedResource:
    key: str
    uuid: uuid.UUID
    url: str | None
    title: str
    kind: str
    author: str = ""
    year: int | None = None
    description: str = ""
    url_issue: str = ""
    links: list[PlannedLink] = field(default_factory=list)
    topics: list[str] = field(default_factory=list)
    existing_id: int | None = None  # set by plan_import when the catalog already has it
    quality: int = field(default=0, repr=False)
    _section_topics: set[str] = field(default_factory=set, repr=False)
    _notes: list[str] = field(default_factory=list, repr=False)


@dataclass
class PlannedSection:
    uuid: uuid.UUID
    path: str
    parent: "PlannedSection | None"
    title: str
    number: str
    description: str
    position: int
    depth: int
    tier: int | None
    priority: str
    phase: str
    effort: str
    parsed: ParsedSection = field(repr=False)


@dataclass
class PlannedEntry:
    uuid: uuid.UUID
    section: PlannedSection
    resource: PlannedResource
    position: int
    tier: int | None
    priority: str
    rating: Decimal | None
    note: str
    marked_done: bool
    raw: str
    item: ParsedItem = field(repr=False)


@dataclass
class PlannedGuide:
    uuid: uuid.UUID
    slug: str
    title: str
    description: str
    source_name: str
    source_url: str
    position: int
    sections: list[PlannedSection] = field(default_factory=list)
    entries: list[PlannedEntry] = field(default_factory=list)
    parsed: ParsedGuide = field(default=None, repr=False)
    existing_id: int | None = None


@dataclass
class ImportPlan:
    """What an import would write. Resources are in order of first appearance."""

    guides: list[PlannedGuide]
    resources: list[PlannedResource]
    paths: list[paths.ReadingPath]
    warnings: list[str] = field(default_factory=list)

    @property
    def sections(self):
        return [section for guide in self.guides for section in guide.sections]

    @property
    def entries(self):
        return [entry for guide in self.guides for entry in guide.entries]

    @property
    def new_resources(self):
        return [r for r in self.resources if r.existing_id is None]

    @property
    def matched_resources(self):
        return [r for r in self.resources if r.existing_id is not None]

    def summary(self) -> str:
        guides = ", ".join(f"'{g.title}' ({g.slug})" for g in self.guides)
        links = sum(len(r.links) for r in self.new_resources)
        lines = [
            f"Guide {guides}: {len(self.sections)} sections, {len(self.entries)} entries.",
            f"Resources: {len(self.new_resources)} new ({links} extra links), "
            f"{len(self.matched_resources)} already in the catalog.",
            f"Reading paths: {len(self.paths)}.",
        ]
        lines += [f"Skipped: {line}" for line in self.skipped_lines()]
        lines += [f"Warning: {warning}" for warning in self.warnings]
        return "\n".join(lines)

    def skipped_lines(self) -> list[str]:
        """What the parse left out and why, e.g. ``"3 badges"``, ``"17 in-page or relative links"``."""
        return [
            f"{count} {reason}"
            for guide in self.guides
            for reason, count in sorted(guide.parsed.skipped.items())
        ]


def _truncate(text: str, limit: int = TITLE_MAX) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


_MARKDOWN_LABEL = re.compile(r"\[([^\]]+)\]\(")
_MIN_DESCRIPTION_WORDS = 3


def _describes(text: str, item: ParsedItem) -> str:
    """``text`` as the resource's description, or "" when, on a line with other links, it is only
    what is left of the line once those links are taken out: their labels and the glue between
    them ("paper for v2, paper for v3", "(basic introduction), , and", "Recent")."""
    own = {item.title.lower().strip(), *(link.label.lower().strip() for link in item.links[:1])}
    others = (
        {
            label.lower().strip()
            for label in [link.label for link in item.links[1:]] + _MARKDOWN_LABEL.findall(item.raw)
        }
        - own
        - {""}
    )
    if not text or not others:
        return text
    rest = text.lower()
    for label in sorted(others, key=len, reverse=True):
        rest = rest.replace(label, " ")
    return text if len(re.findall(r"[^\W_]+", rest)) >= _MIN_DESCRIPTION_WORDS else ""


class _Planner:
    def __init__(self):
        self.resources: dict[str, PlannedResource] = {}
        self.guides: list[PlannedGuide] = []
        self.warnings: list[str] = []

    def add_guide(
        self, parsed: ParsedGuide, *, slug, title, source_name="", source_url="", position=0
    ):
        guide = PlannedGuide(
            uuid=stable_uuid("guide", slug),
            slug=slug,
            title=_truncate(title, 200),
            description=parsed.description,
            source_name=source_name,
            source_url=source_url,
            position=position,
            parsed=parsed,
        )
        seen_paths: set[str] = set()
        for section in parsed.sections:
            self._add_section(guide, section, None, seen_paths)
        self.guides.append(guide)
        return guide

    def _add_section(self, guide, parsed: ParsedSection, parent, seen_paths) -> None:
        label = f"{parsed.number} {parsed.title}".strip()
        path = f"{parent.path}/{label}" if parent else label
        base, suffix = path, 2
        while path in seen_paths:  # two sibling sections with the same title
            path, suffix = f"{base} #{suffix}", suffix + 1
        seen_paths.add(path)
        section = PlannedSection(
            uuid=stable_uuid("section", guide.slug, path),
            path=path,
            parent=parent,
            title=_truncate(parsed.title or "Untitled"),
            number=parsed.number[:10],
            description=parsed.description,
            position=len(guide.sections) + 1,
            depth=parent.depth + 1 if parent else 0,
            tier=parsed.tier,
            priority=parsed.priority,
            phase=parsed.phase[:100],
            effort=parsed.effort[:50],
            parsed=parsed,
        )
        guide.sections.append(section)
        ancestors, node = [], parsed
        while node is not None:
            ancestors.append(node.title)
            node = node.parent
        section_topics = topics.section_topics(ancestors)
        for position, item in enumerate(parsed.items, start=1):
            resource = self._add_resource(item)
            resource._section_topics.update(section_topics)
            guide.entries.append(
                PlannedEntry(
                    uuid=stable_uuid("entry", guide.slug, path, str(position)),
                    section=section,
                    resource=resource,
                    position=position,
                    tier=item.tier,
                    priority=item.priority,
                    rating=item.rating,
                    note=item.note,
                    marked_done=item.done,
                    raw=item.raw,
                    item=item,
                )
            )
        for child in parsed.children:
            self._add_section(guide, child, section, seen_paths)

    def _add_resource(self, item: ParsedItem) -> PlannedResource:
        url = normalize_url(item.url) if item.url else None
        key = resource_key(url, item.kind, item.title)
        # How much the guide says about it: 002's "Title - Author. Description." beats a bare link's guess.
        quality = (
            (2 if item.author and item.description else 1)
            if item.title != title_from_url(item.url or "")
            else 0
        )
        issues = [link.issue for link in item.links if link.issue]
        self.warnings.extend(issues)
        resource = self.resources.get(key)
        if resource is None:
            resource = self.resources[key] = PlannedResource(
                key=key,
                uuid=stable_uuid("resource", key),
                url=url,
                title=_truncate(item.title),
                kind=item.kind,
                quality=quality,
            )
        elif quality > resource.quality:
            resource.title, resource.kind, resource.quality = (
                _truncate(item.title),
                item.kind,
                quality,
            )
            resource.author = item.author or resource.author
            resource.description = item.description or resource.description
        resource.author = _truncate(resource.author or item.author)
        resource.year = resource.year or item.year
        resource.description = (
            resource.description
            or _describes(item.description, item)
            or _describes(item.note, item)
        )
        resource.url_issue = resource.url_issue or _truncate(" ".join(issues))
        resource._notes.append(item.note)
        known = {resource.url, *(link.url for link in resource.links)}
        for link in item.links[1:]:
            link_url = normalize_url(link.url)
            if link_url not in known:
                known.add(link_url)
                resource.links.append(
                    PlannedLink(
                        uuid=stable_uuid("link", key, link_url),
                        url=link_url,
                        label=_truncate(link.label),
                        position=len(resource.links) + 1,
                    )
                )
        return resource

    # --- one resource per document ---------------------------------------------------------------
    def _merge_duplicates(self) -> None:
        """Fold resources that are the same document under two URLs into one.

        - A URL that only adds query parameters or an in-page anchor to another resource's URL
          (``…/ultrascale-playbook?section=intro`` next to ``…/ultrascale-playbook``), compared
          blind to ``www.``, case, a trailing slash and ``index.html``, is a section of that page.
        - A bare link to a book whose title was guessed from the URL ("Mml book", from
          ``mml-book.pdf``) is the book the guide names in full ("Mathematics for Machine
          Learning"), matched as the guide's own book references are (``books.resolve_book``).

        The survivor keeps its uuid (the resource with a URL, the shorter URL), takes the better
        title, and lists the other URL as an extra link; entries point at it. Which survives
        does not depend on guide order, so rebuilding never swaps uuids.
        """
        by_page: dict[tuple[str, str], list[PlannedResource]] = {}
        for resource in self.resources.values():
            if resource.url and (key := same_page_key(resource.url)):
                by_page.setdefault(key, []).append(resource)
        merges: dict[str, PlannedResource] = {}
        for group in by_page.values():
            group = sorted(group, key=lambda r: (len(query_items(r.url)), len(r.url), r.url))
            for i, resource in enumerate(group):
                for base in group[:i]:
                    if _adds_a_section(resource.url, base.url):
                        merges[resource.key] = base
                        break
        books = [r for r in self.resources.values() if r.url is None and r.kind == "book"]
        for resource in self.resources.values():
            guessed = resource.url and resource.title == title_from_url(resource.url)
            if (
                guessed
                and resource.key not in merges
                and re.search(r"\bbook$", resource.title, re.I)
            ):
                reference = re.sub(r"\s*book$", "", resource.title, flags=re.I)
                found = resolve_book(reference, books) if reference else None
                if found and len(found) == 1:
                    merges[found[0].key] = resource

        def survivor_of(resource):
            while resource.key in merges:  # a chain: the page a section belongs to is merged too
                resource = merges[resource.key]
            return resource

        for key in merges:
            self._fold(self.resources[key], survivor_of(self.resources[key]))
        for key in merges:
            del self.resources[key]
        for guide in self.guides:
            for entry in guide.entries:
                entry.resource = survivor_of(entry.resource)

    def _fold(self, duplicate: PlannedResource, survivor: PlannedResource) -> None:
        if duplicate.quality > survivor.quality:
            survivor.title, survivor.kind, survivor.quality = (
                duplicate.title,
                duplicate.kind,
                duplicate.quality,
            )
            survivor.author = duplicate.author or survivor.author
            survivor.description = duplicate.description or survivor.description
        survivor.author = survivor.author or duplicate.author
        survivor.year = survivor.year or duplicate.year
        survivor.description = survivor.description or duplicate.description
        survivor.url_issue = survivor.url_issue or duplicate.url_issue
        survivor._section_topics |= duplicate._section_topics
        survivor._notes += duplicate._notes
        known = {survivor.url, *(link.url for link in survivor.links)}
        extra = [(duplicate.url, duplicate.title)] if duplicate.url else []
        extra += [(link.url, link.label) for link in duplicate.links]
        for url, label in extra:
            if url not in known:
                known.add(url)
                survivor.links.append(
                    PlannedLink(
                        uuid=stable_uuid("link", survivor.key, url),
                        url=url,
                        label=_truncate(label),
                        position=len(survivor.links) + 1,
                    )
                )

    def finish(self) -> ImportPlan:
        self._merge_duplicates()
        for resource in self.resources.values():
            # the title and the words of the URL's path ("…/lora-and-qlora-effective-methods…") name the subject
            found = resource._section_topics | set(
                topics.keyword_topics(resource.title, topics.url_words(resource.url))
            )
            if found <= topics.FORMAT_TOPICS:  # nothing yet about what it is about
                found |= set(topics.keyword_topics(resource.description, *resource._notes))
            resource.topics = topics.order_topics(found) or [topics.FALLBACK_TOPIC]
        reading_paths = [path for guide in self.guides for path in paths.guide_paths(guide)]
        return ImportPlan(
            guides=self.guides,
            resources=list(self.resources.values()),
            paths=reading_paths,
            warnings=self.warnings,
        )


def _adds_a_section(url: str, base: str) -> bool:
    """``url`` is ``base`` plus query parameters and/or an anchor (same page key assumed)."""
    return route_fragment(url) == route_fragment(base) and query_items(base) <= query_items(url)


def plan_catalog(guide_sources=None) -> ImportPlan:
    """Plan the bundled guides (``sources.GUIDE_SOURCES``) together, without touching the database."""
    planner = _Planner()
    for source in guide_sources or sources.GUIDE_SOURCES:
        parsed = parse_guide(source.path.read_bytes())
        planner.add_guide(
            parsed,
            slug=source.slug,
            title=source.title or parsed.title,
            source_name=source.path.name,
            source_url=source.source_url,
            position=source.position,
        )
    return planner.finish()


def plan_import(
    source: bytes | str,
    *,
    guide_slug: str,
    title: str = "",
    source_name: str = "",
    source_url: str = "",
):
    """Plan importing one guide; raise CatalogImportError on bad input. Reads the database, never writes.

    The plan says which resources are new and which the catalog already has
    (``existing_id``), and whether the guide itself exists (``guides[0].existing_id``).
    """
    from apps.catalog.models import Guide

    if not guide_slug or slugify(guide_slug) != guide_slug:
        raise CatalogImportError(
            f"{guide_slug!r} is not a valid slug: use lowercase letters, digits and hyphens."
        )
    parsed = parse_guide(source)
    title = (title or parsed.title).strip()
    if not title:
        raise CatalogImportError(
            "The guide has no title (no '# Heading' or front matter title): please give one."
        )
    existing = Guide.objects.filter(slug=guide_slug).first()
    position = (
        existing.position
        if existing
        else (max(Guide.objects.values_list("position", flat=True), default=0) + 1)
    )
    planner = _Planner()
    planner.add_guide(
        parsed,
        slug=guide_slug,
        title=title,
        source_name=source_name,
        source_url=source_url,
        position=position,
    )
    plan = planner.finish()
    plan.guides[0].existing_id = existing.pk if existing else None
    known = catalog_resources(plan)
    for resource in plan.resources:
        resource.existing_id = known[resource.key].pk if resource.key in known else None
    return plan


def catalog_resources(plan: ImportPlan) -> dict:
    """{planned key: the catalog's Resource} for the planned resources the catalog already has:
    matched by URL, else by uuid, else by a merged-away uuid (``ResourceAlias``: a curator
    merged it into another, and a re-import or sync must not bring it back), else by a URL the
    catalog holds as a resource's extra link when that link is the resource's own work
    (``urls.is_same_work``: a mirror, the paper's pdf, a variant folded into it).
    Reads only."""
    from apps.catalog.models import Resource, ResourceAlias, ResourceLink

    urls = [p.url for p in plan.resources if p.url]  # normalized: each is its url_key
    by_url = {r.url_key: r for r in Resource.objects.filter(url_key__in=urls)}
    # an extra link identifies its resource only when it is that resource's own work (a mirror,
    # the paper's pdf), never a work the resource merely mentions (a blog post's repository)
    by_link = {
        link.url_key: link.resource
        for link in ResourceLink.objects.filter(url_key__in=urls).select_related("resource")
        if is_same_work(link.url, link.label, link.resource.url, link.resource.kind)
    }
    uuids = [p.uuid for p in plan.resources]
    by_uuid = {r.uuid: r for r in Resource.objects.filter(uuid__in=uuids)}
    by_alias = ResourceAlias.objects.survivors(uuids)
    found = {}
    for planned in plan.resources:
        resource = (
            by_url.get(planned.url)
            or by_uuid.get(planned.uuid)
            or by_alias.get(planned.uuid)
            or by_link.get(planned.url)
        )
        if resource is not None:
            found[planned.key] = resource
    return found
