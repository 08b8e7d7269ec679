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
* tables: a row holding links is an item (the main link in the title column, else a named
  link, else the row's buttons ``[<img …>](notebook)``; ``1) **Name** - what it is`` split);
* a section table (``| # | Section | Highlights |``): a section per row holding one chapter;
* reading paths written as ``- Name: 01 → 03 → 04``;
* a fenced phased plan (``Phase 1: … (8-10 weeks)`` with numbered books and their
  notes) and an ordered list naming those books by abbreviation (``1. MML``);
* a document wrapped whole in an HTML comment, YAML front matter, ``{asides}``.

Sections left without items (tables of contents, licence notes) are dropped; the prose
of those before the first real section becomes the guide's description.
"""

import re
from dataclasses import dataclass, field, replace
from decimal import Decimal

from django.conf import settings

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
    skipped: dict[str, int] = field(
        default_factory=dict
    )  # what was not imported, and why: {"badges": 3}

    def walk(self):
        for section in self.sections:
            yield from section.walk()

    def items(self):
        for section in self.walk():
            yield from section.items


# --- line shapes -------------------------------------------------------------------------

_BULLET = re.compile(r"^(\s*)([-*+])(?:\s+(.*))?$")
_ORDERED = re.compile(r"^(\s*)(\d+)[.)]\s+(.*)$")
_CHECKBOX = re.compile(r"^\[( |x|X)\]\s*")
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
_EFFORT = re.compile(
    r"\s*\((\d+(?:\s*[-–]\s*\d+)?\s*(?:weeks?|days?|hours?|months?))\)\s*$", re.IGNORECASE
)
_WEEKS_PREFIX = re.compile(
    r"^((?:Weeks?|Days?|Months?)\s+\d+(?:\s*[-–]\s*\d+)?)\s*:\s*(.+)$", re.IGNORECASE
)
_QUOTED = re.compile(r"[\"“]([^\"”]+)[\"”]")
_GENERIC_LABEL = re.compile(
    r"^(paper\s*\d*|v\d+(\.\d+)?|link|here|this|code|implementation|pdf|slides?|video|blog|post|article|source|"
    r"click here|click|read more|more|see here|learn more)$",
    re.IGNORECASE,
)
# Link texts that name nothing: the item's own words, or the URL, make a better title.
_PLACEHOLDER_LABEL = re.compile(
    r"^(stuff|idk|another (one|blog)|some ?blog|link|here|this|that|click here|click|read more|learn more)$",
    re.IGNORECASE,
)
_TRIM_NOTE = " ,:;.-–—>/|•·"
_SHORTCODE = re.compile(r"(?<!\S):[a-z][a-z0-9_+-]{0,40}:(?!\S)")  # GitHub's emoji, ":star:"
_LEADING_SYMBOLS = re.compile(r"^[^\w\s(\[\"'“‘<@#$.]+\s+(?=\w)")
_MAX_HEADING = 80
_MAX_AUTHOR_WORDS = 6


def _clean_heading(text: str) -> str:
    """A heading as a reader names it: no markup, no decorative leading emoji ("🚀 Advanced AI Agents")."""
    heading = markdown.squash(markdown.strip_emphasis(text)).rstrip(":").strip()
    heading = markdown.squash(_SHORTCODE.sub("", heading)) or heading  # ":star: Courses"
    if re.fullmatch(r"\([^()]+\)", heading):
        heading = heading[1:-1].strip()  # "*(Lectures)*"
    return _LEADING_SYMBOLS.sub("", heading) or heading


def _is_abbreviation_list(label: str) -> bool:
    tokens = re.split(r"[,\s/]+", label.strip())
    return len(tokens) > 1 and all(len(t) <= 3 and t.upper() == t for t in tokens if t)


def _titlecase_shouting(text: str) -> str:
    if len(text) > 4 and text.upper() == text and re.search(r"[A-Z]{4}", text):
        small = {"of", "for", "and", "to", "by", "on", "in", "a", "an", "the"}
        words = text.lower().split()
        return " ".join(
            w if i and w in small else w[:1].upper() + w[1:] for i, w in enumerate(words)
        )
    return text


def _weak_url_title(url: str) -> bool:
    """A title derived from the URL that a guide's own words would beat (host only, a video id)."""
    title = title_from_url(url)
    return title.startswith("YouTube ") or "/" not in title and " " not in title


def _link_label(parts: list[markdown.Segment], index: int) -> str:
    """An extra link's label; a generic one ("v2", "paper") borrows the words before it ("paper for v2")."""
    link = parts[index]
    label = link.text if not link.bare else title_from_url(link.url)
    if not re.search(r"\w", label):
        return _symbol_label(link.url)  # "[💻](github…)"
    if not _GENERIC_LABEL.match(label):
        return label
    before = []
    for part in reversed(parts[:index]):
        if part.is_link:
            break
        before.insert(0, part)
    context = re.split(r"[,;:|]", markdown.plain(before))[-1].strip(" ()[]|/•·-–—")
    # "RoPE [paper](…)", "paper for [v2](…)"; not a sentence or a venue ("Shazeer. NeurIPS 2017")
    if context and len(context.split()) <= 3 and not re.search(r"\.\s|\b(?:19|20)\d\d\b", context):
        return f"{context} {label}"
    return label


def _symbol_label(url: str) -> str:
    """A label for a link whose text is only a symbol ("📄", "💻", "🤗"): what its address is."""
    host = url.lower()
    for word, label in (
        ("github.com", "GitHub"),
        ("arxiv.org", "Paper"),
        (".pdf", "Paper"),
        ("youtube.com", "Video"),
        ("youtu.be", "Video"),
        ("colab.research.google.com", "Notebook"),
        ("huggingface.co", "Hugging Face"),
    ):
        if word in host:
            return label
    return title_from_url(url)


_NAME_WORD = re.compile(
    r"^(?:[A-Z][\w.'’&()-]*|[A-Z]\.|and|&|et|al\.?|de|van|von|der|da|di|le|la|du)$"
)


# Title-cased words that describe a thing ("AI Voice Generator", "A Better ChatGPT Experience"),
# never a person's or an organization's name.
_DETERMINERS = {
    "a",
    "an",
    "the",
    "this",
    "that",
    "our",
    "your",
    "my",
    "its",
    "all",
    "new",
    "best",
    "free",
}
_NOT_NAME_WORDS = {
    "for", "with", "to", "from", "into", "generator", "tool", "tools", "platform", "framework",
    "library", "assistant", "model", "models", "development", "software", "experience", "engine",
    "app", "apps", "application", "applications", "api", "service", "services", "search", "chat",
    "voice", "guide", "course", "tutorial", "tutorials", "introduction", "overview", "list",
    "collection", "awesome", "system", "systems", "language", "powered", "based", "using",
    "extension", "plugin", "generation", "builder", "editor", "bot", "chatbot", "agent", "agents",
}  # fmt: skip


def _looks_like_name(text: str) -> bool:
    """ "Simon Boehm", "NVIDIA", "Jax (Google)", "G. Hinton et al": a name, not a sentence."""
    words = text.replace(",", " ").split()
    return (
        0 < len(words) <= _MAX_AUTHOR_WORDS
        and all(_NAME_WORD.match(w) for w in words)
        and words[0][:1].isupper()
        and words[0].lower() not in _DETERMINERS
        and not any(w.lower().strip("().") in _NOT_NAME_WORDS for w in words)
    )


def _short_authors(names: str) -> str:
    """A paper's long author list as its first author "et al."."""
    listed = [n.strip() for n in re.split(r",\s*|\s+and\s+", names) if n.strip()]
    return f"{listed[0]} et al." if len(listed) > 3 else names


def _split_author(text: str) -> tuple[str, str]:
    """``"Simon Boehm. Iterative optimization …"`` → ``("Simon Boehm", "Iterative optimization …")``.

    Only a name is an author: a description without a final full stop ("Fully open
    reproduction of DeepSeek-R1") stays a description.
    """
    head, sep, tail = text.partition(". ")
    if sep and (_looks_like_name(head.rstrip(".")) or re.fullmatch(r"[a-z][\w.-]{1,24}", head)):
        return head.rstrip("."), tail.strip()
    if (
        not sep
        and text.endswith(".")
        and len(text.split()) <= 3
        and _looks_like_name(text.rstrip("."))
    ):
        return text.rstrip("."), ""
    return "", text


_NAME = r"(?:[A-Z]|\([A-Z])[\w.&()'-]*"
_BY_AUTHOR = re.compile(rf"^by\s+({_NAME}(?:,?\s+(?:and\s+|&\s+)?{_NAME})*)$")
_ITALIC_AUTHORS = re.compile(r"^\*([^*]{2,300})\*")
# Labels that say what an extra link is (the paper's code, its slides), not what it is called.
_COMPANION_LABEL = re.compile(
    r"^(?:\[?(?:paper|pdf|code|github|git|repo|repository|website|site|homepage|home|project(?: page)?|docs?|"
    r"documentation|demo|slides?|video|talk|poster|blog|post|article|notebook|colab|open in colab|tweet|thread|"
    r"arxiv|html|abs|official|implementation|source|link|dataset|data|model|weights|leaderboard|book|"
    r"announcement|source code|tweet|web|webpage|web page|"
    r"v\d+(?:\.\d+)?|paper\s*\d+)\]?)$",
    re.IGNORECASE,
)


def is_companion_label(label: str) -> bool:
    """Does ``label`` say what an extra link is ("pdf", "Source code", "RoPE paper", "GPT-3 Blog post")
    rather than name a resource of its own?"""
    label = label.strip()
    if not label:
        return False
    if _COMPANION_LABEL.match(label) or _GENERIC_LABEL.match(label):
        return True
    if (here := re.fullmatch(r"(.{2,30}?)\s+(?:here|link)", label, re.IGNORECASE)) and (
        _COMPANION_LABEL.match(here.group(1))
    ):
        return True  # "PDF here", "Code link"
    words = label.split()
    return len(words) > 1 and (
        bool(_COMPANION_LABEL.match(words[-1])) or words[-1].lower() in ("recipe", "version")
    )


def _is_named(segment: markdown.Segment, about: str = "") -> bool:
    """An extra link that names a resource of its own (split off), not a companion (kept as an extra link).

    ``about``: the item's own words; a lowercase word of them ("5D parallelism [PP, …](…),
    [parallelism](…) concept") explains the item rather than naming something else.
    """
    label = segment.text.strip()
    # "pdf", "vLLM recipe", "RoPE paper": what the first link's companion is, not a resource of its own
    if segment.bare or not label or is_companion_label(label):
        return False
    # A name ("Unsloth", "Parallelism in PyTorch", "vLLM", "smolagents", "kobold.cpp"), not words of
    # a sentence ("analyze each tensor").
    if any(ch.isupper() for ch in label):
        return True
    return (
        len(label) > 1
        and not re.search(r"\s", label)
        and label.casefold() not in re.findall(r"[\w.+-]+", about.casefold())
    )


def parse_items(
    body: str, *, context: str = "", tier=None, priority="", raw=""
) -> list[ParsedItem]:
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
    item = ParsedItem(
        title="", kind="", tier=tier, priority=priority, rating=rating, done=done, raw=raw or body
    )
    if not link_indexes:
        text_only = markdown.plain(parts)
        if not text_only:
            return []
        title, sep, note = text_only.partition(": ")
        if not sep or len(title) > _MAX_HEADING:
            title, note = text_only, ""
        item.title, item.note = title.strip(), note.strip()
        item.kind = explicit_kind or guess_kind(None, item.title, context=context)
        return [item]

    first = link_indexes[0]
    main = parts[first]
    # A link whose label is only a companion word ("[pdf]") after a bold title: the title names it.
    prefix = markdown.plain(parts[:first]).strip(" :([")
    if not re.search(r"\w", prefix):
        prefix = ""  # "💻 [Blog](…)": a symbol is not the item's name
    about = f"{prefix} {main.text}"
    split = [
        i for i in link_indexes[1:] if _is_named(parts[i], about) and not (prefix and i == first)
    ]
    if prefix and _COMPANION_LABEL.match(main.text.strip()) and not main.bare:
        split = [i for i in split if i > first]
    # "…, by [@jordn](…)": the author's page, kept with the item, not a resource of its own
    by_links = [
        i
        for i in link_indexes[1:]
        if not parts[i].bare and _BY_BEFORE.search(parts[i - 1].text if i else "")
    ]
    split = [i for i in split if i not in by_links]
    extras = [i for i in link_indexes[1:] if i not in split]
    kept = [p for i, p in enumerate(parts) if i not in split]
    first = kept.index(main)
    rest_parts = kept[first + 1 :]
    # the words after the link; a split-off link inside a sentence is read by its label
    # ("AutoML library for Keras based on "Auto-Keras: …"."), one in a list of links is not
    rest = markdown.plain(
        [
            part
            for index, part in enumerate(parts)
            if index > parts.index(main)
            and (
                index not in split
                or (
                    index
                    and not parts[index - 1].url
                    and re.search(r"\w\s*$", parts[index - 1].text)
                )
                or (  # "[Cory McKay](…)'s list of …": the name belongs to the sentence
                    index + 1 < len(parts)
                    and not parts[index + 1].url
                    and re.match(r"['’]s\b", parts[index + 1].text)
                )
            )
        ]
    )
    # what follows the link once badges and images are set aside ("[AIDE](…) ![](stars) - …")
    words_after = []
    for part in rest_parts:
        if part.url and not part.image:
            break
        words_after.append(part.text if not part.image else "")
    lead = "".join(words_after)
    url, issue = repair_url(main.url)
    item.links.append(ParsedLink(url=url, label=main.text, issue=issue))
    for index in extras:
        extra_url, extra_issue = repair_url(parts[index].url)
        item.links.append(
            ParsedLink(url=extra_url, label=_link_label(parts, index), issue=extra_issue)
        )

    if main.bare:
        paren = re.fullmatch(r"\((.+)\)", rest)
        if prefix:
            item.title, item.note = prefix, rest
        elif re.search(r"\w", rest) and not paren:
            item.title = _titlecase_shouting(rest)
        elif paren and _weak_url_title(url):
            item.title = paren.group(1)
        else:
            item.title, item.note = title_from_url(url), paren.group(1) if paren else ""
    else:
        label = main.text
        word_label = _LEADING_SYMBOLS.sub("", label)  # "📄 Paper" is a "Paper" link
        rest_title = re.split(r",\s|\s[-–—]\s|\.\s|;\s", rest.lstrip(_TRIM_NOTE), maxsplit=1)
        if (_GENERIC_LABEL.match(label) or _COMPANION_LABEL.match(label)) and prefix:
            item.title, item.author = _titled_prefix(text, prefix)
            item.note = rest.lstrip(_TRIM_NOTE).strip()
        elif _is_abbreviation_list(label) and prefix:
            item.title = f"{prefix} ({label})"
        elif _PLACEHOLDER_LABEL.match(label) and not _weak_url_title(url):
            item.title = title_from_url(url)
        elif (
            not prefix
            and (_GENERIC_LABEL.match(word_label) or _COMPANION_LABEL.match(word_label))
            and re.search(r"[A-Za-z]{3}", rest_title[0])
            and len(rest_title[0]) <= _MAX_HEADING
        ):
            # "[📄 Paper](…) Attention Is All You Need, Vaswani et al.": the words after name it
            item.title, rest = rest_title[0].strip(), (rest_title[1] if len(rest_title) > 1 else "")
            rest_parts, lead = [markdown.Segment(rest)] if rest else [], ""
        else:
            item.title = label or title_from_url(url)
        if prefix and (_GENERIC_LABEL.match(label) or _COMPANION_LABEL.match(label)):
            pass  # titled by its own words before the link, note already read
        elif re.match(r"^\s*(?:\s[-–—]|:)\s", lead):
            # 002's "[Title](url) - Author. Description." (an author only when it is a name)
            item.author, item.description = _split_author(rest.lstrip(_TRIM_NOTE))
            item.note = item.description
        elif prefix and not _BULLET_PREFIX.fullmatch(prefix):
            item.note = markdown.plain(kept)
        else:
            # "(deepdive)" after the link says what it is; "([Slides](…))" only holds a further link
            words_only = markdown.plain([p for p in rest_parts if not markdown.is_web_link(p)])
            wrapped = (
                re.fullmatch(r"\(([^()]{1,40})\)", rest) if re.search(r"\w", words_only) else None
            )
            raw_rest = text[text.find(main.text) + len(main.text) :] if main.text else ""
            if wrapped:
                item.title = f"{item.title} ({wrapped.group(1)})"
            elif code_authors := _code_span_authors(text, main):
                item.author, item.note = code_authors, ""
            elif (
                italic := _ITALIC_AUTHORS.search(
                    re.sub(r"^(?:\*\*|__)\s*", "", raw_rest.split(")", 1)[-1].strip())
                )
            ) and all(is_companion_label(link.label) for link in item.links[1:]):
                item.author = _short_authors(markdown.squash(italic.group(1)).rstrip("."))
                item.note = markdown.squash(
                    rest.replace(markdown.squash(italic.group(1)), "", 1)
                ).lstrip(_TRIM_NOTE)
            else:
                item.note = rest.lstrip(_TRIM_NOTE).strip()
        if len(item.links) == 1 and (by := _BY_AUTHOR.match(item.note)):
            author = by.group(1)
            if author.endswith(".") and len(author.split()[-1]) > 3 and not author.endswith(" al."):
                author = author[:-1]  # "by Bishop.": the sentence's full stop, not an initial
            item.author, item.note = author, ""
    if by_links and not item.author:
        item.author = parts[by_links[0]].text.strip()
        tail = re.compile(rf",?\s*\bby\s+{re.escape(item.author)}\s*\.?\s*$", re.IGNORECASE)
        item.note = tail.sub("", item.note)
        item.description = tail.sub("", item.description)
    item.title = item.title.strip() or title_from_url(url)
    companions = [parts[i].text.strip() for i in extras if parts[i].text.strip()]
    item.note = _without_trailing_labels(item.note, companions)
    item.description = _without_trailing_labels(item.description, companions)
    if not re.search(r"\w", item.note):
        item.note = ""  # ")" left after "([Click Here](…))"
    if not re.search(r"\w", item.description):
        item.description = ""
    item.kind = explicit_kind or guess_kind(url, item.title, context=context)
    items = [item]
    for index in split:
        link_url, link_issue = repair_url(parts[index].url)
        label = parts[index].text.strip()
        title = label
        if _PART_LABEL.match(label):
            # "[Matchmaking in Lyft Line (Part 1)](…) [(Part 2)](…)": the same title, another part
            title = f"{_PART_TAIL.sub('', item.title).strip()} ({label.strip('()')})"
        items.append(
            ParsedItem(
                title=title,
                kind=guess_kind(link_url, label, context=context),
                links=[ParsedLink(url=link_url, label=label, issue=link_issue)],
                tier=tier,
                priority=priority,
                raw=raw or body,
            )
        )
    return items


def _without_trailing_labels(text: str, labels: list[str]) -> str:
    """``"Fast inference. Docs"`` → ``"Fast inference."``: the labels of the item's own companion
    links ("[[code](…)]", "| [Blog](…)") are links, kept as such, not words of its note."""
    if not text or not labels:
        return text
    lowered = {label.casefold() for label in labels if is_companion_label(label)}
    words = text.rstrip(" )]|,;:/•·-–—")
    changed = True
    while changed and words:
        changed = False
        for label in lowered:
            before = words[: -len(label)].rstrip()
            if words.casefold().endswith(label) and (not before or before[-1] in "[|.,;:"):
                words = words[: -len(label)].rstrip(" ([|,;:/•·-–—")
                changed = True
                break
    return words if words != text.rstrip(" )]|,;:/•·-–—") else text


_PART_LABEL = re.compile(r"^\(?(?:part|vol\.?|volume|chapter|episode|ep\.?)\s*\d+\)?$", re.I)
_PART_TAIL = re.compile(r"\s*\(?(?:part|vol\.?|volume|chapter|episode|ep\.?)\s*\d+\)?\s*$", re.I)
_BY_BEFORE = re.compile(r"\bby\s*$", re.IGNORECASE)
_LINK_MARKUP = re.compile(r"\(?!?\[[^\[\]\n]*\]\([^()\s]*\)\)?")
_CODE_SPANS = re.compile(r"^(?:[\s,]*`([^`\n]{1,60})`)+[\s,.]*$")


def _code_span_authors(text: str, main: markdown.Segment) -> str:
    """``[Title](url) `Uber` `` or ``… ([Paper](…)) `DianPing`, `eBay` ``: the organizations behind it."""
    start = text.find(main.url)
    if start < 0:
        return ""
    after = _LINK_MARKUP.sub(" ", text[start + len(main.url) :].lstrip(")>"))
    if not _CODE_SPANS.match(after):
        return ""
    return ", ".join(markdown.squash(name) for name in re.findall(r"`([^`\n]{1,60})`", after))


_BOLD_START = re.compile(r"\s*(?:\*\*|__)([^*_\n]{1,500})(?:\*\*|__)")
_YEAR_TAIL = re.compile(r"\s*\(((?:19|20)\d\d)\)\s*$")
_AFTER_TITLE = re.compile(r"^[\s,.]*(?:\(?(?:19|20)\d\d\)?)?[\s,.]*(.*)$")


# a reference: "[1] LeCun, Yann, and Geoffrey Hinton. "Deep learning." Nature (2015)": authors
# (a comma among them), then the quoted title
_CITATION = re.compile(
    r"^[\W_]*(?:\d{1,4}\]\s*)?(?P<authors>[A-Z][^\"“”]{1,400}?,[^\"“”]{0,400}?)[\s,.]*"
    r"[\"“](?P<title>[^\"“”]{3,300}?)[\s.,]*[\"”]"
)


def _citation(prefix: str) -> tuple[str, str] | None:
    """The (title, authors) of a reference before its ``[pdf]`` link, None when it is not one."""
    if not (match := _CITATION.match(prefix)):
        return None
    authors = match.group("authors").strip(" ,.")
    if authors.endswith(" et al"):
        authors += "."
    return match.group("title").strip(), _short_authors(authors)


def _titled_prefix(text: str, prefix: str) -> tuple[str, str]:
    """``**Title** (2015), G. Hinton et al.`` before a ``[pdf]`` link → ``("Title", "G. Hinton et al.")``."""
    if cited := _citation(markdown.strip_emphasis(prefix)):
        return cited
    title, after = prefix, ""
    if bold := _BOLD_START.match(text):
        bold_title = markdown.strip_emphasis(bold.group(1))
        if prefix.startswith(bold_title):
            title, after = bold_title, prefix[len(bold_title) :]
    elif match := re.match(r"^(.{3,}?)\s*\(((?:19|20)\d\d)\)\s*,?\s*(.*)$", prefix):
        title, after = match.group(1), match.group(3)
    title = _YEAR_TAIL.sub("", title).strip(" ,") or prefix
    author = _AFTER_TITLE.match(after).group(1).strip(" ,") if after else ""
    if author.endswith(".") and not author.endswith(" al."):
        author = author[:-1]
    if author and not _looks_like_name(author.replace(" et al", "")):
        author = ""
    return title, author


_BULLET_PREFIX = re.compile(r"(?:Paper|Code|Blog|Video|Link)s?", re.IGNORECASE)


# --- document-level helpers -----------------------------------------------------------------


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


def _caption_title(caption: str) -> str:
    """A title from the prose describing a link: its first sentence, when it is short enough."""
    first = re.split(r"(?<=[^A-Z.][.!?])\s|;\s|:\s", caption, maxsplit=1)[0].rstrip(".!?;: ")
    return first if len(first.split()) >= 2 and len(first) <= _MAX_HEADING else ""


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


def _has_button(text: str) -> bool:
    return any(p.image and _is_button(p) for p in markdown.segments(text))


def _has_link(text: str) -> bool:
    return any(markdown.is_web_link(p) for p in markdown.segments(text))


# --- block events: what markdown-it-py sees, flattened in reading order -----------------------


@dataclass
class _Event:
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
# "<summary>Click to expand</summary>", "Show more", "Details": no heading ("More papers" is one)
_SUMMARY_NOISE = re.compile(
    r"^(?:(?:toggle|click|show|expand|hide|see|open)\b|(?:more|details|more details)\W*$)",
    re.IGNORECASE,
)


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


def _events(text: str, *, html: bool = True) -> list[_Event]:
    """The document as a flat list of events: headings, list items with their depth, lines of prose, tables, fences."""
    lines = _separate_tables(text.split("\n"))
    tokens = markdown.blocks("\n".join(lines), html=html)
    events: list[_Event] = []
    lists: list[bool] = []  # ordered? for each open list
    items: list[
        dict
    ] = []  # open list items: their marker, number, first line, whether their text was seen
    index = 0
    while index < len(tokens):
        token = tokens[index]
        kind = token.type
        if kind == "heading_open":
            inline = tokens[index + 1]
            events.append(
                _Event("heading", inline.content, level=int(token.tag[1]), raw=inline.content)
            )
            index += 3
            continue
        if kind in ("bullet_list_open", "ordered_list_open"):
            lists.append(kind == "ordered_list_open")
        elif kind in ("bullet_list_close", "ordered_list_close"):
            lists.pop()
        elif kind == "list_item_open":
            start = token.map[0] if token.map else 0
            items.append(
                {"marker": token.markup, "number": token.info, "line": start, "seen": False}
            )
        elif kind == "list_item_close":
            items.pop()
        elif kind == "paragraph_open":
            inline = tokens[index + 1]
            para = inline.content.split("\n")
            first_line = token.map[0] if token.map else 0
            if items and not items[-1]["seen"]:
                item = items[-1]
                item["seen"] = True
                source = lines[item["line"]] if item["line"] < len(lines) else ""
                start = _ITEM_START.match(source)
                content_indent = len(start.group(1)) if start else 2
                body, lazy = [para[0]], []
                for offset, line in enumerate(para[1:], start=1):
                    source_line = (
                        lines[first_line + offset] if first_line + offset < len(lines) else ""
                    )
                    indented = len(source_line) - len(source_line.lstrip()) >= content_indent
                    (body if indented and not lazy else lazy).append(line)
                events.append(
                    _Event(
                        "ordered" if lists and lists[-1] else "bullet",
                        " ".join(body),
                        level=len(lists) - 1,
                        marker=item["marker"],
                        number=item["number"],
                        raw=source.strip(),
                    )
                )
                events.extend(_Event("plain", line, raw=line) for line in lazy)
            else:
                events.extend(
                    _Event("plain", line, raw=line, continued=bool(offset))
                    for offset, line in enumerate(_join_open_links(para))
                )
            index += 3
            continue
        elif kind == "fence":
            events.append(_Event("fence", block=token.content.split("\n")))
        elif kind == "hr":
            events.append(_Event("rule"))
        elif kind == "table_open":
            rows, row, raw_rows = [], None, []
            while index < len(tokens) and tokens[index].type != "table_close":
                cell = tokens[index]
                if cell.type == "tr_open":
                    row = []
                    if cell.map and cell.map[0] < len(lines):
                        raw_rows.append(lines[cell.map[0]].strip())
                elif cell.type == "tr_close" and row is not None:
                    rows.append(row)
                elif cell.type == "inline" and row is not None:
                    row.append(cell.content)
                index += 1
            events.append(_Event("table", rows=rows, block=raw_rows))
        elif kind == "html_block":
            converted, _ = markdown.html_to_markdown(token.content)
            events.extend(
                replace(event, from_html=True) for event in _events(converted, html=False)
            )
        index += 1
    return events


class _Parser:
    def __init__(self, text: str):
        self.events = _events(text)
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

    def _add_item(self, body: str, raw: str, caption: str = "", standalone: bool = False) -> None:
        """Add the items ``body`` names; ``standalone``: a link from a sentence or a page header,
        never the companion of the item before it ("💻 <a>Blog</a>" in a row of the author's pages)."""
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
            item.title = _caption_title(caption) or title_from_url(item.url)
            item.note = item.description = caption
            item.kind = guess_kind(item.url, item.title, context=self._context())
        target = self._target()
        known = self.section_urls.setdefault(id(target), set())
        for item in items:
            if item.url and item.url in known:
                continue  # the same link twice in one section (a heading and its list)
            if len(item.links) == 1 and _COMPANION_LABEL.match(item.title) and not item.note:
                if item.url in self.guide_urls:
                    continue  # "[GitHub](…)" repeating a link the list already gave
                # "[Website](…)" / "[GitHub](…)": the companion of the item before it, or named by its section
                if standalone:
                    item.title = title_from_url(item.url)
                elif target.items and target.items[-1].url:
                    target.items[-1].links.append(item.links[0])
                    self._remember(item, known)
                    continue
                elif target.title and len(target.title) <= _MAX_HEADING:
                    item.title = target.title
            item.title = _clean_title(item.title) or (title_from_url(item.url) if item.url else "")
            if not item.title:
                continue  # nothing readable names it
            target.items.append(item)
            self._remember(item, known)

    def _remember(self, item: ParsedItem, known: set[str]) -> None:
        urls = {link.url for link in item.links}
        if item.kind == Kind.BOOK:
            self.books.append(item)
        known |= urls
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

    def _next_event(self, index: int) -> _Event | None:
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
                self._skip(_image_reason(part))
            elif part.is_link and not markdown.is_web_link(part):
                self._skip("in-page or relative links" if part.url else "links without an address")

    def _heading_line(self, level: int, title: str) -> None:
        parts = markdown.segments(title)
        links = [p for p in parts if markdown.is_web_link(p)]
        if level == 1 and not self.guide.title and self.in_header:
            # the list's name, even under a header of links (language switchers, sponsors)
            self.guide.title = _clean_heading(title)
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
                if not label or _GENERIC_LABEL.match(label) or _PLACEHOLDER_LABEL.match(label):
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
        if checklist or _has_link(body):
            self._add_item(body, raw)
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
            or (marker == "*" and not self.in_preamble and len(text) <= _MAX_HEADING)
            or len(text) <= _MAX_HEADING
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
            return
        if match := _ASIDE.match(text):
            self.pending_description = match.group(1).strip()
            return
        if _has_link(text):
            self._count_skipped_links(text)
            if self._is_prose(text) or from_html and self.in_header:
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
            return
        self._count_skipped_links(text)
        bold = re.fullmatch(r"(?:\*\*|__)([^*_]+)(?:\*\*|__)\s*:?", text)
        readable = markdown.strip_emphasis(text)
        short = (
            len(readable) <= _MAX_HEADING
            and ". " not in readable
            and not readable.endswith((".", "!", "?"))
        )
        if (
            bold
            and from_html
            and (
                _SUMMARY_NOISE.match(bold.group(1).strip())
                or (
                    self.container is not None
                    and self.container.title.lower() == _clean_heading(text).lower()
                )
            )
        ):
            return  # "<summary>Toggle section</summary>", or the heading it sits under again
        if (bold and len(readable) <= _MAX_HEADING) or (
            short and readable and self._heads_a_list(index)
        ):
            self._pseudo_heading(text)
        elif self.in_preamble and _LANGUAGE_TOGGLE.match(readable):
            return
        elif not self._captions_next(index, text):
            self._add_prose(text)

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
        if all(_COMPANION_LABEL.match(link.text.strip()) for link in links) and _citation(before):
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

    def _table(self, rows: list[list[str]], raw_rows: list[str]) -> None:
        """A table: rows holding links become items (one per row, other links kept as its companions);
        a Section/Chapter table without links becomes a section per row holding one chapter."""
        if not rows:
            return
        header = [markdown.strip_emphasis(c).lower().strip(" :") for c in rows[0]]
        body = rows[1:]
        raws = raw_rows[1:] if len(raw_rows) == len(rows) else [" | ".join(r) for r in body]

        def column(names):
            return next(
                (i for i, h in enumerate(header) if h in names or h.rstrip("s") in names), None
            )

        title_col = column(self._TITLE_HEADERS)
        text_col = column(self._TEXT_HEADERS)
        author_col = column(self._AUTHOR_HEADERS)
        number_col = column(("#", "no", "no.", "number"))
        if any(_has_link(cell) or _has_button(cell) for row in body for cell in row):
            target = self._target()
            for raw, row in zip(raws, body, strict=True):
                item = self._table_row_item(row, raw, title_col, text_col, author_col, number_col)
                if item:
                    target.items.append(item)
            self.pseudo = None
            return
        if title_col is None or header[title_col] not in ("section", "chapter", "title", "name"):
            self._skip("table rows without links", len(body))
            return
        for raw, row in zip(raws, body, strict=True):
            cells = [markdown.strip_emphasis(c) for c in row]
            if title_col >= len(cells) or not cells[title_col]:
                continue
            section = self._new_section(cells[title_col], self.heading)
            section.number = (
                cells[number_col] if number_col is not None and number_col < len(cells) else ""
            )
            highlights = cells[text_col] if text_col is not None and text_col < len(cells) else ""
            section.items.append(
                ParsedItem(title=section.title, kind=Kind.CHAPTER, description=highlights, raw=raw)
            )
        self.pseudo = None

    def _table_row_item(
        self, row, raw, title_col, text_col, author_col, number_col=None
    ) -> ParsedItem | None:
        cells = [markdown.segments(cell) for cell in row]
        links = [
            (i, p)
            for i, parts in enumerate(cells)
            for p in parts
            if markdown.is_web_link(p) or (p.image and p.url.startswith("http") and p.src != p.url)
        ]
        web = [(i, p) for i, p in links if not p.image or not _is_badge(p)]
        if not web:
            # a row whose only links are buttons ("View on GitHub", "Open in Colab") to its content
            web = [(i, p) for i, p in links if p.image and _is_button(p)]
        for _, p in links:
            if p.image and _is_badge(p) and (_, p) not in web:
                self._skip(_image_reason(p))
        if not web:
            return None
        # the main link: the first in the title column, else the first named link, else the first
        main_index = next(
            (k for k, (i, p) in enumerate(web) if i == title_col and not p.image), None
        )
        if main_index is None:
            main_index = next(
                (k for k, (i, p) in enumerate(web) if not p.image and _is_named(p)), 0
            )
        col, main = web[main_index]
        title, cell_description = "", ""
        if title_col is not None and title_col < len(cells):
            title = markdown.plain(cells[title_col])
            if col != title_col:
                # "1) **Muse** - GoogleAI introduces Muse, …": the bold name, then what it is
                title, cell_description = _split_title_cell(row[title_col], title)
        if not title or (col == title_col and main.text and not _COMPANION_LABEL.match(main.text)):
            title = main.text if main.text and not _COMPANION_LABEL.match(main.text) else title
        if not title:
            # no title column: the words nearest the link, on its left ("| 1 | Foundational | Basic RAG | [button] |")
            named = [
                markdown.plain(c)
                for k, c in enumerate(cells)
                if k not in (text_col, author_col)
                and markdown.plain(c)
                and not re.fullmatch(r"[\d\s./:-]+", markdown.plain(c))
            ]
            left = [
                markdown.plain(c)
                for k, c in enumerate(cells[:col])
                if k not in (text_col, author_col, number_col)
                and markdown.plain(c)
                and not re.fullmatch(r"[\d\s./:-]+", markdown.plain(c))
            ]
            title = left[-1] if left and main.image else (named[0] if named else "")
        title = _clean_title(title) or title_from_url(main.url)
        item = ParsedItem(title=title, kind="", raw=raw)
        url, issue = repair_url(main.url)
        item.links.append(ParsedLink(url=url, label=main.text, issue=issue))
        for k, (_i, p) in enumerate(web):
            if k == main_index:
                continue
            extra_url, extra_issue = repair_url(p.url)
            label = p.text if re.search(r"\w", p.text) else ""
            label = label or ("Notebook" if "colab" in p.url else "")
            if not label and not p.image:
                label = _symbol_label(p.url)  # "[💻](github…)"
            if p.image and not label:
                label = _button_label(p)
            item.links.append(
                ParsedLink(url=extra_url, label=label or title_from_url(p.url), issue=extra_issue)
            )
        if text_col is not None and text_col < len(cells):
            item.description = markdown.plain(cells[text_col])
            item.note = item.description
        elif cell_description:
            item.description = item.note = cell_description
        if author_col is not None and author_col < len(cells):
            item.author = markdown.plain(cells[author_col])
        item.kind = guess_kind(url, item.title, context=self._context())
        item.tier = self._effective("tier")
        item.priority = self.group_priority or self._effective("priority") or ""
        return item

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
                section.phase, section.effort = (
                    f"Phase {match.group(1)}",
                    (match.group(3) or "").strip(),
                )
                item = None
            elif text.endswith(":") and not (bullet or ordered) and len(text) <= _MAX_HEADING:
                section, item = (
                    self._attach(ParsedSection(title=text.rstrip(":").strip()), parent),
                    None,
                )
            elif item and bullet and indent > item_indent:
                item.description = "\n".join(
                    filter(None, [item.description, (bullet.group(3) or "").strip()])
                )
            elif section and (bullet or ordered):
                body = (ordered.group(3) if ordered else bullet.group(3)) or ""
                item, item_indent = self._plan_item(body, section, line), indent
                section.items.append(item)
                if item.kind == Kind.BOOK:
                    self.books.append(item)

    def _ordered_list(self, events: list[_Event], start: int = 0) -> None:
        """Numbered items: items when they link or name known books, else prose (e.g. "How to read")."""
        bodies = [event.text.strip() for event in events]
        if any(_has_link(body) for body in bodies):
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
        section = self._attach(ParsedSection(title="Reading order"), self._target())
        path = ParsedPath(title="Book reading order")
        for event, body, books in zip(events, bodies, resolved, strict=True):
            step = ParsedPathStep(ref=event.number, label=body)
            for book in books:
                item = ParsedItem(
                    title=book.title, kind=Kind.BOOK, author=book.author, note=body, raw=event.raw
                )
                section.items.append(item)
                step.items.append(item)
            path.steps.append(step)
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
            if event.kind == "heading":
                self._heading_line(event.level, event.text)
            elif event.kind == "rule":
                self.group_priority = ""
            elif event.kind == "bullet":
                self._bullet_line(index, event.level, event.marker, event.text, event.raw)
            elif event.kind == "plain":
                if not event.continued:
                    self.paragraph_item = None
                if event.text.strip():
                    if event.continued and self.paragraph_item and not _has_link(event.text):
                        self._describe(self.paragraph_item, event.text)
                    else:
                        self._plain_line(index, event.text, event.from_html)
            elif event.kind == "table":
                self._table(event.rows or [], event.block or [])
            elif event.kind == "fence":
                self._code_block(event.block or [])
            index += 1
        return self._finish()

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


_BADGE_HOSTS = (
    "shields.io",
    "badge",
    "travis-ci",
    "codecov",
    "star-history",
    "trendshift",
    "awesome.re",
    "badgen",
)


def _is_badge(segment: markdown.Segment) -> bool:
    src = (segment.src or segment.url).lower()
    return any(host in src for host in _BADGE_HOSTS) or "badge" in segment.text.lower()


_IMAGE_FILE = re.compile(r"\.(?:png|jpe?g|gif|svg|webp)(?:[?#].*)?$", re.IGNORECASE)


def _is_button(segment: markdown.Segment) -> bool:
    """An image link that leads to content (a notebook, a repository, a video), not to the badge
    service, the image itself or a profile of the author."""
    url = segment.url.lower()
    return (
        url.startswith(("http://", "https://"))
        and markdown.valid_url(segment.url)
        and segment.url != segment.src
        and not _IMAGE_FILE.search(url)
        and not any(host in url for host in _BADGE_HOSTS)
    )


def _button_label(segment: markdown.Segment) -> str:
    """ "GitHub", "Notebook", "Video": what a button's badge says it opens."""
    source = f"{segment.text} {segment.src}".lower()
    for word, label in (
        ("colab", "Notebook"),
        ("youtube", "Video"),
        ("video", "Video"),
        ("github", "GitHub"),
    ):
        if word in source:
            return label
    return title_from_url(segment.url)


def _image_reason(segment: markdown.Segment) -> str:
    return "badges" if _is_badge(segment) else "images and image links"


_TAG_LIKE = re.compile(r"</?[a-zA-Z][a-zA-Z0-9-]*(?:\s[^<>]*)?/?>")


def _clean_title(title: str) -> str:
    title = markdown.squash(_SHORTCODE.sub(" ", _TAG_LIKE.sub(" ", title))) or title
    title = title.strip(" -–—:|•·")
    title = re.sub(
        r"^[^\w\s(\[\"'“‘<@#$.]+\s+(?=\w)", "", title
    )  # a leading emoji: "🥱 LazyMergekit"
    if len(title) > 2 and title[0] + title[-1] in ('""', "“”", "''"):
        title = title[1:-1].strip()  # '"Auto-Keras: Efficient Neural Architecture Search"'
    # "Efficient Transformers: A Survey." — a paper title's closing full stop is not part of it
    if title.endswith(".") and not title.endswith("..") and len(title.split()) > 3:
        title = title[:-1]
    return title


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
