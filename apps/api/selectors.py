"""The API's reads, in the shapes of apps.api.schemas, asked of the owners of each rule: what
learners may see is apps.catalog.selectors' (`visible_resources`, `visible_tree`,
`guide_entries`, the memoized parts), search is `search_resources` (apps.catalog.search reads the
words), paths are apps.paths.selectors', a learner's rows are apps.progress'. Nothing here
decides visibility; the lists run a fixed number of queries whatever their length.
"""

from collections import Counter, defaultdict
from typing import Any

from django.db.models import Prefetch, QuerySet

from apps.catalog.models import Guide, Resource, Topic
from apps.catalog.selectors import (
    guide_entries,
    guide_structure,
    guides_with_top_sections,
    published_placements,
    search_resources,
    topic_list,
    visible_resources,
    visible_tree,
)
from apps.paths.models import OwnPath
from apps.paths.selectors import PathView, own_path_view, path_outline, published_paths
from apps.progress.models import Progress, Status


def guide_summaries() -> list[dict[str, Any]]:
    """Every published guide with its visible sections and resources counted; no query when
    the catalog's memo is warm."""
    structure = guide_structure()
    sections = Counter(section.guide_id for section in visible_tree().visible.values())
    return [
        _guide(guide, sections[guide.id], len(structure.guide_resources.get(guide.id, ())))
        for guide in guides_with_top_sections()
    ]


def guide_summary(*, guide: Guide) -> dict[str, Any]:
    return next(summary for summary in guide_summaries() if summary["uuid"] == guide.uuid)


def _guide(guide: Guide, section_count: int, resource_count: int) -> dict[str, Any]:
    return {
        "uuid": guide.uuid,
        "slug": guide.slug,
        "title": guide.title,
        "description": guide.description,
        "source_name": guide.source_name,
        "source_url": guide.source_url,
        "section_count": section_count,
        "resource_count": resource_count,
        "page": guide.get_absolute_url(),
    }


def guide_sections(*, guide: Guide) -> list[dict[str, Any]]:
    """The guide's visible sections in reading order, each with its visible entries; an entry's
    tier and priority are its own, else the nearest heading's (as the guide page shows them)."""
    tree = visible_tree()
    entries = defaultdict(list)
    for entry in guide_entries(guide=guide):
        entries[entry.section_id].append(entry)
    sections = []
    for section in tree.visible.values():
        if section.guide_id != guide.id:
            continue
        lineage = [section, *reversed(section.ancestors)]
        tier = next((s.tier for s in lineage if s.tier), None)
        priority = next((s.priority for s in lineage if s.priority), "")
        parent = tree.visible.get(section.parent_id) if section.parent_id else None
        sections.append(
            {
                "uuid": section.uuid,
                "parent": parent.uuid if parent else None,
                "depth": len(section.ancestors),
                "number": section.number,
                "title": section.title,
                "description": section.description,
                "tier": section.tier,
                "priority": section.priority,
                "phase": section.phase,
                "effort": section.effort,
                "entries": [
                    {
                        "uuid": entry.uuid,
                        "position": entry.position,
                        "tier": entry.tier or tier,
                        "priority": entry.priority or priority,
                        "rating": entry.rating,
                        "note": entry.note,
                        "resource": entry.resource,
                    }
                    for entry in entries[section.id]
                ],
            }
        )
    return sections


def resource_list(
    *, query: str = "", kind: str = "", guide: str = "", topic: Topic | None = None
) -> QuerySet:
    """Visible resources: those `search_resources` finds for `query` (best first), else all of
    them by title; narrowed by kind, guide slug and topic (each validated by the caller). With
    their extra links and published topics: a page of any length is three queries and a count."""
    filters = {name: value for name, value in (("kind", kind), ("guide", guide)) if value}
    if query:
        resources = search_resources(query, filters=filters)
    else:
        resources = visible_resources().order_by("title", "id")
        if kind:
            resources = resources.filter(kind=kind)
        if guide:
            held: frozenset[int] = next(
                (
                    guide_structure().guide_resources.get(g.id, frozenset())
                    for g in guides_with_top_sections()
                    if g.slug == guide
                ),
                frozenset(),
            )
            resources = resources.filter(id__in=sorted(held))
    if topic is not None:
        resources = resources.filter(topics=topic)
    return with_details(resources)


def with_details(resources: QuerySet) -> QuerySet:
    return resources.prefetch_related(
        "links",
        Prefetch("topics", queryset=Topic.objects.published(), to_attr="published_topics"),
    )


def guide_slugs_of(resource: Resource) -> list[str]:
    """Slugs of the published guides listing `resource` (visible entries), in guide order; from
    the memo, no query."""
    slugs = {guide.id: guide.slug for guide in guides_with_top_sections()}
    found = dict.fromkeys(
        slugs[entry.section.guide_id] for entry in published_placements().get(resource.id, [])
    )
    return list(found)


def topic_summaries() -> list[dict[str, Any]]:
    """Published topics with their visible resources counted: one query."""
    return [_topic(topic) for topic in topic_list()]


def _topic(topic: Topic) -> dict[str, Any]:
    return {
        "uuid": topic.uuid,
        "slug": topic.slug,
        "title": topic.title,
        "description": topic.description,
        "resource_count": topic.resource_count,
        "page": topic.get_absolute_url(),
    }


def path_summaries() -> list[dict[str, Any]]:
    """Every published path (its steps list only visible resources); from the memo."""
    return [path_summary(path) for path in published_paths()]


def path_summary(path, *, steps: bool = False) -> dict[str, Any]:
    view = path_outline(path)
    summary = {
        "uuid": path.uuid,
        "slug": path.slug,
        "title": path.title,
        "description": path.description,
        "guide": path.guide.slug if path.guide_id else None,
        "step_count": len(view.steps),
        "resource_count": view.tally.total,
        "hours": view.hours,
        "page": path.get_absolute_url(),
    }
    if steps:
        summary["steps"] = [
            {
                "uuid": step.step.uuid,
                "position": step.step.position,
                "title": step.step.title,
                "phase": step.step.phase,
                "effort": step.step.effort,
                "hours": round(step.minutes / 60, 1),
                "description": step.step.description,
                "resources": [item.resource for item, _ in step.items],
            }
            for step in view.steps
        ]
    return summary


# --- The learner's own -----------------------------------------------------------------------
def progress_rows(*, user, status: str = "") -> QuerySet:
    """The learner's rows on visible resources (a row on a hidden one stays theirs, in "Download
    all my data", and shows here again when the resource does), most recently changed first."""
    rows = Progress.objects.filter(user=user, resource__in=visible_resources())
    if status:
        rows = rows.filter(status=status)
    return rows.select_related("resource").order_by("-updated_at", "-id")


def progress_of(*, user, resource: Resource) -> dict[str, Any]:
    """The learner's status and note on `resource` (not started, no note: no row)."""
    row = Progress.objects.filter(user=user, resource=resource).first()
    return progress_out(row, resource=resource)


def progress_out(row: Progress | None, *, resource: Resource) -> dict[str, Any]:
    if row is None:
        return {
            "resource": resource,
            "status": Status.NOT_STARTED,
            "note": "",
            "started_at": None,
            "completed_at": None,
            "updated_at": None,
        }
    return {
        "resource": resource,
        "status": row.status,
        "note": row.note,
        "started_at": row.started_at,
        "completed_at": row.completed_at,
        "updated_at": row.updated_at,
    }


def own_path_out(path, *, user, steps: bool = False) -> dict[str, Any]:
    """An own path as the API sends it; with `steps`, its steps, items and the learner's
    progress on them (apps.paths.selectors.own_path_view: a fixed number of queries)."""
    out = {
        "uuid": path.uuid,
        "title": path.title,
        "description": path.description,
        "notes": path.notes,
        "slug": path.slug,
        "published": path.published,
        "hours_per_week": path.hours_per_week,
        "page": path.get_absolute_url(),
    }
    if steps:
        view = own_path_view(path=path, user=user)
        out |= {
            "resource_count": view.tally.total,
            "done": view.tally.done,
            "hours": view.hours,
            "next_up": view.next_up[1].resource.uuid if view.next_up else None,
            "steps": [
                {
                    "uuid": step.step.uuid,
                    "position": step.step.position,
                    "title": step.step.title,
                    "effort_hours": step.step.effort_hours,
                    "hours": round(step.minutes / 60, 1),
                    "items": [
                        {
                            "uuid": item.uuid,
                            "status": status or "not_started",
                            "resource": item.resource,
                            "own_resource": getattr(item.resource, "own_pk", None),
                        }
                        for item, status in step.items
                    ],
                }
                for step in view.steps
            ],
        }
    return out


def path_progress_out(view: PathView) -> dict[str, Any]:
    """A path's progress as the API sends it, read off the PathView the pages draw (apps.paths
    .selectors: path_detail, own_path_view, paths_followed), so its numbers are the pages'."""
    path, tally, follow, pace = view.path, view.tally, view.follow, view.pace
    own = isinstance(path, OwnPath)
    next_up = None
    if view.next_up:
        step, item = view.next_up
        next_up = {
            "resource": item.resource.uuid,
            "title": item.resource.title,
            "url": item.resource.url or "",
            "resource_object": item.resource,  # its page and own id: NextUpOut's resolvers
            "step": {
                "uuid": step.step.uuid,
                "position": step.step.position,
                "title": step.step.title,
            },
        }
    return {
        "kind": "own" if own else "curated",
        "uuid": path.uuid,
        "slug": path.slug,
        "title": path.title,
        "page": path.get_absolute_url(),
        "followed": follow is not None,
        "followed_at": follow.followed_at if follow else None,
        "total": tally.total,
        "done": tally.done,
        "skipped": tally.skipped,
        "in_progress": tally.in_progress,
        "countable": tally.countable,
        "percent": tally.percent,
        "complete": tally.complete,
        "minutes_done": view.done_minutes,
        "minutes_total": view.minutes,
        "next_up": next_up,
        "pace": {
            "hours_per_week": pace.hours_per_week,
            "standing": "on_track" if pace.on_track else "ahead" if pace.ahead else "behind",
            "gap_hours": 0 if pace.on_track else pace.gap_hours,
            "projected_finish": pace.expected_finish,
        }
        if pace
        else None,
    }
