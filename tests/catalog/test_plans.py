"""A guide's own paths and plans (``importer/plans.py``), read without the rest of the document."""

from apps.catalog.importer.plans import path_line, phased_plan, reading_order
from apps.catalog.models import Kind


def test_a_written_path_names_its_steps_in_order():
    path = path_line("Kernel development: 01 → 03 (CUDA) -> 04")
    assert path.as_tuple() == ("Kernel development", ["01", "03", "04"])
    assert [step.label for step in path.steps] == ["", "CUDA", ""]


def test_a_line_without_arrows_or_with_a_sentence_for_a_step_is_no_path():
    assert path_line("Kernel development: 01, 03 and 04") is None
    assert path_line("Read: the intro → then whatever you like") is None


def test_a_phased_plan_is_a_section_per_phase_holding_its_books():
    sections = phased_plan(
        [
            "Phase 1: Foundations (8-10 weeks)",
            '1. "Mathematics for Machine Learning" by Deisenroth (4 weeks)',
            "   - chapters 2-6",
            "Optional:",
            "- Dive into Deep Learning",
        ]
    )
    first, optional = sections
    assert (first.title, first.phase, first.effort) == ("Foundations", "Phase 1", "8-10 weeks")
    (book,) = first.items
    assert (book.title, book.author, book.kind, book.effort) == (
        "Mathematics for Machine Learning",
        "Deisenroth",
        Kind.BOOK,
        "4 weeks",
    )
    assert book.description == "chapters 2-6"
    assert optional.title == "Optional" and [i.title for i in optional.items] == [
        "Dive into Deep Learning"
    ]


def test_a_block_without_a_phase_is_not_a_plan():
    assert phased_plan(["def f():", "    return 1"]) == []


def test_a_reading_order_lists_the_books_it_names_in_a_section_and_a_path():
    sections = phased_plan(["Phase 1: Maths", '- "Mathematics for Machine Learning"'])
    (book,) = sections[0].items
    section, path = reading_order(["1"], ["MML"], ["1. MML"], [[book]])
    assert section.title == "Reading order" and [i.title for i in section.items] == [book.title]
    assert path.title == "Book reading order" and path.steps[0].items == section.items
