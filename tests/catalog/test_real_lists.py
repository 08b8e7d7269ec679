"""Fidelity on real reading lists nobody here wrote (sources in reallists/SOURCES.md).

The links a reader sees are counted independently of the importer: the list is rendered to
HTML by markdown-it and every ``<a href>`` (not wrapping only an image: badges, buttons)
and every bare ``http(s)://`` address in the text (not in code, which GitHub does not
link) is a link; a link to an image file (a QR code) is a picture, not a link to read. A link
became a correct resource when an imported item has it as its address under a clean,
non-generic title, or keeps it as a companion link ("pdf", "code", "Source code", "Notebook")
or as its author's page ("…, by [@jordn](…)"). A clean title carries no markup and no
decoration (emoji runs, a leading ``[tag]``, ``(@Org)``, a back-link). An item whose line names
its author (``(@Org)``, ``(by Asianometry)``, ``[Title](…) by Andrej Karpathy: …``) has that
author, and a paper row is keyed on its
paper: an item holding a paper's link (arXiv, OpenReview, ACL Anthology, a pdf) whose address is
a repository is not correct. Images and badges are not resources; the parse reports them as
skipped.
"""

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from apps.catalog.importer import normalize_url, parse_guide, plan_import
from apps.catalog.importer.parser import is_companion_label
from apps.catalog.importer.titles import is_moved_notice

LISTS = Path(__file__).parent / "reallists"
_BARE = re.compile(r"https?://[^\s<>\"'`\]\[]+")
# markup that leaked: tags, links, images, emphasis, a heading's #, code, a table row's pipes
# (a pipe between words is the author's own separator: "using LangChain | OpenAI | Streamlit")
_MARKUP = re.compile(r"<[a-zA-Z/!]|\]\(|!\[|\*\*|__|^#|`|^\s*\||\|\s*$|\|\s*:?-{3}")
# decoration: pictographs (🔥, ⭐️, 📖, 👆🏻, ©️), a leading "[tag]", "(@Org)", a GitHub alert's marker
_DECORATION = re.compile(
    "[\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\ufe0f]|^\\[[^\\]]*\\]\\s*\\S|\\(@|\\[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\\]"
)
# the line names who made it: "(@DeepSeek-AI)", "(by Asianometry)"
_NAMED_AUTHOR = re.compile(r"\(\s*(?:@|by\s)[^()]{1,80}\)")
_PAPER = re.compile(r"arxiv\.org|openreview\.net|aclanthology\.org|\.pdf$")
_REPOSITORY = re.compile(r"^https?://(?:www\.)?(?:github\.com|gitlab\.com)/")
_IMAGE_FILE = re.compile(r"\.(?:png|jpe?g|gif|svg|webp)$", re.IGNORECASE)
_GENERIC_TITLES = {
    "github",
    "website",
    "pdf",
    "paper",
    "article",
    "code",
    "source code",
    "link",
    "here",
    "this",
    "click here",
    "notebook",
    "[pdf]",
    "blog",
    "video",
    "slides",
    "tweet",
    "announcement",
    "readme",
    "docs",
    "demo",
}


def _trim(url: str) -> str:
    while url and (
        url[-1] in ".,;:!?*'\")" and not (url[-1] == ")" and url.count("(") >= url.count(")"))
    ):
        url = url[:-1]
    return url


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links: set[str] = set()
        self.images: set[str] = set()
        self._anchor: list | None = None
        self._code = 0  # inside <code> or <pre>: text, not links

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("code", "pre"):
            self._code += 1
        elif tag == "a" and attrs.get("href", "").startswith(("http://", "https://")):
            self._anchor = [attrs["href"], "", False]
        elif tag == "img" and self._anchor is not None:
            self._anchor[2] = True

    def handle_endtag(self, tag):
        if tag in ("code", "pre"):
            self._code = max(0, self._code - 1)
        elif tag == "a" and self._anchor is not None:
            href, text, has_image = self._anchor
            picture = has_image and not text.strip() or _IMAGE_FILE.search(href.split("?")[0])
            (self.images if picture else self.links).add(href)
            self._anchor = None

    def handle_data(self, data):
        if self._anchor is not None:
            self._anchor[1] += data
        elif not self._code:
            for url in _BARE.findall(data):
                if url := _trim(url):
                    self.links.add(url)


def links_a_reader_sees(text: str) -> set[str]:
    html = MarkdownIt("commonmark", {"html": True}).enable("table").render(text)
    reader = _Links()
    reader.feed(html)
    normalized = set()
    for url in reader.links - reader.images:
        try:
            normalized.add(normalize_url(url))
        except ValueError:
            continue
    return normalized


def clean(text: str) -> bool:
    return not _MARKUP.search(text or "")


def undecorated(title: str) -> bool:
    return clean(title) and not _DECORATION.search(title or "")


def keyed_right(item) -> bool:
    """Names its author where its line does, and a paper row is keyed on the paper, not its code."""
    if _NAMED_AUTHOR.search(item.raw) and not item.author:
        return False
    if (
        item.links
        and not item.author
        and re.search(re.escape(item.links[0].url) + r"\)\s*,?\s*by\s+[A-Z@]", item.raw)
    ):
        return False  # "[nanoGPT](…) by Andrej Karpathy: …" names its maker
    urls = [link.url for link in item.links]
    return not urls or not (
        _REPOSITORY.match(urls[0]) and any(_PAPER.search(url) for url in urls[1:])
    )


def fidelity(name: str):
    text = (LISTS / name).read_text(encoding="utf-8")
    seen = links_a_reader_sees(text)
    guide = parse_guide(text)
    correct = set()
    for item in guide.items():
        title_ok = (
            undecorated(item.title)
            and item.title.strip().lower() not in _GENERIC_TITLES
            and item.title.strip()
            and keyed_right(item)
        )
        if not title_ok:
            continue
        for position, link in enumerate(item.links):
            url = normalize_url(link.url)
            if (
                position == 0
                or is_companion_label(link.label)
                or (item.author and link.label.strip() == item.author)
            ):
                correct.add(url)
    return seen, correct & seen, guide


# (fixture, distinct links a reader sees, links that became correct resources)
EXPECTED = [
    ("e2b-awesome-ai-agents.md", 36, 36),
    ("terryum-awesome-deep-learning-papers.md", 239, 239),
    ("hannibal046-awesome-llm.md", 58, 58),
    ("mlabonne-llm-course.md", 188, 188),
    ("josephmisiti-awesome-machine-learning.md", 455, 455),
    ("xnhyacinth-long-context-modeling.md", 30, 30),
    ("steven2358-awesome-generative-ai.md", 193, 193),
    ("kyrolabs-awesome-langchain.md", 221, 221),
    ("eugeneyan-applied-ml.md", 161, 161),
    ("shubhamsaboo-awesome-llm-apps.md", 10, 10),
    ("dair-ai-ml-papers-of-the-week.md", 10, 10),
    ("nirdiamant-rag-techniques.md", 15, 15),
    ("ethicalml-awesome-production-machine-learning.md", 46, 46),
    ("aishwaryanr-awesome-generative-ai-guide.md", 131, 131),
    ("keon-awesome-nlp.md", 212, 210),
    ("ybayle-awesome-deep-learning-music.md", 124, 124),
    ("guillaume-chevalier-awesome-deep-learning-resources.md", 67, 64),
    ("floodsung-deep-learning-papers-reading-roadmap.md", 54, 54),
    ("owainlewis-awesome-artificial-intelligence.md", 60, 60),
    ("xlite-dev-awesome-llm-inference.md", 59, 59),
    ("handwritten-paper-tables-and-notices.md", 22, 22),
    ("horseee-awesome-efficient-llm.md", 14, 14),
    ("bradyfu-awesome-multimodal-llm.md", 43, 43),
]


@pytest.mark.parametrize(("name", "links", "correct"), EXPECTED)
def test_real_list_links_become_correct_resources(name, links, correct):
    seen, became, _ = fidelity(name)
    assert (len(seen), len(became)) == (links, correct), sorted(seen - became)
    assert len(became) / len(seen) >= 0.95


@pytest.mark.parametrize("name", [row[0] for row in EXPECTED])
def test_real_lists_carry_no_markup_in_titles_or_descriptions(name):
    _, _, guide = fidelity(name)
    for section in guide.walk():
        # a heading as a reader names it, not a paragraph read as one
        assert undecorated(section.title) and section.title, section.title
        assert len(section.title) <= 100 and not section.title.endswith("."), section.title
    for item in guide.items():
        assert undecorated(item.title), item.title
        assert clean(item.description) and clean(item.note), item.raw
        assert "[!" not in item.description + item.note, item.raw
        assert clean(item.author) and len(item.author.split()) <= 12, (item.title, item.author)
    assert undecorated(guide.title)
    assert not is_moved_notice(guide.title), guide.title
    assert "<" not in guide.description and "[!" not in guide.description


@pytest.mark.django_db
@pytest.mark.parametrize("name", [row[0] for row in EXPECTED])
def test_real_lists_plan_without_markup(name):
    plan = plan_import((LISTS / name).read_bytes(), guide_slug="real-list", title="Real list")
    assert plan.resources
    for resource in plan.resources:
        assert (
            undecorated(resource.title) and clean(resource.description) and clean(resource.author)
        ), resource.title
        assert resource.title.strip().lower() not in _GENERIC_TITLES, resource.url
        assert all(clean(link.label) for link in resource.links), resource.title
    for section in plan.sections:
        # headings read as headings: no markup, no paragraph taken for one
        assert undecorated(section.title) and len(section.title) <= 100, section.title
        assert not section.title.endswith("."), section.title
