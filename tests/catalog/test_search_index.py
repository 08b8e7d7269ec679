"""Search reads indexes on PostgreSQL (catalog/0006): the stored, weighted full-text vector and the
squashed text's trigram index pick the candidates, a trigram index on the catalog's words answers
"did you mean", and the database keeps all three right on every write, bulk ones included."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.catalog import search, selectors
from apps.catalog.models import Entry, Resource
from tests.factories import EntryFactory, ResourceFactory, SectionFactory

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="the search indexes and EXPLAIN are PostgreSQL's"
    ),
]


def listed(**fields):
    return EntryFactory(resource=ResourceFactory(**fields)).resource


def plan_of(sql: str) -> str:
    """The plan PostgreSQL picks for a catalog of a real size, its statistics fresh, when a scan of
    every row is the last resort: rows a test inserts wait in the GIN indexes' pending lists
    (until a vacuum, which a test's transaction cannot run), which the planner prices high."""
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE catalog_resource, catalog_entry, catalog_searchword")
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("EXPLAIN " + sql)
        return "\n".join(row[0] for row in cursor.fetchall())


@pytest.fixture
def catalog():
    """Two resources to find among 3,000 others (at 300 the planner may read every published row
    through is_published's index instead: both are cheap on a table that small)."""
    section = SectionFactory()
    others = Resource.objects.bulk_create(
        Resource(title=f"Resource {n} on topic{n % 1000}", description=f"About thing{n}.")
        for n in range(3000)
    )
    Entry.objects.bulk_create(
        Entry(section=section, resource=resource, position=n)
        for n, resource in enumerate(others, start=1)
    )
    listed(title="Speculative decoding", author="Leviathan", description="Draft models.")
    listed(title="KV cache offloading", description="Move the cache to the host.")


@pytest.mark.parametrize("query", ["speculative decoding", "kvcache", "quantisation", "zzqxv"])
def test_a_search_reads_the_full_text_and_trigram_indexes(catalog, query):
    with CaptureQueriesContext(connection) as queries:
        list(selectors.search_resources(query))
    (executed,) = [q for q in queries.captured_queries if "search_document" in q["sql"]]
    plan = plan_of(executed["sql"])
    assert "Bitmap Index Scan on catalog_resource_search_document" in plan, plan
    assert "Bitmap Index Scan on catalog_resource_search_squashed" in plan, plan
    assert "Seq Scan on catalog_resource" not in plan, plan


def test_did_you_mean_reads_the_trigram_index_of_words(catalog):
    with CaptureQueriesContext(connection) as queries:
        assert search.suggestion(["speculativ", "decodng"]) == "speculative decoding"
    suggestions = [q["sql"] for q in queries.captured_queries if "catalog_searchword" in q["sql"]]
    assert len(suggestions) == 2
    plan = plan_of(suggestions[0])
    assert "Bitmap Index Scan on catalog_searchword_word_trgm" in plan, plan
    assert "Bitmap Index Scan on catalog_resource_search_words" in plan, plan


def test_the_stored_vector_and_words_follow_bulk_writes(catalog):
    resource = Resource.objects.get(title="KV cache offloading")
    Resource.objects.filter(pk=resource.pk).update(title="Paged attention", author="Kwon")
    assert [r.title for r in selectors.search_resources("kwon")] == ["Paged attention"]
    assert not selectors.search_resources("offloading host").filter(title="KV cache").exists()
    assert search.suggestion(["atention"]) == "attention"
    assert search.suggestion(["offloadng"]) == ""  # the old title's words are gone
    Resource.objects.filter(pk=resource.pk).delete()
    assert search.suggestion(["atention"]) == ""  # its words stay indexed, never suggested


def test_the_vector_weighs_title_above_author_above_description(catalog):
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT search_document::text FROM catalog_resource WHERE title = %s",
            ["Speculative decoding"],
        )
        (document,) = cursor.fetchone()
    assert "'specul':1A" in document and "'leviathan':3B" in document and ":4C" in document


def test_hidden_resources_are_never_suggested(catalog):
    listed(title="Quixotic kernels", is_published=False)
    EntryFactory(resource=ResourceFactory(title="Zymurgy notes"), is_published=False)
    assert search.suggestion(["quixotc"]) == ""
    assert search.suggestion(["zymurgi"]) == ""
    assert selectors.search_ids("quixotic zymurgy") == []
