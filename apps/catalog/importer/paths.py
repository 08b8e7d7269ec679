"""The reading paths the guides define, as plain data keyed on resource uuids.

``guide_paths(guide)`` returns, for one planned guide, a list of ``ReadingPath`` (a catalog
plan's ``ImportPlan.paths`` holds every guide's):

* ``slug`` — stable, ``<guide slug>-<path name>``, e.g. ``ai-infra-field-notes-kernel-development``;
* ``title``, ``description`` — for display;
* ``guide`` — the guide's slug (``Guide.slug``);
* ``kind`` — where it comes from: ``"tier-order"`` (002: every Tier 1 entry, then Tier 2,
  then Tier 3), ``"reading-path"`` (004's four ``01 → 03 → …`` lines), ``"phased-plan"``
  (003's Phase 1-3 with week estimates, then the optional books), ``"book-order"`` (003's closing numbered
  book list), ``"must-first"`` (000/001: MUST entries, then each deep-dive concept, then MAYBE);
* ``steps`` — ordered ``ReadingPathStep``: ``title``; ``phase`` and ``effort`` as the guide
  writes them ("Phase 1", "8-10 weeks") or ``""``; ``note``; ``section``, the uuid of the
  guide section the step comes from (``None`` when it spans sections); and
  ``resources``, the ordered ``Resource.uuid`` values of the step.

A resource appears at most once per path (the first step that lists it keeps it), so
tier order does not repeat an article listed under two topics. Everything is a tuple
of frozen dataclasses: hashable, comparable, safe to cache.
"""

from dataclasses import dataclass
from uuid import UUID

from django.utils.text import slugify

from apps.catalog.models import Priority


@dataclass(frozen=True)
class ReadingPathStep:
    title: str
    resources: tuple[UUID, ...]
    phase: str = ""
    effort: str = ""
    note: str = ""
    section: UUID | None = None


@dataclass(frozen=True)
class ReadingPath:
    slug: str
    title: str
    guide: str
    kind: str
    description: str
    steps: tuple[ReadingPathStep, ...]

    @property
    def resources(self) -> tuple[UUID, ...]:
        return tuple(uuid for step in self.steps for uuid in step.resources)


def _path(
    guide, kind: str, title: str, description: str, steps: list[dict], *, name: str = ""
) -> ReadingPath | None:
    """Build a path from step dicts holding entry lists, each resource kept at its first step."""
    seen: set[UUID] = set()
    built = []
    for step in steps:
        resources = []
        for entry in step.pop("entries"):
            if entry.resource.uuid not in seen:
                seen.add(entry.resource.uuid)
                resources.append(entry.resource.uuid)
        if resources:
            built.append(ReadingPathStep(resources=tuple(resources), **step))
    if not built:
        return None
    return ReadingPath(
        slug=f"{guide.slug}-{slugify(name or title)}"[:80],
        title=title,
        guide=guide.slug,
        kind=kind,
        description=description,
        steps=tuple(built),
    )


def _subtree_entries(guide, section):
    inside = {section.uuid}
    for candidate in guide.sections:
        if candidate.parent is not None and candidate.parent.uuid in inside:
            inside.add(candidate.uuid)
    return [entry for entry in guide.entries if entry.section.uuid in inside]


def _written_paths(guide):
    """Paths the guide writes out: ``01 → 03 → …`` (by section number) or a numbered book list."""
    by_number = {section.number: section for section in guide.sections if section.number}
    entry_of_item = {id(entry.item): entry for entry in guide.entries}
    for written in guide.parsed.paths:
        steps, kind = [], "reading-path"
        for step in written.steps:
            if step.items:
                kind = "book-order"
                steps.append(
                    {"title": step.label, "entries": [entry_of_item[id(i)] for i in step.items]}
                )
            elif section := by_number.get(step.ref):
                title = f"{section.number} {section.title}"
                steps.append(
                    {
                        "title": title,
                        "section": section.uuid,
                        "entries": _subtree_entries(guide, section),
                    }
                )
        if kind == "book-order":
            description = "The order the guide's author settled on for the books of the plan."
        else:
            description = f"The guide's recommended reading path for {written.title.lower()}."
        yield _path(guide, kind, written.title, description, steps)


def _phased_plan(guide):
    phases = [section for section in guide.sections if section.phase]
    if not phases:
        return None
    steps = [
        {
            "title": f"{s.phase}: {s.title}",
            "phase": s.phase,
            "effort": s.effort,
            "section": s.uuid,
            "entries": _subtree_entries(guide, s),
        }
        for s in phases
    ]
    # The plan's optional/reference books close it, as in the guide.
    steps += [
        {
            "title": s.title,
            "phase": "Optional",
            "section": s.uuid,
            "entries": _subtree_entries(guide, s),
        }
        for s in guide.sections
        if s.parent is not None
        and s.parent is phases[0].parent
        and s.title.lower().startswith("optional")
    ]
    description = (
        "Books phase by phase, with the guide's week estimates, then the optional reference books."
    )
    return _path(guide, "phased-plan", "Phased book plan", description, steps)


def _tier_order(guide):
    if not any(entry.tier for entry in guide.entries):
        return None
    steps = [
        {
            "title": f"Tier {tier}",
            "note": note,
            "entries": [e for e in guide.entries if e.tier == tier],
        }
        for tier, note in (
            (1, "foundational concepts"),
            (2, "intermediate depth"),
            (3, "advanced / cutting-edge"),
        )
    ]
    description = "Tier 1 of every topic first, then Tier 2, then Tier 3, as the guide recommends."
    return _path(
        guide, "tier-order", f"{guide.title}: tier by tier", description, steps, name="tier-by-tier"
    )


def _must_first(guide):
    """MUST foundations first, then the deep dive concept by concept, then the MAYBE guides."""
    if not any(entry.priority == Priority.MUST for entry in guide.entries):
        return None
    deep_dive = next(
        (s for s in guide.sections if s.parent is None and s.title.lower().startswith("deep dive")),
        None,
    )
    concepts = [s for s in guide.sections if deep_dive is not None and s.parent is deep_dive]
    steps = [
        {
            "title": "MUST foundations",
            "priority": Priority.MUST,
            "entries": [e for e in guide.entries if e.priority == Priority.MUST],
        },
        *(
            {"title": s.title, "section": s.uuid, "entries": _subtree_entries(guide, s)}
            for s in concepts
        ),
        {
            "title": "MAYBE guides",
            "priority": Priority.MAYBE,
            "entries": [e for e in guide.entries if e.priority == Priority.MAYBE],
        },
    ]
    for step in steps:
        step.pop("priority", None)
    description = (
        "What the guide marks MUST first, then its deep dive concept by concept (in the guide's order), "
        "then the MAYBE guides."
    )
    return _path(
        guide,
        "must-first",
        f"{guide.title}: MUST first, then concept by concept",
        description,
        steps,
        name="must-first",
    )


def guide_paths(guide) -> list[ReadingPath]:
    """The paths of one planned guide (see the module docstring), in a stable order."""
    candidates = [
        _tier_order(guide),
        _phased_plan(guide),
        *_written_paths(guide),
        _must_first(guide),
    ]
    return [path for path in candidates if path is not None]
