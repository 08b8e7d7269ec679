"""``manage.py seed``: additive, idempotent, fast, and it never overwrites or deletes."""

import json
from io import StringIO

import pytest
from django.core.management import call_command

from apps.catalog.importer.fixtures import FIXTURE_PATH
from apps.catalog.models import Entry, Guide, Resource, ResourceLink, Section, Topic
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
    LearningPath.objects.filter(slug="ai-infra-field-notes-frontier-topics").update(title="Frontier (curated)")
    seed()
    assert LearningPath.objects.get(slug="ai-infra-field-notes-frontier-topics").title == "Frontier (curated)"
    resource.refresh_from_db()
    assert resource.title == "CSE 234: ML Systems (curated)"
    assert list(resource.topics.values_list("slug", flat=True)) == ["interview-prep"]
    assert Guide.objects.get(slug="ai-cheatsheet").title == "My cheatsheet"


@pytest.mark.django_db
def test_seed_deletes_nothing_and_adds_only_what_is_missing():
    seed()
    own = Resource.objects.create(title="A curator's own find", url="https://example.com/find")
    entry = Entry.objects.filter(section__guide__slug="ai-infra-field-notes").first()
    entry_uuid = entry.uuid
    entry.delete()
    assert seed().startswith("Seeded: 1 created, ")
    assert Resource.objects.filter(pk=own.pk).exists()
    assert Entry.objects.filter(uuid=entry_uuid).exists()


@pytest.mark.django_db
def test_seed_skips_what_conflicts_with_curator_data_instead_of_failing():
    # A curator added this URL by hand before the first seed: the fixture's copy cannot be created,
    # nor can the entries pointing at it, but everything else is.
    Resource.objects.create(title="Hand-made", url="https://hao-ai-lab.github.io/cse234-w25")
    summary = seed()
    assert "skipped" in summary
    assert Resource.objects.get(url="https://hao-ai-lab.github.io/cse234-w25").title == "Hand-made"
    assert Guide.objects.count() == 5
