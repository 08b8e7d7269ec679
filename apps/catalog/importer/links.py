"""What a link is in a reading list: a resource of its own or a companion of the item's main
link ("pdf", "Source code", "RoPE paper"), a badge or a button, and the label it is kept under."""

import re

from apps.catalog.importer import markdown
from apps.catalog.importer.urls import title_from_url

GENERIC_LABEL = re.compile(
    r"^(paper\s*\d*|v\d+(\.\d+)?|link|here|this|code|implementation|pdf|slides?|video|blog|post|article|source|"
    r"click here|click|read more|more|see here|learn more)$",
    re.IGNORECASE,
)
# Link texts that name nothing: the item's own words, or the URL, make a better title.
PLACEHOLDER_LABEL = re.compile(
    r"^(stuff|idk|another (one|blog)|some ?blog|link|here|this|that|click here|click|read more|learn more)$",
    re.IGNORECASE,
)
# Labels that say what an extra link is (the paper's code, its slides), not what it is called.
COMPANION_LABEL = re.compile(
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
    if COMPANION_LABEL.match(label) or GENERIC_LABEL.match(label):
        return True
    if (here := re.fullmatch(r"(.{2,30}?)\s+(?:here|link)", label, re.IGNORECASE)) and (
        COMPANION_LABEL.match(here.group(1))
    ):
        return True  # "PDF here", "Code link"
    words = label.split()
    return len(words) > 1 and (
        bool(COMPANION_LABEL.match(words[-1])) or words[-1].lower() in ("recipe", "version")
    )


def is_named(segment: markdown.Segment, about: str = "") -> bool:
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


def link_label(parts: list[markdown.Segment], index: int) -> str:
    """An extra link's label; a generic one ("v2", "paper") borrows the words before it ("paper for v2")."""
    link = parts[index]
    label = link.text if not link.bare else title_from_url(link.url)
    if not re.search(r"\w", label):
        return symbol_label(link.url)  # "[💻](github…)"
    if not GENERIC_LABEL.match(label):
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


def symbol_label(url: str) -> str:
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


PART_LABEL = re.compile(r"^\(?(?:part|vol\.?|volume|chapter|episode|ep\.?)\s*\d+\)?$", re.I)
PART_TAIL = re.compile(r"\s*\(?(?:part|vol\.?|volume|chapter|episode|ep\.?)\s*\d+\)?\s*$", re.I)


def without_trailing_labels(text: str, labels: list[str]) -> str:
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


def has_link(text: str) -> bool:
    return any(markdown.is_web_link(p) for p in markdown.segments(text))


def has_button(text: str) -> bool:
    return any(p.image and is_button(p) for p in markdown.segments(text))


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


def is_badge(segment: markdown.Segment) -> bool:
    src = (segment.src or segment.url).lower()
    return any(host in src for host in _BADGE_HOSTS) or "badge" in segment.text.lower()


IMAGE_FILE = re.compile(r"\.(?:png|jpe?g|gif|svg|webp)(?:[?#].*)?$", re.IGNORECASE)


def is_button(segment: markdown.Segment) -> bool:
    """An image link that leads to content (a notebook, a repository, a video), not to the badge
    service, the image itself or a profile of the author."""
    url = segment.url.lower()
    return (
        url.startswith(("http://", "https://"))
        and markdown.valid_url(segment.url)
        and segment.url != segment.src
        and not IMAGE_FILE.search(url)
        and not any(host in url for host in _BADGE_HOSTS)
    )


def button_label(segment: markdown.Segment) -> str:
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


def image_reason(segment: markdown.Segment) -> str:
    return "badges" if is_badge(segment) else "images and image links"
