"""Inline markdown of one list item: links (balanced parentheses), bare URLs, plain text.

The guides write links every which way (``[t](url)``, bare ``https://…``, URLs holding
``(…)``, links inside a description), so an item is cut into ordered segments, text
and links, from which the parser reads titles, notes and labels.
"""

import re
from dataclasses import dataclass

_BARE_URL = re.compile(r"https?://[^\s<>\"'`]+")
_TRAILING_PUNCTUATION = ".,;:!?*'\""
_EMPHASIS = [
    (re.compile(r"\*\*(.+?)\*\*"), r"\1"),
    (re.compile(r"__(.+?)__"), r"\1"),
    (re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])"), r"\1"),
    (re.compile(r"(?<![\w_])_(?!\s)(.+?)(?<!\s)_(?![\w_])"), r"\1"),
    (re.compile(r"`([^`]*)`"), r"\1"),
]
_HTML_TAG = re.compile(r"<br\s*/?>|<img\b[^>]*>", re.IGNORECASE)


@dataclass(frozen=True)
class Segment:
    """Plain ``text``, or a link (``url`` set) whose visible ``text`` is its label."""

    text: str
    url: str = ""
    bare: bool = False
    image: bool = False

    @property
    def is_link(self) -> bool:
        return bool(self.url) and not self.image


def strip_emphasis(text: str) -> str:
    text = _HTML_TAG.sub(" ", text)
    for pattern, replacement in _EMPHASIS:
        text = pattern.sub(replacement, text)
    return text


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _closing(text: str, start: int, opening: str, closing: str) -> int:
    """Index of the bracket closing the one at ``start`` (nesting counted), or -1."""
    depth = 0
    for index in range(start, len(text)):
        if text[index] == opening:
            depth += 1
        elif text[index] == closing:
            depth -= 1
            if depth == 0:
                return index
    return -1


def _link_target(raw: str) -> str:
    # ``[t](url "title")``: the title is not part of the URL.
    titled = re.match(r'^(\S+)\s+"[^"]*"$', raw.strip())
    return titled.group(1) if titled else raw.strip()


def trim_bare_url(url: str) -> str:
    """Drop sentence punctuation and unbalanced closing parentheses from a URL found in prose."""
    while url:
        if url[-1] in _TRAILING_PUNCTUATION:
            url = url[:-1]
        elif url[-1] == ")" and url.count(")") > url.count("("):
            url = url[:-1]
        else:
            break
    return url


def _bare_segments(text: str) -> list[Segment]:
    segments, position = [], 0
    for match in _BARE_URL.finditer(text):
        url = trim_bare_url(match.group())
        segments.append(Segment(text[position : match.start()]))
        segments.append(Segment(url, url=url, bare=True))
        position = match.start() + len(url)
    segments.append(Segment(text[position:]))
    return segments


def segments(text: str) -> list[Segment]:
    """Cut ``text`` into text and link segments, in order; empty text segments are dropped."""
    out, position, index = [], 0, 0
    while (index := text.find("[", index)) >= 0:
        close = _closing(text, index, "[", "]")
        if close < 0 or close + 1 >= len(text) or text[close + 1] != "(":
            index += 1
            continue
        end = _closing(text, close + 1, "(", ")")
        if end < 0:
            index += 1
            continue
        image = index > 0 and text[index - 1] == "!"
        out.extend(_bare_segments(text[position : index - image]))
        label = squash(strip_emphasis(text[index + 1 : close]))
        out.append(Segment(label, url=_link_target(text[close + 2 : end]), image=image))
        position = index = end + 1
    out.extend(_bare_segments(text[position:]))
    return [s for s in out if s.url or s.text]


def plain(parts: list[Segment]) -> str:
    """The readable text of ``parts``: links by their label, bare URLs and images left out."""
    return squash(strip_emphasis("".join("" if s.bare or s.image else s.text for s in parts)))


def is_web_link(segment: Segment) -> bool:
    """A link to a page elsewhere, not an in-page anchor (a table of contents) or an image."""
    return segment.is_link and segment.url.lower().startswith(("http://", "https://"))
