"""Titles and headings as a reader names them: no markup, no decoration, no shouting.

The one owner of a resource's title rules: `clean_title` cleans a list's titles as the importer
reads them and a page's own title as the link checker finds it; `same_title` is what "the same
title" means to the importer offering a list's title, to the link checker offering a page's, and
to a learner's Markdown import finding a resource by its title.
"""

import re

from apps.catalog.importer import markdown
from apps.catalog.importer.authors import looks_like_name
from apps.catalog.importer.urls import title_from_url

MAX_HEADING = 80
_SHORTCODE = re.compile(r"(?<!\S):[a-z][a-z0-9_+-]{0,40}:(?!\S)")  # GitHub's emoji, ":star:"
LEADING_SYMBOLS = re.compile(r"^[^\w\s(\[\"'“‘<@#$.]+\s+(?=\w)")
_TAG_LIKE = re.compile(r"</?[a-zA-Z][a-zA-Z0-9-]*(?:\s[^<>]*)?/?>")
# Pictographs decorate a title ("🔥🔥🔥", "⭐️⭐️", "📖", "👆🏻"), never name it: emoji and symbol
# blocks with their variation selectors, joiners and skin tones, and the emoji forms of © and ®.
# Arrows (U+2190–21FF) are left alone: "01 → 03" is a reading path.
EMOJI_RUN = re.compile(
    "(?:[\U0001f000-\U0001faff\u2300-\u23ff\u2600-\u27bf\u2b00-\u2bff\ufe0f\u200d\u20e3]"
    "|[\u00a9\u00ae]\ufe0f)+"
)
# "[DeepSeek-V2] DeepSeek-V2: A Strong …": a short name in brackets before the title
_LEADING_TAG = re.compile(r"^\[[^\[\]\n]{1,60}\]\s*(?=\S)")
# "… Language Model(@DeepSeek-AI)": who made it, written after the title
_TRAILING_ORG = re.compile(r"\s*\(\s*@\s*([^()@\n]{1,80})\)\s*$")
# a heading's way back to the contents: "([©️back👆🏻](#paperlist))", "[🔝](#contents)", "[⬆ top](#top)"
_BACK_LINK = re.compile(r"\s*\(?\s*\[[^\[\]\n]{0,40}\]\(#[^()\s]{0,200}\)\s*\)?\s*$")
_MOVED_NOTICE = re.compile(
    r"\b(?:(?:has|have|was|were|is|are)\s+(?:been\s+)?(?:moved|migrated|relocated|archived|deprecated|"
    r"discontinued)|no\s+longer\s+(?:maintained|updated|active)|(?:moved|migrated)\s+to\b|"
    r"^(?:deprecated|archived|moved|unmaintained)\b)",
    re.IGNORECASE,
)
_MONTHS = "jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec"
# "2024.05", "2023-10", "2017/03/14", "Oct 04, 2017", "March 2021", "2019": a date, read for its year
_DATE = re.compile(
    rf"^\s*(?:(?:(?:{_MONTHS})[a-z]*\.?\s+(?:\d{{1,2}}(?:st|nd|rd|th)?,?\s+)?)|(?:\d{{1,2}}\s+(?:{_MONTHS})[a-z]*\.?,?\s+))?"
    r"((?:19|20)\d\d)(?:[./-]\d{1,2}(?:[./-]\d{1,2})?)?\s*$",
    re.IGNORECASE,
)
# "(Section 3)", "(Chapter 2)", "(§4)": where in the linked work to read, not part of its name
_WHERE_IN = re.compile(
    r"^(?:section|sec\.|chapter|ch\.|§|pages?|pp?\.|lecture|slide)\s*[\d.\-–, ]+$", re.I
)
_BY_ASIDE = re.compile(r"^by\s+(\S.{0,80})$", re.IGNORECASE)


def without_emoji(text: str) -> str:
    """``text`` without its pictographs, spaces they held apart joined: "🔥🔥 YOCO ⭐️" → "YOCO"."""
    return markdown.squash(EMOJI_RUN.sub(" ", text))


def date_year(text: str) -> int | None:
    """The year of a date as lists write it ("2024.05", "2023-10", "Oct 04, 2017"), else None."""
    match = _DATE.match(text) if len(text) <= 40 else None
    return int(match.group(1)) if match else None


def is_moved_notice(text: str) -> bool:
    """ "⚠️ This project has moved to …", "DEPRECATED", "This repository is archived": a notice, not a name."""
    return bool(_MOVED_NOTICE.search(text[:300]))


def title_and_org(title: str, url: str | None = None) -> tuple[str, str]:
    """``"YOCO: Decoder-Decoder Architectures(@Microsoft)"`` → ``("YOCO: …", "Microsoft")``;
    ``"Essence of linear algebra (3Blue1Brown)"`` (a video) → ``("Essence …", "3Blue1Brown")``:
    a trailing parenthesis whose shape is a maker's name (``trailing_maker``)."""
    cut = max(0, len(title) - 120)  # the pattern is read on the tail only: linear in any title
    if match := _TRAILING_ORG.search(title, cut):
        return title[: match.start()].rstrip(), match.group(1).strip()
    if (match := _TRAILING_PAREN.search(title, cut)) and match.start() > 0:
        head = title[: match.start()].rstrip()
        if re.search(r"\w", head) and is_maker(match.group(1), head, video=_is_video(url)):
            return head, match.group(1).strip()
    return title, ""


_TRAILING_PAREN = re.compile(r"\s*\(([^()\n]{2,60})\)\s*$")
_VIDEO_HOSTS = re.compile(
    r"^https?://(?:www\.|m\.)?(?:youtube\.com|youtu\.be|vimeo\.com|twitch\.tv)/", re.IGNORECASE
)
# Words a trailing parenthesis uses to say what the thing is, in which language or form, never
# who made it: "(Japanese)", "(Full Course)", "(PyTorch)", "(Explained)", "(In English)".
_ASIDE_WORDS = {
    "english", "chinese", "japanese", "korean", "french", "german", "spanish", "russian",
    "portuguese", "italian", "hindi", "arabic", "vietnamese", "persian", "turkish", "indonesian",
    "python", "pytorch", "tensorflow", "keras", "jax", "numpy", "rust", "java", "javascript",
    "typescript", "julia", "go", "golang", "scala", "matlab", "octave", "c", "c++", "r", "cuda",
    "triton", "mojo", "swift", "kotlin", "ruby", "php", "haskell", "lisp", "pydantic", "django",
    "react", "langchain", "llamaindex", "huggingface", "transformers", "colab", "jupyter",
    "explained", "animated", "illustrated", "visualized", "annotated", "simplified", "intuition",
    "full", "official", "live", "remastered", "updated", "new", "old", "free", "paid", "open",
    "beta", "alpha", "draft", "preview", "preprint", "revised", "extended", "unofficial",
    "edition", "part", "volume", "vol", "chapter", "section", "lecture", "lectures", "lesson",
    "episode", "season", "series", "playlist", "course", "class", "classes", "talk", "keynote",
    "workshop", "tutorial", "notes", "slides", "video", "videos", "paper", "book", "blog", "post",
    "code", "repo", "website", "docs", "documentation", "demo", "podcast", "interview", "summary",
    "overview", "introduction", "intro", "basics", "advanced", "beginner", "beginners",
    "intermediate", "guide", "cheatsheet", "reference", "pdf", "html", "online", "archive",
    "archived", "mirror", "translation", "translated", "subtitles", "version", "update", "remake",
    "networks", "network", "net", "transformer", "diffusion", "in", "on", "of", "for", "with", "to", "from", "by", "and", "or", "the", "a", "an", "how",
    "what", "why", "when", "is", "are", "vs", "versus", "via", "using", "based", "no", "not",
}  # fmt: skip
# English endings of a topic's words, rarely of a name's: "Learning", "Diffusion", "Autoencoders"
_TOPIC_ENDING = re.compile(
    r"(?:ing|ings|tion|tions|sion|sions|ment|ments|ness|ity|ies|ics|ure|ures|ism|ers|ors|works|els|ems)$"
)
# a name's word: "Karpathy", "3Blue1Brown", "DeepMind", "A.", "O'Reilly", "Hugging-Face"
_MAKER_WORD = re.compile(r"^(?:\d*[A-Z][\w'’.&-]*|[A-Z]\.)$")


def _is_video(url: str | None) -> bool:
    return bool(url and _VIDEO_HOSTS.match(url))


def _initials(text: str) -> str:
    return "".join(word[0] for word in re.split(r"[\s/-]+", text) if word[:1].isalpha()).upper()


def is_maker(text: str, title: str, *, video: bool = False) -> bool:
    """Does a trailing ``(text)`` after ``title`` name who made it, by its shape alone?

    A maker is two or three capitalized name words ("Andrej Karpathy", "Google DeepMind"), a
    handle opening with a digit ("3Blue1Brown") or, after a video, one capitalized word (its
    channel: "(Computerphile)"). Never an acronym or a model's name ("(RAG)", "(ResNet)"), an
    expansion of an acronym in the title ("LLM (Large Language Models)"), a topic ("(Stable
    Diffusion)", "(Masked Autoencoders)"), a language, framework, format or edition
    ("(Japanese)", "(PyTorch)", "(2nd edition)"), a list ("OpenAI, Claude") or a number
    ("(Part 2)", "(v2)")."""
    words = text.split()
    if not 0 < len(words) <= 3 or any(not _MAKER_WORD.match(word) for word in words):
        return False
    if any(word.lower().strip(".") in _ASIDE_WORDS or _TOPIC_ENDING.search(word) for word in words):
        return False
    if any(re.search(r"-\d|^v\d|^[\d.]+$", word, re.IGNORECASE) for word in words):
        return False  # "(GPT-4)", "(v2)", "(2015)"
    acronyms = {w.rstrip("s") for w in re.findall(r"\b[A-Z]{2,8}s?\b", title)}
    if _initials(text) in acronyms:
        return False  # "LLM (Large Language Models)": the acronym spelt out
    if len(words) == 1:
        word = words[0]
        if word[0].isdigit():
            return bool(re.search(r"[a-z]", word))  # "3Blue1Brown", not "2D"
        return video and word.upper() != word and not re.search(r"[a-z][A-Z]|\d", word)
    return looks_like_name(text) and all(
        word.upper() != word or len(word) <= 3
        for word in words  # "Meta AI", not "(RAG LLM)"
    )


def aside(text: str) -> tuple[str, str | int]:
    """What a parenthesis after a link says: ``("year", 2017)`` for "Oct 04, 2017", ``("author",
    "Asianometry")`` for "by Asianometry", ``("where", "Section 3")``, else ``("", text)``."""
    text = text.strip()
    if (year := date_year(text)) is not None:
        return "year", year
    if match := _BY_ASIDE.match(text):
        return "author", match.group(1).strip()
    if _WHERE_IN.match(text):
        return "where", text
    return "", text


def clean_heading(text: str) -> str:
    """A heading as a reader names it: no markup, no decorative leading emoji ("🚀 Advanced AI Agents")."""
    if len(text) <= 1000:  # a heading, not a paragraph run together: the pattern stays cheap
        text = _BACK_LINK.sub("", text) or text
    heading = markdown.squash(markdown.strip_emphasis(text)).rstrip(":").strip()
    heading = markdown.squash(_SHORTCODE.sub("", heading)) or heading  # ":star: Courses"
    heading = without_emoji(heading) or heading  # "📖Contents", "News 🔥🔥"
    heading = _LEADING_TAG.sub("", heading) or heading  # "[Feb 2024] Registrations are open"
    if re.fullmatch(r"\([^()]+\)", heading):
        heading = heading[1:-1].strip()  # "*(Lectures)*"
    return LEADING_SYMBOLS.sub("", heading) or heading


def clean_title(title: str) -> str:
    """A title without markup or decoration: no tags, emoji runs, leading ``[tag]`` or ``(@Org)``."""
    title = (
        markdown.squash(_SHORTCODE.sub(" ", _TAG_LIKE.sub(" ", title)))
        or markdown.squash(title.replace("<", " ").replace(">", " "))  # "<A>" alone: its word
        or title
    )
    title = without_emoji(title) or title
    title = title_and_org(title)[0] or title
    title = title.strip(" -–—:|•·")
    title = LEADING_SYMBOLS.sub("", title)  # a leading symbol: "» LazyMergekit"
    if re.fullmatch(r"\[[^\[\]]+\]", title):
        title = title[1:-1].strip()  # "[DeepSeek-V2]" and nothing else: the name itself
    title = _LEADING_TAG.sub("", title) or title
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
