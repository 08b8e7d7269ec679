"""The pure parser: a guide's markdown text in, a tree of plain dataclasses out (no database).

It knows the shapes the community guides actually use:

* ``#`` headings, and pseudo-headings: bold lines (``**Attention**``), bullets that head
  a list (``* **GPU architecture**``, ``* Post-training``, ``- Guide for …`` over an
  indented list), label lines (``GPU programming concepts:``) and short plain lines
  followed by a list (``Reasoning models``). Pseudo-headings are siblings one level
  below the markdown heading they sit under.
* ``MUST:`` / ``MAYBE:`` groups and headings that say MUST or MAYBE → priority;
  ``#### Tier N`` → tier, on the section and on every entry below it.
* items: ``- [ ]`` checklists, bullets, plain lines holding a URL; links written as
  ``[t](url)`` (parentheses inside URLs kept), bare URLs, several links per item;
  ``[DONE]``, ``(rating 8.5/10)``, ``(blog)``; ``[Title](url) - Author. Description.``
* a section table (``| # | Section | Highlights |``): a section per row holding one chapter;
* reading paths written as ``- Name: 01 → 03 → 04``;
* a fenced phased plan (``Phase 1: … (8-10 weeks)`` with numbered books and their
  notes) and an ordered list naming those books by abbreviation (``1. MML``);
* a document wrapped whole in an HTML comment, YAML front matter, ``{asides}``.

Sections left without items (tables of contents, licence notes) are dropped; the prose
of those before the first real section becomes the guide's description.
"""

import re
from dataclasses import dataclass, field
from decimal import Decimal

from apps.catalog.importer import markdown
from apps.catalog.importer.books import resolve_book
from apps.catalog.importer.errors import CatalogImportError
from apps.catalog.importer.kinds import guess_kind
from apps.catalog.importer.text import decode_source
from apps.catalog.importer.urls import repair_url, title_from_url
from apps.catalog.models import Kind, Priority


@dataclass
class ParsedLink:
    url: str  # as written, whitespace repaired (normalization is the planner's job)
    label: str = ""
    issue: str = ""  # why the URL had to be repaired, for Resource.url_issue


@dataclass
class ParsedItem:
    """One line of a guide naming something to read, watch, build or learn."""

    title: str
    kind: str
    links: list[ParsedLink] = field(default_factory=list)  # the first is the main link
    author: str = ""
    description: str = ""  # about the resource itself (002's descriptions, a book's notes)
    note: str = ""  # the guide's own words about the item
    tier: int | None = None
    priority: str = ""
    rating: Decimal | None = None
    done: bool = False
    effort: str = ""  # the guide's estimate, e.g. "4-5 weeks"
    raw: str = ""

    @property
    def url(self) -> str | None:
        return self.links[0].url if self.links else None


@dataclass
class ParsedSection:
    title: str
    number: str = ""
    description: str = ""
    tier: int | None = None
    priority: str = ""
    phase: str = ""
    effort: str = ""
    items: list[ParsedItem] = field(default_factory=list)
    children: list["ParsedSection"] = field(default_factory=list)
    parent: "ParsedSection | None" = field(default=None, repr=False, compare=False)

    def walk(self):
        yield self
        for child in self.children:
            yield from child.walk()

    def has_items(self) -> bool:
        return any(section.items for section in self.walk())


@dataclass
class ParsedPathStep:
    """A step of a path as the guide writes it: a section number (``"05"``) or an item list."""

    ref: str
    label: str = ""
    items: list[ParsedItem] = field(default_factory=list)


@dataclass
class ParsedPath:
    title: str
    steps: list[ParsedPathStep] = field(default_factory=list)

    def as_tuple(self) -> tuple[str, list[str]]:
        """``("Kernel development", ["01", "03", …])``."""
        return self.title, [step.ref for step in self.steps]


@dataclass
class ParsedGuide:
    title: str
    description: str = ""
    front_matter: dict[str, str] = field(default_factory=dict)
    sections: list[ParsedSection] = field(default_factory=list)
    paths: list[ParsedPath] = field(default_factory=list)  # explicit paths written in the guide

    def walk(self):
        for section in self.sections:
            yield from section.walk()

    def items(self):
        for section in self.walk():
            yield from section.items


# --- line shapes -------------------------------------------------------------------------

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_RULE = re.compile(r"^(?:-{3,}|\*{3,}|_{3,})$")
_BULLET = re.compile(r"^(\s*)([-*+])(?:\s+(.*))?$")
_ORDERED = re.compile(r"^(\s*)(\d+)[.)]\s+(.*)$")
_CHECKBOX = re.compile(r"^\[( |x|X)\]\s*")
_FENCE = re.compile(r"^\s*(```|~~~)")
_NUMBERED_TITLE = re.compile(r"^(\d{1,3}|[A-Z])\.\s+(.+)$")
_TIER = re.compile(r"^tier\s*([1-3])\b", re.IGNORECASE)
_PRIORITY_LABEL = re.compile(r"^\**(MUST|MAYBE)\**\s*:?\**$")
_PRIORITY_WORD = re.compile(r"\b(MUST|MAYBE)\b")
_DONE = re.compile(r"\s*\[DONE\]\s*", re.IGNORECASE)
_RATING = re.compile(r"\s*\(\s*rating\s*:?\s*(\d+(?:\.\d+)?)\s*/\s*10\s*\)", re.IGNORECASE)
_BLOG_PREFIX = re.compile(r"^\(blog\)\s*", re.IGNORECASE)
_ASIDE = re.compile(r"^\{(.+)\}$", re.DOTALL)
_PATH_ARROW = re.compile(r"\s*(?:→|->|⟶)\s*")
_PATH_STEP = re.compile(r"^(\w{1,4})(?:\s*\((.*)\))?$")
_LANGUAGE_TOGGLE = re.compile(r"^[^\s|]{1,12}(?:\s*\|\s*[^\s|]{1,12}){1,4}$")
_PHASE = re.compile(r"^Phase\s+(\d+)\s*:\s*(.+?)\s*(?:\(([^)]*)\))?$", re.IGNORECASE)
_EFFORT = re.compile(r"\s*\((\d+(?:\s*[-–]\s*\d+)?\s*(?:weeks?|days?|hours?|months?))\)\s*$", re.IGNORECASE)
_WEEKS_PREFIX = re.compile(r"^((?:Weeks?|Days?|Months?)\s+\d+(?:\s*[-–]\s*\d+)?)\s*:\s*(.+)$", re.IGNORECASE)
_QUOTED = re.compile(r"[\"“]([^\"”]+)[\"”]")
_GENERIC_LABEL = re.compile(
    r"^(paper\s*\d*|v\d+(\.\d+)?|link|here|this|code|implementation|pdf|slides?|video|blog|post|article|source)$",
    re.IGNORECASE,
)
# Link texts that name nothing: the item's own words, or the URL, make a better title.
_PLACEHOLDER_LABEL = re.compile(r"^(stuff|idk|another (one|blog)|some ?blog|link|here)$", re.IGNORECASE)
_TRIM_NOTE = " ,:;.-–—>/|"
_MAX_HEADING = 80
_MAX_AUTHOR_WORDS = 6


def _clean_heading(text: str) -> str:
    return markdown.squash(markdown.strip_emphasis(text)).rstrip(":").strip()


def _is_abbreviation_list(label: str) -> bool:
    tokens = re.split(r"[,\s/]+", label.strip())
    return len(tokens) > 1 and all(len(t) <= 3 and t.upper() == t for t in tokens if t)


def _titlecase_shouting(text: str) -> str:
    if len(text) > 4 and text.upper() == text and re.search(r"[A-Z]{4}", text):
        small = {"of", "for", "and", "to", "by", "on", "in", "a", "an", "the"}
        words = text.lower().split()
        return " ".join(w if i and w in small else w[:1].upper() + w[1:] for i, w in enumerate(words))
    return text


def _weak_url_title(url: str) -> bool:
    """A title derived from the URL that a guide's own words would beat (host only, a video id)."""
    title = title_from_url(url)
    return title.startswith("YouTube ") or "/" not in title and " " not in title


def _link_label(parts: list[markdown.Segment], index: int) -> str:
    """An extra link's label; a generic one ("v2", "paper") borrows the words before it ("paper for v2")."""
    link = parts[index]
    label = link.text if not link.bare else title_from_url(link.url)
    if not _GENERIC_LABEL.match(label):
        return label
    before = []
    for part in reversed(parts[:index]):
        if part.is_link:
            break
        before.insert(0, part)
    context = re.split(r"[,;:]", markdown.plain(before))[-1].strip(" ()[]")
    return f"{context} {label}" if context else label


def _split_author(text: str) -> tuple[str, str]:
    """``"Simon Boehm. Iterative optimization …"`` → ``("Simon Boehm", "Iterative optimization …")``."""
    head, sep, tail = text.partition(". ")
    candidate = head.rstrip(".") if sep else text.rstrip(".")
    if candidate and len(candidate.split()) <= _MAX_AUTHOR_WORDS:
        return candidate, tail.strip()
    return "", text


_NAME = r"(?:[A-Z]|\([A-Z])[\w.&()'-]*"
_BY_AUTHOR = re.compile(rf"^by\s+({_NAME}(?:,?\s+(?:and\s+|&\s+)?{_NAME})*)$")


def parse_item(body: str, *, context: str = "", tier=None, priority="", raw="") -> ParsedItem | None:
    """One item from its text (list marker and checkbox already removed); None when it holds nothing."""
    text = body
    done = bool(_DONE.search(text))
    text = _DONE.sub(" ", text)
    rating = None
    if match := _RATING.search(text):
        rating = Decimal(match.group(1))
        text = _RATING.sub(" ", text)
    explicit_kind = None
    if _BLOG_PREFIX.match(text.strip()):
        explicit_kind = Kind.SITE
        text = _BLOG_PREFIX.sub("", text.strip())
    parts = markdown.segments(text)
    link_indexes = [i for i, part in enumerate(parts) if markdown.is_web_link(part)]
    item = ParsedItem(title="", kind="", tier=tier, priority=priority, rating=rating, done=done, raw=raw or body)
    if not link_indexes:
        text_only = markdown.plain(parts)
        if not text_only:
            return None
        title, sep, note = text_only.partition(": ")
        if not sep or len(title) > _MAX_HEADING:
            title, note = text_only, ""
        item.title, item.note = title.strip(), note.strip()
        item.kind = explicit_kind or guess_kind(None, item.title, context=context)
        return item

    first = link_indexes[0]
    main = parts[first]
    prefix = markdown.plain(parts[:first]).strip(" :")
    rest_parts = parts[first + 1 :]
    rest = markdown.plain(rest_parts)
    url, issue = repair_url(main.url)
    item.links.append(ParsedLink(url=url, label=main.text, issue=issue))
    for index in link_indexes[1:]:
        extra_url, extra_issue = repair_url(parts[index].url)
        item.links.append(ParsedLink(url=extra_url, label=_link_label(parts, index), issue=extra_issue))

    if main.bare:
        paren = re.fullmatch(r"\((.+)\)", rest)
        if prefix:
            item.title, item.note = prefix, rest
        elif rest and not paren:
            item.title = _titlecase_shouting(rest)
        elif paren and _weak_url_title(url):
            item.title = paren.group(1)
        else:
            item.title, item.note = title_from_url(url), paren.group(1) if paren else ""
    else:
        label = main.text
        if _GENERIC_LABEL.match(label) and prefix:
            item.title = prefix
        elif _is_abbreviation_list(label) and prefix:
            item.title = f"{prefix} ({label})"
        elif _PLACEHOLDER_LABEL.match(label) and not _weak_url_title(url):
            item.title = title_from_url(url)
        else:
            item.title = label or title_from_url(url)
        if re.match(r"^\s+[-–—]\s", "".join(p.text for p in rest_parts[:1]) if rest_parts else ""):
            # 002's "[Title](url) - Author. Description."
            item.author, item.description = _split_author(rest.lstrip(_TRIM_NOTE))
            item.note = item.description
        elif prefix:
            item.note = markdown.plain(parts)
        else:
            wrapped = re.fullmatch(r"\(([^()]{1,40})\)", rest)
            if wrapped:
                item.title = f"{item.title} ({wrapped.group(1)})"
            else:
                item.note = rest.lstrip(_TRIM_NOTE).strip()
        if len(item.links) == 1 and (by := _BY_AUTHOR.match(item.note)):
            item.author, item.note = by.group(1), ""
    item.title = item.title.strip() or title_from_url(url)
    item.kind = explicit_kind or guess_kind(url, item.title, context=context)
    return item


# --- document-level helpers -----------------------------------------------------------------


def _unwrap(text: str) -> tuple[str, dict[str, str]]:
    """Remove a whole-document HTML comment, other comments and YAML front matter."""
    stripped = text.strip()
    if stripped.startswith("<!--") and stripped.endswith("-->") and stripped.count("-->") == 1:
        text = stripped[4:-3]
    text = re.sub(r"<!--.*?-->", "", text, flags=re.DOTALL)
    front_matter: dict[str, str] = {}
    lines = text.split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    if lines and lines[0].strip() == "---":
        for end in range(1, len(lines)):
            if lines[end].strip() == "---":
                for line in lines[1:end]:
                    key, sep, value = line.partition(":")
                    if sep and key.strip():
                        front_matter[key.strip()] = value.strip().strip("\"'")
                lines = lines[end + 1 :]
                break
    return "\n".join(lines), front_matter


def _has_link(text: str) -> bool:
    return any(markdown.is_web_link(p) for p in markdown.segments(text))


class _Parser:
    def __init__(self, text: str):
        self.lines = text.split("\n")
        self.guide = ParsedGuide(title="")
        self.headings: list[tuple[int, ParsedSection]] = []  # the markdown heading stack
        self.pseudo: ParsedSection | None = None  # the current pseudo-heading, if any
        self.group_priority = ""
        self.pending_description = ""
        self.preamble: list[str] = []
        self.orphan: ParsedSection | None = None

    # where things go

    @property
    def heading(self) -> ParsedSection | None:
        return self.headings[-1][1] if self.headings else None

    @property
    def container(self) -> ParsedSection | None:
        return self.pseudo or self.heading

    @property
    def in_preamble(self) -> bool:
        return not self.guide.sections

    def _attach(self, section: ParsedSection, parent: ParsedSection | None) -> ParsedSection:
        section.parent = parent
        (parent.children if parent else self.guide.sections).append(section)
        if self.pending_description:
            section.description = self.pending_description
            self.pending_description = ""
        return section

    def _new_section(self, title: str, parent: ParsedSection | None) -> ParsedSection:
        title = _clean_heading(title)
        number = ""
        if match := _NUMBERED_TITLE.match(title):
            number, title = match.groups()
        section = ParsedSection(title=title, number=number)
        if match := _TIER.match(title):
            section.tier = int(match.group(1))
        if match := _PRIORITY_WORD.search(title):
            section.priority = Priority.MUST if match.group(1) == "MUST" else Priority.MAYBE
        return self._attach(section, parent)

    def _pseudo_heading(self, title: str) -> None:
        self.pseudo = self._new_section(title, self.heading)
        self.group_priority = ""

    def _effective(self, attribute: str):
        section = self.container
        while section is not None:
            if value := getattr(section, attribute):
                return value
            section = section.parent
        return None

    def _context(self) -> str:
        section, titles = self.container, []
        while section is not None:
            titles.append(section.title)
            section = section.parent
        return " / ".join(titles)

    def _target(self) -> ParsedSection:
        if self.container is None:
            # Items before any heading: keep them in a section of their own.
            if self.orphan is None:
                self.orphan = self._attach(ParsedSection(title="Reading list"), None)
            return self.orphan
        return self.container

    def _add_item(self, body: str, raw: str) -> None:
        item = parse_item(
            body,
            context=self._context(),
            tier=self._effective("tier"),
            priority=self.group_priority or self._effective("priority") or "",
            raw=raw.strip(),
        )
        if item:
            self._target().items.append(item)

    def _add_prose(self, line: str) -> None:
        text = markdown.squash(markdown.strip_emphasis(line))
        if not text:
            return
        if self.in_preamble:
            self.preamble.append(text)
        elif self.container is not None and not self.container.items and not self.container.children:
            self.container.description = "\n".join(filter(None, [self.container.description, text]))

    # lookahead

    def _next_line(self, index: int) -> str:
        for line in self.lines[index + 1 :]:
            cleaned = markdown.squash(re.sub(r"<img\b[^>]*>|<br\s*/?>", "", line))
            if cleaned:
                return line
        return ""

    def _heads_a_list(self, index: int, bullet_indent: int | None = None) -> bool:
        """Is the line at ``index`` followed by a list it heads?

        A plain line heads any list after it; a bullet heads a checklist or a more
        indented list, not its own next sibling.
        """
        following = self._next_line(index)
        if _FENCE.match(following):
            return True
        bullet = _BULLET.match(following)
        if not bullet or not bullet.group(3):
            return False
        if bullet_indent is None:
            return True
        return len(bullet.group(1)) > bullet_indent or bool(_CHECKBOX.match(bullet.group(3)))

    # line handlers

    def _heading_line(self, level: int, title: str) -> None:
        if level == 1 and not self.guide.title and self.in_preamble:
            self.guide.title = _clean_heading(title)
            return
        while self.headings and self.headings[-1][0] >= level:
            self.headings.pop()
        section = self._new_section(title, self.heading)
        self.headings.append((level, section))
        self.pseudo = None
        self.group_priority = ""

    def _bullet_line(self, index: int, indent: int, marker: str, body: str, raw: str) -> None:
        body = body.strip()
        checklist = bool(_CHECKBOX.match(body))
        body = _CHECKBOX.sub("", body).strip()
        if not body:
            return
        parts = markdown.segments(body)
        if any(p.is_link for p in parts) and not any(markdown.is_web_link(p) for p in parts):
            return  # a table of contents line: in-page anchors only
        if self._path_line(body):
            return
        if checklist or _has_link(body):
            self._add_item(body, raw)
        elif re.fullmatch(r"\*\*[^*]+\*\*.*", body) or (marker == "*" and not self.in_preamble):
            self._pseudo_heading(body)
        elif self._heads_a_list(index, indent):
            self._pseudo_heading(body)
        elif self.in_preamble:
            self._add_prose(f"- {body}")
        else:
            self._add_item(body, raw)

    def _plain_line(self, index: int, line: str) -> None:
        text = line.strip()
        if _PRIORITY_LABEL.match(text):
            self.group_priority = Priority.MUST if "MUST" in text else Priority.MAYBE
            return
        if match := _ASIDE.match(text):
            self.pending_description = match.group(1).strip()
            return
        if _has_link(text):
            self._add_item(text, line)
            return
        bold = re.fullmatch(r"\*\*([^*]+)\*\*\s*:?", text)
        short = len(text) <= _MAX_HEADING and ". " not in text and not text.endswith((".", "!", "?"))
        if bold or (short and self._heads_a_list(index)):
            self._pseudo_heading(text)
        elif self.in_preamble and _LANGUAGE_TOGGLE.match(text):
            return
        else:
            self._add_prose(text)

    def _path_line(self, body: str) -> bool:
        title, sep, route = body.partition(":")
        if not sep or not _PATH_ARROW.search(route):
            return False
        steps = []
        for token in _PATH_ARROW.split(route.strip()):
            match = _PATH_STEP.match(token.strip())
            if not match:
                return False
            steps.append(ParsedPathStep(ref=match.group(1), label=(match.group(2) or "").strip()))
        self.guide.paths.append(ParsedPath(title=title.strip(), steps=steps))
        return True

    def _table(self, rows: list[str]) -> None:
        cells = [
            [markdown.squash(markdown.strip_emphasis(cell)) for cell in row.strip().strip("|").split("|")]
            for row in rows
        ]
        header = [c.lower() for c in cells[0]]
        body = [row for row in cells[1:] if not all(re.fullmatch(r":?-+:?", c) for c in row)]
        def column(*names):
            return next((i for i, h in enumerate(header) if h in names), None)

        number_col = column("#", "no", "no.", "number")
        title_col = column("section", "chapter", "title", "name")
        text_col = column("highlights", "description", "summary", "notes")
        for raw, row in zip(rows[1:], cells[1:]):
            if row not in body or title_col is None:
                continue
            section = self._new_section(row[title_col], self.heading)
            section.number = row[number_col] if number_col is not None else ""
            highlights = row[text_col] if text_col is not None and text_col < len(row) else ""
            section.items.append(
                ParsedItem(title=section.title, kind=Kind.CHAPTER, description=highlights, raw=raw.strip())
            )
        self.pseudo = None

    def _plan_item(self, body: str, section: ParsedSection, raw: str) -> ParsedItem:
        text, effort = body.strip(), ""
        if match := _EFFORT.search(text):
            effort, text = match.group(1), text[: match.start()]
        elif match := _WEEKS_PREFIX.match(text):
            effort, text = match.groups()
        author = ""
        if quoted := _QUOTED.search(text):
            before, title, after = text[: quoted.start()], quoted.group(1), text[quoted.end() :]
            author = re.sub(r"^by\s+", "", after.strip()) or re.sub(r"['’]s$", "", before.strip())
            text = title
        bookish = section.phase or re.search(r"\b(books?|reading|reference materials)\b", section.title, re.I)
        kind = Kind.BOOK if bookish else guess_kind(None, text, context="")
        return ParsedItem(title=text.strip(), kind=kind, author=author, note=effort, effort=effort, raw=raw.strip())

    def _code_block(self, block: list[str]) -> None:
        """A fenced block matters only when it holds a phased plan; other code is not a reading list."""
        if not any(_PHASE.match(line.strip()) for line in block):
            return
        parent = self._target()
        section, item, item_indent = None, None, 0
        for line in block:
            text = line.strip()
            indent = len(line) - len(line.lstrip())
            bullet, ordered = _BULLET.match(line), _ORDERED.match(line)
            if match := _PHASE.match(text):
                section = self._attach(ParsedSection(title=match.group(2)), parent)
                section.phase, section.effort = f"Phase {match.group(1)}", (match.group(3) or "").strip()
                item = None
            elif text.endswith(":") and not (bullet or ordered) and len(text) <= _MAX_HEADING:
                section, item = self._attach(ParsedSection(title=text.rstrip(":").strip()), parent), None
            elif item and bullet and indent > item_indent:
                item.description = "\n".join(filter(None, [item.description, (bullet.group(3) or "").strip()]))
            elif section and (bullet or ordered):
                body = (ordered.group(3) if ordered else bullet.group(3)) or ""
                item, item_indent = self._plan_item(body, section, line), indent
                section.items.append(item)

    def _ordered_list(self, lines: list[str]) -> None:
        """Numbered lines: items when they link or name known books, else prose (e.g. "How to read")."""
        bodies = [_ORDERED.match(line).group(3).strip() for line in lines]
        if any(_has_link(body) for body in bodies):
            for line, body in zip(lines, bodies):
                self._add_item(body, line)
            return
        books = [item for item in self.guide.items() if item.kind == Kind.BOOK]
        resolved = [resolve_book(body, books) for body in bodies]
        if books and all(resolved):
            self._reading_order(lines, bodies, resolved)
            return
        for line in lines:
            self._add_prose(line.strip())

    def _reading_order(self, lines, bodies, resolved) -> None:
        section = self._attach(ParsedSection(title="Reading order"), self._target())
        path = ParsedPath(title="Book reading order")
        for line, body, books in zip(lines, bodies, resolved):
            step = ParsedPathStep(ref=_ORDERED.match(line).group(2), label=body)
            for book in books:
                item = ParsedItem(title=book.title, kind=Kind.BOOK, author=book.author, note=body, raw=line.strip())
                section.items.append(item)
                step.items.append(item)
            path.steps.append(step)
        self.guide.paths.append(path)

    def parse(self) -> ParsedGuide:
        index = 0
        while index < len(self.lines):
            line = self.lines[index]
            text = line.strip()
            if _FENCE.match(line):
                after = range(index + 1, len(self.lines))
                end = next((j for j in after if _FENCE.match(self.lines[j])), len(self.lines))
                self._code_block(self.lines[index + 1 : end])
                index = end + 1
                continue
            if text.startswith("|"):
                end = index
                while end < len(self.lines) and self.lines[end].strip().startswith("|"):
                    end += 1
                self._table(self.lines[index:end])
                index = end
                continue
            if _ORDERED.match(line):
                end = index
                while end < len(self.lines) and _ORDERED.match(self.lines[end]):
                    end += 1
                self._ordered_list(self.lines[index:end])
                index = end
                continue
            self._line(index, line)
            index += 1
        return self._finish()

    def _line(self, index: int, line: str) -> None:
        text = markdown.squash(re.sub(r"<img\b[^>]*>", "", line))
        if not text:
            return
        if match := _HEADING.match(text):
            self._heading_line(len(match.group(1)), match.group(2))
        elif _RULE.match(text):
            self.group_priority = ""
        elif match := _BULLET.match(line):
            self._bullet_line(index, len(match.group(1)), match.group(2), match.group(3) or "", line)
        else:
            self._plain_line(index, text)

    def _finish(self) -> ParsedGuide:
        guide = self.guide
        description = ["\n".join(self.preamble)] if self.preamble else []
        kept = []
        for section in guide.sections:
            if section.has_items():
                kept.append(section)
            elif not kept and section.description:
                description.append(section.description)
        guide.sections = [_prune(section) for section in kept]
        guide.description = "\n\n".join(filter(None, description))
        return guide


def _prune(section: ParsedSection) -> ParsedSection:
    section.children = [_prune(child) for child in section.children if child.has_items()]
    return section


def parse_guide(source: bytes | str) -> ParsedGuide:
    """Parse a guide (bytes or text); raise CatalogImportError when nothing in it is a reading list."""
    text, front_matter = _unwrap(decode_source(source))
    guide = _Parser(text).parse()
    guide.front_matter = front_matter
    guide.title = front_matter.get("title") or guide.title
    if not any(True for _ in guide.items()):
        raise CatalogImportError(
            "No reading-list items found. Expected markdown links, '- [ ]' checklist items, "
            "bare URLs or a section table."
        )
    return guide
