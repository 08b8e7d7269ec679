"""The catalog fixture (the bundled guides as serialized objects with natural keys) and the seed.

One file, ``fixtures/catalog.json``: topics, guides, sections (parents first),
resources (with their topics), extra links, entries. No auto pks: every object is
identified by its ``uuid`` and refers to others by ``[uuid]``, so it loads into any
database. Timestamps are left out (the seed sets them) to keep rebuilds byte-identical.

``seed_catalog`` loads it additively: what is missing is created, nothing is changed.
"""

import json
from dataclasses import dataclass
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.core import serializers
from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, transaction

from apps.catalog.importer import builder, sources
from apps.catalog.importer import topics as taxonomy
from apps.catalog.importer.planner import ImportPlan, plan_catalog
from apps.catalog.models import Kind
from apps.core.models import Seeded

FIXTURE_PATH = Path(settings.BASE_DIR) / "fixtures" / "catalog.json"
FIXTURE_NAME = FIXTURE_PATH.name

FIELDS = {
    "topic": ["uuid", "slug", "title", "description", "position"],
    "guide": [
        "uuid",
        "slug",
        "title",
        "description",
        "source_name",
        "source_url",
        "source_note",
        "sync_schedule",
        "position",
    ],
    "section": [
        "uuid",
        "guide",
        "parent",
        "title",
        "number",
        "description",
        "position",
        "depth",
        "tier",
        "priority",
        "phase",
        "effort",
        "raw",
    ],
    "resource": ["uuid", "url", "url_issue", "title", "kind", "author", "year", "description"],
    "resourcelink": ["uuid", "resource", "url", "label", "position"],
    "entry": [
        "uuid",
        "section",
        "resource",
        "position",
        "tier",
        "priority",
        "rating",
        "note",
        "marked_done",
        "raw",
    ],
}


def chapter_description(description: str, note: str) -> str:
    """A link-less chapter's description with the note saying where its text is (once)."""
    if note in description:
        return description
    return f"{description}\n\n{note}" if description else note


def _serialize(objects, model_name: str) -> list[dict]:
    return serializers.serialize(
        "python",
        objects,
        fields=FIELDS[model_name],
        use_natural_foreign_keys=True,
        use_natural_primary_keys=True,
    )


def catalog_objects(plan: ImportPlan) -> list[dict]:
    """The plan as serialized objects (the python serializer's dicts), in load order."""
    topics = {
        spec.slug: builder.new_topic(spec, position)
        for position, spec in enumerate(taxonomy.TOPICS, 1)
    }
    guides, sections, resources, links, entries = [], {}, {}, [], []
    for planned in plan.resources:
        resource = resources[planned.key] = builder.new_resource(planned)
        links += [builder.new_link(link, resource) for link in planned.links]
    bundled = {source.slug: source for source in sources.GUIDE_SOURCES}
    for planned_guide in plan.guides:
        guide = builder.new_guide(planned_guide)
        source = bundled.get(planned_guide.slug)
        if source is not None:
            guide.source_note, guide.sync_schedule = source.source_note, source.sync_schedule
            if source.chapter_note:
                for planned in planned_guide.entries:
                    resource = resources[planned.resource.key]
                    if resource.kind == Kind.CHAPTER and not resource.url:
                        resource.description = chapter_description(
                            resource.description, source.chapter_note
                        )
        guides.append(guide)
        for planned in planned_guide.sections:
            parent = sections[planned.parent.uuid] if planned.parent else None
            sections[planned.uuid] = builder.new_section(planned, guide, parent)
        entries += [
            builder.new_entry(e, sections[e.section.uuid], resources[e.resource.key])
            for e in planned_guide.entries
        ]
    serialized_resources = _serialize(resources.values(), "resource")
    # The serializer cannot read an unsaved object's many-to-many: add the topics by hand.
    for data, planned in zip(serialized_resources, plan.resources, strict=True):
        data["fields"]["topics"] = [topics[slug].natural_key() for slug in planned.topics]
    return [
        *_serialize(topics.values(), "topic"),
        *_serialize(guides, "guide"),
        *_serialize(sections.values(), "section"),
        *serialized_resources,
        *_serialize(links, "resourcelink"),
        *_serialize(entries, "entry"),
    ]


def render_catalog_fixture(plan: ImportPlan | None = None) -> str:
    """The fixture file's text; the same sources always give the same bytes."""
    objects = catalog_objects(plan or plan_catalog())
    return json.dumps(objects, cls=DjangoJSONEncoder, ensure_ascii=False, indent=1) + "\n"


def write_catalog_fixture(output_dir: Path | None = None, plan: ImportPlan | None = None) -> Path:
    path = Path(output_dir) / FIXTURE_NAME if output_dir else FIXTURE_PATH
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_catalog_fixture(plan), encoding="utf-8")
    return path


@dataclass
class SeedResult:
    created: int = 0
    present: int = 0
    skipped: int = 0  # could not be created: a conflicting curator edit, or its parent is gone
    deleted: int = 0  # seeded once, deleted since (by a curator, or merged away): left deleted

    def __str__(self) -> str:
        text = f"Seeded: {self.created} created, {self.present} already present"
        if self.skipped:
            text += f", {self.skipped} skipped (conflicting with curator changes)"
        if self.deleted:
            text += f", {self.deleted} deleted since seeded (left deleted; `seed --restore` brings them back)"
        return text


def _save_new(deserialized) -> bool:
    """Save one deserialized object that is not in the database yet; False when it cannot be."""
    obj = deserialized.object
    deferred = dict(deserialized.deferred_fields or {})
    m2m_deferred = {f: v for f, v in deferred.items() if f.many_to_many}
    if len(m2m_deferred) < len(deferred):
        return (
            False  # a foreign key points at an object that is not there (deleted, or skipped above)
        )
    try:
        with transaction.atomic():
            # A plain save, not the raw one loaddata does: timestamps get set, Resource.save runs.
            obj.save()
            for name, values in (deserialized.m2m_data or {}).items():
                getattr(obj, name).set(values)
            for m2m_field, keys in m2m_deferred.items():
                related = m2m_field.remote_field.model.objects.filter(
                    uuid__in=[key[0] for key in keys]
                )
                getattr(obj, m2m_field.name).set(related)
    except IntegrityError:
        return False
    return True


def seed_catalog(path: Path | None = None, *, restore: bool = False) -> SeedResult:
    """Load the catalog fixture additively: create what is missing, never change or delete anything.

    Objects are matched on uuid. A curator's edits survive because existing objects are
    not touched at all (topics of a resource are only set when the resource is created);
    whatever the fixture does not mention is left alone. What the seed loaded once and a curator
    deleted since (core.Seeded remembers) is not created again, unless `restore`.
    """
    objects = json.loads((path or FIXTURE_PATH).read_text(encoding="utf-8"))
    labels = {obj["model"] for obj in objects}
    present = {
        (label, str(value))
        for label in labels
        for value in apps.get_model(label).objects.values_list("uuid", flat=True)
    }
    seeded = {
        (label, str(value))
        for label, value in Seeded.objects.filter(model__in=labels).values_list("model", "uuid")
    }
    left_deleted = set() if restore else seeded
    keys = [(obj["model"], obj["fields"]["uuid"]) for obj in objects]
    result = SeedResult(
        present=sum(key in present for key in keys),
        deleted=sum(key not in present and key in left_deleted for key in keys),
    )
    missing = [
        obj
        for obj, key in zip(objects, keys, strict=True)
        if key not in present and key not in left_deleted
    ]
    with transaction.atomic():
        loaded = {key for key in keys if key in present}
        for deserialized in serializers.deserialize(
            "python", missing, handle_forward_references=True
        ):
            if _save_new(deserialized):
                result.created += 1
                loaded.add((deserialized.object._meta.label_lower, str(deserialized.object.uuid)))
            else:
                result.skipped += 1
        Seeded.objects.bulk_create(  # ignore_conflicts: a seed running at the same time may record them first
            [Seeded(model=label, uuid=value) for label, value in sorted(loaded - seeded)],
            ignore_conflicts=True,
        )
    return result
