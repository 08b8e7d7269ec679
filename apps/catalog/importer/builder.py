"""Turning an import plan into model instances: saved by ``apply_import``, serialized by the fixtures.

Both paths construct objects through the same ``new_*`` functions, so an imported guide
and a seeded one have the same fields and the same uuids.
"""

from dataclasses import dataclass, field

from django.db import transaction

from apps.catalog.importer import topics as taxonomy
from apps.catalog.importer.errors import CatalogImportError
from apps.catalog.importer.planner import ImportPlan, catalog_resources, stable_uuid
from apps.catalog.importer.titles import same_title
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
        if c.get("titles_suggested"):
            text += f", {c['titles_suggested']} better titles offered as suggestions"
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


def offers_better_title(resource: Resource, title: str) -> bool:
    """Does a list's ``title`` for the catalog's ``resource`` name it better? Only when the
    catalog's title looks poor (a guess from the URL) and the list's does not."""
    return (
        not same_title(title, resource.title)
        and not same_title(title, resource.suggested_title)
        and title_looks_poor(resource.title, resource.url)
        and not title_looks_poor(title, resource.url)
    )


def _resources(
    plan: ImportPlan, topics: dict[str, Topic], result: ImportResult
) -> dict[str, Resource]:
    """The catalog's Resource for every planned one: matched (``catalog_resources``), or created."""
    known_resources = catalog_resources(plan)
    resolved = {}
    for planned in plan.resources:
        resource = known_resources.get(planned.key)
        if resource is not None:
            # Never overwrite a curated resource; only add the extra links it does not have yet,
            # and offer the file's title when it names a poorly titled resource better.
            result.add("resources_matched")
            if offers_better_title(resource, planned.title):
                resource.suggested_title = planned.title
                resource.save(update_fields=["suggested_title", "updated_at"])
                result.add("titles_suggested")
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


def apply_import(plan: ImportPlan, *, replace: bool = False) -> ImportResult:
    """Write ``plan`` in one transaction: all of it or, on any error, nothing.

    A new guide arrives unpublished (a draft learners do not see until a curator publishes it).
    An existing guide with the plan's slug is refused unless ``replace`` is true, in which
    case its sections and entries are rebuilt; resources are never deleted or changed
    (learners' progress is keyed on them), only created when missing.
    """
    result = ImportResult()
    with transaction.atomic():
        topics = _topics_by_slug(plan, result)
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
                guide.sections.all().delete()
            result.guide = guide
        resources = _resources(plan, topics, result)
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
                new_entry(
                    planned, sections[planned.section.uuid], resources[planned.resource.key]
                ).save()
                result.add("entries")
    return result
