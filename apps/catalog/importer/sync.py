"""Keeping a guide in step with its source: what a newer version adds, removes, moves or changes.

``diff_guide(guide, plan)`` compares the guide as the catalog holds it with a plan of the
newer source (entries matched by their resource's identity: normalized URL, or kind and
title). ``apply_sync`` applies the plan over the guide: its sections and entries are
rebuilt from the source, while resources are never changed or deleted, so every learner's
progress (kept per resource) and every curator edit of a resource survive; a resource
whose entry the source removed stays in the catalog, unlisted, with its progress.

``fetch_source(url)`` reads a guide's source URL with a size and time limit.
"""

import urllib.request
from dataclasses import dataclass, field

from apps.catalog.importer.builder import ImportResult, apply_import
from apps.catalog.importer.errors import CatalogImportError
from apps.catalog.importer.parser import MAX_SOURCE_SIZE
from apps.catalog.importer.planner import ImportPlan, resource_key
from apps.catalog.models import Entry, Guide, Section

FETCH_TIMEOUT = 20  # seconds


@dataclass
class GuideDiff:
    added: list[str] = field(default_factory=list)  # titles
    removed: list[str] = field(default_factory=list)
    moved: list[tuple[str, str, str]] = field(
        default_factory=list
    )  # (title, from section, to section)
    changed: list[str] = field(
        default_factory=list
    )  # entries whose note, tier, priority or rating changed

    @property
    def is_empty(self) -> bool:
        return not (self.added or self.removed or self.moved or self.changed)

    def summary(self) -> str:
        lines = [
            f"{len(self.added)} added, {len(self.removed)} removed, {len(self.moved)} moved, {len(self.changed)} changed."
        ]
        lines += [f"+ {title}" for title in self.added]
        lines += [
            f"- {title} (stays in the catalog, unlisted, with its progress)"
            for title in self.removed
        ]
        lines += [f"~ {title}: {old} -> {new}" for title, old, new in self.moved]
        lines += [f"* {title}" for title in self.changed]
        return "\n".join(lines)


def _section_path(section: Section, by_id: dict[int, Section]) -> str:
    labels, seen = [], set()
    while section is not None and section.pk not in seen:
        seen.add(section.pk)
        labels.append(f"{section.number} {section.title}".strip())
        section = by_id.get(section.parent_id)
    return "/".join(reversed(labels))


def diff_guide(guide: Guide, plan: ImportPlan) -> GuideDiff:
    sections = {section.pk: section for section in guide.sections.all()}
    current: dict[str, tuple[str, str, tuple]] = {}
    for entry in (
        Entry.objects.filter(section__guide=guide)
        .select_related("resource")
        .order_by("position", "pk")
    ):
        resource = entry.resource
        key = resource_key(resource.url, resource.kind, resource.title)
        current.setdefault(
            key,
            (
                resource.title,
                _section_path(sections[entry.section_id], sections),
                (entry.note, entry.tier, entry.priority, entry.rating),
            ),
        )
    planned: dict[str, tuple[str, str, tuple]] = {}
    for entry in plan.guides[0].entries:
        planned.setdefault(
            entry.resource.key,
            (
                entry.resource.title,
                entry.section.path,
                (entry.note, entry.tier, entry.priority or "", entry.rating),
            ),
        )
    diff = GuideDiff()
    for key, (title, path, details) in planned.items():
        if key not in current:
            diff.added.append(title)
            continue
        old_title, old_path, old_details = current[key]
        if old_path != path:
            diff.moved.append((old_title, old_path, path))
        elif old_details != details:
            diff.changed.append(old_title)
    diff.removed = [title for key, (title, _, _) in current.items() if key not in planned]
    return diff


def apply_sync(plan: ImportPlan) -> ImportResult:
    """Rebuild the guide's sections and entries from ``plan`` (resources are only ever added)."""
    guide = Guide.objects.filter(slug=plan.guides[0].slug).first()
    published = guide.is_published if guide else False
    result = apply_import(plan, replace=True)
    if guide is not None:
        Guide.objects.filter(pk=guide.pk).update(is_published=published)
    return result


def fetch_source(url: str) -> bytes:
    """The text at ``url`` (http or https only), at most ``MAX_SOURCE_SIZE`` bytes."""
    if not url.lower().startswith(("http://", "https://")):
        raise CatalogImportError(f"The source {url!r} is not an http(s) URL.")
    request = urllib.request.Request(url, headers={"User-Agent": "Syllabus guide sync"})
    try:
        with urllib.request.urlopen(
            request, timeout=FETCH_TIMEOUT
        ) as response:  # the scheme is checked above
            data = response.read(MAX_SOURCE_SIZE + 1)
    except (OSError, ValueError) as error:
        raise CatalogImportError(f"Could not fetch {url}: {error}") from None
    if len(data) > MAX_SOURCE_SIZE:
        raise CatalogImportError(
            f"The source at {url} is larger than {MAX_SOURCE_SIZE // 1024} KB."
        )
    return data
