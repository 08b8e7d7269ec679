"""Guessing what kind of thing a resource is from its URL, its wording and where it sits.

A guess a curator can correct in admin: rules run from the most specific (a YouTube
watch page is a video whatever the text says) to the most general (a bare host is a site).
"""

import re
from urllib.parse import urlsplit

from apps.catalog.importer.urls import bare_host
from apps.catalog.models import Kind

_SLIDES = re.compile(r"\bslides?\b|presentation", re.IGNORECASE)
_COURSE_URL = re.compile(
    r"cme295|cse234|deep-rl-course|/courses?/|huggingface\.co/learn/|-class\b|/classes/|ece\d{4}",
    re.IGNORECASE,
)
_COURSE_TEXT = re.compile(r"\bcourse\b|\blectures?\b", re.IGNORECASE)
_BOOK_TEXT = re.compile(r"\bbooks?\b|\bhandbook\b", re.IGNORECASE)
_DOCS_TEXT = re.compile(r"\bdocumentation\b|\bdocs\b", re.IGNORECASE)
_REPO_TEXT = re.compile(r"\brepository\b|\brepo\b", re.IGNORECASE)
_TALK_TEXT = re.compile(r"\btalk\b|\bkeynote\b|on-demand/session", re.IGNORECASE)
_SITE_PATHS = {"blog", "blogs", "archive", "posts", "videos", "writing", "news", "articles"}


def _github_kind(segments: list[str]) -> str:
    if not segments or segments[0] == "orgs" or len(segments) == 1:
        return Kind.SITE
    if len(segments) > 2 and segments[2] in {"issues", "discussions"}:
        return Kind.THREAD
    last = segments[-1].lower()
    if last.endswith(".pdf") and any(_SLIDES.search(s) for s in segments):
        return Kind.SLIDES
    if last.endswith(".md") and "blob" in segments:
        return Kind.ARTICLE
    return Kind.REPO


def _url_kind(url: str) -> str | None:
    parts = urlsplit(url)
    host = bare_host(parts.hostname or "")
    segments = [s for s in parts.path.split("/") if s]
    path = parts.path.lower()
    if host in {"youtube.com", "m.youtube.com", "youtu.be"}:
        return Kind.VIDEO
    if host in {"x.com", "twitter.com"}:
        return Kind.THREAD if "status" in segments else Kind.SITE
    if host == "linkedin.com" and segments[:1] == ["posts"]:
        return Kind.THREAD
    if host == "github.com":
        return _github_kind(segments)
    if host in {"gist.github.com", "github.dev", "colab.research.google.com"}:
        return Kind.REPO
    if host == "docs.google.com" and "presentation" in segments or _SLIDES.search(path):
        return Kind.SLIDES
    if host in {"arxiv.org", "openreview.net"} or host.endswith("aclanthology.org"):
        return Kind.PAPER
    if host in {"amzn.to", "amazon.com"}:
        return Kind.BOOK
    if _COURSE_URL.search(url):
        return Kind.COURSE
    if _TALK_TEXT.search(path) or host == "atscaleconference.com" and "videos" in segments:
        return Kind.TALK
    if (
        host.startswith("docs.")
        or "/docs/" in path
        or path.startswith("/docs")
        or "readthedocs" in host
    ):
        return Kind.DOCS
    return None


def _fallback_kind(url: str) -> str:
    parts = urlsplit(url)
    segments = [s for s in parts.path.split("/") if s]
    if parts.path.lower().endswith(".pdf"):
        return Kind.PAPER
    if not segments or (
        len(segments) == 1 and segments[0].lower().split(".")[0] in _SITE_PATHS | {"index"}
    ):
        return Kind.SITE
    return Kind.ARTICLE


def guess_kind(url: str | None, text: str = "", *, context: str = "") -> str:
    """The Kind for a resource at ``url`` described by ``text``, listed under a section titled ``context``.

    ``context`` only decides when the URL does not (a PDF under "Book to read" is a book).
    """
    if url:
        kind = _url_kind(url)
        if kind:
            return kind
    if _SLIDES.search(text):
        return Kind.SLIDES
    if _COURSE_TEXT.search(text):
        return Kind.COURSE
    if _BOOK_TEXT.search(context) or _BOOK_TEXT.search(text):
        return Kind.BOOK
    if re.search(r"\bpapers?\b", context, re.IGNORECASE) and url:
        return Kind.PAPER
    if _TALK_TEXT.search(text):
        return Kind.TALK
    if _DOCS_TEXT.search(text):
        return Kind.DOCS
    if _REPO_TEXT.search(text):
        return Kind.REPO
    if not url:
        return Kind.CONCEPT
    return _fallback_kind(url)
