"""What the inbox reads from the catalog: whether an item is catalogued already, and which
section an item is suggested to go to."""

import re
from collections.abc import Iterable
from dataclasses import dataclass

from apps.catalog.importer.urls import is_same_work
from apps.catalog.models import Entry, Resource, ResourceLink, Section
from apps.catalog.selectors import visible_tree

# Words too common to say what a section is about.
STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "for",
        "from",
        "how",
        "in",
        "into",
        "is",
        "it",
        "its",
        "new",
        "of",
        "on",
        "or",
        "our",
        "the",
        "their",
        "this",
        "to",
        "using",
        "via",
        "vs",
        "what",
        "when",
        "why",
        "with",
        "you",
        "your",
        "we",
        "will",
        "all",
        "more",
        "about",
        "part",
        "guide",
        "section",
        "notes",
        "intro",
        "introduction",
        "other",
        "misc",
    ]
)
_WORD = re.compile(r"[a-z0-9]+(?:[-+.][a-z0-9]+)*")


def catalogued_resources(keys: Iterable[str]) -> dict[str, Resource]:
    """{url_key: the catalog's Resource} for those of ``keys`` (URLs in their normal form,
    ``catalog.models.url_key``) the catalog holds, by the catalog's own rule (the importer's
    ``catalog_resources``): a resource's URL, else an extra link that is the resource's own work
    (``is_same_work``: a mirror, the paper's pdf), never a work a resource merely mentions.
    Two queries, whatever the number of keys."""
    keys = [key for key in set(keys) if key]
    if not keys:
        return {}
    found: dict[str, Resource] = {
        resource.url_key: resource for resource in Resource.objects.filter(url_key__in=keys)
    }
    links = ResourceLink.objects.filter(url_key__in=set(keys) - found.keys()).select_related(
        "resource"
    )
    for link in links:
        if is_same_work(link.url, link.label, link.resource.url, link.resource.kind):
            found.setdefault(link.url_key, link.resource)
    return found


def resource_section(resource_id: int) -> Section | None:
    """The section a resource sits in: its first entry in guide order, published first."""
    entry = (
        Entry.objects.filter(resource_id=resource_id)
        .select_related("section")
        .order_by(
            "-is_published",
            "-section__guide__is_published",
            "section__guide__position",
            "section__guide_id",
            "section__position",
            "position",
        )
        .first()
    )
    return entry.section if entry is not None else None


def words(text: str) -> set[str]:
    """The words of ``text`` that can say what it is about (lowercase, no stopwords, a plural's
    trailing s dropped, at least three letters or a digit)."""
    found = set()
    for word in _WORD.findall(text.lower()):
        if word in STOPWORDS or (len(word) < 3 and not any(c.isdigit() for c in word)):
            continue
        found.add(word[:-1] if len(word) > 4 and word.endswith("s") else word)
    return found


@dataclass(frozen=True)
class SectionWords:
    section_id: int
    title_words: frozenset[str]
    words: frozenset[str]  # title, description and its guide's title


def section_words() -> list[SectionWords]:
    """Every visible section of a published guide, in document order, with its words."""
    return [
        SectionWords(
            section.id,
            frozenset(words(section.title)),
            frozenset(words(f"{section.title} {section.description} {section.guide.title}")),
        )
        for section in visible_tree().visible.values()
    ]


def best_section(title: str, summary: str, candidates: list[SectionWords]) -> int | None:
    """The id of the section whose words best match an item's: each word of the item's title
    found in a section's title counts 3, in its description or guide's title 1; each word of its
    summary found in the section's title counts 1. The first in document order wins a tie;
    None when no word matches."""
    title_words, summary_words = words(title), words(summary)
    best, best_score = None, 0
    for candidate in candidates:
        score = (
            3 * len(title_words & candidate.title_words)
            + len((title_words & candidate.words) - candidate.title_words)
            + len(summary_words & candidate.title_words)
        )
        if score > best_score:
            best, best_score = candidate.section_id, score
    return best
