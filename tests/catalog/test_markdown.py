"""HTML in a list (``importer/markdown.py``): blocks as the markdown they stand for, inline tags as
links and images, with html.parser's reading of what is a tag; the text between tags as written."""

import time

import pytest

from apps.catalog.importer import parse_guide
from apps.catalog.importer.markdown import html_to_markdown, segments


def links(text):
    return [(link.url, link.label) for item in parse_guide(text).items() for link in item.links]


def test_a_quoted_attribute_may_hold_angle_brackets():
    # A pattern that ends a tag at the first ">" lost this link whole.
    text = '# Papers\n\n<p>\n<a href="https://x.io/search?q=a>b">Greater than</a>\n</p>\n'
    assert links(text) == [("https://x.io/search?q=a>b", "Greater than")]


def test_an_image_whose_alt_text_holds_a_tag_is_still_an_image():
    converted, _ = html_to_markdown('<p><img alt="<b>logo</b>" src="https://x.io/l.png"></p>')
    assert "![<b>logo</b>](https://x.io/l.png)" in converted


def test_an_inline_button_with_a_bracket_in_its_badge_address_stays_a_button():
    (button,) = segments('<a href="https://x.io/nb"><img src="https://x.io/b?l=a>b"></a>')
    assert (button.url, button.image, button.src) == (
        "https://x.io/nb",
        True,
        "https://x.io/b?l=a>b",
    )


def test_attribute_values_and_text_are_kept_as_written():
    # markdown-it decodes the entity once, as in any markdown link; the line's source text
    # (which a sync compares) keeps what the list wrote
    text = '# Tools\n\n<p>\n<a href="https://x.io/?a=1&amp;b=2">A &amp; B</a>\n</p>\n'
    (item,) = parse_guide(text).items()
    assert item.url == "https://x.io/?a=1&b=2"
    assert "https://x.io/?a=1&amp;b=2" in item.raw


ONE_MB = 1_000_000
HOSTILE_HTML = {
    "unclosed comments": "<details>\n" + "<!--" * (ONE_MB // 4),
    "unclosed quotes": "<details>\n" + '<a href="' * (ONE_MB // 9),
    "unknown sections": "<details>\n" + "<![x[" * (ONE_MB // 5),
    "bogus end tags": "<details>\n" + "</a " * (ONE_MB // 4),
    "many tags": "<details>\n" + '<a href="https://x.io/">x</a>' * (ONE_MB // 30),
}


@pytest.mark.parametrize("name", sorted(HOSTILE_HTML))
def test_hostile_html_is_read_in_bounded_time(name):
    started = time.perf_counter()
    html_to_markdown(HOSTILE_HTML[name])
    assert time.perf_counter() - started < 10, name
