"""The guide parser on arbitrary and hostile input: a result or a CatalogImportError, never
another exception, and in time linear in the input (part of the import's security).

Time bounds here are generous ceilings (a hang, or quadratic blow-up on 1 MB, takes
minutes); speed itself is measured in benchmarks, not here.
"""

import contextlib
import re
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.catalog.importer import CatalogImportError, parse_guide
from apps.catalog.importer.markdown import html_to_markdown, segments

MARKDOWN_ALPHABET = st.sampled_from(
    list("[]()<>!*_`#|-+:.\n \t\\\"'=/")
    + [
        "http://",
        "https://x.io/",
        "<a href=",
        "</a>",
        "<details>",
        "<summary>",
        "</summary>",
        "- [ ] ",
        "1. ",
        "| --- |",
        "```",
        "<!--",
        "-->",
        "**",
        "[pdf]",
        "ð\x9f",
        "\u200b",
        "é",
        "🧠",
        "a",
        "Title",
    ]
)
# a markdown link, or an HTML tag as CommonMark reads one (``<A.>`` is text, not a tag)
MARKUP = re.compile(r"\[[^\]]*\]\([^)]*\)|</?[a-zA-Z][a-zA-Z0-9-]*(?:\s[^<>]*)?/?>")
markdownish = st.lists(MARKDOWN_ALPHABET, max_size=200).map("".join)


def parse_or_refuse(data):
    try:
        return parse_guide(data)
    except CatalogImportError as error:
        assert str(error)
        return None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(max_size=500), markdownish))
def test_any_text_gives_a_guide_or_a_clear_refusal(text):
    guide = parse_or_refuse(text)
    if guide is not None:
        assert any(True for _ in guide.items())
        for item in guide.items():
            assert item.title
            assert not MARKUP.search(item.title), item.title


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=500))
def test_any_bytes_give_a_guide_or_a_clear_refusal(data):
    parse_or_refuse(data)


@settings(max_examples=200, deadline=None)
@given(markdownish)
def test_inline_segments_and_html_conversion_never_fail(text):
    for part in segments(text):
        assert part.text or part.url
    converted, summaries = html_to_markdown(text)
    assert isinstance(converted, str) and all(isinstance(s, str) for s in summaries)


ONE_MB = 1_000_000
ADVERSARIAL = {
    "empty links": "[](" * 5000,
    "brackets": "[" * ONE_MB,
    "closing brackets": "]" * ONE_MB,
    "link openers": "[a](" * (ONE_MB // 4),
    "loose links": "[a] (http://x" * (ONE_MB // 13),
    "spaces": "- [x](http://a.b)" + " " * ONE_MB + "x",
    "deep nesting": "".join("  " * depth + "- [a](http://x.io)\n" for depth in range(2000)),
    "nested quotes": "> " * 50_000 + "[a](http://x.io)",
    "emphasis": "*_" * (ONE_MB // 2),
    "tags": "<a " * (ONE_MB // 3),
    "unclosed tags": '<a href="' * (ONE_MB // 9),
    "comments": "<!--" * (ONE_MB // 4),
    "table": "| a | b |\n|---|---|\n" + "| [x](http://x.io) | y |\n" * 40_000,
    "bare urls": "http://" * (ONE_MB // 7),
    "details": "<details><summary>x</summary>\n- [a](http://x.io)\n</details>\n" * 15_000,
    "headings": "# [a](http://x.io)\n" * 50_000,
    "bracket lines": ("[" * 399 + "\n") * 2500,
    "sparse brackets": ("[aaaaaaaa" * 44 + "\n") * 2500,
    "emphasis lines": ("*_" * 199 + "\n") * 2500,
    "reference links": "".join(f"[r{i}]: http://x.io/{i}\n" for i in range(10_000))
    + "- [t][r1] [r2] [u][] x\n" * 25_000,
    "numbered captions": "1. A paper about things; more words here.\n  - https://x.io/a\n" * 15_000,
    "button tables": "| # | Technique | View |\n|---|---|---|\n"
    + '| 1 | RAG | [<img src="https://img.shields.io/badge/a">](https://x.io/n) |\n' * 10_000,
    "emoji runs": "- " + "🔥⭐️" * (ONE_MB // 12) + "[a](http://x.io)\n",
    "emoji headings": ("## 📖" + "🔥" * 300 + " Topic ([©️back👆🏻](#top))\n- [a](http://x.io)\n")
    * 700,
    "paper tables": "|Date|Title|Paper|Code|\n|---|---|---|---|\n"
    + "|2024.05|🔥🔥[T] Title(@Org)|[[pdf]](https://arxiv.org/pdf/1)|[[c]](https://github.com/a/b) ![](https://img.shields.io/s)|\n"
    * 5_000,
    "unclosed tags in titles": "|Date|Title|Paper|\n|---|---|---|\n"
    + ("|2024.05|" + "[" * 400 + "(@" * 400 + " (" * 400 + "|[p](https://arxiv.org/pdf/1)|\n")
    * 300,
    "break cells": "|Title|Paper|\n|---|---|\n"
    + ("|T" + " <br>" * 2_000 + "|[p](https://arxiv.org/pdf/1)|\n") * 100,
    "alerts": "> [!NOTE]\n> text\n\n" * 30_000 + "- [a](http://x.io)\n",
}


LONG = 100_000
TITLE_INPUTS = {
    "emoji run": "🔥" * LONG + "Title",
    "unclosed tag": "[" + "a" * LONG,
    "unclosed org": "Title(@" + "a" * LONG,
    "org spaces": "Title" + " " * LONG + "(@x" + " " * LONG,
    "many parentheses": "(@a" * (LONG // 3) + ")",
    "back-link spaces": "Topic" + " " * LONG + "([x](#y" + " " * LONG,
    "dates": "2024." * (LONG // 5),
    "colons": "Edge: " * (LONG // 6),
    "maker spaces": "Title" + " " * LONG + "(Andrej" + " " * LONG,
    "by spaces": "by " + "Andrej " * (LONG // 7) + ". " * (LONG // 2),
    "trailing asides": "Deep Learning" + " " * LONG + "(2016" + " (" * (LONG // 2),
    "author lists": ", ".join(["Junjie Xu"] * (LONG // 11)),
}


@pytest.mark.parametrize("name", sorted(TITLE_INPUTS))
def test_title_rules_take_linear_time_on_100_kb(name):
    from apps.catalog.importer.authors import by_lead, titled_prefix
    from apps.catalog.importer.titles import (
        aside,
        clean_heading,
        clean_title,
        date_year,
        is_moved_notice,
        title_and_org,
    )
    from apps.catalog.importer.urls import is_url_text

    text = TITLE_INPUTS[name]
    started = time.perf_counter()
    clean_title(text)
    clean_heading(text)
    title_and_org(text)
    date_year(text)
    aside(text)
    is_moved_notice(text)
    titled_prefix(text, text)
    title_and_org(text, "https://www.youtube.com/watch?v=x")
    by_lead(text)
    is_url_text(text, "https://github.com/a/b")
    for document in (
        f"# L\n\n- {text}\n- [a](https://x.io/a) {text}\n",
        f"# L\n\n| Title & Authors | Links |\n|---|---|\n| [T](https://x.io/t) <br> {text} | x |\n",
    ):
        with contextlib.suppress(CatalogImportError):  # read through, in time, or refused
            parse_guide(document)
    assert time.perf_counter() - started < 5, name


def test_too_large_a_file_is_refused():
    with pytest.raises(CatalogImportError, match="too large"):
        parse_guide(b"- [a](http://x.io)\n" * 200_000)


def test_pathological_lines_are_left_out_and_reported():
    guide = parse_guide("# List\n- [Alpha](http://x.io)\n" + "[" * 20_000 + "\n")
    assert [item.title for item in guide.items()] == ["Alpha"]
    assert guide.skipped == {"lines too long or too full of marks to be list lines": 1}


@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
def test_adversarial_input_is_parsed_in_bounded_time(name):
    started = time.perf_counter()
    parse_or_refuse(ADVERSARIAL[name])
    assert time.perf_counter() - started < 30, name
