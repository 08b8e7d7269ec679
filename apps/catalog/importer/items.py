"""One item's text (a list line, a paragraph's line, a heading's link) read as the resources it names.

``parse_items`` returns the item the line is about (its main link, its companions kept as extra
links, its title, author, description and note) and, after it, one item per link that names a
resource of its own ("Chroma, Pinecone, Milvus")."""

import re
from decimal import Decimal

from apps.catalog.importer import markdown
from apps.catalog.importer.authors import (
    BY_AUTHOR,
    BY_BEFORE,
    ITALIC_AUTHORS,
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
_BULLET_PREFIX = re.compile(r"(?:Paper|Code|Blog|Video|Link)s?", re.IGNORECASE)


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
        if not sep or len(title) > MAX_HEADING:
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
        i for i in link_indexes[1:] if is_named(parts[i], about) and not (prefix and i == first)
    ]
    if prefix and COMPANION_LABEL.match(main.text.strip()) and not main.bare:
        split = [i for i in split if i > first]
    # "…, by [@jordn](…)": the author's page, kept with the item, not a resource of its own
    by_links = [
        i
        for i in link_indexes[1:]
        if not parts[i].bare and BY_BEFORE.search(parts[i - 1].text if i else "")
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
            ParsedLink(url=extra_url, label=link_label(parts, index), issue=extra_issue)
        )

    if main.bare:
        paren = re.fullmatch(r"\((.+)\)", rest)
        if prefix:
            item.title, item.note = prefix, rest
        elif re.search(r"\w", rest) and not paren:
            item.title = titlecase_shouting(rest)
        elif paren and weak_url_title(url):
            item.title = paren.group(1)
        else:
            item.title, item.note = title_from_url(url), paren.group(1) if paren else ""
    else:
        label = main.text
        word_label = LEADING_SYMBOLS.sub("", label)  # "📄 Paper" is a "Paper" link
        rest_title = re.split(r",\s|\s[-–—]\s|\.\s|;\s", rest.lstrip(_TRIM_NOTE), maxsplit=1)
        if (GENERIC_LABEL.match(label) or COMPANION_LABEL.match(label)) and prefix:
            item.title, item.author = titled_prefix(text, prefix)
            item.note = rest.lstrip(_TRIM_NOTE).strip()
        elif is_abbreviation_list(label) and prefix:
            item.title = f"{prefix} ({label})"
        elif PLACEHOLDER_LABEL.match(label) and not weak_url_title(url):
            item.title = title_from_url(url)
        elif (
            not prefix
            and (GENERIC_LABEL.match(word_label) or COMPANION_LABEL.match(word_label))
            and re.search(r"[A-Za-z]{3}", rest_title[0])
            and len(rest_title[0]) <= MAX_HEADING
        ):
            # "[📄 Paper](…) Attention Is All You Need, Vaswani et al.": the words after name it
            item.title, rest = rest_title[0].strip(), (rest_title[1] if len(rest_title) > 1 else "")
            rest_parts, lead = [markdown.Segment(rest)] if rest else [], ""
        else:
            item.title = label or title_from_url(url)
        if prefix and (GENERIC_LABEL.match(label) or COMPANION_LABEL.match(label)):
            pass  # titled by its own words before the link, note already read
        elif re.match(r"^\s*(?:\s[-–—]|:)\s", lead):
            # 002's "[Title](url) - Author. Description." (an author only when it is a name)
            item.author, item.description = split_author(rest.lstrip(_TRIM_NOTE))
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
            elif code_authors := code_span_authors(text, main):
                item.author, item.note = code_authors, ""
            elif (
                italic := ITALIC_AUTHORS.search(
                    re.sub(r"^(?:\*\*|__)\s*", "", raw_rest.split(")", 1)[-1].strip())
                )
            ) and all(is_companion_label(link.label) for link in item.links[1:]):
                item.author = short_authors(markdown.squash(italic.group(1)).rstrip("."))
                item.note = markdown.squash(
                    rest.replace(markdown.squash(italic.group(1)), "", 1)
                ).lstrip(_TRIM_NOTE)
            else:
                item.note = rest.lstrip(_TRIM_NOTE).strip()
        if len(item.links) == 1 and (by := BY_AUTHOR.match(item.note)):
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
    item.note = without_trailing_labels(item.note, companions)
    item.description = without_trailing_labels(item.description, companions)
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
        if PART_LABEL.match(label):
            # "[Matchmaking in Lyft Line (Part 1)](…) [(Part 2)](…)": the same title, another part
            title = f"{PART_TAIL.sub('', item.title).strip()} ({label.strip('()')})"
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
