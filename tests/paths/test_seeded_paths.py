"""The paths seeded from the guides follow the guides' own orders, step by step."""

import pytest
from django.core.management import call_command

from apps.catalog.models import Entry
from apps.paths.models import LearningPath

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def seeded(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        call_command("seed", verbosity=0)
        yield
        LearningPath.objects.all().delete()
        from apps.catalog.models import Guide, Resource, Topic
        from apps.core.models import Seeded

        Guide.objects.all().delete()
        Resource.objects.all().delete()
        Topic.objects.all().delete()
        Seeded.objects.all().delete()  # or the next seed would leave it all deleted


def steps(slug):
    path = LearningPath.objects.get(slug=slug)
    return [
        (
            step.title,
            [
                item.resource.title
                for item in step.step_resources.order_by("position").select_related("resource")
            ],
        )
        for step in path.steps.order_by("position")
    ]


def step_titles(slug):
    return [title for title, _ in steps(slug)]


@pytest.mark.parametrize(
    "slug,numbers",
    [
        ("ai-infra-field-notes-kernel-development", ["01", "03", "04", "09", "05", "15"]),
        ("ai-infra-field-notes-inference-optimization", ["01", "05", "06", "08", "07", "10"]),
        ("ai-infra-field-notes-training-optimization", ["01", "04", "07", "14", "12"]),
        ("ai-infra-field-notes-frontier-topics", ["15", "16"]),
    ],
)
def test_field_notes_reading_paths_follow_the_written_section_order(seeded, slug, numbers):
    path = LearningPath.objects.get(slug=slug)
    ordered = list(path.steps.order_by("position").select_related("section"))
    assert [step.section.number for step in ordered] == numbers
    # Each step is that section's chapter.
    for step in ordered:
        assert [item.resource.title for item in step.step_resources.all()] == [step.section.title]


def test_inference_guide_path_is_all_tier_1_then_tier_2_then_tier_3(seeded):
    path = LearningPath.objects.get(slug="ai-inference-engineering-tier-by-tier")
    ordered = list(path.steps.order_by("position"))
    assert [step.title for step in ordered] == ["Tier 1", "Tier 2", "Tier 3"]
    for tier, step in enumerate(ordered, start=1):
        resources = list(
            step.step_resources.order_by("position").values_list("resource_id", flat=True)
        )
        # Topics in guide order inside each tier: the guide's own entry order, first occurrence kept.
        expected = []
        for resource_id in (
            Entry.objects.filter(section__guide__slug="ai-inference-engineering", tier=tier)
            .order_by("section__position", "position")
            .values_list("resource_id", flat=True)
        ):
            if resource_id not in expected and not any(
                resource_id in s.step_resources.values_list("resource_id", flat=True)
                for s in ordered[: tier - 1]
            ):
                expected.append(resource_id)
        assert resources == expected
    assert (
        steps("ai-inference-engineering-tier-by-tier")[0][1][0]
        == "Transformer Inference Arithmetic"
    )


def test_book_plan_has_the_three_phases_with_week_estimates_then_optional_books(seeded):
    path = LearningPath.objects.get(slug="future-blogs-to-write-phased-book-plan")
    assert [(s.phase, s.effort) for s in path.steps.order_by("position")] == [
        ("Phase 1", "8-10 weeks"),
        ("Phase 2", "6-8 weeks"),
        ("Phase 3", "8-10 weeks"),
        ("Optional", ""),
    ]
    assert steps("future-blogs-to-write-phased-book-plan")[0][1] == [
        "Understanding Deep Learning",
        "Deep Learning with PyTorch",
        "Mathematics for Machine Learning",
    ]


def test_closing_book_list_maps_onto_the_same_books(seeded):
    assert steps("future-blogs-to-write-book-reading-order") == [
        ("MML", ["Mathematics for Machine Learning"]),
        (
            "DL with PyTorch + Dive into DL (in parallel)",
            ["Deep Learning with PyTorch", "Dive into Deep Learning"],
        ),
        ("Understanding DL", ["Understanding Deep Learning"]),
        ("Build a LLM", ["Build a Large Language Model"]),
        ("Professional C CUDA programming", ["Professional CUDA C Programming"]),
        ("PMPP", ["Programming Massively Parallel Processors"]),
        ("PPC", ["Parallel Programming Concepts"]),
    ]
    plan_books = {
        t for _, titles in steps("future-blogs-to-write-phased-book-plan") for t in titles
    }
    order_books = {
        t for _, titles in steps("future-blogs-to-write-book-reading-order") for t in titles
    }
    assert order_books <= plan_books


@pytest.mark.parametrize("slug", ["ai-cheatsheet-must-first", "ai-engineering-awesome-must-first"])
def test_cheatsheets_go_must_first_then_concept_by_concept_then_maybe(seeded, slug):
    titles = step_titles(slug)
    assert titles[0] == "MUST foundations" and titles[-1] == "MAYBE guides"
    assert titles[1:4] == [
        "GPU architecture",
        "GPU programming concepts",
        *(["Performance"] if "awesome" in slug else ["Transformer"]),
    ]
    assert "Attention" in titles and "Quantization" in titles
    assert titles.index("Attention") < titles.index("Quantization") < titles.index("Optimizations")
    first = steps(slug)[0][1]
    assert "CSE223" in first
