"""Who wrote it: names told from sentences, a paper's author list, ``by [@author](…)``,
``[Title](url) `Org` `` and references (``Surname, Given, et al. "Title." Venue.``)."""

import re

from apps.catalog.importer import markdown

_MAX_AUTHOR_WORDS = 6
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


def looks_like_name(text: str) -> bool:
    """ "Simon Boehm", "NVIDIA", "Jax (Google)", "G. Hinton et al": a name, not a sentence."""
    words = text.replace(",", " ").split()
    return (
        0 < len(words) <= _MAX_AUTHOR_WORDS
        and all(_NAME_WORD.match(w) for w in words)
        and words[0][:1].isupper()
        and words[0].lower() not in _DETERMINERS
        and not any(w.lower().strip("().") in _NOT_NAME_WORDS for w in words)
    )


def short_authors(names: str) -> str:
    """A paper's long author list as its first author "et al."."""
    listed = [n.strip() for n in re.split(r",\s*|\s+and\s+", names) if n.strip()]
    return f"{listed[0]} et al." if len(listed) > 3 else names


def split_author(text: str) -> tuple[str, str]:
    """``"Simon Boehm. Iterative optimization …"`` → ``("Simon Boehm", "Iterative optimization …")``.

    Only a name is an author: a description without a final full stop ("Fully open
    reproduction of DeepSeek-R1") stays a description.
    """
    head, sep, tail = text.partition(". ")
    if sep and (looks_like_name(head.rstrip(".")) or re.fullmatch(r"[a-z][\w.-]{1,24}", head)):
        return head.rstrip("."), tail.strip()
    if (
        not sep
        and text.endswith(".")
        and len(text.split()) <= 3
        and looks_like_name(text.rstrip("."))
    ):
        return text.rstrip("."), ""
    return "", text


_NAME = r"(?:[A-Z]|\([A-Z])[\w.&()'-]*"
BY_AUTHOR = re.compile(rf"^by\s+({_NAME}(?:,?\s+(?:and\s+|&\s+)?{_NAME})*)$")
ITALIC_AUTHORS = re.compile(r"^\*([^*]{2,300})\*")
BY_BEFORE = re.compile(r"\bby\s*$", re.IGNORECASE)
_LINK_MARKUP = re.compile(r"\(?!?\[[^\[\]\n]*\]\([^()\s]*\)\)?")
_CODE_SPANS = re.compile(r"^(?:[\s,]*`([^`\n]{1,60})`)+[\s,.]*$")


def code_span_authors(text: str, main: markdown.Segment) -> str:
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


def citation(prefix: str) -> tuple[str, str] | None:
    """The (title, authors) of a reference before its ``[pdf]`` link, None when it is not one."""
    if not (match := _CITATION.match(prefix)):
        return None
    authors = match.group("authors").strip(" ,.")
    if authors.endswith(" et al"):
        authors += "."
    return match.group("title").strip(), short_authors(authors)


def titled_prefix(text: str, prefix: str) -> tuple[str, str]:
    """``**Title** (2015), G. Hinton et al.`` before a ``[pdf]`` link → ``("Title", "G. Hinton et al.")``."""
    if cited := citation(markdown.strip_emphasis(prefix)):
        return cited
    prefix = markdown.squash(prefix)  # one space between words: the patterns below stay linear
    title, after = prefix, ""
    head, sep, tail = prefix.partition(": ")
    if (
        sep
        and len(head.split()) <= 5
        and len(prefix) > 60
        and len(tail.split()) >= 4
        and not _BOLD_START.match(text)
    ):
        # "Edge deployment: In constrained environments, … [guide](…)": the words before the colon
        # name it, the sentence after is what it says; a bold title ("**MathVista: Evaluating …**")
        # is a title whole
        return head.strip(), ""
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
    if author and not looks_like_name(author.replace(" et al", "")):
        author = ""
    return title, author


_BY_LEAD = re.compile(r"^[\s,]*by\s+(?=\S)", re.IGNORECASE)
# where the maker's name ends: a colon, a dash, a bracket, a parenthesis
_NAME_END = re.compile(r"\s*(?::(?:\s|$)|;\s|\s[-–—]\s|[–—]|\s?\(|\s?\[)")
# a sentence's full stop, not an initial's ("C. Bishop") nor "et al."
_SENTENCE_END = re.compile(r"(?<!\bal)(?<!\b[A-Z])\.(?:\s|$)")


def by_lead(text: str) -> tuple[str, str] | None:
    """``"by Andrej Karpathy: A 2h-long video …"`` after a link → ``("Andrej Karpathy", "A 2h-long
    video …")``; None when the words after "by" are no name ("by far the best …")."""
    if not (start := _BY_LEAD.match(text)):
        return None
    tail = text[start.end() : start.end() + 400]  # a name is short: the patterns stay linear
    end = _NAME_END.search(tail)
    head, after = (tail[: end.start()], tail[end.start() :]) if end else (tail, "")
    if stop := _SENTENCE_END.search(head):
        head, after = head[: stop.start()], head[stop.end() :] + after
    # "by RedHat and [Another paper](…)": the name before the next link's conjunction
    name = re.sub(r"(?:,|\s+(?:and|&))\s*$", "", head.strip())
    bare = re.sub(r",?\s+et\s+al\.?$", "", name)
    if not (looks_like_name(bare) or re.fullmatch(r"@[\w.-]{2,40}", name)):
        return None
    after = (after + text[start.end() + 400 :]).strip()
    if (aside := re.match(r"\(([^()]{1,60})\)", after)) and looks_like_name(aside.group(1)):
        name, after = f"{name} ({aside.group(1)})", after[aside.end() :].strip()  # "Jax (Google)"
    elif whole := re.fullmatch(r"\(([^()]{1,60})\)|\[([^\[\]]{1,60})\]", after):
        after = whole.group(1) or whole.group(2)  # "(cover PTQ, QAT)", "[Book]": what it is
    return name, after
