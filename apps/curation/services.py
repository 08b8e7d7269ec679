"""Curators' writes to the catalog: merging duplicate resources, renumbering positions, bulk edits.

Each service is one transaction and returns what it did, so the admin can say it and log it.
"""

from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db import models, transaction
from django.db.models import DateTimeField, ForeignObjectRel, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from apps.catalog.models import (
    Entry,
    Guide,
    Resource,
    ResourceAlias,
    ResourceLink,
    Section,
    Topic,
    url_key,
)
from apps.catalog.positions import next_position, positions_renumber
from apps.progress import services as progress_services
from apps.progress.models import Activity, Progress


class CurationError(Exception):
    """A curation write that cannot be made; the message is shown to the curator."""


# --- Positions -------------------------------------------------------------------------------
def section_entries_renumber(*, section: Section) -> int:
    """Entries of ``section`` get positions 1..n in their current order."""
    return positions_renumber(rows=list(section.entries.order_by("position", "pk")))


def guide_sections_renumber(*, guide: Guide) -> int:
    """Sections of ``guide`` (all depths) get positions 1..n in the order the guide page shows
    them: each section followed by its subsections, siblings by position. Position is document
    order for whatever reads the guide flat (reading order, next up, exports), so a subsection
    numbered before its parent, or a section between another's subsections, is put right."""
    by_position = list(guide.sections.order_by("position", "pk"))
    ids = {section.pk for section in by_position}
    children: dict[int | None, list[Section]] = {}
    for section in by_position:
        parent = section.parent_id if section.parent_id in ids else None
        children.setdefault(parent, []).append(section)
    ordered, seen = [], set()
    stack = list(reversed(children.get(None, [])))
    while stack:
        section = stack.pop()
        if section.pk in seen:
            continue
        seen.add(section.pk)
        ordered.append(section)
        stack.extend(reversed(children.get(section.pk, [])))
    # A parent cycle typed into the admin reaches no root: those keep their order, last.
    ordered += [section for section in by_position if section.pk not in seen]
    return positions_renumber(rows=ordered)


def section_depths_refresh(*, section: Section) -> None:
    """Set ``depth`` of ``section`` and its subsections from their parents (after a move)."""
    with transaction.atomic():
        parent = section.parent
        section.depth = parent.depth + 1 if parent is not None else 0
        Section.objects.filter(pk=section.pk).update(depth=section.depth)
        level, seen = [section], {section.pk}
        while level:
            children = [
                child for child in Section.objects.filter(parent__in=level) if child.pk not in seen
            ]
            parents = {parent.pk: parent.depth for parent in level}
            for child in children:
                child.depth = parents[child.parent_id] + 1
                seen.add(child.pk)
            Section.objects.bulk_update(children, ["depth"])
            level = children


# --- Bulk edits ------------------------------------------------------------------------------
# Each takes any queryset (an admin changelist's may be annotated or distinct), works on plain
# rows by primary key, and returns the objects it actually changed, for the history.
def _rows(queryset):
    return queryset.model._default_manager.filter(
        pk__in=list(queryset.values_list("pk", flat=True))
    )


def objects_set_published(*, queryset, published: bool) -> list:
    """Publish or unpublish any catalog objects."""
    with transaction.atomic():
        changed = list(_rows(queryset).exclude(is_published=published))
        now = timezone.now()
        values = {"is_published": published, "updated_at": now}
        if published and queryset.model is Entry:  # as Entry.save: the first publishing dates it
            values["added_at"] = Coalesce("added_at", Value(now, output_field=DateTimeField()))
        queryset.model._default_manager.filter(pk__in=[obj.pk for obj in changed]).update(**values)
    return changed


def resources_set_kind(*, resources, kind: str) -> list[Resource]:
    with transaction.atomic():
        changed = list(_rows(resources).exclude(kind=kind))
        Resource.objects.filter(pk__in=[r.pk for r in changed]).update(
            kind=kind, updated_at=timezone.now()
        )
    return changed


def resources_add_topic(*, resources, topic: Topic) -> list[Resource]:
    return _resources_set_topic(resources, topic, present=True)


def resources_remove_topic(*, resources, topic: Topic) -> list[Resource]:
    return _resources_set_topic(resources, topic, present=False)


def _resources_set_topic(resources, topic, *, present):
    with transaction.atomic():
        rows = _rows(resources)
        changed = list(rows.exclude(topics=topic) if present else rows.filter(topics=topic))
        (topic.resources.add if present else topic.resources.remove)(*changed)
        Resource.objects.filter(pk__in=[r.pk for r in changed]).update(updated_at=timezone.now())
    return changed


def resources_accept_suggested_titles(*, resources) -> list[tuple[Resource, str]]:
    """Give each resource that has one its suggested title (the page's own, found by the link
    checker) and clear the suggestion, in one transaction. Returns (resource, old title) pairs."""
    with transaction.atomic():
        changed = list(_rows(resources).exclude(suggested_title="").select_for_update())
        now, renamed = timezone.now(), []
        for resource in changed:
            renamed.append((resource, resource.title))
            resource.title, resource.suggested_title = resource.suggested_title, ""
            resource.updated_at = now
        Resource.objects.bulk_update(changed, ["title", "suggested_title", "updated_at"])
    return renamed


def resources_dismiss_suggested_titles(*, resources) -> list[Resource]:
    """Forget the suggested titles of ``resources``; their titles stay as they are."""
    with transaction.atomic():
        changed = list(_rows(resources).exclude(suggested_title=""))
        Resource.objects.filter(pk__in=[r.pk for r in changed]).update(suggested_title="")
    return changed


# --- Merge -----------------------------------------------------------------------------------
# The rules of combining two learners' rows live with every other progress write.
STATUS_RANK, NOTE_SEPARATOR = progress_services.STATUS_RANK, progress_services.NOTE_SEPARATOR


@dataclass
class MergeResult:
    survivor: Resource
    merged: list[str] = field(default_factory=list)  # "title" (#id) of each duplicate, for messages
    entries_moved: int = 0
    entries_folded: int = 0  # a duplicate's entry in a section the survivor is already in
    links_added: int = 0
    topics_added: int = 0
    progress_moved: int = 0
    progress_combined: int = 0
    activities_moved: int = 0
    other_moved: dict[str, int] = field(
        default_factory=dict
    )  # e.g. path steps: {"step resources": 2}

    def summary(self) -> str:
        parts = [
            f"merged {', '.join(self.merged)}",
            f"{self.entries_moved} entries moved",
            f"{self.links_added} links added",
            f"{self.topics_added} topics added",
            f"progress of {self.progress_moved + self.progress_combined} learners kept "
            f"({self.progress_combined} combined)",
        ]
        if self.entries_folded:
            parts.insert(2, f"{self.entries_folded} entries folded into the survivor's own")
        parts += [f"{count} {label} moved" for label, count in self.other_moved.items() if count]
        return "; ".join(parts) + "."


def resource_merge(*, survivor: Resource, duplicates: Iterable[Resource]) -> MergeResult:
    """Fold ``duplicates`` into ``survivor`` and delete them, losing nothing a learner or a guide holds.

    In one transaction:
    - entries point at the survivor; where the survivor already sits in the same section the
      duplicate's entry is folded into that one (its blanks filled) and the section renumbered;
    - extra links move, except those equal to the survivor's URL or links; each duplicate's own
      URL becomes an extra link (or the survivor's URL, when the survivor has none);
    - topics are united; blank author, description and effort are filled from the duplicates;
    - every learner's progress is kept: a row only on a duplicate moves; two rows combine
      (furthest status per STATUS_RANK, earliest started_at and completed_at, different notes
      joined); activity rows move;
    - any other row pointing at a resource (path steps, and whatever comes later) moves too,
      dropped only where the survivor is already there (a unique constraint says so);
    - each duplicate's uuid becomes an alias of the survivor, and the duplicates' own aliases
      (from earlier merges) move to it: an old address or export still finds the resource.
    """
    duplicates = [d for d in duplicates if d.pk != survivor.pk]
    if not duplicates:
        raise CurationError("Choose at least one duplicate besides the resource that survives.")
    with transaction.atomic():
        locked = {
            r.pk: r
            for r in Resource.objects.select_for_update().filter(
                pk__in=[survivor.pk, *[d.pk for d in duplicates]]
            )
        }
        if len(locked) != len(duplicates) + 1:
            raise CurationError("One of the resources was deleted meanwhile; reload and try again.")
        survivor = locked[survivor.pk]
        duplicates = [locked[d.pk] for d in duplicates]
        result = MergeResult(
            survivor=survivor, merged=[f"“{d.title}” (#{d.pk})" for d in duplicates]
        )
        _merge_fields(survivor, duplicates)
        _merge_entries(survivor, duplicates, result)
        _merge_links(survivor, duplicates, result)
        _merge_progress(survivor, duplicates, result)
        _merge_aliases(survivor, duplicates)
        _merge_other_references(survivor, duplicates, result)
        topics = set(Topic.objects.filter(resources__in=duplicates).exclude(resources=survivor))
        survivor.topics.add(*topics)
        result.topics_added = len(topics)
        Resource.objects.filter(pk__in=[d.pk for d in duplicates]).delete()
        survivor.save()  # after the deletes: it may take over a duplicate's unique URL
    return result


def _merge_fields(survivor, duplicates):
    for name in ("author", "description", "effort_minutes"):
        if not getattr(survivor, name):
            value = next((getattr(d, name) for d in duplicates if getattr(d, name)), None)
            if value:
                setattr(survivor, name, value)


def _merge_entries(survivor, duplicates, result):
    own_by_section = {entry.section_id: entry for entry in survivor.entries.order_by("position")}
    touched_sections = set()
    for entry in Entry.objects.filter(resource__in=duplicates).order_by("section_id", "position"):
        own = own_by_section.get(entry.section_id)
        if own is None:
            entry.resource = survivor
            entry.save(update_fields=["resource", "updated_at"])
            own_by_section[entry.section_id] = entry
            result.entries_moved += 1
            continue
        for name in ("tier", "priority", "rating", "raw"):
            if getattr(own, name) in (None, "") and getattr(entry, name) not in (None, ""):
                setattr(own, name, getattr(entry, name))
        own.note = progress_services.join_notes(own.note, entry.note)
        own.marked_done = own.marked_done or entry.marked_done
        own.save()
        entry.delete()
        touched_sections.add(entry.section_id)
        result.entries_folded += 1
    for section in Section.objects.filter(pk__in=touched_sections):
        section_entries_renumber(section=section)


def _merge_links(survivor, duplicates, result):
    known = {
        key for key in [survivor.url_key, *survivor.links.values_list("url_key", flat=True)] if key
    }
    position = next_position(survivor.links.all())
    for duplicate in duplicates:
        candidates = [(duplicate.url, duplicate.title)] if duplicate.url else []
        candidates += [(link.url, link.label) for link in duplicate.links.order_by("position")]
        for url, label in candidates:
            key = url_key(url)  # the models' own rule, as their url_key columns hold it
            if key in known:
                continue
            known.add(key)
            if not survivor.url and url == duplicate.url:
                survivor.url = url  # saved after the duplicate (which holds the unique URL) is gone
                continue
            ResourceLink.objects.create(resource=survivor, url=url, label=label, position=position)
            position += 1
            result.links_added += 1
    # The duplicates' own links go with them when they are deleted.


def _merge_progress(survivor, duplicates, result):
    activities = Activity.objects.filter(resource__in=duplicates).count()
    result.progress_moved, result.progress_combined = progress_services.progress_merge(
        survivor=survivor, duplicates=duplicates
    )
    result.activities_moved = activities


def _merge_aliases(survivor, duplicates):
    ResourceAlias.objects.filter(resource__in=duplicates).update(resource=survivor)
    uuids = [duplicate.uuid for duplicate in duplicates]
    ResourceAlias.objects.filter(uuid__in=uuids).delete()  # a stale alias of a uuid now merged
    ResourceAlias.objects.bulk_create(
        [ResourceAlias(uuid=value, resource=survivor) for value in uuids]
    )


def _merge_other_references(survivor, duplicates, result):
    """Repoint every foreign key to Resource this module does not handle by name (path steps…)."""
    handled = {Entry, ResourceLink, Progress, Activity, ResourceAlias}
    for relation in Resource._meta.get_fields(include_hidden=True):
        if (
            not isinstance(relation, ForeignObjectRel)
            or not (relation.one_to_many or relation.one_to_one)
            or not relation.auto_created
            or relation.concrete
        ):
            continue
        model, fk = relation.related_model, relation.field
        if model is None or model in handled or model._meta.auto_created:
            continue  # auto-created m2m tables (topics) are handled through their fields
        unique_sets = _unique_field_sets(model, fk.name)
        moved = 0
        for row in model._default_manager.filter(**{f"{fk.name}__in": duplicates}):
            clash = any(
                model._default_manager.filter(
                    **{fk.name: survivor},
                    **{name: getattr(row, name) for name in fields if name != fk.name},
                ).exists()
                for fields in unique_sets
            )
            if clash:
                row.delete()  # the survivor is already there
            else:
                setattr(row, fk.name, survivor)
                row.save()
                moved += 1
        if moved:
            result.other_moved[str(model._meta.verbose_name_plural)] = moved


def _unique_field_sets(model, fk_name):
    """The unique field groups of ``model`` that include ``fk_name`` (attribute names)."""
    groups = [tuple(group) for group in model._meta.unique_together]
    groups += [
        tuple(constraint.fields)
        for constraint in model._meta.constraints
        if isinstance(constraint, models.UniqueConstraint)
        and constraint.fields
        and constraint.condition is None
    ]
    return [group for group in groups if fk_name in group]
