"""URL normalization, repair, titles and kinds: the rules that make one resource one row."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from apps.catalog.importer.kinds import guess_kind
from apps.catalog.importer.urls import bare_host, normalize_url, repair_url, title_from_url
from apps.catalog.models import Kind


@pytest.mark.parametrize(
    ("variant", "canonical"),
    [
        (
            "HTTPS://Kipp.LY/transformer-inference-arithmetic/",
            "https://kipp.ly/transformer-inference-arithmetic",
        ),
        (
            "https://kipp.ly/transformer-inference-arithmetic?utm_source=x&utm_medium=y",
            "https://kipp.ly/transformer-inference-arithmetic",
        ),
        (
            "https://kipp.ly:443/transformer-inference-arithmetic",
            "https://kipp.ly/transformer-inference-arithmetic",
        ),
        (
            "https://www.pyspur.dev/blog/introduction_cuda_programming?s=08",
            "https://www.pyspur.dev/blog/introduction_cuda_programming",
        ),
        (
            "https://example.com/post/?fbclid=abc&gclid=1&ref=hn&source=tw",
            "https://example.com/post",
        ),
        (
            "https://www.youtube.com/watch?v=hfb_AIhDYnA&ab_channel=GPUMODE",
            "https://www.youtube.com/watch?v=hfb_AIhDYnA",
        ),
        (
            "https://encord.com/blog/vision-language-models-guide/#:~:text=Building%20VLMs",
            "https://encord.com/blog/vision-language-models-guide",
        ),
    ],
)
def test_url_variants_collapse_to_one_canonical_form(variant, canonical):
    assert normalize_url(variant) == canonical


def test_root_path_keeps_its_slash_and_http_stays_http():
    assert normalize_url("https://Tensara.org") == "https://tensara.org/"
    assert normalize_url("http://mlsys26.flashinfer.ai/") == "http://mlsys26.flashinfer.ai/"


def test_meaningful_query_and_fragments_are_kept():
    assert normalize_url("https://example.com/?s=attention") == "https://example.com/?s=attention"
    assert (
        normalize_url("https://www.youtube.com/playlist?list=PLx")
        == "https://www.youtube.com/playlist?list=PLx"
    )
    assert (
        normalize_url("https://sky-light.eecs.berkeley.edu/#/blog/pqcache")
        == "https://sky-light.eecs.berkeley.edu/#/blog/pqcache"
    )


def test_url_with_parentheses_survives_normalization():
    url = "https://huggingface.co/spaces/hesamation/primer-llm-embedding?section=bert_(bidirectional_encoder_representations_from_transformers)"
    assert normalize_url(url) == url


def test_url_with_whitespace_is_repaired_and_reported():
    url, issue = repair_url("https://simonwil lison.net/2024/Dec/31/llms-in-2024/")
    assert url == "https://simonwillison.net/2024/Dec/31/llms-in-2024/"
    assert "whitespace" in issue
    assert repair_url("https://simonwillison.net/") == ("https://simonwillison.net/", "")


@pytest.mark.parametrize(
    ("url", "title"),
    [
        ("https://github.com/srush/GPU-Puzzles", "srush/GPU-Puzzles"),
        ("https://github.com/lucidrains", "lucidrains on GitHub"),
        ("https://github.com/orgs/deepseek-ai/repositories?type=all", "deepseek-ai on GitHub"),
        (
            "https://github.com/josephmisiti/awesome-machine-learning/blob/master/books.md",
            "josephmisiti/awesome-machine-learning: books.md",
        ),
        ("https://github.com/tizkovatereza/AI/pulls", "tizkovatereza/AI pull requests"),
        (
            "https://github.com/sgl-project/sglang/pull/12162",
            "sgl-project/sglang pull request #12162",
        ),
        (
            "https://github.com/vllm-project/vllm-omni/releases/tag/v0.1",
            "vllm-project/vllm-omni v0.1",
        ),
        ("https://gitlab.com/group/project/-/tree/main/docs", "group/project: docs"),
        ("https://huggingface.co/sand-ai/MAGI-1", "sand-ai/MAGI-1"),
        ("https://huggingface.co/datasets/openai/gsm8k", "openai/gsm8k dataset"),
        ("https://huggingface.co/blog/open-r1/update-3", "Hugging Face blog: open-r1/update-3"),
        ("https://gist.github.com/karpathy/d4dee566867f8291f086", "Gist by karpathy"),
        ("https://tensara.org/", "tensara.org"),
        ("https://fkong.tech/posts/2023-04-23-triton-cuda/?s=08", "Triton cuda"),
        ("https://x.com/deepseek_ai/status/1895279409185390655", "@deepseek_ai on X"),
        ("https://www.youtube.com/watch?v=S-8yr_RibJ4", "YouTube video S-8yr_RibJ4"),
        ("https://gwern.net/index", "gwern.net"),
    ],
)
def test_bare_urls_get_readable_titles(url, title):
    assert title_from_url(url) == title


@pytest.mark.parametrize(
    ("url", "text", "kind"),
    [
        ("https://arxiv.org/pdf/2308.16369", "SARATHI", Kind.PAPER),
        ("https://example.org/paper.pdf", "", Kind.PAPER),
        ("https://www.youtube.com/watch?v=x", "", Kind.VIDEO),
        ("https://www.youtube.com/playlist?list=x", "", Kind.VIDEO),
        ("https://www.youtube.com/@GPUMODE/videos", "", Kind.VIDEO),
        ("https://github.com/vllm-project/vllm", "", Kind.REPO),
        ("https://github.com/lucidrains", "", Kind.SITE),
        ("https://x.com/zpysky1125/status/1983383094607347992", "", Kind.THREAD),
        ("https://docs.nvidia.com/nsight-compute/ProfilingGuide/index.html", "", Kind.DOCS),
        ("https://cme295.stanford.edu/syllabus/", "", Kind.COURSE),
        ("https://huggingface.co/learn/deep-rl-course/unit0/introduction", "", Kind.COURSE),
        ("https://docs.google.com/presentation/d/abc/edit", "", Kind.SLIDES),
        ("https://themlsurgeon.substack.com/p/the-memory-anatomy", "", Kind.ARTICLE),
        ("https://distill.pub/", "", Kind.SITE),
        (None, "Encoder-only and Decoder-only models", Kind.CONCEPT),
        (None, "llama.cpp GitHub repository", Kind.REPO),
    ],
)
def test_kind_is_guessed_from_url_and_text(url, text, kind):
    assert guess_kind(url, text) == kind


def test_section_context_decides_only_when_the_url_does_not():
    assert guess_kind("https://milkov.tech/assets/psd.pdf", "", context="Book to read") == Kind.BOOK
    assert guess_kind("https://www.youtube.com/watch?v=x", "", context="ML Book") == Kind.VIDEO


@pytest.mark.parametrize(
    "url",
    [
        "https://arxiv.org/abs/2205.14135",
        "https://arxiv.org/pdf/2205.14135",
        "http://arxiv.org/pdf/2205.14135.pdf",
        "https://arxiv.org/abs/2205.14135v3",
        "https://arxiv.org/pdf/2205.14135v2.pdf",
        "https://www.arxiv.org/abs/2205.14135?utm_source=x",
    ],
)
def test_arxiv_abstract_pdf_and_versions_are_one_paper(url):
    assert normalize_url(url) == "https://arxiv.org/abs/2205.14135"


def test_a_url_urllib_cannot_take_apart_is_kept_as_written():
    assert normalize_url(" http://[a]/x ") == "http://[a]/x"


@pytest.mark.parametrize(
    ("alias", "canonical"),
    [
        ("https://youtu.be/hfb_AIhDYnA", "https://www.youtube.com/watch?v=hfb_AIhDYnA"),
        (
            "https://youtu.be/hfb_AIhDYnA?si=x&t=42",
            "https://www.youtube.com/watch?v=hfb_AIhDYnA&t=42",
        ),
        (
            "https://hf.co/spaces/nanotron/ultrascale-playbook",
            "https://huggingface.co/spaces/nanotron/ultrascale-playbook",
        ),
        (
            "https://hf.com/x",
            "https://hf.com/x",
        ),  # only the alias itself, not a host that starts like it
    ],
)
def test_short_host_aliases_become_the_sites_own_url(alias, canonical):
    assert normalize_url(alias) == canonical


# --- The fast paths (an import reads thousands of links) --------------------------------------
_HOSTS = [
    "example.com",
    "Example.com",
    "arxiv.org",
    "export.arxiv.org",
    "youtu.be",
    "hf.co",
    "a-b.co.uk",
    "1.2.3.4",
    "example.com.",
    "example.com:443",
    "example.com:80",
    "www.example.com",
    "WWW.YouTube.com",
    "user@example.com",
    "bücher.example",
    "",
]


@given(
    scheme=st.sampled_from(["https", "http", "HTTPS", "ftp"]),
    host=st.sampled_from(_HOSTS),
    segments=st.lists(st.text(alphabet="aZ09-._~!$&'()*+,;=:@%/?#\"<> é", max_size=6), max_size=4),
    slash=st.booleans(),
    query=st.sampled_from(
        ["", "?", "?utm_source=x", "?s=08", "?ref=hn&utm_medium=y", "?a=1", "?feature=share&pp=1"]
    ),
    fragment=st.sampled_from(["", "#", "#:~:text=hi", "#top", "#/route"]),
)
@settings(max_examples=600, deadline=None)
def test_the_fast_paths_give_what_the_full_normalization_gives(
    scheme, host, segments, slash, query, fragment
):
    from apps.catalog.importer.urls import _normalize

    path = "".join(f"/{segment}" for segment in segments) + "/" * slash
    url = f"{scheme}://{host}{path}{query}{fragment}"
    try:
        slow = _normalize(url.strip())
    except ValueError:
        slow = url.strip()
    assert normalize_url(url) == slow


def test_the_fast_path_takes_plain_urls_and_leaves_the_rest_to_url_normalize():
    from apps.catalog.importer.urls import _ALREADY_NORMAL

    assert _ALREADY_NORMAL.fullmatch("https://kipp.ly/transformer-inference-arithmetic")
    assert _ALREADY_NORMAL.fullmatch("https://example.com/")
    for url in (
        "https://example.com",  # gains its "/"
        "https://example.com/post/",  # loses the trailing slash
        "https://arxiv.org/abs/2205.14135",  # arXiv's own rule
        "https://example.com/a?utm_source=x",  # a query to clean
        "https://example.com/a/../b",
    ):
        assert not _ALREADY_NORMAL.fullmatch(url)


@pytest.mark.parametrize(
    "host, bare",
    [
        ("www.ArXiv.org", "arxiv.org"),
        ("arxiv.org", "arxiv.org"),
        ("wwwx.org", "wwwx.org"),
        ("", ""),
    ],
)
def test_a_host_is_named_without_its_www(host, bare):
    assert bare_host(host) == bare
