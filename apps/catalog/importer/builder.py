"""Turning an import plan into model instances: saved by ``apply_import``, serialized by the fixtures.

Both paths construct objects through the same ``new_*`` functions, so an imported guide
and a seeded one have the same fields and the same uuids.
"""

import re
from dataclasses import dataclass, field
from datetime import datetime

from django.contrib.admin.models import ADDITION, CHANGE, LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db import transaction

from apps.catalog.importer import topics as taxonomy
from apps.catalog.importer.errors import CatalogImportError
from apps.catalog.importer.links import is_companion_label
from apps.catalog.importer.planner import ImportPlan, catalog_resources, stable_uuid
from apps.catalog.importer.titles import clean_title, same_title
from apps.catalog.importer.urls import title_looks_poor
from apps.catalog.models import (
    Entry,
    Guide,
    Resource,
    ResourceLink,
    Section,
    Topic,
)


def new_topic(spec: taxonomy.TopicSpec, position: int) -> Topic:
    return Topic(
        uuid=stable_uuid("topic", spec.slug),
        slug=spec.slug,
        title=spec.title,
        description=spec.description,
        position=position,
    )


def new_guide(planned) -> Guide:
    return Guide(
        uuid=planned.uuid,
        slug=planned.slug,
        title=planned.title,
        description=planned.description,
        source_name=planned.source_name,
        source_url=planned.source_url,
        position=planned.position,
    )


# The fields a section and an entry take from the source (a sync rewrites only these, and only
# when the source changed them). A section's order is also the order of its ``raw`` line.
SECTION_SOURCE_FIELDS = ("number", "title", "description", "tier", "priority", "phase", "effort")
ENTRY_SOURCE_FIELDS = ("tier", "priority", "rating", "note", "marked_done")


def source_values(planned, fields) -> dict:
    """``{field: value}`` of ``planned`` (a planned section or entry) for ``fields``."""
    return {name: getattr(planned, name) for name in fields}


def section_raw(planned) -> str:
    """The heading as imported, one canonical line: what a later sync compares to tell a change
    of the source's heading (its ``SECTION_SOURCE_FIELDS``) from a curator's edit."""
    return "\x1f".join(
        "" if value is None else str(value)
        for value in source_values(planned, SECTION_SOURCE_FIELDS).values()
    )


def new_section(planned, guide: Guide, parent: Section | None) -> Section:
    return Section(
        uuid=planned.uuid,
        guide=guide,
        parent=parent,
        position=planned.position,
        depth=planned.depth,
        raw=section_raw(planned),
        **source_values(planned, SECTION_SOURCE_FIELDS),
    )


def new_resource(planned) -> Resource:
    return Resource(
        uuid=planned.uuid,
        url=planned.url,
        url_issue=planned.url_issue,
        title=planned.title,
        kind=planned.kind,
        author=planned.author,
        year=planned.year,
        description=planned.description,
    )


def new_link(planned, resource: Resource) -> ResourceLink:
    return ResourceLink(
        uuid=planned.uuid,
        resource=resource,
        url=planned.url,
        label=planned.label,
        position=planned.position,
    )


def new_entry(planned, section: Section, resource: Resource) -> Entry:
    return Entry(
        uuid=planned.uuid,
        section=section,
        resource=resource,
        position=planned.position,
        raw=planned.raw,
        **source_values(planned, ENTRY_SOURCE_FIELDS),
    )


@dataclass
class ImportResult:
    guide: Guide | None = None
    counts: dict[str, int] = field(default_factory=dict)
    renamed: list[tuple[Resource, str]] = field(default_factory=list)  # (resource, old title)

    def add(self, name: str, number: int = 1) -> None:
        self.counts[name] = self.counts.get(name, 0) + number

    def counts_text(self) -> str:
        """What was written, in words (admin messages and history, command output)."""
        c = self.counts
        text = (
            f"{c.get('sections', 0)} sections, {c.get('entries', 0)} entries, "
            f"{c.get('resources', 0)} new resources, {c.get('resources_matched', 0)} already in "
            f"the catalog, {c.get('links', 0)} extra links, {c.get('topics', 0)} new topics"
        )
        if c.get("titles_improved"):
            text += f", {c['titles_improved']} poor titles improved"
        if c.get("titles_suggested"):
            text += f", {c['titles_suggested']} better titles offered as suggestions"
        if years := c.get("years_added"):
            text += f", {years} {'year' if years == 1 else 'years'} filled in"
        return text

    def __str__(self) -> str:
        return f"Imported '{self.guide}': {self.counts_text()}."


def _topics_by_slug(plan: ImportPlan, result: ImportResult) -> dict[str, Topic]:
    wanted = {slug for resource in plan.resources for slug in resource.topics}
    existing = {topic.slug: topic for topic in Topic.objects.filter(slug__in=wanted)}
    for position, spec in enumerate(taxonomy.TOPICS, start=1):
        if spec.slug in wanted and spec.slug not in existing:
            existing[spec.slug] = new_topic(spec, position)
            existing[spec.slug].save()
            result.add("topics")
    return existing


# Marks a title no curator would keep: an emoji or star run, a leading "[tag]", "(@org)", markup.
_DECORATION = re.compile(
    r"[\U0001F300-\U0001FAFF\u2600-\u27BF\u2B50\u2B06\u2934\u2935\u3030\uFE0F]"
    r"|^\s*\[[^\]]{1,40}\]\s*\S|\(@[\w.-]+\)|\*\*|__|\]\(|!\[|<[a-zA-Z/]|`"
)


def title_is_poor(title: str, url: str | None) -> bool:
    """A title that does not name its resource as a curator would: the URL or a guess from it,
    a generic word ("Paper", "Blog", "[pdf]"), or one still carrying decoration or markup."""
    title = title.strip()
    return (
        not title
        or title_looks_poor(title, url)
        or is_companion_label(title.strip("[]() "))
        or bool(_DECORATION.search(title))
        or clean_title(title) != title
    )


def improves_title(current: str, new: str, url: str | None) -> bool:
    """Does a list's ``new`` title name a resource titled ``current`` better? Only a poor
    current title gives way, and only to a clean one that says more than a generic word."""
    return (
        not same_title(current, new)
        and title_is_poor(current, url)
        and not title_is_poor(new, url)
        and bool(re.search(r"\w{2}", new))
    )


# The words an import's rename is logged with: an import's own rename is no curator's edit.
IMPORT_RENAME_NOTE = "renamed by an import"
# A change of the title as the admin's history writes it ("Changed Title: “a” → “b”.", an
# accepted suggestion "Title: “a” → “b” (suggested)."), not of the suggestion or a description.
_TITLE_CHANGE = re.compile(r"(?<!suggested )\btitle\b[^.“]{0,3}[:“]|\"title\"")


def curator_titled(resources) -> set[int]:
    """The ids of ``resources`` whose title a curator chose: renamed in the admin (a change of
    the title in their history that no import made) or created by hand. An import never
    renames those; it only offers its title as a suggestion."""
    ids = [str(resource.pk) for resource in resources]
    if not ids:
        return set()
    rows = LogEntry.objects.filter(
        content_type=ContentType.objects.get_for_model(Resource),
        object_id__in=ids,
        action_flag__in=[ADDITION, CHANGE],
    ).values_list("object_id", "action_flag", "change_message")
    titled = set()
    for object_id, flag, message in rows:
        lowered = message.lower()
        renamed = (
            flag == CHANGE
            and bool(_TITLE_CHANGE.search(lowered))
            and IMPORT_RENAME_NOTE not in lowered
        )
        if renamed or (flag == ADDITION and "import" not in lowered):
            titled.add(int(object_id))
    return titled


@dataclass
class TitleFix:
    """An import renaming a catalog resource whose title is poor to the list's better one."""

    key: str  # the planned resource's key
    resource: Resource
    title: str


def title_fixes(plan: ImportPlan, known: dict | None = None) -> dict[str, TitleFix]:
    """``{planned key: TitleFix}``: the matched resources whose poor title, set by an import,
    the list names better (``improves_title``). Reads only."""
    known = catalog_resources(plan) if known is None else known
    candidates = {
        planned.key: TitleFix(planned.key, known[planned.key], planned.title)
        for planned in plan.resources
        if planned.key in known
        and improves_title(known[planned.key].title, planned.title, known[planned.key].url)
    }
    edited = curator_titled([fix.resource for fix in candidates.values()])
    return {key: fix for key, fix in candidates.items() if fix.resource.pk not in edited}


def offers_better_title(resource: Resource, title: str) -> bool:
    """Does a list's ``title`` for the catalog's ``resource`` name it better, to be offered as
    its suggestion (when the import does not rename it)?"""
    return not same_title(title, resource.suggested_title) and improves_title(
        resource.title, title, resource.url
    )


def _resources(
    plan: ImportPlan,
    topics: dict[str, Topic],
    result: ImportResult,
    retitle: set[str] | frozenset[str] = frozenset(),
) -> dict[str, Resource]:
    """The catalog's Resource for every planned one: matched (``catalog_resources``), or created.
    ``retitle``: the planned keys whose title fix (``title_fixes``) is applied; a better title
    not applied is offered as the resource's suggestion (a sync offers, never renames)."""
    known_resources = catalog_resources(plan)
    fixes = title_fixes(plan, known_resources)
    resolved = {}
    for planned in plan.resources:
        resource = known_resources.get(planned.key)
        if resource is not None:
            # Never overwrite a curated resource; only add the extra links it does not have yet,
            # rename it when its poor title came from an import and the list names it better,
            # else offer the file's title as a suggestion.
            result.add("resources_matched")
            fix = fixes.get(planned.key)
            if fix and planned.key in retitle:
                result.renamed.append((resource, resource.title))
                resource.title, resource.suggested_title = fix.title, ""
                resource.save(update_fields=["title", "suggested_title", "updated_at"])
                result.add("titles_improved")
            elif offers_better_title(resource, planned.title):
                resource.suggested_title = planned.title
                resource.save(update_fields=["suggested_title", "updated_at"])
                result.add("titles_suggested")
            if resource.year is None and planned.year:
                # the list dates what the catalog does not: fill it, never overwrite a year
                resource.year = planned.year
                resource.save(update_fields=["year", "updated_at"])
                result.add("years_added")
            known = set(resource.links.values_list("url", flat=True))
            links = [link for link in planned.links if link.url not in known]
        else:
            resource = new_resource(planned)
            resource.save()
            resource.topics.set([topics[slug] for slug in planned.topics])
            result.add("resources")
            links = planned.links
        for link in links:
            if not ResourceLink.objects.filter(uuid=link.uuid).exists():
                new_link(link, resource).save()
                result.add("links")
        resolved[planned.key] = resource
    return resolved


def apply_import(
    plan: ImportPlan, *, replace: bool = False, retitle: set[str] | None = None
) -> ImportResult:
    """Write ``plan`` in one transaction: all of it or, on any error, nothing.

    A new guide arrives unpublished (a draft learners do not see until a curator publishes it).
    An existing guide with the plan's slug is refused unless ``replace`` is true, in which
    case its sections and entries are rebuilt; resources are never deleted or changed
    (learners' progress is keyed on them), only created when missing, and renamed when their
    poor title came from an earlier import and this list names them better (``title_fixes``;
    ``retitle``: the planned keys the curator kept ticked, None for all of them).
    """
    result = ImportResult()
    with transaction.atomic():
        topics = _topics_by_slug(plan, result)
        added_before: dict[tuple[str, int], datetime] = {}
        for planned_guide in plan.guides:
            guide = Guide.objects.filter(slug=planned_guide.slug).first()
            if guide is not None and not replace:
                raise CatalogImportError(
                    f"A guide with the slug '{planned_guide.slug}' already exists: choose another slug, "
                    "or replace its sections and entries."
                )
            if guide is None:
                guide = new_guide(planned_guide)
                guide.is_published = (
                    False  # an import arrives as a draft; publishing is a separate step
                )
                guide.save()
                result.add("guides")
            else:
                # A rebuilt entry of a resource the guide listed before keeps its date of
                # addition: replacing a guide's sections adds nothing new for learners.
                for resource_id, added_at in (
                    Entry.objects.filter(section__guide=guide)
                    .exclude(added_at=None)
                    .order_by("-added_at")
                    .values_list("resource_id", "added_at")
                ):
                    added_before[guide.slug, resource_id] = added_at  # the earliest, last
                guide.sections.all().delete()
            result.guide = guide
        fixes = set(title_fixes(plan)) if retitle is None else retitle
        resources = _resources(plan, topics, result, fixes)
        guides = {g.slug: g for g in Guide.objects.filter(slug__in=[p.slug for p in plan.guides])}
        sections = {}
        for planned_guide in plan.guides:
            for planned in planned_guide.sections:
                parent = sections[planned.parent.uuid] if planned.parent else None
                section = sections[planned.uuid] = new_section(
                    planned, guides[planned_guide.slug], parent
                )
                section.save()
                result.add("sections")
            for planned in planned_guide.entries:
                entry = new_entry(
                    planned, sections[planned.section.uuid], resources[planned.resource.key]
                )
                entry.added_at = added_before.get((planned_guide.slug, entry.resource_id))
                entry.save()
                result.add("entries")
    return result
