"""One line's items (``importer/items.py``): the line's own item first, then each link that names
a resource of its own."""

from decimal import Decimal

from apps.catalog.importer.items import parse_items
from apps.catalog.models import Kind


def test_marks_are_read_off_the_line():
    (item,) = parse_items("[DONE] (blog) [Lilian Weng](https://x.io/lw) (rating 9/10)")
    assert (item.title, item.done, item.rating, item.kind) == (
        "Lilian Weng",
        True,
        Decimal("9"),
        Kind.SITE,
    )


def test_named_links_are_split_off_and_companions_kept():
    main, chroma = parse_items(
        "[Pinecone](https://x.io/p) - a vector store ([docs](https://x.io/d)), see [Chroma](https://x.io/c)",
        tier=2,
        priority="must",
        raw="- raw line",
    )
    assert [link.label for link in main.links] == ["Pinecone", "docs"]
    assert (chroma.title, chroma.url, chroma.tier, chroma.priority, chroma.raw) == (
        "Chroma",
        "https://x.io/c",
        2,
        "must",
        "- raw line",
    )


def test_a_companion_label_after_a_bold_title_is_titled_by_the_words_before_it():
    (item,) = parse_items("**Deep learning** (2015), Y. LeCun et al. [[pdf]](https://x.io/dl.pdf)")
    assert (item.title, item.author, item.url) == (
        "Deep learning",
        "Y. LeCun et al.",
        "https://x.io/dl.pdf",
    )


def test_a_line_without_links_is_a_concept_titled_before_its_colon():
    (item,) = parse_items("Backpropagation: how gradients flow")
    assert (item.title, item.note, item.links) == ("Backpropagation", "how gradients flow", [])
    assert parse_items("  ") == []
