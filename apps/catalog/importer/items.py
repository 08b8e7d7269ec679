"""One item's text (a list line, a paragraph's line, a heading's link) read as the resources it names.

``parse_items`` returns the item the line is about (its main link, its companions kept as extra
links, its title, author, description and note) and, after it, one item per link that names a
resource of its own ("Chroma, Pinecone, Milvus")."""

import re
from dataclasses import dataclass
from decimal import Decimal

from apps.catalog.importer import markdown
from apps.catalog.importer.authors import (
    BY_AUTHOR,
    BY_BEFORE,
    ITALIC_AUTHORS,
    by_lead,
    code_span_authors,
    short_authors,
    split_author,
    titled_prefix,
)
from apps.catalog.importer.kinds import guess_kind
from apps.catalog.importer.links import (
    COMPANION_LABEL,
    GENERIC_LABEL,
    PART_LABEL,
    PART_TAIL,
    PLACEHOLDER_LABEL,
    is_companion_label,
    is_named,
    link_label,
    without_trailing_labels,
)
from apps.catalog.importer.parsed import ParsedItem, ParsedLink
from apps.catalog.importer.titles import (
    LEADING_SYMBOLS,
    MAX_HEADING,
    aside,
    date_year,
    is_abbreviation_list,
    titlecase_shouting,
    weak_url_title,
)
from apps.catalog.importer.urls import repair_url, title_from_url
from apps.catalog.models import Kind

_DONE = re.compile(r"\s*\[DONE\]\s*", re.IGNORECASE)
_RATING = re.compile(r"\s*\(\s*rating\s*:?\s*(\d+(?:\.\d+)?)\s*/\s*10\s*\)", re.IGNORECASE)
_BLOG_PREFIX = re.compile(r"^\(blog\)\s*", re.IGNORECASE)
_TRIM_NOTE = " ,:;.-–—>/|•·"
_LEADING_ASIDE = re.compile(r"^\s*\(([^()\n]{1,40})\)")
_TRAILING_ASIDE = re.compile(r"\s*\(([^()\n]{1,40})\)\s*$")
_BULLET_PREFIX = re.compile(r"(?:Paper|Code|Blog|Video|Link)s?", re.IGNORECASE)


@dataclass
class _Marks:
    """What a line's marks say about its item: ``[DONE]``, ``(rating 8/10)``, ``(blog)``."""

    done: bool = False
    rating: Decimal | None = None
    kind: str | None = None


def _read_marks(text: str) -> tuple[str, _Marks]:
    """``text`` without its marks, and what they said."""
    marks = _Marks(done=bool(_DONE.search(text)))
    text = _DONE.sub(" ", text)
    if match := _RATING.search(text):
        marks.rating = Decimal(match.group(1))
        text = _RATING.sub(" ", text)
    if _BLOG_PREFIX.match(text.strip()):
        marks.kind = Kind.SITE
        text = _BLOG_PREFIX.sub("", text.strip())
    return text, marks


@dataclass
class _LinkedLine:
    """A line holding links, read once: its main link, the words around it, and which of its
    other links are the item's companions (``extras``) or resources of their own (``split``)."""

    text: str
    parts: list[markdown.Segment]
    main: markdown.Segment
    prefix: str  # the item's own words before its main link
    split: list[int]
    extras: list[int]
    by_links: list[int]  # "…, by [@jordn](…)": the author's page
    kept: list[markdown.Segment]  # the parts without the split-off links
    rest_parts: list[markdown.Segment]  # the kept parts after the main link
    rest: str  # the words after the main link
    lead: str  # what follows the link once badges and images are set aside


def _read_links(text: str, parts: list[markdown.Segment]) -> _LinkedLine | None:
    link_indexes = [i for i, part in enumerate(parts) if markdown.is_web_link(part)]
    if not link_indexes:
        return None
    first = link_indexes[0]
    main = parts[first]
    # A link whose label is only a companion word ("[pdf]") after a bold title: the title names it.
    prefix = markdown.plain(parts[:first]).strip(" :([")
    if not re.search(r"\w", prefix):
        prefix = ""  # "💻 [Blog](…)": a symbol is not the item's name
    about = f"{prefix} {main.text}"
    split = [
        i for i in link_indexes[1:] if is_named(parts[i], about) and not (prefix and i == first)
    ]
    if prefix and COMPANION_LABEL.match(_word_label(main.text)) and not main.bare:
        split = [i for i in split if i > first]
    # "…, by [@jordn](…)": the author's page, kept with the item, not a resource of its own
    by_links = [
        i
        for i in link_indexes[1:]
        if not parts[i].bare and BY_BEFORE.search(parts[i - 1].text if i else "")
    ]
    split = [i for i in split if i not in by_links]
    kept = [p for i, p in enumerate(parts) if i not in split]
    rest_parts = kept[kept.index(main) + 1 :]
    return _LinkedLine(
        text=text,
        parts=parts,
        main=main,
        prefix=prefix,
        split=split,
        extras=[i for i in link_indexes[1:] if i not in split],
        by_links=by_links,
        kept=kept,
        rest_parts=rest_parts,
        rest=_words_after_link(parts, main, split),
        lead=_lead(rest_parts),
    )


def _words_after_link(
    parts: list[markdown.Segment], main: markdown.Segment, split: list[int]
) -> str:
    """The words after the link; a split-off link inside a sentence is read by its label
    ("AutoML library for Keras based on "Auto-Keras: …"."), one in a list of links is not."""
    return markdown.plain(
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


def _lead(rest_parts: list[markdown.Segment]) -> str:
    """What follows the link once badges and images are set aside ("[AIDE](…) ![](stars) - …")."""
    words_after = []
    for part in rest_parts:
        if part.url and not part.image:
            break
        words_after.append(part.text if not part.image else "")
    return "".join(words_after)


def parse_items(
    body: str, *, context: str = "", tier=None, priority="", raw=""
) -> list[ParsedItem]:
    """The items ``body`` (one line's text, list marker and checkbox removed) names, the line's
    own item first; none when it holds nothing."""
    text, marks = _read_marks(body)
    parts = markdown.segments(text)
    item = ParsedItem(
        title="",
        kind="",
        tier=tier,
        priority=priority,
        rating=marks.rating,
        done=marks.done,
        raw=raw or body,
    )
    line = _read_links(text, parts)
    if line is None:
        return _words_item(item, parts, marks, context)
    url, issue = repair_url(line.main.url)
    item.links.append(ParsedLink(url=url, label=line.main.text, issue=issue))
    for index in line.extras:
        extra_url, extra_issue = repair_url(parts[index].url)
        item.links.append(
            ParsedLink(url=extra_url, label=link_label(parts, index), issue=extra_issue)
        )
    if line.main.bare:
        _title_bare_link(item, line, url)
    else:
        rest, rest_parts, lead = _title_named_link(item, line, url)
        _read_note(item, line, rest, rest_parts, lead)
        if len(item.links) == 1 and (by := BY_AUTHOR.match(item.note)):
            author = by.group(1)
            if author.endswith(".") and len(author.split()[-1]) > 3 and not author.endswith(" al."):
                author = author[:-1]  # "by Bishop.": the sentence's full stop, not an initial
            item.author, item.note = author, ""
    _tidy(item, line, url)
    if not line.main.bare and len(item.links) > 1:
        _paper_first(item, line)
    item.kind = marks.kind or guess_kind(item.url, item.title, context=context)
    return [item, *_split_items(item, line, context=context)]


def _words_item(item: ParsedItem, parts, marks: _Marks, context: str) -> list[ParsedItem]:
    """A line without links: a concept to learn, ``Title: note``."""
    text_only = markdown.plain(parts)
    if not text_only:
        return []
    title, sep, note = text_only.partition(": ")
    if sep and date_year(title.strip().rstrip(":")) is not None:
        return []  # "May 29, 2023: We've reorganized the list": the list's news, nothing to read
    if not sep or len(title) > MAX_HEADING:
        title, note = text_only, ""
    dated = _TRAILING_ASIDE.search(title, max(0, len(title) - 60))  # the tail only: linear
    if dated and title[: dated.start()].strip() and aside(dated.group(1))[0] == "year":
        # "Deep Learning (2016): Goodfellow": a work without a link, and its year
        item.year, title = int(aside(dated.group(1))[1]), title[: dated.start()]
    item.title, item.note = title.strip(), note.strip()
    item.kind = marks.kind or guess_kind(None, item.title, context=context)
    return [item]


def _title_bare_link(item: ParsedItem, line: _LinkedLine, url: str) -> None:
    """A bare address is named by the words before it, the words after it, or itself."""
    rest, prefix = line.rest, line.prefix
    paren = re.fullmatch(r"\((.+)\)", rest)
    if prefix:
        item.title, item.note = prefix, rest
    elif re.search(r"\w", rest) and not paren:
        item.title = titlecase_shouting(rest)
    elif paren and weak_url_title(url):
        item.title = paren.group(1)
    else:
        item.title, item.note = title_from_url(url), paren.group(1) if paren else ""


def _is_generic(label: str) -> bool:
    return bool(GENERIC_LABEL.match(label) or COMPANION_LABEL.match(label))


def _word_label(label: str) -> str:
    """ "📖 Paper" is a "Paper" link: a label without its leading symbols."""
    return LEADING_SYMBOLS.sub("", label.strip())


def _loose_words(parts: list[markdown.Segment]) -> str:
    """The words among links ("] [", " | " between "[[📖 Paper](…)] [[🤗 Dataset](…)]" are none)."""
    words = markdown.plain([p for p in parts if not markdown.is_web_link(p)])
    words = markdown.squash(re.sub(r"[\[\]|·•,;/]+", " ", words)).strip(_TRIM_NOTE)
    return words if re.search(r"\w", words) else ""


_PAPER_LABEL = re.compile(r"^(?:paper|pdf|arxiv|preprint)$", re.IGNORECASE)


def _paper_first(item: ParsedItem, line: _LinkedLine) -> None:
    """``**[MathVerse](project page)** <br> ECCV 2024 · [📖 Paper](arxiv) [🤗 Dataset](…)``: a
    titled entry over a venue line is the paper, keyed on its paper link; the page its title
    links becomes an extra link ("Project page") beside the others."""
    lead = _lead(line.rest_parts)
    venue = lead.strip(_TRIM_NOTE)
    if (
        line.prefix
        or re.match(r"^\s*(?:[-–—]|:)\s", lead)  # "[Title](…) - what it is": a description
        or not venue
        or len(venue.split()) > 6
        or not _VENUE.search(venue)
    ):
        return
    if guess_kind(item.links[0].url, "", context="") == Kind.PAPER:
        return
    papers = [
        index
        for index, link in enumerate(item.links[1:], start=1)
        if _PAPER_LABEL.match(_word_label(link.label))
        and guess_kind(link.url, "", context="") == Kind.PAPER
    ]
    if len(papers) != 1:
        return
    paper = item.links.pop(papers[0])
    page = item.links.pop(0)
    item.links[:0] = [
        ParsedLink(url=paper.url, label=item.title, issue=paper.issue),
        ParsedLink(url=page.url, label="Project page", issue=page.issue),
    ]
    item.note, item.description = venue.strip(" ()"), ""


# What follows a bold title before its companion links: a venue line ("<br> NeurIPS 2025
# Highlight ·"), told from an author or a description by its year.
_VENUE = re.compile(r"\b(?:19|20)\d\d\b")


def _title_named_link(item: ParsedItem, line: _LinkedLine, url: str):
    """Title an item whose main link has a label; returns the (rest, rest_parts, lead) its
    note is read from (less, when the words after a "[📄 Paper](…)" link named it)."""
    label, prefix = line.main.text, line.prefix
    rest, rest_parts, lead = line.rest, line.rest_parts, line.lead
    word_label = _word_label(label)  # "📄 Paper" is a "Paper" link
    rest_title = re.split(r",\s|\s[-–—]\s|\.\s|;\s", rest.lstrip(_TRIM_NOTE), maxsplit=1)
    if _is_generic(word_label) and prefix:
        item.title, item.author = titled_prefix(line.text, prefix)
        item.note = rest.lstrip(_TRIM_NOTE).strip()
        venue = prefix[len(item.title) :].strip(_TRIM_NOTE) if prefix.startswith(item.title) else ""
        if prefix.startswith(f"{item.title}: "):  # "Edge deployment: In constrained …": its note
            said = prefix[len(item.title) + 2 :].strip()
            item.note = item.description = " ".join(filter(None, [said, item.note]))
        elif venue and not item.author and _VENUE.search(venue) and len(venue.split()) <= 8:
            # "**Title** <br> NeurIPS 2025 Highlight · [📖 Paper](…)": the venue is its note
            item.note = " · ".join(filter(None, [venue.strip(" ()"), _loose_words(rest_parts)]))
    elif is_abbreviation_list(label) and prefix:
        item.title = f"{prefix} ({label})"
    elif PLACEHOLDER_LABEL.match(label) and not weak_url_title(url):
        item.title = title_from_url(url)
    elif (
        not prefix
        and _is_generic(word_label)
        and re.search(r"[A-Za-z]{3}", rest_title[0])
        and len(rest_title[0]) <= MAX_HEADING
    ):
        # "[📄 Paper](…) Attention Is All You Need, Vaswani et al.": the words after name it
        item.title, rest = rest_title[0].strip(), (rest_title[1] if len(rest_title) > 1 else "")
        rest_parts, lead = [markdown.Segment(rest)] if rest else [], ""
    else:
        item.title = label or title_from_url(url)
    return rest, rest_parts, lead


def _read_note(item: ParsedItem, line: _LinkedLine, rest: str, rest_parts, lead: str) -> None:
    """The guide's words about an item with a labelled link: its note, author, description."""
    prefix, main, text = line.prefix, line.main, line.text
    if prefix and _is_generic(_word_label(main.text)):
        return  # titled by its own words before the link, note already read
    dated = _LEADING_ASIDE.match(rest)
    if dated and rest[dated.end() :].strip() and aside(dated.group(1))[0] == "year":
        # "[Title](url) (2017) - Author. Note.": the year, then the line as it would read without
        item.year = int(aside(dated.group(1))[1])
        rest = rest[dated.end() :]
        lead = _LEADING_ASIDE.sub("", lead, count=1)
        rest_parts = [markdown.Segment(rest)] if rest.strip() else []
    if not line.by_links and (by := by_lead(lead)):
        # "[nanoGPT](…) by Andrej Karpathy: A 2h-long video …": the maker, then what it is
        item.author, said = by
        said = by_lead(rest)[1] if by_lead(rest) else said
        item.note = item.description = said.lstrip(_TRIM_NOTE).strip()
        return
    if re.match(r"^\s*(?:\s[-–—]|:)\s", lead):
        # 002's "[Title](url) - Author. Description." (an author only when it is a name)
        item.author, item.description = split_author(rest.lstrip(_TRIM_NOTE))
        item.note = item.description
        return
    if prefix and not _BULLET_PREFIX.fullmatch(prefix):
        item.note = markdown.plain(line.kept)
        return
    # "(deepdive)" after the link says what it is; "([Slides](…))" only holds a further link
    words_only = markdown.plain([p for p in rest_parts if not markdown.is_web_link(p)])
    wrapped = re.fullmatch(r"\(([^()]{1,40})\)", rest) if re.search(r"\w", words_only) else None
    raw_rest = text[text.find(main.text) + len(main.text) :] if main.text else ""
    if wrapped:
        # "(Oct 04, 2017)" is its year, "(by Asianometry)" its author, "(Section 3)" where to read
        said, value = aside(wrapped.group(1))
        if said == "year":
            item.year = int(value)
        elif said == "author":
            item.author = str(value)
        elif said == "where":
            item.note = str(value)
        else:
            item.title = f"{item.title} ({wrapped.group(1)})"
    elif code_authors := code_span_authors(text, main):
        item.author, item.note = code_authors, ""
    elif (
        italic := ITALIC_AUTHORS.search(
            re.sub(r"^(?:\*\*|__)\s*", "", raw_rest.split(")", 1)[-1].strip())
        )
    ) and all(is_companion_label(link.label) for link in item.links[1:]):
        item.author = short_authors(markdown.squash(italic.group(1)).rstrip("."))
        item.note = markdown.squash(rest.replace(markdown.squash(italic.group(1)), "", 1)).lstrip(
            _TRIM_NOTE
        )
    else:
        item.note = rest.lstrip(_TRIM_NOTE).strip()


def _tidy(item: ParsedItem, line: _LinkedLine, url: str) -> None:
    """The author from a "by [@name](…)" link, and no companion's label or stray mark left in
    the title, note or description."""
    parts = line.parts
    if line.by_links and not item.author:
        item.author = parts[line.by_links[0]].text.strip()
        tail = re.compile(rf",?\s*\bby\s+{re.escape(item.author)}\s*\.?\s*$", re.IGNORECASE)
        item.note = tail.sub("", item.note)
        item.description = tail.sub("", item.description)
    item.title = item.title.strip() or title_from_url(url)
    companions = [parts[i].text.strip() for i in line.extras if parts[i].text.strip()]
    item.note = without_trailing_labels(item.note, companions)
    item.description = without_trailing_labels(item.description, companions)
    if not re.search(r"\w", item.note):
        item.note = ""  # ")" left after "([Click Here](…))"
    if not re.search(r"\w", item.description):
        item.description = ""


def _split_items(item: ParsedItem, line: _LinkedLine, *, context: str) -> list[ParsedItem]:
    """An item per link that names a resource of its own ("Chroma, Pinecone, Milvus")."""
    items = []
    for index in line.split:
        link_url, link_issue = repair_url(line.parts[index].url)
        label = line.parts[index].text.strip()
        title = label
        if PART_LABEL.match(label):
            # "[Matchmaking in Lyft Line (Part 1)](…) [(Part 2)](…)": the same title, another part
            title = f"{PART_TAIL.sub('', item.title).strip()} ({label.strip('()')})"
        items.append(
            ParsedItem(
                title=title,
                kind=guess_kind(link_url, label, context=context),
                links=[ParsedLink(url=link_url, label=label, issue=link_issue)],
                tier=item.tier,
                priority=item.priority,
                raw=item.raw,
            )
        )
    return items
