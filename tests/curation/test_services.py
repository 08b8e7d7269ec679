"""Merge, renumber and bulk-edit services."""

from datetime import timedelta

import pytest
from django.apps import apps
from django.utils import timezone

from apps.catalog.models import Resource, ResourceAlias, Section
from apps.curation.services import (
    NOTE_SEPARATOR,
    CurationError,
    guide_sections_renumber,
    positions_renumber,
    resource_merge,
    resources_add_topic,
    resources_remove_topic,
    resources_set_kind,
    section_entries_renumber,
)
from apps.progress.imports import import_apply, import_plan
from apps.progress.models import Activity, Progress, Status
from tests.factories import (
    GuideFactory,
    ResourceFactory,
    ResourceLinkFactory,
    TopicFactory,
    make_user,
)
from tests.factories import NumberedEntryFactory as EntryFactory
from tests.factories import NumberedSectionFactory as SectionFactory

pytestmark = pytest.mark.django_db

T0 = timezone.now() - timedelta(days=30)


def progress(user, resource, status, *, started=None, completed=None, note=""):
    return Progress.objects.create(
        user=user,
        resource=resource,
        status=status,
        started_at=started,
        completed_at=completed,
        note=note,
    )


# --- Merge: catalog side -----------------------------------------------------------------------
def test_merge_moves_entries_links_and_topics_and_deletes_the_duplicates():
    survivor = ResourceFactory(
        title="Attention Is All You Need", url="https://arxiv.org/abs/1706.03762"
    )
    # another page about the same paper (arXiv's /pdf/ of it would be the same URL: one identity)
    duplicate = ResourceFactory(
        title="Transformer paper", url="https://papers.example.org/attention-is-all-you-need"
    )
    other_section = SectionFactory()
    EntryFactory(resource=survivor)
    moved_entry = EntryFactory(resource=duplicate, section=other_section)
    ResourceLinkFactory(
        resource=duplicate, url="https://slides.example.com/transformer", label="Slides"
    )
    ResourceLinkFactory(
        resource=duplicate, url="https://arxiv.org/abs/1706.03762"
    )  # the survivor's own URL
    attention, nlp = TopicFactory(title="Attention"), TopicFactory(title="NLP")
    survivor.topics.add(attention)
    duplicate.topics.add(attention, nlp)

    result = resource_merge(survivor=survivor, duplicates=[duplicate])

    assert not Resource.objects.filter(pk=duplicate.pk).exists()
    moved_entry.refresh_from_db()
    assert moved_entry.resource == survivor and moved_entry.section == other_section
    assert sorted(survivor.links.values_list("url", flat=True)) == [
        "https://papers.example.org/attention-is-all-you-need",
        "https://slides.example.com/transformer",
    ]
    assert set(survivor.topics.all()) == {attention, nlp}
    assert (result.entries_moved, result.links_added, result.topics_added) == (1, 2, 1)


def test_merge_folds_an_entry_in_a_section_the_survivor_is_already_in_and_renumbers():
    section = SectionFactory()
    survivor, duplicate = ResourceFactory(), ResourceFactory()
    own = EntryFactory(section=section, resource=survivor, note="")
    EntryFactory(section=section, resource=duplicate, note="Read twice.", rating=9)
    last = EntryFactory(section=section)

    result = resource_merge(survivor=survivor, duplicates=[duplicate])

    own.refresh_from_db()
    assert (own.note, own.rating) == ("Read twice.", 9)
    assert list(section.entries.order_by("position").values_list("pk", "position")) == [
        (own.pk, 1),
        (last.pk, 2),
    ]
    assert result.entries_folded == 1


def test_a_survivor_without_url_takes_the_duplicates_url():
    survivor = ResourceFactory(url=None, title="Flash attention (concept)")
    duplicate = ResourceFactory(url="https://arxiv.org/abs/2205.14135")
    resource_merge(survivor=survivor, duplicates=[duplicate])
    survivor.refresh_from_db()
    assert survivor.url == "https://arxiv.org/abs/2205.14135"
    assert not survivor.links.exists()


def test_merge_fills_blank_fields_from_the_duplicates():
    survivor = ResourceFactory(author="", description="Mine.")
    duplicate = ResourceFactory(author="Vaswani et al.", description="Theirs.", effort_minutes=90)
    resource_merge(survivor=survivor, duplicates=[duplicate])
    survivor.refresh_from_db()
    assert (survivor.author, survivor.description, survivor.effort_minutes) == (
        "Vaswani et al.",
        "Mine.",
        90,
    )


def test_merge_refuses_nothing_to_merge():
    survivor = ResourceFactory()
    with pytest.raises(CurationError):
        resource_merge(survivor=survivor, duplicates=[survivor])


# --- Merge: the duplicates' addresses ------------------------------------------------------------
def aliases_of(resource):
    return set(resource.aliases.values_list("uuid", flat=True))


def test_merge_keeps_each_duplicates_uuid_as_an_alias_of_the_survivor():
    survivor, first, second = ResourceFactory(), ResourceFactory(), ResourceFactory()
    resource_merge(survivor=survivor, duplicates=[first, second])
    assert aliases_of(survivor) == {first.uuid, second.uuid}


def test_a_chain_of_merges_leaves_every_alias_on_the_last_survivor():
    a, b, c = ResourceFactory(), ResourceFactory(), ResourceFactory()
    resource_merge(survivor=b, duplicates=[a])
    resource_merge(survivor=c, duplicates=[b])
    assert aliases_of(c) == {a.uuid, b.uuid}
    assert ResourceAlias.objects.count() == 2


def test_a_refused_merge_records_no_alias():
    survivor = ResourceFactory()
    with pytest.raises(CurationError):
        resource_merge(survivor=survivor, duplicates=[survivor])
    assert not ResourceAlias.objects.exists()


def _export(*items):
    import json

    from apps.progress.exports import JSON_FORMAT

    return json.dumps({"format": JSON_FORMAT, "version": 1, "progress": list(items)})


def test_a_progress_file_exported_before_a_merge_imports_onto_the_survivor():
    survivor, duplicate = (
        EntryFactory(resource__title="Keep").resource,
        ResourceFactory(title="Dup"),
    )
    ada = make_user("ada@example.com")
    exported = _export({"resource": str(duplicate.uuid), "title": "Dup", "status": "done"})
    resource_merge(survivor=survivor, duplicates=[duplicate])

    plan = import_plan(user=ada, content=exported)

    assert [(c.resource, c.new) for c in plan.changes] == [(survivor, Status.DONE)]
    assert plan.unmatched == []
    import_apply(user=ada, plan=plan)
    assert Progress.objects.get(user=ada).resource == survivor


def test_two_items_of_one_file_that_are_now_one_resource_import_the_furthest_status():
    survivor, duplicate = (
        EntryFactory(resource__title="Keep").resource,
        ResourceFactory(title="Dup"),
    )
    ada = make_user("ada@example.com")
    exported = _export(
        {"resource": str(survivor.uuid), "title": "Keep", "status": "in_progress"},
        {"resource": str(duplicate.uuid), "title": "Dup", "status": "done"},
    )
    resource_merge(survivor=survivor, duplicates=[duplicate])

    plan = import_plan(user=ada, content=exported)

    assert [(c.resource, c.new) for c in plan.changes] == [(survivor, Status.DONE)]
    assert [(index, shown) for index, shown, _why in plan.unmatched] == [(1, "Keep")]
    assert "now the same resource as “Dup”" in plan.unmatched[0][2]


def test_an_alias_of_an_unpublished_survivor_matches_nothing():
    survivor, duplicate = ResourceFactory(), ResourceFactory()
    resource_merge(survivor=survivor, duplicates=[duplicate])
    Resource.objects.filter(pk=survivor.pk).update(is_published=False)
    exported = _export({"resource": str(duplicate.uuid), "title": "Dup", "status": "done"})
    plan = import_plan(user=make_user("ada@example.com"), content=exported)
    assert plan.changes == []
    assert [why for _index, _shown, why in plan.unmatched] == [
        "no published resource has this uuid"
    ]


# --- Merge: learners' progress -----------------------------------------------------------------
def test_merge_never_loses_progress():
    survivor, first, second = ResourceFactory(), ResourceFactory(), ResourceFactory()
    ada, bob, cy, dee = (make_user(f"{name}@example.com") for name in ("ada", "bob", "cy", "dee"))
    # ada: only on a duplicate → moves as is
    progress(ada, first, Status.DONE, started=T0, completed=T0 + timedelta(days=1), note="Great.")
    # bob: done on the survivor, in progress earlier on a duplicate → done, earliest start
    progress(
        bob, survivor, Status.DONE, started=T0 + timedelta(days=5), completed=T0 + timedelta(days=6)
    )
    progress(bob, second, Status.IN_PROGRESS, started=T0 + timedelta(days=2), note="Halfway.")
    # cy: skipped the survivor, started a duplicate → in progress wins over skipped
    progress(cy, survivor, Status.SKIPPED, note="Not now.")
    progress(cy, first, Status.IN_PROGRESS, started=T0 + timedelta(days=3), note="Not now.")
    # dee: done on both → earliest completion
    progress(
        dee,
        survivor,
        Status.DONE,
        started=T0 + timedelta(days=9),
        completed=T0 + timedelta(days=10),
    )
    progress(
        dee, first, Status.DONE, started=T0 + timedelta(days=1), completed=T0 + timedelta(days=4)
    )
    progress(dee, second, Status.SKIPPED, note="Dup.")
    Activity.objects.create(user=ada, resource=first, status=Status.DONE, occurred_at=T0)
    Activity.objects.create(user=bob, resource=second, status=Status.IN_PROGRESS, occurred_at=T0)

    result = resource_merge(survivor=survivor, duplicates=[first, second])

    rows = {row.user: row for row in Progress.objects.filter(resource=survivor)}
    assert set(rows) == {ada, bob, cy, dee}
    assert Progress.objects.count() == 4
    assert (rows[ada].status, rows[ada].started_at, rows[ada].note) == (Status.DONE, T0, "Great.")
    assert rows[bob].status == Status.DONE
    assert rows[bob].started_at == T0 + timedelta(days=2)
    assert rows[bob].completed_at == T0 + timedelta(days=6)
    assert rows[bob].note == "Halfway."
    assert rows[cy].status == Status.IN_PROGRESS and rows[cy].completed_at is None
    assert rows[cy].note == "Not now."  # identical notes are not repeated
    assert rows[dee].status == Status.DONE
    assert (rows[dee].started_at, rows[dee].completed_at) == (
        T0 + timedelta(days=1),
        T0 + timedelta(days=4),
    )
    assert rows[dee].note == "Dup."
    assert Activity.objects.filter(resource=survivor).count() == 2
    assert (result.progress_moved, result.progress_combined) == (1, 4)


def test_different_notes_are_joined():
    survivor, duplicate = ResourceFactory(), ResourceFactory()
    ada = make_user("ada@example.com")
    progress(ada, survivor, Status.IN_PROGRESS, started=T0, note="Mine.")
    progress(ada, duplicate, Status.NOT_STARTED, note="Also mine.")
    resource_merge(survivor=survivor, duplicates=[duplicate])
    assert Progress.objects.get(user=ada).note == f"Mine.{NOTE_SEPARATOR}Also mine."


@pytest.mark.skipif(not apps.is_installed("apps.paths"), reason="the paths app is not installed")
def test_merge_moves_path_steps_to_the_survivor():
    from apps.paths.models import LearningPath, PathStep, StepResource

    survivor, duplicate = ResourceFactory(), ResourceFactory()
    path = LearningPath.objects.create(slug="p", title="P")
    step, both = (
        PathStep.objects.create(path=path, position=1, title="A"),
        PathStep.objects.create(path=path, position=2, title="B"),
    )
    StepResource.objects.create(step=step, resource=duplicate, position=1)
    StepResource.objects.create(step=both, resource=survivor, position=1)
    StepResource.objects.create(step=both, resource=duplicate, position=2)

    resource_merge(survivor=survivor, duplicates=[duplicate])

    assert list(step.resources.all()) == [survivor]
    assert list(both.resources.all()) == [survivor]


# --- Positions ---------------------------------------------------------------------------------
def test_renumber_gives_1_to_n_in_current_order_without_tripping_the_unique_constraint():
    section = SectionFactory()
    entries = [EntryFactory(section=section, position=p) for p in (2, 5, 3, 9)]
    assert section_entries_renumber(section=section) == 4
    assert list(section.entries.order_by("position").values_list("pk", "position")) == [
        (entries[0].pk, 1),
        (entries[2].pk, 2),
        (entries[1].pk, 3),
        (entries[3].pk, 4),
    ]
    assert section_entries_renumber(section=section) == 0


def test_renumber_in_a_chosen_order_swaps_positions():
    section = SectionFactory()
    a, b, c = (EntryFactory(section=section) for _ in range(3))
    positions_renumber(rows=[c, a, b])
    assert list(section.entries.order_by("position").values_list("pk", flat=True)) == [
        c.pk,
        a.pk,
        b.pk,
    ]


def test_guide_sections_renumber_puts_subsections_after_their_parent():
    guide = GuideFactory()
    first = SectionFactory(guide=guide, position=1)
    second = SectionFactory(guide=guide, position=2)
    grandchild = SectionFactory(guide=guide, position=3)
    child = SectionFactory(guide=guide, parent=first, position=4)
    Section.objects.filter(pk=grandchild.pk).update(parent=child)
    assert guide_sections_renumber(guide=guide) == 2  # child 4 → 2, second 2 → 4
    assert list(guide.sections.order_by("position")) == [first, child, grandchild, second]
    assert guide_sections_renumber(guide=guide) == 0


def test_guide_sections_renumber_keeps_document_order():
    guide = GuideFactory()
    sections = [SectionFactory(guide=guide, position=p) for p in (10, 20, 30)]
    guide_sections_renumber(guide=guide)
    assert list(
        Section.objects.filter(guide=guide).order_by("position").values_list("pk", "position")
    ) == [
        (sections[0].pk, 1),
        (sections[1].pk, 2),
        (sections[2].pk, 3),
    ]


# --- Bulk edits --------------------------------------------------------------------------------
def test_set_kind_and_topics_return_only_what_changed():
    video, paper = ResourceFactory(kind="video"), ResourceFactory(kind="paper")
    topic = TopicFactory()
    video.topics.add(topic)
    both = Resource.objects.filter(pk__in=[video.pk, paper.pk])
    assert resources_set_kind(resources=both, kind="video") == [paper]
    assert resources_add_topic(resources=both, topic=topic) == [paper]
    assert set(resources_remove_topic(resources=both, topic=topic)) == {video, paper}
    assert not topic.resources.exists()
