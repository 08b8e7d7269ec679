"""``manage.py seed``: additive, idempotent, fast, and it never overwrites or deletes."""

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.catalog.importer.fixtures import FIXTURE_PATH
from apps.catalog.models import Entry, Guide, Resource, ResourceLink, Section, Topic
from apps.core.models import Seeded
from apps.curation.services import resource_merge
from apps.paths.models import LearningPath

MODELS = (Topic, Guide, Section, Resource, ResourceLink, Entry)


def seed() -> str:
    """The seed's summary line for the catalog fixture (the paths fixture has its own line)."""
    out = StringIO()
    call_command("seed", stdout=out)
    lines = dict(line.split(": ", 1) for line in out.getvalue().strip().splitlines())
    assert set(lines) == {"catalog.json", "paths.json"}
    return lines["catalog.json"]


def counts():
    return {model.__name__: model.objects.count() for model in MODELS}


@pytest.fixture(scope="module")
def fixture_size():
    return len(json.loads(FIXTURE_PATH.read_text(encoding="utf-8")))


@pytest.mark.django_db
def test_seed_loads_the_whole_catalog(fixture_size):
    # Speed is measured by the benchmark, not asserted here (a loaded CI machine is no clock).
    assert seed() == f"Seeded: {fixture_size} created, 0 already present"
    assert sum(counts().values()) == fixture_size
    assert Guide.objects.count() == 5
    resource = Resource.objects.get(url="https://hao-ai-lab.github.io/cse234-w25")
    assert resource.created_at is not None and resource.topics.exists()
    assert resource.entries.filter(rating=10).exists()


@pytest.mark.django_db
def test_seeding_twice_changes_nothing(fixture_size):
    seed()
    before = counts()
    assert seed() == f"Seeded: 0 created, {fixture_size} already present"
    assert counts() == before


@pytest.mark.django_db
def test_curator_edits_survive_a_reseed():
    seed()
    resource = Resource.objects.get(url="https://hao-ai-lab.github.io/cse234-w25")
    resource.title = "CSE 234: ML Systems (curated)"
    resource.save()
    resource.topics.set([Topic.objects.get(slug="interview-prep")])
    Guide.objects.filter(slug="ai-cheatsheet").update(title="My cheatsheet")
    LearningPath.objects.filter(slug="ai-infra-field-notes-frontier-topics").update(
        title="Frontier (curated)"
    )
    seed()
    assert (
        LearningPath.objects.get(slug="ai-infra-field-notes-frontier-topics").title
        == "Frontier (curated)"
    )
    resource.refresh_from_db()
    assert resource.title == "CSE 234: ML Systems (curated)"
    assert list(resource.topics.values_list("slug", flat=True)) == ["interview-prep"]
    assert Guide.objects.get(slug="ai-cheatsheet").title == "My cheatsheet"


@pytest.mark.django_db
def test_seed_deletes_nothing_and_adds_only_what_is_missing():
    seed()
    own = Resource.objects.create(title="A curator's own find", url="https://example.com/find")
    entry = Entry.objects.filter(section__guide__slug="ai-infra-field-notes").first()
    new_uuid = entry.uuid
    entry.delete()
    Seeded.objects.filter(uuid=new_uuid).delete()  # as if a new release's fixture had added it
    assert seed().startswith("Seeded: 1 created, ")
    assert Resource.objects.filter(pk=own.pk).exists()
    assert Entry.objects.filter(uuid=new_uuid).exists()


@pytest.mark.django_db
def test_what_a_curator_deletes_stays_deleted_until_restored(fixture_size):
    seed()
    entry = Entry.objects.filter(section__guide__slug="ai-infra-field-notes").first()
    path = LearningPath.objects.get(slug="ai-infra-field-notes-frontier-topics")
    entry.delete()
    path.delete()  # its steps go with it
    assert seed() == (
        f"Seeded: 0 created, {fixture_size - 1} already present, "
        "1 deleted since seeded (left deleted; `seed --restore` brings them back)"
    )
    assert not Entry.objects.filter(uuid=entry.uuid).exists()
    assert not LearningPath.objects.filter(slug=path.slug).exists()

    call_command("seed", "--restore", stdout=StringIO())
    assert Entry.objects.filter(uuid=entry.uuid).exists()
    assert LearningPath.objects.get(slug=path.slug).steps.exists()
    assert seed() == f"Seeded: 0 created, {fixture_size} already present"


@pytest.mark.django_db
def test_a_merged_away_duplicate_does_not_come_back():
    seed()
    survivor, duplicate = Resource.objects.filter(
        entries__section__guide__slug="ai-infra-field-notes"
    ).distinct()[:2]
    resource_merge(survivor=survivor, duplicates=[duplicate])
    seed()
    assert not Resource.objects.filter(uuid=duplicate.uuid).exists()


@pytest.mark.django_db
def test_a_database_seeded_before_the_ledger_is_recorded_without_losing_anything(fixture_size):
    seed()
    Seeded.objects.all().delete()  # seeded by a release that kept no record
    entry = Entry.objects.first()
    entry.delete()  # deleted back then: nothing says the seed made it, so it comes back once
    assert seed() == f"Seeded: 1 created, {fixture_size - 1} already present"
    assert Seeded.objects.filter(model="catalog.entry").count() == Entry.objects.count()
    entry = Entry.objects.first()
    entry.delete()
    assert "1 deleted since seeded" in seed()


@pytest.mark.django_db
def test_a_seed_with_nothing_to_do_writes_nothing():
    seed()
    with CaptureQueriesContext(connection) as queries:
        seed()
    assert not [
        q["sql"]
        for q in queries
        if not q["sql"].lstrip().upper().startswith(("SELECT", "SAVEPOINT", "RELEASE"))
    ]


@pytest.mark.django_db
def test_seed_skips_what_conflicts_with_curator_data_instead_of_failing():
    # A curator added this URL by hand before the first seed: the fixture's copy cannot be created,
    # nor can the entries pointing at it, but everything else is.
    Resource.objects.create(title="Hand-made", url="https://hao-ai-lab.github.io/cse234-w25")
    summary = seed()
    assert "skipped" in summary
    assert Resource.objects.get(url="https://hao-ai-lab.github.io/cse234-w25").title == "Hand-made"
    assert Guide.objects.count() == 5


@pytest.mark.django_db
def test_upgrading_an_install_seeded_from_an_older_fixture(tmp_path):
    """An install seeded by an older release gets the new release's objects, and keeps what its
    curators and learners did in between: edits, a deletion, progress."""
    from apps.catalog.importer.fixtures import seed_catalog
    from apps.progress.models import Progress, Status
    from apps.progress.services import progress_set_status
    from tests.factories import UserFactory

    # The older release: the same catalog without its fifth guide (and what only it lists).
    newer = json.loads(FIXTURE_PATH.read_text(encoding="utf-8"))
    new_guide = next(
        o["fields"]["uuid"]
        for o in newer
        if o["model"] == "catalog.guide" and o["fields"]["slug"] == "ai-infra-field-notes"
    )
    only_new = {new_guide}
    for o in newer:  # sections (parents first), then their entries
        parent = o["fields"].get("parent") or o["fields"].get("guide") or o["fields"].get("section")
        if o["model"] in ("catalog.section", "catalog.entry") and parent[0] in only_new:
            only_new.add(o["fields"]["uuid"])
    listed_elsewhere = {
        o["fields"]["resource"][0]
        for o in newer
        if o["model"] == "catalog.entry" and o["fields"]["uuid"] not in only_new
    }
    for o in newer:
        fields = o["fields"]
        if o["model"] == "catalog.resource" and fields["uuid"] not in listed_elsewhere:
            only_new.add(fields["uuid"])
        if o["model"] == "catalog.resourcelink" and fields["resource"][0] in only_new:
            only_new.add(fields["uuid"])
    older = [o for o in newer if o["fields"]["uuid"] not in only_new]
    assert len(only_new) > 20 and {
        o["model"] for o in newer if o["fields"]["uuid"] in only_new
    } >= {
        "catalog.guide",
        "catalog.section",
        "catalog.entry",
        "catalog.resource",
    }
    old_path = tmp_path / "catalog.json"
    old_path.write_text(json.dumps(older), encoding="utf-8")

    assert str(seed_catalog(old_path)) == f"Seeded: {len(older)} created, 0 already present"
    assert not Guide.objects.filter(slug="ai-infra-field-notes").exists()

    # Between the releases: a learner ticks resources, a curator edits and deletes.
    learner = UserFactory()
    ticked = list(Resource.objects.order_by("uuid")[:3])
    for resource in ticked:
        progress_set_status(user=learner, resource=resource, status=Status.DONE)
    progress_set_status(user=learner, resource=ticked[0], status=Status.DONE, note="my notes")
    renamed = Resource.objects.get(url="https://hao-ai-lab.github.io/cse234-w25")
    renamed.title = "CSE 234: ML Systems (curated)"
    renamed.save()
    noted = Entry.objects.exclude(resource__in=ticked).order_by("uuid").first()
    noted.note = "Read chapters 1-3 first."
    noted.save()
    gone = Resource.objects.exclude(pk__in=[r.pk for r in ticked] + [renamed.pk])
    gone = gone.exclude(entries=noted).order_by("uuid").first()
    gone_entries = list(gone.entries.values_list("uuid", flat=True))
    gone_links = gone.links.count()
    gone.delete()
    progress_before = sorted(
        Progress.objects.filter(user=learner).values_list("resource__uuid", "status", "note")
    )

    # The newer release.
    result = seed_catalog()
    assert result.created == len(only_new) and result.skipped == 0
    assert result.deleted == 1 + len(gone_entries) + gone_links
    guide = Guide.objects.get(slug="ai-infra-field-notes")
    assert guide.sections.count() == sum(
        o["model"] == "catalog.section" and o["fields"]["uuid"] in only_new for o in newer
    )
    assert Entry.objects.filter(section__guide=guide).count() == sum(
        o["model"] == "catalog.entry" and o["fields"]["uuid"] in only_new for o in newer
    )
    renamed.refresh_from_db()
    noted.refresh_from_db()
    assert renamed.title == "CSE 234: ML Systems (curated)"
    assert noted.note == "Read chapters 1-3 first."
    assert not Resource.objects.filter(uuid=gone.uuid).exists()
    assert not Entry.objects.filter(uuid__in=gone_entries).exists()
    assert (
        sorted(
            Progress.objects.filter(user=learner).values_list("resource__uuid", "status", "note")
        )
        == progress_before
    )
    assert len(progress_before) == 3 and ("my notes" in {note for *_, note in progress_before})
