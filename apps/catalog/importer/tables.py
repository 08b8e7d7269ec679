"""Tables: a row holding links is an item; a Section/Chapter table without links is a section per row.

A row's main link is the first in its title column; else, in a paper table, its paper (the link
in a Paper/PDF column, or one labelled or hosted as a paper: ``[[pdf]](arxiv…)``, openreview,
aclanthology), so that papers sharing one repository stay different resources; else its first
named link, else its first link (a row of buttons ``[<img …>](notebook)`` is read by its
buttons). The row's other links are the item's companions, labelled by what they are ("Code",
"Docs"). ``1) **Name** - what it is`` in a title column is split into the name and its
description; a title cell's ``<br>`` lines after the first are its authors or its description;
decorations come off the title (emoji runs, a leading ``[tag]``, ``(@Org)`` that is its author) and
a Date column gives the year. Which column is which is read from the header's words.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass

from apps.catalog.importer import markdown
from apps.catalog.importer.authors import looks_like_name, short_authors
from apps.catalog.importer.kinds import guess_kind
from apps.catalog.importer.links import (
    COMPANION_LABEL,
    button_label,
    has_button,
    has_link,
    image_reason,
    is_badge,
    is_button,
    is_companion_label,
    is_named,
    symbol_label,
)
from apps.catalog.importer.parsed import ParsedItem, ParsedLink
from apps.catalog.importer.titles import clean_title, date_year, title_and_org
from apps.catalog.importer.urls import is_url_text, repair_url, title_from_url

_TITLE_HEADERS = (
    "section",
    "chapter",
    "title",
    "name",
    "paper",
    "papers",
    "notebook",
    "project",
    "model",
    "tool",
    "resource",
    "course",
    "book",
    "article",
    "repo",
    "repository",
    "library",
    "link",
    "technique",
    "method",
    "topic",
    "lecture",
    "lesson",
    "tutorial",
    "dataset",
)
_TEXT_HEADERS = (
    "highlights",
    "description",
    "summary",
    "notes",
    "note",
    "about",
    "abstract",
    "what",
    "comment",
)
_AUTHOR_HEADERS = (
    "author",
    "authors",
    "institute",
    "institution",
    "organization",
    "organisation",
    "publisher",
    "by",
    "lab",
    "company",
    "speaker",
)
_NUMBER_HEADERS = ("#", "no", "no.", "number")
_DATE_HEADERS = ("date", "year", "time", "published", "release", "month", "when")
# columns whose link is the paper itself, and labels and hosts that say a link is a paper
_PAPER_HEADERS = ("paper", "papers", "pdf", "arxiv", "report", "publication", "link", "links")
_PAPER_LABEL = re.compile(
    r"^\W*(?:pdf|paper|arxiv|report|tech(?:nical)? report|openreview|acl|abs|html|preprint)\W*$",
    re.IGNORECASE,
)
_PAPER_HOSTS = re.compile(
    r"^https?://(?:[\w-]+\.)*(?:arxiv\.org|openreview\.net|aclanthology\.org|aclweb\.org|"
    r"proceedings\.\w+\.\w+|papers\.nips\.cc|dl\.acm\.org|ieeexplore\.ieee\.org|"
    r"biorxiv\.org|semanticscholar\.org|jmlr\.org)/|\.pdf(?:[?#]|$)",
    re.IGNORECASE,
)
_CODE_HOSTS = re.compile(r"^https?://(?:www\.)?(?:github\.com|gitlab\.com|bitbucket\.org)/", re.I)
# what a companion's column says it is: "| Code |" → "Code"
_COMPANION_HEADERS = {
    "code": "Code",
    "github": "Code",
    "repo": "Code",
    "repository": "Code",
    "implementation": "Code",
    "docs": "Docs",
    "documentation": "Docs",
    "blog": "Blog",
    "video": "Video",
    "slides": "Slides",
    "project": "Project page",
    "demo": "Demo",
    "dataset": "Dataset",
    "data": "Dataset",
    "model": "Model",
    "weights": "Model",
}
_BREAK = re.compile(r"<br\s*/?>", re.IGNORECASE)
_SECTION_HEADERS = ("section", "chapter", "title", "name")
_NUMBER_ONLY = re.compile(r"[\d\s./:-]+")


_TITLE_CELL = re.compile(
    r"^\s*(?:\d{1,4}[.)]\s*)?(?:\*\*|__)([^*_\n]{1,300})(?:\*\*|__)\s*(?:[-–—:]\s*)?(.*)$"
)


def _split_title_cell(source: str, readable: str) -> tuple[str, str]:
    """A title cell as (title, description): ``1) **Muse** - GoogleAI introduces …`` → ("Muse", "GoogleAI …")."""
    if match := _TITLE_CELL.match(source):
        title = markdown.strip_emphasis(match.group(1)).strip(" :")
        rest = markdown.squash(markdown.strip_emphasis(match.group(2)))
        if title and rest:
            return title, rest
    return readable, ""


@dataclass
class Chapter:
    """A row of a section table: a section of the guide holding one chapter to read."""

    title: str
    number: str
    highlights: str
    raw: str


class Table:
    """A markdown table's rows (inline source, the header first) and the lines they were read from."""

    def __init__(self, rows: list[list[str]], raw_rows: list[str]):
        self.header = [markdown.strip_emphasis(c).lower().strip(" :") for c in rows[0]]
        self.body = rows[1:]
        self.raws = (
            raw_rows[1:] if len(raw_rows) == len(rows) else [" | ".join(r) for r in self.body]
        )
        self.title_col = self._column(_TITLE_HEADERS)
        self.text_col = self._column(_TEXT_HEADERS)
        self.author_col = self._column(_AUTHOR_HEADERS)
        self.number_col = self._column(_NUMBER_HEADERS)
        self.date_col = self._column(_DATE_HEADERS)

    def _column(self, names) -> int | None:
        """The column whose header names it best: the earliest of ``names`` it says, exactly
        ("Title") or as its first word ("Title & Authors"); "Title & Authors" over "Links"."""
        best = None
        for i, header in enumerate(self.header):
            first = _HEADER_WORDS.split(header, maxsplit=1)[0]
            for exact, word in ((0, header), (1, first)):
                for rank, name in enumerate(names):
                    said = word and (word == name or word.rstrip("s") == name)
                    if said and (best is None or (rank, exact) < best[:2]):
                        best = (rank, exact, i)
        return best[2] if best else None

    def holds_links(self) -> bool:
        return any(has_link(cell) or has_button(cell) for row in self.body for cell in row)

    def is_section_table(self) -> bool:
        return self.title_col is not None and self.header[self.title_col] in _SECTION_HEADERS

    def chapters(self) -> list[Chapter]:
        """A section table's rows (those with a title)."""
        chapters = []
        for raw, row in zip(self.raws, self.body, strict=True):
            cells = [markdown.strip_emphasis(c) for c in row]
            if self.title_col >= len(cells) or not cells[self.title_col]:
                continue
            chapters.append(
                Chapter(
                    title=cells[self.title_col],
                    number=_cell(cells, self.number_col),
                    highlights=_cell(cells, self.text_col),
                    raw=raw,
                )
            )
        return chapters

    def items(self, *, context: str, skip: Callable[[str], None]) -> list[ParsedItem]:
        """One item per row holding a link; ``skip(reason)`` is told of each badge left out."""
        items = []
        for raw, row in zip(self.raws, self.body, strict=True):
            if item := self._row_item(row, raw, context=context, skip=skip):
                items.append(item)
        return items

    def _row_item(self, row, raw, *, context, skip) -> ParsedItem | None:
        cells = [markdown.segments(cell) for cell in row]
        web = _row_links(cells, skip)
        if not web:
            return None
        main_index = self._main_link(web)
        col, main = web[main_index]
        title, cell_description, cell_author = self._title(row, cells, col, main)
        title, org = title_and_org(title, main.url)
        title = clean_title(title)
        if not title or is_url_text(title, main.url):
            title = title_from_url(main.url)
        item = ParsedItem(title=title, kind="", raw=raw)
        url, issue = repair_url(main.url)
        item.links.append(ParsedLink(url=url, label=_bare_label(main.text), issue=issue))
        item.links.extend(self._extra_link(i, p) for k, (i, p) in enumerate(web) if k != main_index)
        if self.text_col is not None and self.text_col < len(cells):
            item.description = markdown.plain(cells[self.text_col])
            item.note = item.description
        elif cell_description:
            item.description = item.note = cell_description
        if self.author_col is not None and self.author_col < len(cells):
            item.author = markdown.plain(cells[self.author_col])
        item.author = item.author or cell_author or org
        if self.date_col is not None and self.date_col < len(cells):
            item.year = date_year(markdown.plain(cells[self.date_col]))
        item.kind = guess_kind(url, item.title, context=context)
        return item

    def _main_link(self, web) -> int:
        """The first link in the title column (the paper when that link is its code), else the
        paper, else the first named link, else the first."""
        main_index = next(
            (k for k, (i, p) in enumerate(web) if i == self.title_col and not p.image), None
        )
        if main_index is not None and _CODE_HOSTS.match(web[main_index][1].url):
            # "| [vLLM](github…) | [paper](arxiv…) |": the row is the paper, its code a companion
            paper = self._paper_link(web)
            if paper is not None and not _CODE_HOSTS.match(web[paper][1].url):
                main_index = paper
        if main_index is None:
            main_index = self._paper_link(web)
        if main_index is None:
            main_index = next((k for k, (i, p) in enumerate(web) if not p.image and is_named(p)), 0)
        return main_index

    def _paper_link(self, web) -> int | None:
        """The row's paper: a link in a Paper column, else one labelled or hosted as a paper."""
        links = [(k, i, p) for k, (i, p) in enumerate(web) if not p.image]
        for k, i, p in links:
            if (
                i < len(self.header)
                and self.header[i] in _PAPER_HEADERS
                and not _CODE_HOSTS.match(p.url)
            ):
                return k
        for k, _i, p in links:
            if _PAPER_LABEL.match(p.text) or (
                _PAPER_HOSTS.search(p.url) and not _CODE_HOSTS.match(p.url)
            ):
                return k
        for k, i, _p in links:
            if i < len(self.header) and self.header[i] in _PAPER_HEADERS:
                return k  # a paper hosted in its repository ("[[pdf]](github…/Mooncake-v3.pdf)")
        return None

    def _extra_link(self, col: int, p: markdown.Segment) -> ParsedLink:
        """A row's link other than its main one, kept under a label saying what it is: its
        column's ("| Code |" → "Code"), else its own when that says it ("[[docs]](…)"), else
        "Code" for a repository, else what the link is."""
        link = _extra_link(p)
        label = _bare_label(link.label)
        header = self.header[col] if col < len(self.header) else ""
        if not is_companion_label(label):
            if header in _COMPANION_HEADERS:
                label = _COMPANION_HEADERS[header]
            elif _CODE_HOSTS.match(p.url):
                label = "Code"
            elif _PAPER_LABEL.match(header) or _PAPER_HOSTS.search(p.url):
                label = "Paper"
        link.label = label
        return link

    def _title(self, row, cells, col, main) -> tuple[str, str, str]:
        """The row's (title, description from the title cell, authors from it) for its main link
        in column ``col``; a title cell's lines after a ``<br>`` are its authors or description."""
        title, cell_description, cell_author = "", "", ""
        title_col = self.title_col
        if title_col is not None and title_col < len(cells):
            # "[![Star](…)](repo)<br>[Title](paper) <br> Authors": lines of badges alone go first
            lines = _BREAK.split(row[title_col])
            while len(lines) > 1 and not markdown.plain(markdown.segments(lines[0])):
                lines = lines[1:]
            first, *more = lines
            if more and markdown.plain(markdown.segments(first)):
                rest = markdown.squash(" ".join(markdown.strip_emphasis(line) for line in more))
                if looks_like_name(rest.replace(" et al", "").rstrip(".")):
                    cell_author = rest
                elif _is_author_list(rest):
                    cell_author = short_authors(
                        rest
                    )  # "Junjie Xu, Zongyu Wu, …" → "Junjie Xu et al."
                else:
                    cell_description = rest
                cells = [*cells[:title_col], markdown.segments(first), *cells[title_col + 1 :]]
                row = [*row[:title_col], first, *row[title_col + 1 :]]
            title = markdown.plain(cells[title_col])
            if col != title_col:
                # "1) **Muse** - GoogleAI introduces Muse, …": the bold name, then what it is
                title, split_description = _split_title_cell(row[title_col], title)
                cell_description = split_description or cell_description
        if not title or (col == title_col and main.text and not COMPANION_LABEL.match(main.text)):
            title = main.text if main.text and not COMPANION_LABEL.match(main.text) else title
        if not title:
            # no title column: the words nearest the link, on its left ("| 1 | Foundational | Basic RAG | [button] |")
            named = [
                markdown.plain(c)
                for k, c in enumerate(cells)
                if k not in (self.text_col, self.author_col)
                and markdown.plain(c)
                and not _NUMBER_ONLY.fullmatch(markdown.plain(c))
            ]
            left = [
                markdown.plain(c)
                for k, c in enumerate(cells[:col])
                if k not in (self.text_col, self.author_col, self.number_col)
                and markdown.plain(c)
                and not _NUMBER_ONLY.fullmatch(markdown.plain(c))
            ]
            title = left[-1] if left and main.image else (named[0] if named else "")
        return title, cell_description, cell_author


_HEADER_WORDS = re.compile(r"\s*(?:&|/|,|\+|\band\b|\s)\s*")


def _is_author_list(text: str) -> bool:
    """ "Junjie Xu, Zongyu Wu, Minhua Lin": names, each one a name, between commas."""
    names = [n.strip() for n in re.split(r",\s*|\s+and\s+", text) if n.strip()]
    return len(names) > 1 and len(text) <= 1000 and all(looks_like_name(n) for n in names)


def _bare_label(label: str) -> str:
    """``"[pdf]"`` (from ``[[pdf]](…)``) → ``"pdf"``."""
    stripped = label.strip()
    if len(stripped) > 2 and stripped[0] == "[" and stripped[-1] == "]":
        return stripped[1:-1].strip() or stripped
    return stripped


def _cell(cells: list[str], col: int | None) -> str:
    return cells[col] if col is not None and col < len(cells) else ""


def _row_links(cells, skip) -> list[tuple[int, markdown.Segment]]:
    """A row's (column, link) pairs that count: links and buttons, badges left out (and told of)."""
    links = [
        (i, p)
        for i, parts in enumerate(cells)
        for p in parts
        if markdown.is_web_link(p) or (p.image and p.url.startswith("http") and p.src != p.url)
    ]
    web = [(i, p) for i, p in links if not p.image or not is_badge(p)]
    if not web:
        # a row whose only links are buttons ("View on GitHub", "Open in Colab") to its content
        web = [(i, p) for i, p in links if p.image and is_button(p)]
    for _, p in links:
        if p.image and is_badge(p) and (_, p) not in web:
            skip(image_reason(p))
    return web


def _extra_link(p: markdown.Segment) -> ParsedLink:
    """A row's link other than its main one, kept under a label saying what it is."""
    extra_url, extra_issue = repair_url(p.url)
    label = p.text if re.search(r"\w", p.text) else ""
    label = label or ("Notebook" if "colab" in p.url else "")
    if not label and not p.image:
        label = symbol_label(p.url)  # "[💻](github…)"
    if p.image and not label:
        label = button_label(p)
    return ParsedLink(url=extra_url, label=label or title_from_url(p.url), issue=extra_issue)
