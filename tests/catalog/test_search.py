"""Search (apps.catalog.search, and the search page) forgives: joined words, British and American
spellings, typos ("did you mean"), and its results narrow by kind and guide in the URL. On
SQLite and on PostgreSQL alike."""

import pytest
from django.urls import reverse

from apps.catalog import search, selectors
from apps.catalog.models import Kind
from tests.factories import EntryFactory, ResourceFactory, SectionFactory

pytestmark = pytest.mark.django_db


def titles(queryset):
    return sorted(resource.title for resource in queryset)


@pytest.fixture
def catalog():
    papers, videos = SectionFactory(guide__slug="papers"), SectionFactory(guide__slug="videos")
    made = {}
    for title, kind, section in [
        ("FlashAttention-2: faster attention", Kind.PAPER, papers),
        ("Flash attention explained", Kind.VIDEO, videos),
        ("KV cache quantization", Kind.PAPER, papers),
        ("Quantisation in practice", Kind.VIDEO, videos),
        ("Attention is all you need", Kind.PAPER, papers),
        ("Tokenizers from scratch", Kind.VIDEO, videos),
    ]:
        made[title] = ResourceFactory(title=title, kind=kind)
        EntryFactory(section=section, resource=made[title])
    return made


def test_hyphens_and_spaces_alike(catalog):
    flash = ["Flash attention explained", "FlashAttention-2: faster attention"]
    assert titles(selectors.search_resources("flash-attention")) == flash
    assert titles(selectors.search_resources("flash attention")) == flash
    assert titles(selectors.search_resources("kv-cache")) == ["KV cache quantization"]
    assert titles(selectors.search_resources("kv_cache")) == ["KV cache quantization"]


def test_british_and_american_spellings_find_each_other(catalog):
    both = ["KV cache quantization", "Quantisation in practice"]
    assert titles(selectors.search_resources("quantisation")) == both
    assert titles(selectors.search_resources("quantization")) == both
    assert titles(selectors.search_resources("tokenisers")) == ["Tokenizers from scratch"]


def test_spellings_keep_short_words_and_run_both_ways():
    assert search.spellings("Quantisation") == ("quantisation", "quantization")
    assert search.spellings("behavior") == ("behavior", "behaviour")
    assert search.spellings("rise") == ("rise",) and search.spellings("four") == ("four",)
    assert (
        search.split_joined("flash-attention -training fp8/int8 -x")
        == "flash attention -training fp8 int8 -x"
    )


def test_a_typo_gets_did_you_mean_that_finds_something(client, catalog):
    page = selectors.search_page(query="atention", page_number=1)
    assert list(page.object_list) == [] and page.suggestion == "attention"
    html = client.get(reverse("learning:search"), {"q": "atention"}).content.decode()
    assert 'Did you mean <a class="suggestion" href="/search/?q=attention">attention</a>?' in html
    # A word that is spelt right keeps its place; one with no neighbour gives no suggestion.
    assert (
        selectors.search_page(query="flash atention", page_number=1).suggestion == "flash attention"
    )
    assert selectors.search_page(query="zzqxv", page_number=1).suggestion == ""


def test_results_narrow_by_kind_and_guide_in_the_url(client, catalog):
    url = reverse("learning:search")
    html = client.get(url, {"q": "attention", "kind": "video"}).content.decode()
    assert "Flash attention explained" in html and "FlashAttention-2" not in html
    assert '<option value="video" selected>' in html
    html = client.get(url, {"q": "attention", "guide": "papers"}).content.decode()
    assert (
        "FlashAttention-2" in html
        and "Attention is all you need" in html
        and "Flash attention explained" not in html
    )
    assert '<option value="papers" selected>' in html
    html = client.get(url, {"q": "attention", "guide": "papers", "kind": "video"}).content.decode()
    assert "0 results" in html
    # A bad filter is named and ignored; the search still runs.
    html = client.get(url, {"q": "attention", "kind": "nonsense"}).content.decode()
    assert "Ignored the kind filter “nonsense”" in html and "3 results" in html
    # htmx gets the fragment, its page links keeping the filters.
    for n in range(25):
        EntryFactory(
            section=catalog["Attention is all you need"].entries.get().section,
            resource=ResourceFactory(title=f"Attention {n}", kind=Kind.PAPER),
        )
    fragment = client.get(
        url, {"q": "attention", "kind": "paper"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "<html" not in fragment and "/search/?q=attention&amp;kind=paper&amp;page=2" in fragment


@pytest.mark.parametrize("query", ["-", "a-", "-a-b-", "--", "'-'", "or", "x" * 200, "é-ß"])
def test_odd_hyphenated_input_is_harmless(client, catalog, query):
    assert client.get(reverse("learning:search"), {"q": query}).status_code == 200


# --- What learners type (issue 29) -----------------------------------------------------------
@pytest.fixture
def learners_catalog():
    section = SectionFactory(guide__slug="inference")
    for title, author, url, description in [
        ("MoE explained", "", "https://example.com/moe", "Mixture of experts."),
        ("LLM routing", "", "https://example.com/routing", "Send each request to a model."),
        ("MoE routing at scale", "", "https://example.com/both", "At scale."),
        ("Triton Flash Attention kernel walkthrough", "", "", "A kernel."),
        ("Attention optimization", "", "", "Flash attention, paged attention."),
        ("FlashAttention", "Tri Dao", "https://arxiv.org/abs/2205.14135", "Fast exact attention."),
        ("Flash Attention 3", "", "https://tridao.me/blog/2024/flash3", ""),
        ("KV cache offloading", "", "", ""),
        ("Paged attention", "", "", "Blocks of the KV-cache."),
        ("Making deep learning go brrrr", "", "https://horace.io/brrr_intro.html", ""),
        (
            "Machine learning engineering",
            "Stas Bekman",
            "https://github.com/stas00/ml-engineering",
            "",
        ),
    ]:
        EntryFactory(
            section=section,
            resource=ResourceFactory(
                title=title, author=author, url=url or None, description=description
            ),
        )


def ranked(query):
    return [resource.title for resource in selectors.search_resources(query)]


def test_no_resource_with_every_word_falls_back_to_any_word_most_words_first(
    client, learners_catalog
):
    # Both words: only the resource that has both.
    assert ranked("moe routing") == ["MoE routing at scale"]
    # No resource has all three: those with any, the most words first, then title matches.
    assert ranked("moe experts routing") == [
        "MoE routing at scale",  # moe, routing: both in the title
        "MoE explained",  # moe, experts
        "LLM routing",  # routing
    ]
    page = client.get(reverse("learning:search"), {"q": "moe experts routing"}).content.decode()
    assert "No result has every word: these have some of them" in page
    assert "3 results" in page
    assert (
        "No result has every word"
        not in client.get(reverse("learning:search"), {"q": "moe routing"}).content.decode()
    )


def test_title_matches_rank_first(learners_catalog):
    found = ranked("flash attention")
    assert found[:2] == ["FlashAttention", "Flash Attention 3"]  # the whole title, then its start
    assert found.index("Attention optimization") > found.index(
        "Triton Flash Attention kernel walkthrough"
    )
    assert found[-1] == "Attention optimization"  # only in the description


def test_joined_and_split_forms_find_each_other(learners_catalog):
    assert ranked("FlashAttention-3")[0] == "Flash Attention 3"
    assert (
        set(ranked("kvcache"))
        == set(ranked("kv cache"))
        == {
            "KV cache offloading",
            "Paged attention",
        }
    )
    assert "FlashAttention" in ranked("flash attention")
    assert set(ranked("flashattention")) >= {
        "Flash Attention 3",
        "Triton Flash Attention kernel walkthrough",
    }


def test_authors_and_hosts_are_searched(learners_catalog):
    assert ranked("horace") == ["Making deep learning go brrrr"]
    assert ranked("Stas Bekman") == ["Machine learning engineering"]
    assert ranked("tridao.me") == ["Flash Attention 3"]


def test_a_query_in_another_script_that_finds_nothing_gets_a_hint(client, learners_catalog):
    page = client.get(reverse("learning:search"), {"q": "机器人"}).content.decode()  # "robot"
    assert "0 results" in page and "Most of the catalog is in English: try English words" in page
    page = client.get(reverse("learning:search"), {"q": "zzqxv"}).content.decode()
    assert "catalog is in English" not in page and "Nothing matches" in page
    assert search.in_another_script("注意力") and not search.in_another_script("quantización")


def test_search_text_matching_is_linear_in_the_query():
    # A long run of one letter against a long text: a gap never holds a letter, so no backtracking.
    text = "a" * 5_000
    assert not search.text_has_words(text, ["a" * 199 + "b"])
    assert search.text_has_words(
        "Flash-Attention 3 and the KV cache", ["flashattention3", "kvcache"]
    )
    assert search.text_has_words("Optimize the kernel", ["optimise"])


def test_the_longest_query_runs_as_one_query_on_both_databases(
    learners_catalog, django_assert_num_queries
):
    """Words are capped (each costs a few LIKEs and a regex per row); a query with the most words,
    each with two spellings, stays within SQLite's parser stack and is one SQL statement."""
    query = "moe routing optimise colour behaviour analyse centre catalogue modelling kvcache"
    assert len(selectors.search_words(query)) == selectors.SEARCH_MAX_WORDS == 8
    # Warm the visible section tree, read once per content version (a running site has it).
    ranked("warm")
    # The content token (a request's middleware reads it once), and the search.
    with django_assert_num_queries(2):
        found = ranked(query)
    assert found[0] == "MoE routing at scale"  # the most words: moe and routing
