"""HTML as html.parser reads it (``importer/html_tags.py``): tags with their attributes, and the
text between them exactly as written."""

from apps.catalog.importer.html_tags import Tag, html_events, lone_tag


def test_comments_declarations_and_unfinished_tags_are_text_not_tags():
    events = html_events('<!-- a --><![CDATA[x]]><p>one</p><a href="https://x.io/')
    texts = [event for event in events if isinstance(event, str)]
    tags = [(event.name, event.closing) for event in events if not isinstance(event, str)]
    assert texts == ["<!-- a --><![CDATA[x]]>", "one", '<a href="https://x.io/']
    assert tags == [("p", False), ("p", True)]


def test_attribute_values_are_kept_as_written_and_names_lowercased():
    (tag,) = html_events("<A HREF=\"https://x.io/?a=1&amp;b=2\" Title='x > y' hidden>")
    assert tag == Tag(
        "a", False, {"href": "https://x.io/?a=1&amp;b=2", "title": "x > y", "hidden": ""}
    )


def test_a_lone_tag_is_one_tag_and_nothing_else():
    assert lone_tag("</a>") == Tag("a", True, {})
    assert lone_tag("<br/>") == Tag("br", False, {})
    assert lone_tag("<!-- a -->") is None
    assert lone_tag("<b>bold</b>") is None
