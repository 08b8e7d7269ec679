"""Block events (``importer/events.py``): the document in reading order, as the parser walks it."""

from apps.catalog.importer.events import document_events


def kinds(text):
    return [(event.kind, event.text, event.level) for event in document_events(text)]


def test_headings_list_items_with_their_depth_and_prose_lines_in_order():
    assert kinds("# Guide\n\nIntro line\n\n- [a](https://x.io/a)\n  - nested\n1. first\n") == [
        ("heading", "Guide", 1),
        ("plain", "Intro line", 0),
        ("bullet", "[a](https://x.io/a)", 0),
        ("bullet", "nested", 1),
        ("ordered", "first", 0),
    ]


def test_a_table_right_under_a_paragraph_is_a_table():
    (prose, table) = document_events(
        "Tools:\n| Name | Link |\n|---|---|\n| A | [a](https://x.io) |\n"
    )
    assert prose.kind == "plain" and table.kind == "table"
    assert table.rows == [["Name", "Link"], ["A", "[a](https://x.io)"]]


def test_an_html_block_is_read_as_the_markdown_it_stands_for():
    events = document_events('<p>\n<a href="https://x.io/t">Tool</a>\n</p>\n')
    assert [(e.kind, e.text, e.from_html) for e in events] == [
        ("plain", "[Tool](https://x.io/t)", True)
    ]
