"""HTML as the standard library's ``html.parser`` reads it (as the link checker reads pages):
a fragment's tags, with their attributes, and the text between them exactly as written.

What is a tag and what its attributes hold is the parser's answer, not a pattern's: a quoted
value may hold ``>``; a comment, a declaration or an unfinished tag is text. The markdown
reader (``markdown``) turns these events into the markdown an HTML block stands for, and reads
an inline tag's link or image from them.
"""

import re
from dataclasses import dataclass
from html import parser as html_parser

# Tags that end a line of text (a link's label, a cell) where they open or close.
BLOCK_TAGS = {
    "p",
    "div",
    "br",
    "tr",
    "td",
    "th",
    "li",
    "ul",
    "ol",
    "table",
    "thead",
    "tbody",
    "center",
    "hr",
    "details",
    "blockquote",
    "section",
    "article",
    "header",
    "footer",
    "dl",
    "dt",
    "dd",
}
HEADING_TAG = re.compile(r"^h([1-6])$")


@dataclass(frozen=True)
class Tag:
    name: str  # lowercase
    closing: bool
    attrs: dict[str, str]


class _HtmlReader(html_parser.HTMLParser):
    """An HTML fragment as html.parser reads it: its tags (``Tag``) and, between them, its text
    exactly as written (entities, comments and markdown kept: the text is read again as markdown).

    The text is sliced from the source by position, never rebuilt from the parser's data, so
    nothing in it changes; the fragment is fed once and never closed, so an unfinished construct
    at the end (``<a href="…`` with no ``>``) is text, as it was written.
    """

    def __init__(self, source: str):
        super().__init__(convert_charrefs=True)
        self.source = source
        self.events: list[str | Tag] = []
        self._at = 0  # where the construct being reported starts
        self._text_from: int | None = None
        self.feed(source)
        end = len(source) - len(self.rawdata)  # what the parser left unread is text
        self._text(end)
        self._flush(len(source))

    def updatepos(self, i, j):
        # html.parser reports each construct before it moves past it: ``j`` is where the next starts
        self._at = j
        return super().updatepos(i, j)

    def parse_marked_section(self, i, report=1):
        # "<![CDATA[…]]>", "<![if …]>": not a tag; text (html.parser's own reading raises on an
        # unknown keyword)
        return self.parse_bogus_comment(i, report)

    def _text(self, at: int) -> None:
        if self._text_from is None:
            self._text_from = at

    def _flush(self, at: int) -> None:
        if self._text_from is not None:
            if self._text_from < at:
                self.events.append(self.source[self._text_from : at])
            self._text_from = None

    def _tag(self, name: str, closing: bool, attrs: dict[str, str]) -> None:
        self._flush(self._at)
        self.events.append(Tag(name, closing, attrs))

    def handle_starttag(self, tag, attrs):
        self._tag(tag, False, _as_written(self.get_starttag_text(), attrs))

    handle_startendtag = handle_starttag

    def handle_endtag(self, tag):
        self._tag(tag, True, {})

    def handle_data(self, data):
        self._text(self._at)

    handle_comment = handle_decl = handle_pi = unknown_decl = handle_data


def _as_written(tag_text: str | None, decoded) -> dict[str, str]:
    """A start tag's attributes with their values as written: html.parser decodes entities in
    them (``&amp;`` → ``&``), but the markdown made of them is decoded once more, as any markdown
    link is, and a line's source text (``raw``, which a sync compares) keeps what the list wrote.
    Read with html.parser's own attribute pattern, so the names are the ones it found."""
    attrs = {name: value or "" for name, value in decoded}
    find_name = getattr(html_parser, "tagfind_tolerant", None)
    find_attribute = getattr(html_parser, "attrfind_tolerant", None)
    if not tag_text or find_name is None or find_attribute is None:
        return attrs
    match = find_name.match(tag_text, 1)
    position = match.end() if match else len(tag_text)
    while match := find_attribute.match(tag_text, position):
        name, rest, value = match.group(1, 2, 3)
        if match.end() == position:
            break
        position = match.end()
        if rest and value[:1] == value[-1:] and value[:1] in ("'", '"') and len(value) > 1:
            value = value[1:-1]
        if name.lower() in attrs:
            attrs[name.lower()] = value if rest else ""
    return attrs


def html_events(html: str) -> list[str | Tag]:
    """``html`` as text (as written) and tags, in order."""
    return _HtmlReader(html).events


def lone_tag(content: str) -> Tag | None:
    """The tag ``content`` is (an inline HTML token), None when it is text, a comment or more."""
    events = html_events(content)
    return events[0] if len(events) == 1 and isinstance(events[0], Tag) else None
