"""Titles and headings as a reader names them: no markup, no decoration, no shouting.

The one owner of a resource's title rules: `clean_title` cleans a list's titles as the importer
reads them and a page's own title as the link checker finds it; `same_title` is what "the same
title" means to the importer offering a list's title, to the link checker offering a page's, and
to a learner's Markdown import finding a resource by its title.
"""

import re

from apps.catalog.importer import markdown
from apps.catalog.importer.urls import title_from_url

MAX_HEADING = 80
_SHORTCODE = re.compile(r"(?<!\S):[a-z][a-z0-9_+-]{0,40}:(?!\S)")  # GitHub's emoji, ":star:"
LEADING_SYMBOLS = re.compile(r"^[^\w\s(\[\"'“‘<@#$.]+\s+(?=\w)")
_TAG_LIKE = re.compile(r"</?[a-zA-Z][a-zA-Z0-9-]*(?:\s[^<>]*)?/?>")


def clean_heading(text: str) -> str:
    """A heading as a reader names it: no markup, no decorative leading emoji ("🚀 Advanced AI Agents")."""
    heading = markdown.squash(markdown.strip_emphasis(text)).rstrip(":").strip()
    heading = markdown.squash(_SHORTCODE.sub("", heading)) or heading  # ":star: Courses"
    if re.fullmatch(r"\([^()]+\)", heading):
        heading = heading[1:-1].strip()  # "*(Lectures)*"
    return LEADING_SYMBOLS.sub("", heading) or heading


def clean_title(title: str) -> str:
    title = markdown.squash(_SHORTCODE.sub(" ", _TAG_LIKE.sub(" ", title))) or title
    title = title.strip(" -–—:|•·")
    title = LEADING_SYMBOLS.sub("", title)  # a leading emoji: "🥱 LazyMergekit"
    if len(title) > 2 and title[0] + title[-1] in ('""', "“”", "''"):
        title = title[1:-1].strip()  # '"Auto-Keras: Efficient Neural Architecture Search"'
    # "Efficient Transformers: A Survey." — a paper title's closing full stop is not part of it
    if title.endswith(".") and not title.endswith("..") and len(title.split()) > 3:
        title = title[:-1]
    return title


def title_key(title: str) -> str:
    """The form titles are compared in: whitespace collapsed, case folded."""
    return " ".join(title.split()).casefold()


def same_title(a: str, b: str) -> bool:
    """Do ``a`` and ``b`` name a resource alike (differing at most in case and spacing)?"""
    return title_key(a) == title_key(b)


def titlecase_shouting(text: str) -> str:
    if len(text) > 4 and text.upper() == text and re.search(r"[A-Z]{4}", text):
        small = {"of", "for", "and", "to", "by", "on", "in", "a", "an", "the"}
        words = text.lower().split()
        return " ".join(
            w if i and w in small else w[:1].upper() + w[1:] for i, w in enumerate(words)
        )
    return text


def weak_url_title(url: str) -> bool:
    """A title derived from the URL that a guide's own words would beat (host only, a video id)."""
    title = title_from_url(url)
    return title.startswith("YouTube ") or "/" not in title and " " not in title


def caption_title(caption: str) -> str:
    """A title from the prose describing a link: its first sentence, when it is short enough."""
    first = re.split(r"(?<=[^A-Z.][.!?])\s|;\s|:\s", caption, maxsplit=1)[0].rstrip(".!?;: ")
    return first if len(first.split()) >= 2 and len(first) <= MAX_HEADING else ""


def is_abbreviation_list(label: str) -> bool:
    tokens = re.split(r"[,\s/]+", label.strip())
    return len(tokens) > 1 and all(len(t) <= 3 and t.upper() == t for t in tokens if t)
