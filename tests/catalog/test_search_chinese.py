"""Search reads Chinese: a run of characters (written without spaces) is found by its pairs in
titles, authors and descriptions; a Chinese term the catalog has in English gets a "did you
mean"; a query that finds nothing gets a hint. On SQLite and on PostgreSQL alike."""

import pytest
from django.urls import reverse

from apps.catalog import search, selectors
from apps.progress.models import Status
from apps.progress.selectors import notebook
from apps.progress.services import progress_set_status
from tests.factories import EntryFactory, ResourceFactory, SectionFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def bilingual_catalog():
    section = SectionFactory(guide__slug="field-notes")
    made = {}
    for title, description in [
        ("注意力机制的原理", "从零讲解 Transformer 的注意力。"),
        ("AI infra field notes", "中文 | English: notes on serving, in both languages."),
        ("GPU 显存管理", "How memory is managed on the GPU."),
        ("KV cache quantization", "Smaller caches."),
        ("Attention is all you need", "The transformer paper."),
    ]:
        made[title] = ResourceFactory(title=title, description=description)
        EntryFactory(section=section, resource=made[title])
    return made


def ranked(query):
    return [resource.title for resource in selectors.search_resources(query)]


def test_a_run_of_chinese_is_read_as_its_pairs():
    assert search.cjk_words("注意力机制") == ["注意", "意力", "力机", "机制"]
    assert search.cjk_words("显存") == ["显存"]
    assert search.cjk_words("GPU显存管理") == ["GPU", "显存", "存管", "管理"]
    assert search.cjk_words("attention") == ["attention"]
    assert search.query_words("kv-cache 注意力", 8) == ["kv", "cache", "注意", "意力"]


def test_chinese_words_find_chinese_titles_and_descriptions(bilingual_catalog):
    assert ranked("注意力机制") == ["注意力机制的原理"]
    assert ranked("中文") == ["AI infra field notes"]  # in the description
    assert ranked("显存") == ["GPU 显存管理"]
    assert ranked("GPU显存") == ["GPU 显存管理"]  # no space between the scripts
    assert ranked("注意力 transformer")[0] == "注意力机制的原理"  # both scripts in one query


def test_chinese_words_not_written_together_find_the_most_pairs_first(client, bilingual_catalog):
    # "注意力原理": no resource has every pair ("力原" is nowhere); the one with most comes first.
    assert ranked("注意力原理")[0] == "注意力机制的原理"
    page = client.get(reverse("learning:search"), {"q": "注意力原理"}).content.decode()
    assert "注意力机制的原理" in page


def test_a_chinese_term_the_catalog_has_in_english_gets_did_you_mean(client, bilingual_catalog):
    page = client.get(reverse("learning:search"), {"q": "量化"}).content.decode()
    assert "0 results" in page
    assert 'class="suggestion"' in page and ">quantization</a>" in page


def test_a_chinese_query_that_finds_nothing_gets_a_hint(client, bilingual_catalog):
    page = client.get(reverse("learning:search"), {"q": "机器人"}).content.decode()
    assert "0 results" in page and "try English words" in page


def test_a_learners_chinese_note_is_found_by_its_words(learner):
    resource = ResourceFactory(title="Attention is all you need")
    EntryFactory(resource=resource)
    progress_set_status(
        user=learner, resource=resource, status=Status.DONE, note="重读多头注意力部分"
    )
    assert [row.resource for row in notebook(user=learner, query="多头注意力").notes] == [resource]
    assert notebook(user=learner, query="卷积网络").notes == []


def test_a_chinese_query_is_one_query_and_linear_in_its_length(
    bilingual_catalog, django_assert_num_queries
):
    long_run = "注" * 5_000
    assert len(search.cjk_words(long_run)) == 4_999  # one pass, no backtracking
    assert len(selectors.search_words(long_run)) == selectors.SEARCH_MAX_WORDS
    ranked("warm")  # the visible section tree, read once per content version
    with django_assert_num_queries(2):  # the content token (once per request), the search
        assert ranked("注意力机制") == ["注意力机制的原理"]
