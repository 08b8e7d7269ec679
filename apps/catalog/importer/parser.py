"""The pure parser: a guide's markdown text in, a tree of plain dataclasses out (no database).

``parse_guide`` unwraps the document, reads it as block events (``events``) and walks them
here, keeping where things go (the heading stack, pseudo-headings, MUST/MAYBE groups, what a
paragraph describes). What one line names is read by ``items`` (with ``links``, ``titles`` and
``authors``), a table by ``tables``, a written path or a phased plan by ``plans``; the result
is the tree of ``parsed``. Together they know the shapes the community guides actually use:

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
* the awesome-list shapes (``tests/catalog/reallists``): ``[Title](url): description`` after
  badges, ``by [@author](…)`` and ``[Title](url) `Org` `` as authors, companions named by
  their last word (``[Source code](…)``, ``[GPT-3 Blog post](…)``), ``[(Part 2)](…)``,
  ``([Click Here](…))`` named by the sentence before it, links inside headings and
  reference-style links (``[Title][ref]``), numbered prose describing the lone address
  listed under it, plain bullets under a linked paragraph as its note, ``:shortcode:`` and
  decorative emoji off headings, a page header of links before the list's ``# Name``;
  a paragraph's plain lines under a line opening with its link as that item's description
  (``[Title](url)`` / ``Authors. 2015. Summary.``), a link broken before its address
  (``[Title]`` / ``(https://…)``), references ``Surname, Given, et al. "Title." Venue.
  [[pdf]](…)`` titled by their quoted title;
* tables: a row holding links is an item (the main link in the title column, else the paper,
  else a named link, else the row's buttons ``[<img …>](notebook)``; ``1) **Name** - what it is``
  split); the same address twice in one section is one item;
* decoration off titles and headings (``🔥🔥[Tag] Title(@Org)``, ``📖Topic ([©️back👆🏻](#top))``),
  GitHub alerts (``> [!NOTE]``) read as plain prose, a "this project has moved" heading before
  the list's name read as a notice, not its title;
* a section table (``| # | Section | Highlights |``): a section per row holding one chapter;
* reading paths written as ``- Name: 01 → 03 → 04``;
* a fenced phased plan (``Phase 1: … (8-10 weeks)`` with numbered books and their
  notes) and an ordered list naming those books by abbreviation (``1. MML``);
* a document wrapped whole in an HTML comment, YAML front matter, ``{asides}``.

Sections left without items (tables of contents, licence notes) are dropped; the prose
of those before the first real section becomes the guide's description.
"""

import re
from dataclasses import replace

from django.conf import settings

from apps.catalog.importer import markdown, plans
from apps.catalog.importer.authors import citation
from apps.catalog.importer.books import resolve_book
from apps.catalog.importer.errors import CatalogImportError
from apps.catalog.importer.events import Event, document_events
from apps.catalog.importer.items import parse_items
from apps.catalog.importer.kinds import guess_kind
from apps.catalog.importer.links import (
    COMPANION_LABEL,
    GENERIC_LABEL,
    IMAGE_FILE,
    PLACEHOLDER_LABEL,
    has_link,
    image_reason,
    is_companion_label,
)
from apps.catalog.importer.parsed import ParsedGuide, ParsedItem, ParsedSection
from apps.catalog.importer.tables import Table
from apps.catalog.importer.text import decode_source
from apps.catalog.importer.titles import (
    LEADING_SYMBOLS,
    MAX_HEADING,
    caption_title,
    clean_heading,
    clean_title,
    is_moved_notice,
    title_and_org,
)
from apps.catalog.importer.urls import is_url_text, title_from_url
from apps.catalog.models import Kind, Priority

# ``is_companion_label`` is asked by the real-list tests through this module.
__all__ = ["MAX_LINKS", "MAX_SOURCE_SIZE", "ParsedGuide", "is_companion_label", "parse_guide"]


_CHECKBOX = re.compile(r"^\[( |x|X)\]\s*")
_NUMBERED_TITLE = re.compile(r"^(\d{1,3}|[A-Z])\.\s+(.+)$")
_TIER = re.compile(r"^tier\s*([1-3])\b", re.IGNORECASE)
_PRIORITY_LABEL = re.compile(r"^\**(MUST|MAYBE)\**\s*:?\**$")
_PRIORITY_WORD = re.compile(r"\b(MUST|MAYBE)\b")
_ASIDE = re.compile(r"^\{(.+)\}$", re.DOTALL)
_ALERT = re.compile(r"^\s*\[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]\s*", re.IGNORECASE)
_LANGUAGE_TOGGLE = re.compile(r"^[^\s|]{1,12}(?:\s*\|\s*[^\s|]{1,12}){1,4}$")


def _unwrap(text: str) -> tuple[str, dict[str, str]]:
    """Remove a whole-document HTML comment, other comments and YAML front matter (linear: ``find``)."""
    stripped = text.strip()
    if stripped.startswith("<!--") and stripped.endswith("-->") and stripped.count("-->") == 1:
        text = stripped[4:-3]
    pieces, position = [], 0
    while (start := text.find("<!--", position)) >= 0:
        end = text.find("-->", start + 4)
        if end < 0:
            break
        pieces.append(text[position:start])
        position = end + 3
    pieces.append(text[position:])
    text = "".join(pieces)
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


# A list line that is only an address, perhaps after a label: "https://…", "Paper: https://…".
_LONE_URL = re.compile(r"^(?:[\w ]{1,20}:\s*)?<?https?://\S+>?$")
# "<summary>Click to expand</summary>", "Show more", "Details": no heading ("More papers" is one)
_SUMMARY_NOISE = re.compile(
    r"^(?:(?:toggle|click|show|expand|hide|see|open)\b|(?:more|details|more details)\W*$)",
    re.IGNORECASE,
)


class _Parser:
    def __init__(self, text: str):
        self.events = document_events(text)
        self.next_meaningful = self._index_lookahead()
        self.section_urls: dict[int, set[str]] = {}  # id(section) → the URLs its items hold
        self.guide_urls: set[str] = set()
        self.books: list[ParsedItem] = []
        self.guide = ParsedGuide(title="")
        self.headings: list[tuple[int, ParsedSection]] = []  # the markdown heading stack
        self.pseudo: ParsedSection | None = None  # the current pseudo-heading, if any
        self.group_priority = ""
        self.pending_description = ""
        self.preamble: list[str] = []
        self.orphan: ParsedSection | None = None
        self.last_item_level: int | None = None  # list depth of the last linked bullet
        self.caption: tuple[int, str] | None = None  # (event index, prose) describing that bullet
        # (event index, item): a linked paragraph whose plain bullets, from that event on, describe it
        self.described: tuple[int | None, ParsedItem] | None = None
        # the item a paragraph's line named: its plain lines after it describe it
        # ("[A Primer on Neural Network Models](…)" / "Yoav Goldberg. October 2015. …")
        self.paragraph_item: ParsedItem | None = None
        # (event index, title): a title line whose paragraph's next line holds its venue and links
        self.title_line: tuple[int | None, str] | None = None

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

    @property
    def in_header(self) -> bool:
        """Before the first heading, where only a page header's links may have been read."""
        return not self.headings and all(s is self.orphan for s in self.guide.sections)

    def _attach(self, section: ParsedSection, parent: ParsedSection | None) -> ParsedSection:
        section.parent = parent
        (parent.children if parent else self.guide.sections).append(section)
        if self.pending_description:
            section.description = self.pending_description
            self.pending_description = ""
        return section

    def _new_section(self, title: str, parent: ParsedSection | None) -> ParsedSection:
        title = clean_heading(title)
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

    def _add_item(
        self,
        body: str,
        raw: str,
        caption: str = "",
        standalone: bool = False,
        level: int | None = None,
    ) -> None:
        """Add the items ``body`` names; ``standalone``: a link from a sentence or a page header,
        never the companion of the item before it ("💻 <a>Blog</a>" in a row of the author's pages).
        ``level``: a bullet's depth; a bullet beside the item before it (not under it) is a
        resource of its own, however generic its label ("- [Blog](…)")."""
        if level is not None and self.last_item_level is not None:
            standalone = standalone or level <= self.last_item_level
        items = parse_items(
            body,
            context=self._context(),
            tier=self._effective("tier"),
            priority=self.group_priority or self._effective("priority") or "",
            raw=raw.strip(),
        )
        if not items:
            return
        if caption and len(items) == 1 and items[0].url:
            # a lone address under the prose that describes it
            item = items[0]
            item.title = caption_title(caption) or title_from_url(item.url)
            item.note = item.description = caption
            item.kind = guess_kind(item.url, item.title, context=self._context())
        target = self._target()
        known = self.section_urls.setdefault(id(target), set())
        for item in items:
            if item.url and item.url in known:
                continue  # the same link twice in one section (a heading and its list)
            if item.url and IMAGE_FILE.search(item.url):
                self._skip("images and image links")  # "[WeChat QR code](…/qr.jpg)": a picture
                continue
            if len(item.links) == 1 and COMPANION_LABEL.match(item.title) and not item.note:
                if item.url in self.guide_urls:
                    continue  # "[GitHub](…)" repeating a link the list already gave
                # "[Website](…)" / "[GitHub](…)": the companion of the item before it, or named by its section
                if standalone:
                    item.title = title_from_url(item.url)
                elif target.items and target.items[-1].url:
                    target.items[-1].links.append(item.links[0])
                    self._remember(item, known)
                    continue
                elif target.title and len(target.title) <= MAX_HEADING:
                    item.title = target.title
            # "… Language Model(@DeepSeek-AI)", "Essence of linear algebra (3Blue1Brown)"
            title, org = title_and_org(item.title, item.url)
            item.author = item.author or org
            item.title = clean_title(title) or (title_from_url(item.url) if item.url else "")
            if item.url and is_url_text(item.title, item.url):
                item.title = title_from_url(item.url)  # "[https://github.com/a/b](…)": "a/b"
            if not item.title:
                continue  # nothing readable names it
            target.items.append(item)
            self._remember(item, known)

    def _remember(self, item: ParsedItem, known: set[str]) -> None:
        urls = {link.url for link in item.links}
        if item.kind == Kind.BOOK:
            self.books.append(item)
        # a section holds an item once; a link another item keeps as its companion may still be
        # an item of its own ("… faster with [cache-dit](…)" / "- [CacheDiT](…) is released")
        known.add(item.url or "")
        self.guide_urls |= urls

    def _add_prose(self, line: str) -> None:
        text = markdown.squash(markdown.strip_emphasis(line))
        if not text:
            return
        if self.in_preamble:
            self.preamble.append(text)
        elif (
            self.container is not None and not self.container.items and not self.container.children
        ):
            self.container.description = "\n".join(filter(None, [self.container.description, text]))

    # lookahead

    def _next_event(self, index: int) -> Event | None:
        following = self.next_meaningful[index]
        return self.events[following] if following is not None else None

    def _index_lookahead(self) -> list[int | None]:
        """For each event, the index of the next one that is not an empty line (one backward pass)."""
        result: list[int | None] = [None] * len(self.events)
        following = None
        for index in range(len(self.events) - 1, -1, -1):
            result[index] = following
            event = self.events[index]
            if event.kind != "plain" or (
                event.text.strip() and markdown.strip_emphasis(event.text)
            ):
                following = index
        return result

    def _heads_a_list(self, index: int, bullet_level: int | None = None) -> bool:
        """Is the event at ``index`` followed by a list it heads?

        A plain line heads any list after it; a bullet heads a checklist or a more
        nested list, not its own next sibling.
        """
        following = self._next_event(index)
        if following is None:
            return False
        if following.kind == "fence":
            return True
        if following.kind != "bullet" or not following.text.strip():
            return False
        if bullet_level is None:
            return True
        return following.level > bullet_level or bool(_CHECKBOX.match(following.text.strip()))

    # event handlers

    def _skip(self, reason: str, count: int = 1) -> None:
        self.guide.skipped[reason] = self.guide.skipped.get(reason, 0) + count

    def _count_skipped_links(self, text: str) -> None:
        for part in markdown.segments(text):
            if part.image and part.url:
                self._skip(image_reason(part))
            elif part.is_link and not markdown.is_web_link(part):
                self._skip("in-page or relative links" if part.url else "links without an address")

    def _heading_line(self, level: int, title: str) -> None:
        parts = markdown.segments(title)
        links = [p for p in parts if markdown.is_web_link(p)]
        if self.in_header and is_moved_notice(markdown.strip_emphasis(title)):
            # "# ⚠️ This project has moved to …": a notice for the reader, not the list's name
            self._add_prose(clean_heading(title))
            return
        if level == 1 and not self.guide.title and self.in_header:
            # the list's name, even under a header of links (language switchers, sponsors)
            self.guide.title = clean_heading(title)
            return
        while self.headings and self.headings[-1][0] >= level:
            self.headings.pop()
        section = self._new_section(title, self.heading)
        self.headings.append((level, section))
        self.pseudo = None
        self.group_priority = ""
        if len(links) == 1 and re.sub(r"^[^\w(\[]+", "", markdown.plain(parts)) == links[0].text:
            # "## [AI Legion](https://…)": the heading names a resource
            self._add_item(title, title)
        elif links:
            # "#### [Link](…) to the course website": each link, named by its words or the heading's
            for link in links:
                label = link.text
                if not label or GENERIC_LABEL.match(label) or PLACEHOLDER_LABEL.match(label):
                    label = section.title
                self._add_item(f"[{label}]({link.url})", title, standalone=True)

    def _bullet_line(self, index: int, level: int, marker: str, body: str, raw: str) -> None:
        body = body.strip()
        caption, self.caption = self.caption, None
        if caption and caption[0] == index and _LONE_URL.match(body):
            self._add_item(body, raw, caption=caption[1])
            self.last_item_level = level
            return
        checklist = bool(_CHECKBOX.match(body))
        body = _CHECKBOX.sub("", body).strip()
        if not body:
            return
        parts = markdown.segments(body)
        if any(p.is_link for p in parts) and not any(markdown.is_web_link(p) for p in parts):
            self._count_skipped_links(body)
            return  # a table of contents line: in-page anchors only
        if self._path_line(body):
            return
        text = markdown.plain(parts)
        whole_bold = re.fullmatch(r"(?:\*\*|__)[^*_]+(?:\*\*|__)\s*:?", body)
        described, self.described = self.described, None
        if checklist or has_link(body):
            self._add_item(body, raw, level=level)
            self.last_item_level = level
        elif (
            described
            and described[0] == index
            and not whole_bold
            and not self._heads_a_list(index, level)
        ):
            item = described[1]
            item.note = "\n".join(filter(None, [item.note, text]))
            self.described = (self.next_meaningful[index], item)
        elif self._describes_last_item(level, text):
            item = self.container.items[-1]
            item.note = "\n".join(filter(None, [item.note, text]))
        elif (
            whole_bold
            or (marker == "*" and not self.in_preamble and len(text) <= MAX_HEADING)
            or len(text) <= MAX_HEADING
            and self._heads_a_list(index, level)
        ):
            self._pseudo_heading(body)
        elif self.in_preamble:
            self._add_prose(f"- {body}")
        else:
            self._add_item(body, raw)

    def _plain_line(self, index: int, line: str, from_html: bool = False) -> None:
        text = line.strip()
        if _PRIORITY_LABEL.match(text):
            self.group_priority = Priority.MUST if "MUST" in text else Priority.MAYBE
        elif match := _ASIDE.match(text):
            self.pending_description = match.group(1).strip()
        elif has_link(text):
            self._count_skipped_links(text)
            title_line, self.title_line = self.title_line, None
            titled = bool(title_line and title_line[0] == index)
            if title_line and titled:
                text = line = f"**{title_line[1]}** <br> {text}"
            self._linked_line(index, line, text, from_html, titled=titled)
        else:
            self._count_skipped_links(text)
            self._unlinked_line(index, text, from_html)

    def _linked_line(
        self, index: int, line: str, text: str, from_html: bool, titled: bool = False
    ) -> None:
        """A line of prose holding links: the item it names, or each link a sentence mentions
        (``titled``: the line after a title line, the item that title names)."""
        if not titled and (self._is_prose(text) or from_html and self.in_header):
            self.paragraph_item = None
            # links mentioned in a sentence (or a page header): one resource each, named by its label
            if self.in_preamble:
                self._add_prose(text)
            for part in markdown.segments(text):
                if markdown.is_web_link(part):
                    self._add_item(
                        f"[{part.text}]({part.url})" if part.text else part.url,
                        line,
                        standalone=True,
                    )
            return
        count = len(self._target().items)
        self._add_item(text, line)
        self.paragraph_item = None
        if len(self._target().items) == count + 1 and self._target().items[-1].url:
            if re.match(r"[^\w\[]{0,4}\[", text):  # the line opens with its link
                self.paragraph_item = self._target().items[-1]
            # "🗓️ Week 1: [Practical Introduction to LLMs](…)" over plain bullets of what it covers
            self.described = (self.next_meaningful[index], self._target().items[-1])

    def _unlinked_line(self, index: int, text: str, from_html: bool) -> None:
        """A line of prose without links: a pseudo-heading, a caption, or prose."""
        bold = re.fullmatch(r"(?:\*\*|__)([^*_]+)(?:\*\*|__)\s*:?", text)
        readable = markdown.strip_emphasis(text)
        short = (
            len(readable) <= MAX_HEADING
            and ". " not in readable
            and not readable.endswith((".", "!", "?"))
        )
        if bold and from_html and self._repeats_a_heading(bold.group(1), text):
            return  # "<summary>Toggle section</summary>", or the heading it sits under again
        if self._titles_next_line(index, readable):
            return
        if (bold and len(readable) <= MAX_HEADING) or (
            short and readable and self._heads_a_list(index)
        ):
            self._pseudo_heading(text)
        elif self.in_preamble and _LANGUAGE_TOGGLE.match(readable):
            return
        elif not self._captions_next(index, text):
            self._add_prose(text)

    def _titles_next_line(self, index: int, title: str) -> bool:
        """Is ``title`` (a short line at event ``index``) the name of what its paragraph's next line
        links ("**MathVista** <br>" / "ICLR 2024 Oral · [📖 Paper](…) [🤗 Dataset](…)")? Then that
        line is read as one item under this title, not as a section holding a venue."""
        following = self._next_event(index)
        if (
            not title
            or len(title) > 2 * MAX_HEADING
            or following is None
            or following.kind != "plain"
            or not following.continued
        ):
            return False
        parts = markdown.segments(following.text)
        first = next((i for i, part in enumerate(parts) if markdown.is_web_link(part)), None)
        if first is None or len(markdown.plain(parts[:first]).split()) > 8:
            return False
        if not is_companion_label(LEADING_SYMBOLS.sub("", parts[first].text.strip())):
            return False
        self.title_line = (self.next_meaningful[index], title)
        return True

    def _repeats_a_heading(self, bold: str, text: str) -> bool:
        """Is an HTML block's bold line ("<summary>…</summary>") noise or its section's title again?"""
        return bool(_SUMMARY_NOISE.match(bold.strip())) or (
            self.container is not None
            and self.container.title.lower() == clean_heading(text).lower()
        )

    @staticmethod
    def _describe(item: ParsedItem, line: str) -> None:
        """A paragraph's plain line under the line naming ``item``: more of its description."""
        words = markdown.strip_emphasis(markdown.plain(markdown.segments(line.strip())))
        item.description = " ".join(filter(None, [item.description, words.strip()]))
        item.note = " ".join(filter(None, [item.note, words.strip()]))

    def _describes_last_item(self, level: int, text: str) -> bool:
        """A plain bullet nested under a linked bullet ("- [BabyAGI](…)" / "  - Default model is …") is about it."""
        section = self.container
        return (
            level > 0
            and self.last_item_level is not None
            and level > self.last_item_level
            and section is not None
            and bool(section.items)
            and section.items[-1].url is not None
        )

    @staticmethod
    def _is_prose(text: str) -> bool:
        """A sentence that mentions links in passing, not a line naming a resource.

        A line that opens with its link ("🚀 **[Name](…)** - a long description") names it.
        """
        parts = markdown.segments(text)
        if len(markdown.plain(parts).split()) <= 12:
            return False
        first = next((i for i, part in enumerate(parts) if markdown.is_web_link(part)), 0)
        links = [part for part in parts if markdown.is_web_link(part)]
        before = markdown.strip_emphasis(markdown.plain(parts[:first]))
        if all(COMPANION_LABEL.match(link.text.strip()) for link in links) and citation(before):
            return False  # a reference ("LeCun, Yann, … "Deep learning." Nature. [[pdf]](…)")
        return bool(re.search(r"\w", markdown.plain(parts[:first])))

    def _captions_next(self, index: int, text: str) -> bool:
        """Is ``text`` (prose at event ``index``) the description of a lone address listed right
        under it ("1. GoogleAI introduces Muse, …" / "  - Paper: https://…")? Then it waits for it."""
        following = self._next_event(index)
        if following is None or following.kind != "bullet":
            return False
        if not _LONE_URL.match(following.text.strip()):
            return False
        self.caption = (
            self.next_meaningful[index],
            markdown.squash(markdown.strip_emphasis(text)),
        )
        return True

    def _path_line(self, body: str) -> bool:
        if path := plans.path_line(body):
            self.guide.paths.append(path)
        return path is not None

    def _table(self, rows: list[list[str]], raw_rows: list[str]) -> None:
        """A table: rows holding links become items (one per row, other links kept as its companions);
        a Section/Chapter table without links becomes a section per row holding one chapter."""
        if not rows:
            return
        table = Table(rows, raw_rows)
        if table.holds_links():
            target = self._target()
            known = self.section_urls.setdefault(id(target), set())
            for item in table.items(context=self._context(), skip=self._skip):
                if item.url in known:
                    continue  # the same paper twice in one section
                item.tier = self._effective("tier")
                item.priority = self.group_priority or self._effective("priority") or ""
                target.items.append(item)
                self._remember(item, known)
            self.pseudo = None
            return
        if not table.is_section_table():
            self._skip("table rows without links", len(table.body))
            return
        for chapter in table.chapters():
            section = self._new_section(chapter.title, self.heading)
            section.number = chapter.number
            section.items.append(
                ParsedItem(
                    title=section.title,
                    kind=Kind.CHAPTER,
                    description=chapter.highlights,
                    raw=chapter.raw,
                )
            )
        self.pseudo = None

    def _code_block(self, block: list[str]) -> None:
        """A fenced block matters only when it holds a phased plan; other code is not a reading list."""
        if not (sections := plans.phased_plan(block)):
            return
        parent = self._target()
        for section in sections:
            self._attach(section, parent)
            self.books.extend(item for item in section.items if item.kind == Kind.BOOK)

    def _ordered_list(self, events: list[Event], start: int = 0) -> None:
        """Numbered items: items when they link or name known books, else prose (e.g. "How to read")."""
        bodies = [event.text.strip() for event in events]
        if any(has_link(body) for body in bodies):
            for event, body in zip(events, bodies, strict=True):
                self._add_item(body, event.raw)
            return
        books = self.books
        resolved = [resolve_book(body, books) for body in bodies]
        if books and all(resolved):
            self._reading_order(events, bodies, resolved)
            return
        for offset, event in enumerate(events):
            last = offset == len(events) - 1
            if not (last and self._captions_next(start + offset, event.text)):
                self._add_prose(event.raw or event.text)

    def _reading_order(self, events, bodies, resolved) -> None:
        section, path = plans.reading_order(
            [event.number for event in events], bodies, [event.raw for event in events], resolved
        )
        self._attach(section, self._target())
        self.guide.paths.append(path)

    def parse(self) -> ParsedGuide:
        index = 0
        events = self.events
        while index < len(events):
            event = events[index]
            if event.kind != "plain":
                self.paragraph_item = None
            if event.kind == "ordered":
                end = index
                while end < len(events) and events[end].kind == "ordered":
                    end += 1
                self._ordered_list(events[index:end], index)
                index = end
                continue
            self._event(index, event)
            index += 1
        return self._finish()

    def _event(self, index: int, event: Event) -> None:
        if event.kind == "heading":
            self._heading_line(event.level, event.text)
        elif event.kind == "rule":
            self.group_priority = ""
        elif event.kind == "bullet":
            self._bullet_line(index, event.level, event.marker, event.text, event.raw)
        elif event.kind == "plain":
            self._paragraph_line(index, event)
        elif event.kind == "table":
            self._table(event.rows or [], event.block or [])
        elif event.kind == "fence":
            self._code_block(event.block or [])

    def _paragraph_line(self, index: int, event: Event) -> None:
        """A line of prose: more of the item its paragraph opened with, else a line of its own.
        A GitHub alert's marker (``> [!NOTE]``) is no text: what follows it is plain prose."""
        if not event.continued:
            self.paragraph_item = None
        if _ALERT.match(event.text):
            event = replace(event, text=_ALERT.sub("", event.text, count=1))
        if not event.text.strip():
            return
        if event.continued and self.paragraph_item and not has_link(event.text):
            self._describe(self.paragraph_item, event.text)
        else:
            self._plain_line(index, event.text, event.from_html)

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


MAX_SOURCE_SIZE = settings.IMPORT_MAX_BYTES
# Reading a list costs ~1 ms a link (a 40,000-link megabyte held a worker for 79 s and 262 MB);
# the largest real list we probed has under 1,000. Counted before parsing, as the address marks
# any link has (an upper bound: an image's address counts too).
MAX_LINKS = 5_000
_LINK_MARK = re.compile(r"://|\bwww\.", re.IGNORECASE)


def parse_guide(source: bytes | str) -> ParsedGuide:
    """Parse a guide (bytes or text); raise CatalogImportError when nothing in it is a reading
    list, or when it holds more than MAX_LINKS links."""
    if len(source) > MAX_SOURCE_SIZE:
        raise CatalogImportError(
            f"The file is too large to be a reading list ({len(source) // 1024} KB; at most {MAX_SOURCE_SIZE // 1024} KB)."
        )
    text, front_matter = _unwrap(decode_source(source))
    links = sum(1 for _ in _LINK_MARK.finditer(text))
    if links > MAX_LINKS:
        raise CatalogImportError(
            f"This list holds {links:,} links; an import reads at most {MAX_LINKS:,}. "
            "Split it into several lists and import each as its own guide."
        )
    text, dropped = markdown.defuse(text)
    guide = _Parser(markdown.inline_references(text)).parse()
    if dropped:
        guide.skipped["lines too long or too full of marks to be list lines"] = dropped
    guide.front_matter = front_matter
    guide.title = front_matter.get("title") or guide.title
    if not any(True for _ in guide.items()):
        raise CatalogImportError(
            "No reading-list items found. Expected markdown links, '- [ ]' checklist items, "
            "bare URLs or a table of links."
        )
    return guide
