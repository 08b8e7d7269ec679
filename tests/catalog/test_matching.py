"""Which catalog resource an imported item is, and what a later list does to a poor title.

An extra link identifies its resource only when it is the same work (a mirror, the paper's
pdf, another page of the same repository); and a list that names a resource better than an
earlier import did renames it, so one list's import does not spoil the next."""

import pytest
from django.contrib.admin.models import CHANGE, LogEntry

from apps.catalog.importer import apply_import, normalize_url, plan_import
from apps.catalog.importer.builder import improves_title, title_fixes
from apps.catalog.importer.parser import is_companion_label
from apps.catalog.importer.urls import is_same_work, title_from_url
from apps.catalog.models import Entry, Kind, Resource
from tests.catalog.test_real_lists import _GENERIC_TITLES, clean, links_a_reader_sees
from tests.factories import ResourceFactory, ResourceLinkFactory

pytestmark = pytest.mark.django_db

REPO = "https://github.com/Dao-AILab/flash-attention"
FA3 = "https://arxiv.org/abs/2407.08608"


@pytest.fixture
def explainer():
    """The catalog's "FlashAttention": a blog post holding the repository and papers it explains."""
    blog = ResourceFactory(
        title="FlashAttention", url="https://example.com/blog/flashattention", kind=Kind.ARTICLE
    )
    ResourceLinkFactory(resource=blog, url=REPO, label="GitHub")
    ResourceLinkFactory(resource=blog, url=FA3, label="FlashAttention-3 paper")
    ResourceLinkFactory(resource=blog, url="https://arxiv.org/pdf/2205.14135", label="pdf")
    return blog


def matched(text):
    plan = plan_import(text, guide_slug="kernels", title="Kernels")
    return {resource.url: resource.existing_id for resource in plan.resources}


def test_a_work_a_blog_post_merely_mentions_is_not_that_post(explainer):
    found = matched(
        f"# Kernels\n- [flash-attention]({REPO}) - Fast exact attention.\n"
        f"- [FlashAttention-3: Fast and Accurate Attention]({FA3})\n"
        "- [FlashAttention](https://arxiv.org/pdf/2205.14135.pdf)\n"
    )
    assert found == {REPO: None, FA3: None, "https://arxiv.org/abs/2205.14135": None}


def test_the_resources_own_work_under_another_address_is_that_resource():
    paper = ResourceFactory(
        title="Attention Is All You Need", url="https://arxiv.org/abs/1706.03762", kind=Kind.PAPER
    )
    ResourceLinkFactory(
        resource=paper, url="https://papers.nips.cc/paper/7181-attention.pdf", label="pdf"
    )
    repo = ResourceFactory(title="vLLM", url="https://github.com/vllm-project/vllm", kind=Kind.REPO)
    ResourceLinkFactory(
        resource=repo, url="https://github.com/vllm-project/vllm/tree/main/docs", label="Docs"
    )
    post = ResourceFactory(title="Brrr", url="https://horace.io/brrr_intro.html")
    ResourceLinkFactory(resource=post, url="https://mirror.example.org/brrr", label="Mirror")
    book = ResourceFactory(title="Deep Learning", url=None, kind=Kind.BOOK)
    ResourceLinkFactory(resource=book, url="https://www.deeplearningbook.org/", label="Website")
    found = matched(
        "# Reading\n- [Attention](https://papers.nips.cc/paper/7181-attention.pdf)\n"
        "- [vLLM docs](https://github.com/vllm-project/vllm/tree/main/docs)\n"
        "- [Making Deep Learning Go Brrrr](https://mirror.example.org/brrr)\n"
        "- [Deep Learning](https://www.deeplearningbook.org/) - Goodfellow et al.\n"
    )
    assert list(found.values()) == [paper.pk, repo.pk, post.pk, book.pk]


@pytest.mark.parametrize(
    ("link", "label", "resource_url", "kind", "same"),
    [
        (REPO, "GitHub", "https://example.com/blog/flashattention", "article", False),
        (FA3, "paper", "https://example.com/blog/flashattention", "article", False),
        ("https://x.org/a.pdf", "pdf", "https://arxiv.org/abs/1706.03762", "paper", True),
        (f"{REPO}/blob/main/README.md", "Readme", REPO, "repo", True),
        (
            "https://web.archive.org/web/2020/https://x.org/post",
            "",
            "https://x.org/post",
            "site",
            True,
        ),
        ("https://github.com/o/code", "code", "https://arxiv.org/abs/1706.03762", "paper", False),
        ("https://x.org/anything", "Website", None, "book", True),
    ],
)
def test_is_same_work(link, label, resource_url, kind, same):
    assert is_same_work(link, label, resource_url, kind) is same


@pytest.mark.parametrize(
    ("current", "new", "better"),
    [
        ("arXiv 1706.03762", "Attention Is All You Need", True),  # a guess from the URL
        ("https://arxiv.org/abs/1706.03762", "Attention Is All You Need", True),  # the URL
        ("Paper", "Attention Is All You Need", True),  # a generic word
        ("[pdf]", "Attention Is All You Need", True),
        ("🔥🔥[Transformer] Attention Is All You Need(@Google)", "Attention Is All You Need", True),
        ("Attention Is All You Need", "The transformer paper", False),  # a fine title stays
        ("arXiv 1706.03762", "Paper", False),  # a generic word is no better
        ("arXiv 1706.03762", "⭐⭐ Attention", False),  # nor a decorated one
    ],
)
def test_which_titles_a_list_improves(current, new, better):
    assert improves_title(current, new, "https://arxiv.org/abs/1706.03762") is better


# B names its resources poorly (bare addresses, a lone "[Paper]" bullet) and holds a blog post
# mentioning the repository; A names all of them well.
LIST_B = f"""# Links dump

## Misc
- https://arxiv.org/abs/2205.14135
- [Paper](https://arxiv.org/abs/2307.08691)
- [FlashAttention explained](https://example.com/blog/flashattention) ([GitHub]({REPO}), [FlashAttention-3 paper]({FA3}))
"""
LIST_A = f"""# Attention kernels

## Papers
- [FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness](https://arxiv.org/abs/2205.14135) - Tri Dao et al.
- [FlashAttention-2: Faster Attention with Better Parallelism](https://arxiv.org/abs/2307.08691)
- [FlashAttention-3: Fast and Accurate Attention with Asynchrony](https://arxiv.org/pdf/2407.08608)

## Code
- [flash-attention]({REPO}) - The official implementation.
"""


def imported_score(text: str, slug: str) -> tuple[int, int]:
    """(links a reader sees, those that landed on a resource with a title a curator would keep,
    at its address or as a companion link of a resource the list itself names), measured in
    the database after the import: an entry reusing another work (a blog post holding the
    link) does not count."""
    apply_import(plan_import(text, guide_slug=slug, title=slug))
    seen = links_a_reader_sees(text)
    correct = set()
    for entry in Entry.objects.filter(section__guide__slug=slug).select_related("resource"):
        resource = entry.resource
        title = resource.title.strip()
        if not clean(title) or title.lower() in _GENERIC_TITLES:
            continue
        if resource.url and title == title_from_url(resource.url):
            continue
        if resource.url and normalize_url(resource.url) not in seen:
            continue  # the entry went to a resource this list never names
        correct.add(normalize_url(resource.url))
        correct |= {
            normalize_url(link.url)
            for link in resource.links.all()
            if is_companion_label(link.label)
        }
    return len(seen), len(seen & correct)


def test_a_list_scores_the_same_alone_and_after_a_list_that_named_its_resources_poorly():
    alone = imported_score(LIST_A, "a-alone")
    assert alone == (4, 4)
    Resource.objects.all().delete()
    imported_score(LIST_B, "b")
    assert Resource.objects.get(url="https://arxiv.org/abs/2205.14135").title == "arXiv 2205.14135"
    assert imported_score(LIST_A, "a-after-b") == alone
    titles = set(Resource.objects.values_list("title", flat=True))
    assert "FlashAttention-2: Faster Attention with Better Parallelism" in titles
    assert "FlashAttention explained" in titles  # the blog post keeps its own title


def test_a_title_a_curator_chose_is_not_renamed_by_a_later_list(curator):
    imported_score(LIST_B, "b")
    chosen = Resource.objects.get(url="https://arxiv.org/abs/2205.14135")
    chosen.title = "arXiv:2205.14135"
    chosen.save()
    LogEntry.objects.log_actions(
        user_id=curator.pk,
        queryset=[chosen],
        action_flag=CHANGE,
        change_message="Changed title: “arXiv 2205.14135” → “arXiv:2205.14135”.",
    )
    plan = plan_import(LIST_A, guide_slug="a", title="A")
    assert chosen.pk not in {fix.resource.pk for fix in title_fixes(plan).values()}
    apply_import(plan)
    chosen.refresh_from_db()
    assert chosen.title == "arXiv:2205.14135"
    assert chosen.suggested_title.startswith("FlashAttention: Fast and Memory-Efficient")
