"""Markdown as a reader sees it, through markdown-it-py (a CommonMark parser, linear time).

Two services for the parser:

* ``blocks(text)``: the document's block tokens (headings, lists, tables, fences, HTML
  blocks, paragraphs), with indented code switched off: reading lists indent nested
  bullets freely and never mean an indented code block;
* ``segments(text)``: one item's inline text cut into ordered segments, plain text and
  links — markdown links, ``<a href>`` links, bare URLs — with images (and links that
  only wrap an image: badges, "Open in Colab" buttons) marked, emphasis and other HTML
  dropped. Titles, notes and labels are read from segments, so no markup reaches them.

HTML blocks (``<details>``, ``<p align=center>``, ``<table>``) are turned into the
markdown they stand for by ``html_to_markdown`` and parsed again with HTML off. Tags, in
blocks and inline, are read by the standard library's ``html.parser`` (as the link checker
reads pages): what is a tag and what its attributes hold is its answer, not a pattern's.
"""

import re
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlsplit

from markdown_it import MarkdownIt

from apps.catalog.importer.html_tags import BLOCK_TAGS, HEADING_TAG, Tag, html_events, lone_tag

_BARE_URL = re.compile(r"https?://[^\s<>\"'`]+")
# "[Title] (https://…)" or a URL holding a space: not a CommonMark link, but a reader sees one.
_LOOSE_LINK = re.compile(r"\[([^\[\]\n]{0,300})\]\s?\((https?://[^()\n]{1,2000})\)")
_TRAILING_PUNCTUATION = ".,;:!?*'\""


def _make_parser(html: bool) -> MarkdownIt:
    md = (
        MarkdownIt("commonmark", {"html": html, "maxNesting": 40})
        .enable(["table", "strikethrough"])
        .disable("code")
    )
    # Keep link targets as written (the catalog normalizes URLs its own way, once).
    md.normalizeLink = lambda url: url
    md.normalizeLinkText = lambda url: url
    return md


@lru_cache(maxsize=2)
def parser(html: bool = True) -> MarkdownIt:
    return _make_parser(html)


@lru_cache(maxsize=2)
def _block_parser(html: bool) -> MarkdownIt:
    md = _make_parser(html)
    md.disable(
        ["inline", "text_join"]
    )  # block structure only: items' inline text is read by ``segments``
    return md


# A line this long, or with this many brackets and emphasis marks, is not a line of a
# reading list (hostile or generated input): it is left out, and the preview says so,
# so the inline parser never spends its time on it.
MAX_LINE = 10_000
_MAX_MARKS_PER_LINE = 400  # and more than one character in eight once past 64


def defuse(text: str) -> tuple[str, int]:
    """``text`` without its pathological lines, and how many were left out (linear: one pass)."""
    kept, dropped = [], 0
    for line in text.split("\n"):
        marks = sum(line.count(mark) for mark in "[]*_<") if len(line) > 64 else 0
        if (
            len(line) > MAX_LINE
            or marks > _MAX_MARKS_PER_LINE
            or (marks > 64 and marks * 8 > len(line))
        ):
            dropped += 1
            kept.append("")
        else:
            kept.append(line)
    return "\n".join(kept), dropped


_REFERENCE_DEFINITION = re.compile(
    r"^ {0,3}\[([^\[\]\n]{1,200})\]:[ \t]*<?([^\s<>]+)>?"
    r"(?:[ \t]+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\)))?[ \t]*$",
    re.MULTILINE,
)
_REFERENCE_USE = re.compile(
    r"\[([^\[\]\n]{1,300})\]\[([^\[\]\n]{0,200})\]|(?<![\]\\])\[([^\[\]\n]{1,200})\](?![\[(:])"
)


def _reference_key(label: str) -> str:
    return squash(label).casefold()


def inline_references(text: str) -> str:
    """``[Title][ref]``, ``[ref][]`` and ``[ref]`` written as ``[Title](url)`` where the document
    defines ``[ref]: url``: items are read line by line, away from the definitions (linear: two passes)."""
    if "]:" not in text:
        return text
    defined: dict[str, str] = {}
    for match in _REFERENCE_DEFINITION.finditer(text):
        defined.setdefault(_reference_key(match.group(1)), match.group(2))
    if not defined:
        return text

    def resolve(match: re.Match) -> str:
        if match.group(3) is not None:  # shortcut: "[ref]"
            label, key = match.group(3), match.group(3)
        else:
            label, key = match.group(1), match.group(2) or match.group(1)
        url = defined.get(_reference_key(key))
        return f"[{label}]({url})" if url else match.group(0)

    return _REFERENCE_USE.sub(resolve, text)


def blocks(text: str, *, html: bool = True):
    return _block_parser(html).parse(text)


@dataclass(frozen=True)
class Segment:
    """Plain ``text``, or a link (``url`` set) whose visible ``text`` is its label.

    ``image``: an image, or a link whose only content is an image (a badge, a button).
    """

    text: str
    url: str = ""
    bare: bool = False
    image: bool = False
    src: str = ""  # the image's own address, for images and image links

    @property
    def is_link(self) -> bool:
        return bool(self.url) and not self.image


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def trim_bare_url(url: str) -> str:
    """Drop sentence punctuation and unbalanced closing parentheses from a URL found in prose."""
    while url:
        if url[-1] in _TRAILING_PUNCTUATION or url[-1] == ")" and url.count(")") > url.count("("):
            url = url[:-1]
        else:
            break
    return url


def _bare_segments(text: str) -> list[Segment]:
    segments, position = [], 0
    for match in _BARE_URL.finditer(text):
        url = trim_bare_url(match.group())
        if not url.split("://", 1)[1]:
            continue
        segments.append(Segment(text[position : match.start()]))
        segments.append(Segment(url, url=url, bare=True))
        position = match.start() + len(url)
    segments.append(Segment(text[position:]))
    return segments


_BROKEN_IMAGE = re.compile(
    r"!\[[^\[\]\n]{0,300}\]"
)  # "![Github Repo stars]" with no address: not text


def _text_segments(text: str) -> list[Segment]:
    """Plain text that may still hold loose links and bare URLs."""
    text = _BROKEN_IMAGE.sub("", text)
    out, position = [], 0
    for match in _LOOSE_LINK.finditer(text):
        out.extend(_bare_segments(text[position : match.start()]))
        out.append(Segment(squash(match.group(1)), url=match.group(2).strip()))
        position = match.end()
    out.extend(_bare_segments(text[position:]))
    return out


class _Link:
    def __init__(self, url: str):
        self.url, self.text, self.images = url, [], []


_MAX_LABEL = 600  # characters between a link's brackets; longer is prose with a stray bracket
_MAX_DEPTH = 2  # "[![badge](…)](…)" nests two deep; deeper is not a reading list


def _tame_brackets(text: str) -> str:
    """Escape the ``[`` that cannot open a link: unmatched, nested too deep, or closing too far away.

    markdown-it scans a link's text from every ``[`` it tries; escaping these keeps each
    scan short, so an item's inline parse stays linear on hostile input (one pass, a stack).
    """
    if "[" not in text:
        return text
    stack: list[int] = []
    hopeless: set[int] = set()
    for index, char in enumerate(text):
        if char == "[" and (index == 0 or text[index - 1] != "\\"):
            if len(stack) >= _MAX_DEPTH:
                hopeless.add(index)
            else:
                stack.append(index)
        elif char == "]" and stack and (index == 0 or text[index - 1] != "\\"):
            start = stack.pop()
            if index - start > _MAX_LABEL:
                hopeless.add(start)
    hopeless.update(stack)
    if not hopeless:
        return text
    return "".join("\\[" if index in hopeless else char for index, char in enumerate(text))


def segments(text: str) -> list[Segment]:
    """Cut ``text`` into text and link segments, in order; empty text segments are dropped."""
    return list(_segments(text))


@lru_cache(maxsize=4096)
def _segments(text: str) -> tuple[Segment, ...]:
    tokens = parser(True).parseInline(_tame_brackets(text))[0].children or []
    out: list[Segment] = []
    pending: list[str] = []  # plain text not yet scanned for bare URLs
    link: _Link | None = None

    def flush():
        if pending:
            out.extend(_text_segments("".join(pending)))
            pending.clear()

    def open_link(url: str):
        nonlocal link
        flush()
        link = _Link(url)

    def close_link():
        nonlocal link
        if link is None:
            return
        label = squash("".join(link.text))
        if not label and link.images:
            alt, src = link.images[0]
            out.append(Segment(alt, url=link.url, image=True, src=src))
        else:
            out.append(Segment(label, url=link.url))
        link = None

    def add_text(value: str):
        (link.text if link is not None else pending).append(value)

    for token in tokens:
        kind = token.type
        if kind in ("text", "code_inline"):
            add_text(token.content)
        elif kind in ("softbreak", "hardbreak"):
            add_text(" ")
        elif kind == "link_open":
            open_link(str(token.attrs.get("href", "")))
        elif kind == "link_close":
            close_link()
        elif kind == "image":
            alt, src = squash(token.content), str(token.attrs.get("src", ""))
            if link is not None:
                link.images.append((alt, src))
            else:
                flush()
                out.append(Segment(alt, url=src, image=True, src=src))
        elif kind == "html_inline":
            _inline_html(token.content, link, open_link, close_link, add_text, out, flush)
    close_link()
    flush()
    return tuple(s for s in out if s.url or s.text)


def _inline_html(content, link, open_link, close_link, add_text, out, flush):
    tag = lone_tag(content.strip())
    if tag is None:
        return
    if tag.name == "a":
        if tag.closing:
            close_link()
        elif href := tag.attrs.get("href"):
            open_link(href)
    elif tag.name == "img" and not tag.closing:
        alt, src = squash(tag.attrs.get("alt", "")), tag.attrs.get("src", "")
        if link is not None:
            link.images.append((alt, src))
        else:
            flush()
            out.append(Segment(alt, url=src, image=True, src=src))
    elif tag.name in BLOCK_TAGS:
        add_text(" ")


def plain(parts: list[Segment]) -> str:
    """The readable text of ``parts``: links by their label, bare URLs and images left out."""
    return squash("".join("" if s.bare or s.image else s.text for s in parts))


def strip_emphasis(text: str) -> str:
    """``text`` as a reader sees it: no emphasis, no HTML, links by their label (bare URLs kept)."""
    return squash("".join("" if s.image else s.text for s in segments(text)))


def is_web_link(segment: Segment) -> bool:
    """A link to a page elsewhere, not an in-page anchor (a table of contents) or an image."""
    return (
        segment.is_link
        and segment.url.lower().startswith(("http://", "https://"))
        and valid_url(segment.url)
    )


@lru_cache(maxsize=4096)
def valid_url(url: str) -> bool:
    """Can ``url`` be taken apart (``http://[a]/`` cannot: a bracket makes it an IPv6 host)?"""
    try:
        parts = urlsplit(url.strip())
        return bool(parts.hostname) and (parts.port is None or parts.port >= 0)
    except ValueError:
        return False


def html_to_markdown(html: str) -> tuple[str, list[str]]:
    """The markdown an HTML block stands for, and the ``<summary>`` titles found in it.

    Links become ``[text](href)`` (a link around an image: ``[![alt](src)](href)``), images
    ``![alt](src)``, headings ``#`` lines, block tags line breaks, ``<summary>x</summary>``
    a bold line of its own; every other tag goes. Text between tags is kept as written, so
    markdown inside a ``<details>`` still reads as markdown. A data table (its first row
    of ``<th>``) becomes a markdown table, so its columns keep their meaning; a layout
    table's cells become lines of their own.
    """
    writer = _MarkdownWriter()
    for event in html_events(html):
        if isinstance(event, str):
            writer.emit(event)
        else:
            writer.tag(event)
    return writer.finish()


class _MarkdownWriter:
    """Where an HTML block's text goes: into the open link's label, the open ``<summary>``, the
    open (outermost) table, or the markdown itself."""

    def __init__(self):
        self.out: list[str] = []
        self.summaries: list[str] = []
        self.anchor: list[str] | None = None  # text inside an open <a href>
        self.href = ""
        self.summary: list[str] | None = None
        self.table: _HtmlTable | None = None  # the outermost open <table>

    def emit(self, value: str) -> None:
        if self.anchor is not None:
            self.anchor.append(value)
        elif self.summary is not None:
            self.summary.append(value)
        elif self.table is not None:
            self.table.add(value)
        else:
            self.out.append(value)

    def tag(self, tag: Tag) -> None:
        name, closing = tag.name, tag.closing
        if name == "a":
            self._link(tag)
        elif name == "img" and not closing:
            alt = squash(tag.attrs.get("alt", "")).replace("[", "").replace("]", "")
            if src := tag.attrs.get("src"):
                self.emit(f"![{alt}]({src})")
        elif name == "summary":
            self._summary(closing)
        elif name in ("table", "tr", "td", "th") and self._table(name, closing):
            pass
        elif heading := HEADING_TAG.match(name):
            self.emit("\n\n" if closing else "\n\n" + "#" * int(heading.group(1)) + " ")
        elif name in BLOCK_TAGS:
            self.emit("\n\n" if name in ("details", "p", "div", "table", "center") else "\n")

    def _link(self, tag: Tag) -> None:
        if not tag.closing and (link := tag.attrs.get("href")):
            self.anchor, self.href = [], link
        elif tag.closing and self.anchor is not None:
            inner, self.anchor = squash("".join(self.anchor)), None
            self.emit(f"[{inner}]({self.href})" if inner else "")

    def _summary(self, closing: bool) -> None:
        if not closing:
            self.summary = []
        elif self.summary is not None:
            text = squash(strip_emphasis("".join(self.summary)))
            self.summary = None
            if text:
                self.summaries.append(text)
                (self.table.plain if self.table is not None else self.out).append(
                    f"\n\n**{text}**\n\n"
                )

    def _table(self, name: str, closing: bool) -> bool:
        """A table's own tags; False when the tag is to be read as any block tag."""
        table = self.table
        if name == "table" and table is None and not closing:
            self.table = _HtmlTable()
        elif name == "table" and table is not None and not table.depth and closing:
            self.out.append(table.markdown())
            self.table = None
        elif table is not None:
            table.tag(name, closing)
        else:
            return False
        return True

    def finish(self) -> tuple[str, list[str]]:
        if self.table is not None:
            self.out.append(self.table.markdown())
        if self.anchor is not None:
            self.out.append("".join(self.anchor))
        if self.summary is not None:
            self.out.append("".join(self.summary))
        return "".join(self.out), self.summaries


class _HtmlTable:
    """An HTML table read twice in one pass: as the lines of its cells (``plain``, for a layout
    table) and as rows of cells (for a data table, whose first row is ``<th>``)."""

    def __init__(self):
        self.plain: list[str] = ["\n\n"]
        self.rows: list[tuple[bool, list[str]]] = []  # (a header row?, cells)
        self.row: list[str] | None = None
        self.row_header = False
        self.cell: list[str] | None = None
        self.depth = 0  # tables nested inside this one

    def add(self, value: str) -> None:
        self.plain.append(value)
        if self.cell is not None:
            self.cell.append(value)

    def tag(self, name: str, closing: str) -> None:
        if name == "table":
            self.depth += -1 if closing else 1
            self.add("\n\n")
            return
        self.add("\n")
        if self.depth:
            return
        if name == "tr":
            self._close_cell()
            if closing and self.row is not None:
                self.rows.append((self.row_header, self.row))
                self.row = None
            elif not closing:
                self.row, self.row_header = [], False
        elif not closing:
            self._close_cell()
            if self.row is None:
                self.row, self.row_header = [], False
            self.row_header = self.row_header or name == "th"
            self.cell = []
        else:
            self._close_cell()

    def _close_cell(self) -> None:
        if self.cell is not None and self.row is not None:
            self.row.append(squash("".join(self.cell)).replace("|", "\\|"))
        self.cell = None

    def markdown(self) -> str:
        self._close_cell()
        if self.row is not None:
            self.rows.append((self.row_header, self.row))
            self.row = None
        if len(self.rows) < 2 or not self.rows[0][0]:
            return "".join(self.plain) + "\n\n"
        width = max(len(cells) for _, cells in self.rows)
        lines = []
        for index, (_, cells) in enumerate(self.rows):
            lines.append("| " + " | ".join(cells + [""] * (width - len(cells))) + " |")
            if index == 0:
                lines.append("|" + " --- |" * width)
        return "\n\n" + "\n".join(lines) + "\n\n"
