"""Tables (``importer/tables.py``): which column is which, a row's item, a section table's chapters."""

from apps.catalog.importer.tables import Table


def test_a_row_holding_links_is_one_item_its_other_links_companions():
    table = Table(
        [
            ["Paper", "Authors", "Summary", "Code"],
            ["[Attention](https://x.io/p)", "Vaswani", "Transformers.", "[code](https://x.io/c)"],
        ],
        [],
    )
    assert table.holds_links()
    (item,) = table.items(context="", skip=lambda reason: None)
    assert (item.title, item.author, item.description) == ("Attention", "Vaswani", "Transformers.")
    assert [(link.url, link.label) for link in item.links] == [
        ("https://x.io/p", "Attention"),
        ("https://x.io/c", "code"),
    ]


def test_a_badge_in_a_row_is_left_out_and_told_of():
    skipped = []
    table = Table(
        [
            ["Name", "Stars"],
            [
                "[Tool](https://x.io/t)",
                "[![stars](https://img.shields.io/github/stars/a/b)](https://github.com/a/b)",
            ],
        ],
        [],
    )
    (item,) = table.items(context="", skip=skipped.append)
    assert [link.url for link in item.links] == ["https://x.io/t"]
    assert skipped == ["badges"]


def test_a_section_table_without_links_is_read_as_chapters():
    table = Table(
        [["#", "Section", "Highlights"], ["01", "**GPU basics**", "SMs, warps"], ["02", "", "x"]],
        ["| # | Section | Highlights |", "| 01 | **GPU basics** | SMs, warps |", "| 02 | | x |"],
    )
    assert not table.holds_links() and table.is_section_table()
    (chapter,) = table.chapters()
    assert (chapter.title, chapter.number, chapter.highlights, chapter.raw) == (
        "GPU basics",
        "01",
        "SMs, warps",
        "| 01 | **GPU basics** | SMs, warps |",
    )


def test_a_table_of_words_without_a_section_column_is_neither():
    table = Table([["Term", "Meaning"], ["SM", "a streaming multiprocessor"]], [])
    assert not table.holds_links() and not table.is_section_table()
