"""Plans and reading paths a guide writes itself.

* reading paths written as ``- Name: 01 → 03 → 04`` (``path_line``);
* a fenced phased plan (``Phase 1: … (8-10 weeks)`` with numbered books and their notes)
  (``phased_plan``);
* an ordered list naming the plan's books by abbreviation (``1. MML``) (``reading_order``).
"""

import re

from apps.catalog.importer.kinds import guess_kind
from apps.catalog.importer.parsed import ParsedItem, ParsedPath, ParsedPathStep, ParsedSection
from apps.catalog.importer.titles import MAX_HEADING
from apps.catalog.models import Kind

_BULLET = re.compile(r"^(\s*)([-*+])(?:\s+(.*))?$")
_ORDERED = re.compile(r"^(\s*)(\d+)[.)]\s+(.*)$")
_PHASE = re.compile(r"^Phase\s+(\d+)\s*:\s*(.+?)\s*(?:\(([^)]*)\))?$", re.IGNORECASE)
_EFFORT = re.compile(
    r"\s*\((\d+(?:\s*[-–]\s*\d+)?\s*(?:weeks?|days?|hours?|months?))\)\s*$", re.IGNORECASE
)
_WEEKS_PREFIX = re.compile(
    r"^((?:Weeks?|Days?|Months?)\s+\d+(?:\s*[-–]\s*\d+)?)\s*:\s*(.+)$", re.IGNORECASE
)
_QUOTED = re.compile(r"[\"“]([^\"”]+)[\"”]")
_PATH_ARROW = re.compile(r"\s*(?:→|->|⟶)\s*")
_PATH_STEP = re.compile(r"^(\w{1,4})(?:\s*\((.*)\))?$")


def path_line(body: str) -> ParsedPath | None:
    """``Kernel development: 01 → 03 → 04`` as a path, None when the line is not one."""
    title, sep, route = body.partition(":")
    if not sep or not _PATH_ARROW.search(route):
        return None
    steps = []
    for token in _PATH_ARROW.split(route.strip()):
        match = _PATH_STEP.match(token.strip())
        if not match:
            return None
        steps.append(ParsedPathStep(ref=match.group(1), label=(match.group(2) or "").strip()))
    return ParsedPath(title=title.strip(), steps=steps)


def phased_plan(block: list[str]) -> list[ParsedSection]:
    """A fenced block's phased plan as sections (a phase, or a ``Label:`` line) holding their
    items, in order; none when the block holds no ``Phase N:`` line (other code is not a reading list)."""
    if not any(_PHASE.match(line.strip()) for line in block):
        return []
    sections: list[ParsedSection] = []
    section, item, item_indent = None, None, 0
    for line in block:
        text = line.strip()
        indent = len(line) - len(line.lstrip())
        bullet, ordered = _BULLET.match(line), _ORDERED.match(line)
        if match := _PHASE.match(text):
            section = ParsedSection(title=match.group(2))
            section.phase, section.effort = (
                f"Phase {match.group(1)}",
                (match.group(3) or "").strip(),
            )
            sections.append(section)
            item = None
        elif text.endswith(":") and not (bullet or ordered) and len(text) <= MAX_HEADING:
            section, item = ParsedSection(title=text.rstrip(":").strip()), None
            sections.append(section)
        elif item and bullet and indent > item_indent:
            item.description = "\n".join(
                filter(None, [item.description, (bullet.group(3) or "").strip()])
            )
        elif section and (bullet or ordered):
            body = (ordered.group(3) if ordered else bullet.group(3)) or ""
            item, item_indent = _plan_item(body, section, line), indent
            section.items.append(item)
    return sections


def _plan_item(body: str, section: ParsedSection, raw: str) -> ParsedItem:
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
    bookish = section.phase or re.search(
        r"\b(books?|reading|reference materials)\b", section.title, re.I
    )
    kind = Kind.BOOK if bookish else guess_kind(None, text, context="")
    return ParsedItem(
        title=text.strip(),
        kind=kind,
        author=author,
        note=effort,
        effort=effort,
        raw=raw.strip(),
    )


def reading_order(
    numbers: list[str], bodies: list[str], raws: list[str], resolved: list[list[ParsedItem]]
) -> tuple[ParsedSection, ParsedPath]:
    """An ordered list naming known books (``1. MML``): a "Reading order" section of those books,
    and the path through them, a step per line."""
    section = ParsedSection(title="Reading order")
    path = ParsedPath(title="Book reading order")
    for number, body, raw, books in zip(numbers, bodies, raws, resolved, strict=True):
        step = ParsedPathStep(ref=number, label=body)
        for book in books:
            item = ParsedItem(
                title=book.title, kind=Kind.BOOK, author=book.author, note=body, raw=raw
            )
            section.items.append(item)
            step.items.append(item)
        path.steps.append(step)
    return section, path
