"""Block events: what markdown-it-py sees in a document, flattened in reading order.

``document_events(text)`` turns the block tokens into one list of ``Event``: headings, list
items with their depth, a paragraph's lines, tables with their rows, fences and rules; an HTML
block is read as the markdown it stands for (``markdown.html_to_markdown``) and its events marked
``from_html``. The parser walks this list; nothing after it sees a token."""

import re
from dataclasses import dataclass, replace

from apps.catalog.importer import markdown


@dataclass
class Event:
    kind: str  # heading, bullet, ordered, plain, table, fence, rule
    text: str = ""  # inline markdown source
    level: int = 0  # heading level; list depth for bullets and numbered items
    marker: str = ""
    number: str = ""
    raw: str = ""
    rows: list[list[str]] | None = None  # table cells (inline source); the header first
    block: list[str] | None = None  # a fence's lines
    from_html: bool = False
    continued: bool = False  # a paragraph's line after its first


_ITEM_START = re.compile(r"^(\s*(?:[-*+]|\d{1,9}[.)])\s+)")


def _join_open_links(lines: list[str]) -> list[str]:
    """A paragraph's lines, a line whose link text runs on ("[Prompting and Prompt" /
    "Engineering](…)") joined to the next (at most three lines: one pass)."""
    out: list[str] = []
    carried = 0
    for line in lines:
        if out and out[-1].endswith("]") and re.match(r"\(https?://\S+\)", line):
            # "[Title]" / "(https://…)": a link broken before its address
            out[-1] = f"{out[-1]}{line}"
            carried = 0
        elif out and carried and out[-1].count("[") > out[-1].count("]"):
            out[-1] = f"{out[-1]} {line}"
            carried -= 1
        else:
            out.append(line)
            carried = 2
    return out


def _is_delimiter_row(line: str) -> bool:
    stripped = line.strip()
    return "-" in stripped and "|" in stripped and set(stripped) <= set("|:- \t")


def _separate_tables(lines: list[str]) -> list[str]:
    """A table written right under a list or a paragraph starts a table, as a reader sees it
    (CommonMark would read its rows as the paragraph's continuation)."""
    out: list[str] = []
    for index, line in enumerate(lines):
        if (
            line.lstrip().startswith("|")
            and out
            and out[-1].strip()
            and not out[-1].lstrip().startswith("|")
            and index + 1 < len(lines)
            and _is_delimiter_row(lines[index + 1])
        ):
            out.append("")
        out.append(line)
    return out


def document_events(text: str, *, html: bool = True) -> list[Event]:
    """The document as a flat list of events: headings, list items with their depth, lines of prose, tables, fences."""
    lines = _separate_tables(text.split("\n"))
    return _BlockReader(lines).read(markdown.blocks("\n".join(lines), html=html))


@dataclass
class _OpenItem:
    """A list item whose first paragraph is its text (``seen`` once read)."""

    marker: str
    number: str
    line: int  # its first line in the source
    seen: bool = False


class _BlockReader:
    """markdown-it's block tokens read in order, with the lists and list items open at each."""

    def __init__(self, lines: list[str]):
        self.lines = lines
        self.events: list[Event] = []
        self.lists: list[bool] = []  # ordered? for each open list
        self.items: list[_OpenItem] = []

    def read(self, tokens) -> list[Event]:
        index = 0
        while index < len(tokens):
            index = self._token(tokens, index)
        return self.events

    def _token(self, tokens, index: int) -> int:
        """Read the token at ``index``; the index of the next one to read."""
        token = tokens[index]
        kind = token.type
        if kind == "heading_open":
            inline = tokens[index + 1]
            self.events.append(
                Event("heading", inline.content, level=int(token.tag[1]), raw=inline.content)
            )
            return index + 3
        if kind == "paragraph_open":
            self._paragraph(token, tokens[index + 1].content.split("\n"))
            return index + 3
        if kind == "table_open":
            return self._table(tokens, index) + 1
        if kind.endswith(("list_open", "list_close", "item_open", "item_close")):
            self._list_token(token)
        elif kind == "fence":
            self.events.append(Event("fence", block=token.content.split("\n")))
        elif kind == "hr":
            self.events.append(Event("rule"))
        elif kind == "html_block":
            converted, _ = markdown.html_to_markdown(token.content)
            self.events.extend(
                replace(event, from_html=True) for event in document_events(converted, html=False)
            )
        return index + 1

    def _list_token(self, token) -> None:
        """Keep the open lists (ordered or not) and list items."""
        kind = token.type
        if kind in ("bullet_list_open", "ordered_list_open"):
            self.lists.append(kind == "ordered_list_open")
        elif kind in ("bullet_list_close", "ordered_list_close"):
            self.lists.pop()
        elif kind == "list_item_open":
            start = token.map[0] if token.map else 0
            self.items.append(_OpenItem(marker=token.markup, number=token.info, line=start))
        elif kind == "list_item_close":
            self.items.pop()

    def _line(self, number: int) -> str:
        return self.lines[number] if number < len(self.lines) else ""

    def _paragraph(self, token, para: list[str]) -> None:
        """A list item's first paragraph is the item; its lines written at the item's indent belong
        to it, a lazy continuation after them is prose. Any other paragraph is lines of prose."""
        if not self.items or self.items[-1].seen:
            self.events.extend(
                Event("plain", line, raw=line, continued=bool(offset))
                for offset, line in enumerate(_join_open_links(para))
            )
            return
        item = self.items[-1]
        item.seen = True
        source = self._line(item.line)
        start = _ITEM_START.match(source)
        content_indent = len(start.group(1)) if start else 2
        first_line = token.map[0] if token.map else 0
        body, lazy = [para[0]], []
        for offset, line in enumerate(para[1:], start=1):
            source_line = self._line(first_line + offset)
            indented = len(source_line) - len(source_line.lstrip()) >= content_indent
            (body if indented and not lazy else lazy).append(line)
        self.events.append(
            Event(
                "ordered" if self.lists and self.lists[-1] else "bullet",
                " ".join(body),
                level=len(self.lists) - 1,
                marker=item.marker,
                number=item.number,
                raw=source.strip(),
            )
        )
        self.events.extend(Event("plain", line, raw=line) for line in lazy)

    def _table(self, tokens, index: int) -> int:
        """A table's rows of cells (inline source) and source lines; the index of its close."""
        rows, row, raw_rows = [], None, []
        while index < len(tokens) and tokens[index].type != "table_close":
            cell = tokens[index]
            if cell.type == "tr_open":
                row = []
                if cell.map and cell.map[0] < len(self.lines):
                    raw_rows.append(self.lines[cell.map[0]].strip())
            elif cell.type == "tr_close" and row is not None:
                rows.append(row)
            elif cell.type == "inline" and row is not None:
                row.append(cell.content)
            index += 1
        self.events.append(Event("table", rows=rows, block=raw_rows))
        return index
