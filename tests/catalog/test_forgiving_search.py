"""Search forgives: joined words, British and American spellings, typos ("did you mean"), and its
results narrow by kind and guide in the URL. On SQLite and on PostgreSQL alike."""

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
    html = client.get(reverse("catalog:search"), {"q": "atention"}).content.decode()
    assert 'Did you mean <a class="suggestion" href="/search/?q=attention">attention</a>?' in html
    # A word that is spelt right keeps its place; one with no neighbour gives no suggestion.
    assert (
        selectors.search_page(query="flash atention", page_number=1).suggestion == "flash attention"
    )
    assert selectors.search_page(query="zzqxv", page_number=1).suggestion == ""


def test_results_narrow_by_kind_and_guide_in_the_url(client, catalog):
    url = reverse("catalog:search")
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
    assert client.get(reverse("catalog:search"), {"q": query}).status_code == 200
