"""The bundled guides say where they come from: the public ones carry their source and schedule,
the others say their source is unknown, and the field notes' link-less chapters say where their
text is, on the guide, on the chapter's page and on the four paths that lead to them."""

import importlib
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.urls import reverse

from apps.catalog.importer.sources import AWESOME_README, GUIDE_SOURCES, INFERENCE_README
from apps.catalog.models import Guide, Kind, Resource, SyncSchedule
from apps.paths.models import LearningPath

pytestmark = pytest.mark.django_db
CHAPTER_NOTE = next(s.chapter_note for s in GUIDE_SOURCES if s.slug == "ai-infra-field-notes")


@pytest.fixture
def seeded():
    call_command("seed", stdout=StringIO())


def test_the_public_guides_follow_their_real_sources_and_the_others_are_off(seeded):
    sources = dict(Guide.objects.values_list("slug", "source_url"))
    schedules = dict(Guide.objects.values_list("slug", "sync_schedule"))
    assert sources == {
        "ai-cheatsheet": "",
        "ai-engineering-awesome": AWESOME_README,
        "ai-inference-engineering": INFERENCE_README,
        "future-blogs-to-write": "",
        "ai-infra-field-notes": "",
    }
    assert AWESOME_README.startswith(
        "https://raw.githubusercontent.com/SuperIntelligenceAI/AI-Engineering-Awesome/"
    )
    assert INFERENCE_README.startswith(
        "https://raw.githubusercontent.com/aerlabsAI/ai-inference-resources/"
    )
    assert {slug for slug, schedule in schedules.items() if schedule != SyncSchedule.OFF} == {
        "ai-engineering-awesome",
        "ai-inference-engineering",
    }


def test_the_cheatsheet_says_it_is_an_earlier_state_of_the_awesome_list(client, seeded):
    html = client.get(reverse("learning:guide-detail", args=["ai-cheatsheet"])).content.decode()
    assert "An earlier state of the list now published as" in html
    assert 'href="https://github.com/SuperIntelligenceAI/AI-Engineering-Awesome"' in html
    assert 'href="https://github.com/AdiChat/AI-cheatsheet"' in html


@pytest.mark.parametrize("slug", ["future-blogs-to-write", "ai-infra-field-notes"])
def test_a_guide_whose_source_is_unknown_says_so_on_its_page(client, seeded, slug):
    html = client.get(reverse("learning:guide-detail", args=[slug])).content.decode()
    assert "come from is not known" in html or "comes from is not known" in html
    assert "Original guide" not in html


def test_a_guide_with_a_public_source_links_it_and_claims_nothing_else(client, seeded):
    html = client.get(
        reverse("learning:guide-detail", args=["ai-engineering-awesome"])
    ).content.decode()
    assert f'href="{AWESOME_README}"' in html and "About the source" not in html


def test_a_guide_without_url_or_note_says_its_source_is_not_recorded(client, seeded):
    Guide.objects.filter(slug="ai-cheatsheet").update(source_note="")
    html = client.get(reverse("learning:guide-detail", args=["ai-cheatsheet"])).content.decode()
    assert "Where this guide comes from is not recorded" in html and "ai-cheatsheet.md" in html


def test_every_link_less_chapter_says_where_to_read_it(client, seeded):
    chapters = Resource.objects.filter(kind=Kind.CHAPTER)
    assert chapters.count() == 17 and not chapters.exclude(url=None).exists()
    assert all(CHAPTER_NOTE in chapter.description for chapter in chapters)
    page = client.get(chapters.first().get_absolute_url()).content.decode()
    assert "Where to read it: in the field notes" in page


def test_the_four_field_notes_paths_say_where_each_chapter_is(client, seeded):
    paths = LearningPath.objects.filter(guide__slug="ai-infra-field-notes")
    assert paths.count() == 4
    for path in paths:
        html = client.get(reverse("learning:path-detail", args=[path.slug])).content.decode()
        steps = html.count('class="step card"')
        assert steps and html.count("Where to read it: in the field notes") >= steps, path.slug


def test_the_migration_gives_an_existing_catalog_its_sources_and_keeps_curators_values(seeded):
    Guide.objects.update(source_url="", sync_schedule=SyncSchedule.OFF, source_note="")
    Guide.objects.filter(slug="ai-inference-engineering").update(
        source_url="https://example.com/mine.md"
    )
    for chapter in Resource.objects.filter(kind=Kind.CHAPTER):
        chapter.description = chapter.description.replace(f"\n\n{CHAPTER_NOTE}", "")
        chapter.save()
    migration = importlib.import_module(
        "apps.catalog.migrations.0008_guide_source_note_sync_schedule"
    )
    from django.apps import apps

    class Editor:
        connection = connection

    for _ in range(2):  # twice: nothing is added twice
        migration.bundled_sources(apps, Editor())
    guides = {guide.slug: guide for guide in Guide.objects.all()}
    assert guides["ai-engineering-awesome"].source_url == AWESOME_README
    assert guides["ai-engineering-awesome"].sync_schedule == SyncSchedule.WEEKLY
    assert guides["ai-inference-engineering"].source_url == "https://example.com/mine.md"
    assert guides["ai-inference-engineering"].sync_schedule == SyncSchedule.OFF
    assert "is not known" in guides["ai-infra-field-notes"].source_note
    for chapter in Resource.objects.filter(kind=Kind.CHAPTER):
        assert chapter.description.count(CHAPTER_NOTE) == 1
