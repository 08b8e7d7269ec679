"""Keeping a guide in step with its source: what a newer version adds, removes, moves or changes.

``diff_guide(guide, plan)`` compares the guide as the catalog holds it with a plan of the
newer source; ``apply_sync(plan)`` applies the same diff in place, in one transaction.
Both pair rows the same way (``_match``):

* sections by uuid (stable from the guide's slug and the heading's path in the source);
* entries by the resource they list (the catalog's resource the plan resolves to, by
  normalized URL or, for URL-less ones, the stable uuid), preferring the same section.

A kept row keeps its pk and every curator edit unless the source changed that very row:
``raw`` holds the row's source text as last imported (the item's line; for a section
``builder.section_raw``), and only when the new source's text differs are the
source-derived fields rewritten (and ``raw`` refreshed). A row with an empty ``raw``
(imported before it was recorded) counts as unchanged. An entry the source no longer lists
is deleted; its resource stays in the catalog with its progress, unlisted by this guide. An
entry a curator added (empty ``raw``, not in the source) stays where it is. A section the
source dropped is deleted once the sync leaves it empty. Resources are never deleted, and
changed only where empty (a year the list gives fills a resource that has none; a better title
in the list is only offered as the resource's suggested title); the guide's title, description
and published flag are kept.

``fetch_source(url)`` reads a guide's source URL through the guarded fetcher, with a size limit.
"""

import uuid as uuid_module
from dataclasses import dataclass, field

from django.conf import settings
from django.db import transaction

from apps.catalog.importer.builder import (
    ENTRY_SOURCE_FIELDS,
    SECTION_SOURCE_FIELDS,
    ImportResult,
    _resources,
    _topics_by_slug,
    apply_import,
    new_entry,
    new_section,
    section_raw,
    source_values,
)
from apps.catalog.importer.errors import CatalogImportError
from apps.catalog.importer.parser import MAX_SOURCE_SIZE
from apps.catalog.importer.planner import ImportPlan, PlannedEntry, catalog_resources
from apps.catalog.models import Entry, Guide, Section
from apps.catalog.positions import positions_park
from apps.core.fetch import FetchError, fetch


def fetch_failed() -> str:
    """The one message for every fetch without an HTTP answer (refused address, DNS, refused or
    reset connection, no answer in time): like the fetcher's, it tells none of them apart."""
    return (
        "Could not fetch the source: no usable answer "
        f"(none at all, or none within {settings.FETCH_DEADLINE} seconds)."
    )


@dataclass
class GuideDiff:
    added: list[tuple[str, str]] = field(default_factory=list)  # (title, section)
    removed: list[tuple[str, str]] = field(default_factory=list)  # (title, section)
    moved: list[tuple[str, str, str]] = field(default_factory=list)  # (title, from, to)
    changed: list[tuple[str, str]] = field(default_factory=list)  # the source rewrote its line
    sections_added: list[str] = field(default_factory=list)
    sections_removed: list[str] = field(default_factory=list)
    sections_changed: list[tuple[str, str]] = field(default_factory=list)  # (now, from source)
    reordered: list[str] = field(default_factory=list)  # sections whose kept entries change order
    sections_reordered: bool = False  # the source puts the kept sections in another order

    @property
    def is_empty(self) -> bool:
        return not (
            self.added
            or self.removed
            or self.moved
            or self.changed
            or self.sections_added
            or self.sections_removed
            or self.sections_changed
            or self.reordered
            or self.sections_reordered
        )

    def summary(self) -> str:
        lines = [
            f"{len(self.added)} added, {len(self.removed)} removed, {len(self.moved)} moved, {len(self.changed)} changed."
        ]
        lines += [f"+ {title} (in {section})" for title, section in self.added]
        lines += [
            f"- {title} (from {section}; stays in the catalog, unlisted, with its progress)"
            for title, section in self.removed
        ]
        lines += [f"~ {title}: {old} -> {new}" for title, old, new in self.moved]
        lines += [f"* {title} (in {section})" for title, section in self.changed]
        lines += [f"+ section {title}" for title in self.sections_added]
        lines += [f"- section {title}" for title in self.sections_removed]
        lines += [f"* section {old} -> {new}" for old, new in self.sections_changed]
        lines += [f"= reordered: {title}" for title in self.reordered]
        lines += ["= sections reordered"] if self.sections_reordered else []
        return "\n".join(lines)


def _label(section) -> str:
    return f"{section.number} {section.title}".strip()


def _path(section: Section, by_id: dict[int, Section]) -> str:
    labels, seen = [], set()
    while section is not None and section.pk not in seen:
        seen.add(section.pk)
        labels.append(_label(section))
        section = by_id.get(section.parent_id)
    return "/".join(reversed(labels))


def _planned_path(planned) -> str:
    labels = []
    while planned is not None:
        labels.append(_label(planned))
        planned = planned.parent
    return "/".join(reversed(labels))


def _entry_values(planned: PlannedEntry) -> dict:
    return source_values(planned, ENTRY_SOURCE_FIELDS)


def _section_values(planned) -> dict:
    return source_values(planned, SECTION_SOURCE_FIELDS)


def _source_changed(row, raw: str) -> bool:
    """Did the source rewrite this row since it was imported? (an empty ``raw``: no, as far as we know)"""
    return bool(row.raw) and row.raw != raw


@dataclass
class _Match:
    sections: dict[int, Section]  # every section of the guide, by pk
    by_uuid: dict  # section uuid -> Section
    pairs: list[tuple[PlannedEntry, Entry | None]]  # every planned entry, with the row it keeps
    removed: list[Entry]  # rows the source no longer lists
    curated: list[Entry]  # rows a curator added, not in the source: they stay


def _match(guide: Guide, plan: ImportPlan, resource_ids: dict[str, int | None]) -> _Match:
    """Pair the plan's entries with the guide's rows (see the module's docstring)."""
    sections = {section.pk: section for section in guide.sections.all()}
    by_uuid = {section.uuid: section for section in sections.values()}
    rows = list(
        Entry.objects.filter(section__guide=guide)
        .select_related("resource")
        .order_by("section__position", "position", "pk")
    )
    by_resource: dict[int, list[Entry]] = {}
    for row in rows:
        by_resource.setdefault(row.resource_id, []).append(row)
    pairs = []
    for planned in plan.guides[0].entries:
        candidates = by_resource.get(resource_ids.get(planned.resource.key), [])
        row = next(
            (c for c in candidates if sections[c.section_id].uuid == planned.section.uuid),
            candidates[0] if candidates else None,
        )
        if row is not None:
            candidates.remove(row)
        pairs.append((planned, row))
    left = [row for rows_left in by_resource.values() for row in rows_left]
    left.sort(key=lambda row: (sections[row.section_id].position, row.position, row.pk))
    return _Match(
        sections=sections,
        by_uuid=by_uuid,
        pairs=pairs,
        removed=[row for row in left if row.raw],
        curated=[row for row in left if not row.raw],
    )


def _dropped_sections(match: _Match, planned_uuids: set) -> list[Section]:
    """Sections the source dropped that the sync leaves empty (no entries, no subsections), deepest first.

    A section that was already empty (a curator's fresh one) is left alone."""
    sections = match.sections
    # rows the source lists go to the source's sections; only a curator's own rows stay put
    kept_entries = {row.section_id for row in match.curated}
    had_entries = kept_entries | {row.section_id for row in match.removed}
    had_entries |= {row.section_id for _, row in match.pairs if row is not None}
    children: dict[int | None, list[int]] = {}
    for section in sections.values():
        children.setdefault(section.parent_id, []).append(section.pk)
    dropped: list[Section] = []

    def survives(pk) -> bool:
        alive = [child for child in children.get(pk, []) if survives(child)]
        section = sections[pk]
        if section.uuid in planned_uuids or pk in kept_entries or alive:
            return True
        if pk in had_entries or children.get(pk):
            dropped.append(section)
            return False
        return True  # empty before the sync: not the sync's to remove

    for pk in children.get(None, []):
        survives(pk)
    return dropped


def diff_guide(guide: Guide, plan: ImportPlan) -> GuideDiff:
    """What ``apply_sync(plan)`` would do to ``guide`` (reads only)."""
    resource_ids = {key: resource.pk for key, resource in catalog_resources(plan).items()}
    match = _match(guide, plan, resource_ids)
    sections = match.sections
    diff = GuideDiff()
    for planned, row in match.pairs:
        if row is None:
            diff.added.append((planned.resource.title, _planned_path(planned.section)))
            continue
        current = sections[row.section_id]
        if current.uuid != planned.section.uuid:
            target = match.by_uuid.get(planned.section.uuid)
            diff.moved.append(
                (
                    row.resource.title,
                    _path(current, sections),
                    _path(target, sections) if target else _planned_path(planned.section),
                )
            )
        elif _source_changed(row, planned.raw) and any(
            getattr(row, name) != value for name, value in _entry_values(planned).items()
        ):
            diff.changed.append((row.resource.title, _path(current, sections)))
    diff.removed = [
        (row.resource.title, _path(sections[row.section_id], sections)) for row in match.removed
    ]
    planned_uuids = {planned.uuid for planned in plan.guides[0].sections}
    for planned in plan.guides[0].sections:
        section = match.by_uuid.get(planned.uuid)
        if section is None:
            diff.sections_added.append(_planned_path(planned))
        elif _source_changed(section, section_raw(planned)) and any(
            getattr(section, name) != value for name, value in _section_values(planned).items()
        ):
            diff.sections_changed.append((_path(section, sections), _label(planned)))
    diff.sections_removed = [
        _path(section, sections) for section in _dropped_sections(match, planned_uuids)
    ]
    kept_sections = [
        match.by_uuid[p.uuid] for p in plan.guides[0].sections if p.uuid in match.by_uuid
    ]
    diff.sections_reordered = kept_sections != sorted(kept_sections, key=lambda s: s.position)
    for planned_section in plan.guides[0].sections:
        stay = [
            row
            for planned, row in match.pairs
            if row is not None
            and planned.section is planned_section
            and sections[row.section_id].uuid == planned_section.uuid
        ]
        if stay != sorted(stay, key=lambda row: row.position):
            diff.reordered.append(_path(match.by_uuid[planned_section.uuid], sections))
    return diff


def apply_sync(plan: ImportPlan) -> ImportResult:
    """Apply ``plan`` over the guide with its slug, in place and in one transaction (see the module).

    A guide the catalog does not have yet is simply imported. ``result.counts`` says how
    many entries were added, kept, updated, moved and removed.
    """
    planned_guide = plan.guides[0]
    guide = Guide.objects.filter(slug=planned_guide.slug).first()
    if guide is None:
        return apply_import(plan)
    result = ImportResult(guide=guide)
    with transaction.atomic():
        guide = Guide.objects.select_for_update().get(pk=guide.pk)
        result.guide = guide
        resources = _resources(plan, _topics_by_slug(plan, result), result)
        match = _match(guide, plan, {key: r.pk for key, r in resources.items()})
        planned_uuids = {planned.uuid for planned in planned_guide.sections}
        dropped = _dropped_sections(match, planned_uuids)
        moved = sum(
            1
            for planned, row in match.pairs
            if row is not None and match.sections[row.section_id].uuid != planned.section.uuid
        )

        # Entries the source removed go first (their resources and progress stay).
        Entry.objects.filter(pk__in=[row.pk for row in match.removed]).delete()
        result.add("removed", len(match.removed))

        # Sections: park every position, then write the source's order, kept ones in place.
        final_sections = _section_order(guide, planned_guide, match, dropped)
        positions_park(guide.sections.all(), count=len(final_sections))
        section_by_uuid = {}
        for position, (planned, section) in enumerate(final_sections, start=1):
            if planned is None:  # a curator's section, or one the source dropped that is not empty
                old_parent = match.sections.get(section.parent_id)
                parent = section_by_uuid[old_parent.uuid] if old_parent else None
                section.parent, section.position = parent, position
                section.depth = parent.depth + 1 if parent else 0
                section.save(update_fields=["position", "depth", "parent", "updated_at"])
                section_by_uuid[section.uuid] = section
                continue
            parent = section_by_uuid[planned.parent.uuid] if planned.parent else None
            if section is None:
                section = new_section(planned, guide, parent)
                section.position = position
                section.save()
                result.add("sections")
            else:
                section.parent, section.position, section.depth = parent, position, planned.depth
                raw = section_raw(planned)
                if _source_changed(section, raw):
                    for name, value in _section_values(planned).items():
                        setattr(section, name, value)
                    result.add("sections_updated")
                section.raw = raw
                section.save()
            section_by_uuid[planned.uuid] = section
        section_by_pk = {section.pk: section for section in section_by_uuid.values()}

        # Entries: park every kept row, then number each section's entries 1..n, source order first.
        kept = [row for _, row in match.pairs if row is not None] + match.curated
        ordered: dict[int, list] = {}
        for planned, row in match.pairs:
            section = section_by_uuid[planned.section.uuid]
            ordered.setdefault(section.pk, []).append((planned, row))
        for row in match.curated:
            ordered.setdefault(row.section_id, []).append((None, row))
        longest = max((len(rows) for rows in ordered.values()), default=0)
        positions_park(Entry.objects.filter(pk__in=[row.pk for row in kept]), count=longest)
        taken = set(
            Entry.objects.filter(
                uuid__in=[planned.uuid for planned, row in match.pairs if row is None]
            ).values_list("uuid", flat=True)
        )
        for section_pk, rows in ordered.items():
            section = section_by_pk[section_pk]
            for position, (planned, row) in enumerate(rows, start=1):
                if row is None:
                    row = new_entry(planned, section, resources[planned.resource.key])
                    if row.uuid in taken:  # a row kept elsewhere holds the position-based uuid
                        row.uuid = uuid_module.uuid4()
                    row.position = position
                    row.save()
                    result.add("entries")
                    continue
                row.section, row.position = section, position
                if planned is not None:
                    if _source_changed(row, planned.raw):
                        for name, value in _entry_values(planned).items():
                            setattr(row, name, value)
                        result.add("updated")
                    row.raw = planned.raw
                row.save()
                result.add("kept")
        result.add("moved", moved)

        for section in dropped:  # deepest first: a parent is empty once its children are gone
            section.delete()
        result.add("sections_removed", len(dropped))
        if planned_guide.source_url and guide.source_url != planned_guide.source_url:
            guide.source_url = planned_guide.source_url
        if planned_guide.source_name and guide.source_name != planned_guide.source_name:
            guide.source_name = planned_guide.source_name
        guide.save(update_fields=["source_url", "source_name", "updated_at"])
    return result


def _section_order(guide, planned_guide, match: _Match, dropped: list[Section]):
    """The guide's sections after the sync, in document order: ``(planned or None, row or None)``.

    The source's sections come in its order; a section outside the source that stays (a
    curator's, or a dropped one still holding a curator's entry) follows its planned
    siblings under the same parent."""
    dropped_pks = {section.pk for section in dropped}
    planned_uuids = {planned.uuid for planned in planned_guide.sections}
    extra_children: dict = {}
    for section in sorted(match.sections.values(), key=lambda s: s.position):
        if section.uuid in planned_uuids or section.pk in dropped_pks:
            continue
        parent = match.sections.get(section.parent_id)
        extra_children.setdefault(parent.uuid if parent else None, []).append(section)
    planned_children: dict = {}
    for planned in planned_guide.sections:
        planned_children.setdefault(planned.parent.uuid if planned.parent else None, []).append(
            planned
        )
    order = []

    def visit(parent_uuid):
        for planned in planned_children.get(parent_uuid, []):
            order.append((planned, match.by_uuid.get(planned.uuid)))
            visit(planned.uuid)
        for section in extra_children.get(parent_uuid, []):
            order.append((None, section))
            visit(section.uuid)

    visit(None)
    return order


def sync_counts(result: ImportResult) -> str:
    """``apply_sync``'s counts in words, for the command's output and the admin history."""
    c = result.counts
    return (
        (
            f"{c.get('entries', 0)} entries added, {c.get('removed', 0)} removed, {c.get('moved', 0)} moved, "
            f"{c.get('updated', 0)} updated from the source, {c.get('kept', 0)} kept; "
            f"{c.get('sections', 0)} sections added, {c.get('sections_updated', 0)} updated, "
            f"{c.get('sections_removed', 0)} removed; {c.get('resources', 0)} new resources"
        )
        + (
            f"; {c['titles_suggested']} better titles offered as suggestions"
            if c.get("titles_suggested")
            else ""
        )
        + (f"; {c['years_added']} years filled in" if c.get("years_added") else "")
    )


def fetch_source(url: str) -> bytes:
    """The text at ``url`` through the guarded fetcher (``apps.core.fetch``: public http(s)
    addresses only, one deadline), at most ``MAX_SOURCE_SIZE`` bytes."""
    try:
        answer = fetch(
            url, headers={"User-Agent": "Syllabus guide sync"}, max_bytes=MAX_SOURCE_SIZE
        )
    except FetchError as error:
        raise CatalogImportError(
            f"Could not fetch the source: {error.detail}." if error.detail else fetch_failed()
        ) from None
    if not 200 <= answer.status < 300:
        raise CatalogImportError(f"Could not fetch the source: it answered HTTP {answer.status}.")
    if answer.truncated:
        raise CatalogImportError(
            f"The source at {url} is larger than {MAX_SOURCE_SIZE // 1024} KB."
        )
    return answer.body
