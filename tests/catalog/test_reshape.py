"""A curator's split and merge choices applied to an import plan (pure: no writes)."""

import pytest

from apps.catalog.importer import plan_import
from apps.catalog.importer.planner import stable_uuid
from apps.catalog.importer.reshape import merge_choices, reshape_plan, split_choices

pytestmark = pytest.mark.django_db  # plan_import looks the catalog up; nothing is written

SOURCE = """# Kernels
## GPUs
- [Brrr](https://horace.io/brrr_intro.html) ([Slides](https://horace.io/slides.pdf)) ([code](https://github.com/x/brrr))
- [Triton tutorial](https://triton-lang.org/tutorials) - Read with the puzzles.
- [Triton puzzles](https://github.com/srush/Triton-Puzzles) - Do them after the tutorial.
## Papers
- [FlashAttention](https://arxiv.org/abs/2205.14135) - Dao. IO-aware attention.
"""


def plan():
    return plan_import(SOURCE, guide_slug="kernels", title="Kernels")


def rows(plan):
    return [
        (
            e.section.title,
            e.position,
            e.resource.title,
            e.resource.url,
            [link.url for link in e.resource.links],
        )
        for e in plan.entries
    ]


def test_choices_offer_every_extra_link_and_every_entry_with_one_above_it():
    p = plan()
    brrr, tutorial, puzzles, flash = p.entries
    assert split_choices(p) == [f"{brrr.uuid}:{link.uuid}" for link in brrr.resource.links]
    assert len(split_choices(p)) == 2
    # the first entry of a section has nothing above it to merge into
    assert merge_choices(p) == [str(tutorial.uuid), str(puzzles.uuid)]


def test_split_makes_a_link_its_own_resource_listed_after_its_entry():
    p = plan()
    brrr = p.entries[0]
    slides = brrr.resource.links[0]
    reshape_plan(p, split=[f"{brrr.uuid}:{slides.uuid}"])
    assert rows(p)[:3] == [
        ("GPUs", 1, "Brrr", "https://horace.io/brrr_intro.html", ["https://github.com/x/brrr"]),
        ("GPUs", 2, "Brrr: Slides", "https://horace.io/slides.pdf", []),
        ("GPUs", 3, "Triton tutorial", "https://triton-lang.org/tutorials", []),
    ]
    assert brrr.resource.links[0].position == 1
    new_entry = p.entries[1]
    assert new_entry.raw == "" and new_entry.resource in p.resources
    assert new_entry.resource.kind == "slides"
    # uuids follow the new positions, as a fresh plan of that layout would give
    assert [e.uuid for e in p.entries[:3]] == [
        stable_uuid("entry", "kernels", "GPUs", str(n)) for n in (1, 2, 3)
    ]


def test_merge_hands_the_entry_links_and_note_to_the_one_above():
    p = plan()
    tutorial, puzzles = p.entries[1], p.entries[2]
    puzzles_resource = puzzles.resource
    reshape_plan(p, merge=[str(puzzles.uuid)])
    assert [title for _, _, title, _, _ in rows(p)] == ["Brrr", "Triton tutorial", "FlashAttention"]
    assert [(link.url, link.label, link.position) for link in tutorial.resource.links] == [
        ("https://github.com/srush/Triton-Puzzles", "Triton puzzles", 1)
    ]
    assert tutorial.note == "Read with the puzzles. Do them after the tutorial."
    assert puzzles_resource not in p.resources  # nothing else lists it: it is not created


def test_merges_chain_up_and_splits_combine_with_them():
    p = plan()
    brrr, tutorial, puzzles, _ = p.entries
    code = brrr.resource.links[1]
    reshape_plan(
        p, split=[f"{brrr.uuid}:{code.uuid}"], merge=[str(tutorial.uuid), str(puzzles.uuid)]
    )
    assert rows(p) == [
        (
            "GPUs",
            1,
            "Brrr",
            "https://horace.io/brrr_intro.html",
            [
                "https://horace.io/slides.pdf",
                "https://triton-lang.org/tutorials",
                "https://github.com/srush/Triton-Puzzles",
            ],
        ),
        ("GPUs", 2, "Brrr: code", "https://github.com/x/brrr", []),
        ("Papers", 1, "FlashAttention", "https://arxiv.org/abs/2205.14135", []),
    ]


def test_unknown_or_impossible_choices_change_nothing():
    p = plan()
    before = rows(p)
    flash = p.entries[3]
    reshape_plan(p, split=["nope", f"{flash.uuid}:x"], merge=[str(flash.uuid), "nope"])
    assert rows(p) == before
