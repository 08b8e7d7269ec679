"""The API's catalog reads (apps.api.api, `catalog` router): public like the site's pages,
published only (apps.catalog.selectors decides), paged, with fixed query counts."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.catalog.models import Entry, Guide, Kind, Resource, Section, Topic
from apps.core.content import memos_clear
from apps.paths.models import LearningPath, PathStep, StepResource
from tests.api.conftest import bearer
from tests.factories import ResourceLinkFactory

pytestmark = pytest.mark.django_db

V1 = "/api/v1"


def items(response):
    assert response.status_code == 200, response.content
    return response.json()["items"]


def test_a_visitor_reads_the_published_guides_with_their_counts(visitor, catalog):
    Guide.objects.create(slug="draft", title="Draft", is_published=False)
    guides = items(visitor.get(f"{V1}/guides"))
    assert [guide["slug"] for guide in guides] == ["alpha", "beta"]
    alpha = guides[0]
    assert alpha["uuid"] == str(catalog["guide"].uuid)
    assert (alpha["section_count"], alpha["resource_count"]) == (4, 7)  # 6 + the shared one
    assert alpha["page"] == "/guides/alpha/"
    assert visitor.get(f"{V1}/guides/alpha").json() == alpha


def test_a_draft_guide_is_not_found(visitor, catalog):
    Guide.objects.create(slug="draft", title="Draft", is_published=False)
    for url in (f"{V1}/guides/draft", f"{V1}/guides/draft/sections", f"{V1}/guides/nope"):
        response = visitor.get(url)
        assert response.status_code == 404 and response.json()["detail"].startswith("Not Found")


def test_a_guides_sections_come_in_reading_order_with_their_entries(visitor, catalog):
    alpha = catalog["guide"]
    hidden_branch = Section.objects.create(
        guide=alpha, title="Withdrawn", position=50, is_published=False
    )
    under_hidden = Section.objects.create(
        guide=alpha, parent=hidden_branch, title="Under it", position=51, depth=1
    )
    Entry.objects.create(section=under_hidden, resource=catalog["resources"][0], position=1)
    draft_entry = Entry.objects.get(section__guide=alpha, resource=catalog["resources"][1])
    draft_entry.is_published = False
    draft_entry.save()

    sections = items(visitor.get(f"{V1}/guides/alpha/sections"))
    assert [s["title"] for s in sections] == [
        "alpha part 0",
        "alpha part 0 tier 1",
        "alpha part 1",
        "alpha part 1 tier 1",
    ]
    top, child = sections[0], sections[1]
    assert top["parent"] is None and top["entries"] == []
    assert child["parent"] == top["uuid"] and child["depth"] == 1
    titles = [entry["resource"]["title"] for entry in child["entries"]]
    assert titles == ["alpha 0.0", "alpha 0.2", "Shared resource"]  # 0.1's entry is a draft
    # The tier a heading gives its entries, as the guide page shows it.
    assert {entry["tier"] for entry in child["entries"]} == {1}
    assert child["entries"][0]["resource"]["page"] == catalog["resources"][0].get_absolute_url()


def test_resources_list_every_visible_one_by_title_with_links_topics_and_guides(visitor, catalog):
    hidden = Resource.objects.create(title="Aaa unlisted", url="https://example.com/unlisted")
    ResourceLinkFactory(
        resource=catalog["shared"], url="https://example.com/shared.pdf", label="pdf"
    )
    Topic.objects.create(slug="draft-topic", title="Draft topic", is_published=False).resources.add(
        catalog["shared"]
    )
    response = visitor.get(f"{V1}/resources")
    body = response.json()
    assert body["count"] == 10 and hidden.title not in [r["title"] for r in body["items"]]
    assert [r["title"] for r in body["items"]][:2] == ["Shared resource", "alpha 0.0"]
    shared = body["items"][0]
    assert shared["links"] == [{"url": "https://example.com/shared.pdf", "label": "pdf"}]
    assert shared["topics"] == ["attention"]  # the draft topic is not shown
    assert shared["guides"] == ["alpha", "beta"]


def test_resources_page_through_the_list(visitor, catalog):
    first = visitor.get(f"{V1}/resources", {"page_size": 4}).json()
    second = visitor.get(f"{V1}/resources", {"page_size": 4, "page": 2}).json()
    last = visitor.get(f"{V1}/resources", {"page_size": 4, "page": 3}).json()
    assert first["count"] == second["count"] == 10
    seen = [r["uuid"] for r in first["items"] + second["items"] + last["items"]]
    assert len(seen) == len(set(seen)) == 10


def test_resources_search_as_the_site_does_and_filter_by_kind_guide_and_topic(visitor, catalog):
    catalog["resources"][2].kind = Kind.PAPER
    catalog["resources"][2].save()
    # Joined words found split, as the site's search reads them (apps.catalog.search).
    found = items(visitor.get(f"{V1}/resources", {"q": "sharedresource"}))
    assert [r["title"] for r in found] == ["Shared resource"]
    assert [r["title"] for r in items(visitor.get(f"{V1}/resources", {"kind": "paper"}))] == [
        "alpha 0.2"
    ]
    in_beta = items(visitor.get(f"{V1}/resources", {"guide": "beta"}))
    assert {r["title"] for r in in_beta} == {"Shared resource", "beta 0.0", "beta 0.1", "beta 0.2"}
    on_topic = items(visitor.get(f"{V1}/resources", {"topic": "attention"}))
    assert {r["title"] for r in on_topic} == {"Shared resource", "alpha 0.0"}
    both = items(visitor.get(f"{V1}/resources", {"q": "alpha", "guide": "beta"}))
    assert both == []


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"kind": "poem"}, "Unknown kind “poem”: one of paper,"),
        ({"guide": "draft"}, "No published guide has the slug “draft”."),
        ({"topic": "draft-topic"}, "No published topic has the slug “draft-topic”."),
        ({"page": "0"}, None),
        ({"page_size": "lots"}, None),
    ],
)
def test_bad_filters_are_refused_with_a_message(visitor, catalog, params, message):
    Guide.objects.create(slug="draft", title="Draft", is_published=False)
    Topic.objects.create(slug="draft-topic", title="Draft topic", is_published=False)
    response = visitor.get(f"{V1}/resources", params)
    assert response.status_code == 422
    detail = response.json()["detail"]
    if message:
        assert detail.startswith(message)
    else:  # ninja's own: which parameter, and why
        assert detail[0]["loc"][-1] in params


def test_a_resource_by_uuid_and_a_hidden_one_not_found(visitor, catalog):
    shared = catalog["shared"]
    body = visitor.get(f"{V1}/resources/{shared.uuid}").json()
    assert body["title"] == "Shared resource" and body["guides"] == ["alpha", "beta"]
    assert body["year"] is None
    Resource.objects.filter(pk=shared.pk).update(year=2017)
    assert visitor.get(f"{V1}/resources/{shared.uuid}").json()["year"] == 2017
    unpublished = catalog["resources"][0]
    unpublished.is_published = False
    unpublished.save()
    unlisted = Resource.objects.create(title="Unlisted", url="https://example.com/u")
    for key in (unpublished.uuid, unlisted.uuid, "not-a-uuid"):
        assert visitor.get(f"{V1}/resources/{key}").status_code == 404


def test_topics_count_their_visible_resources(visitor, catalog):
    Topic.objects.create(slug="draft-topic", title="Draft", is_published=False)
    catalog["resources"][0].is_published = False
    catalog["resources"][0].save()
    topics = items(visitor.get(f"{V1}/topics"))
    assert [(t["slug"], t["resource_count"]) for t in topics] == [("attention", 1)]
    assert visitor.get(f"{V1}/topics/attention").json()["resource_count"] == 1
    assert visitor.get(f"{V1}/topics/draft-topic").status_code == 404


def test_paths_list_their_steps_with_visible_resources_only(visitor, catalog, learning_path):
    LearningPath.objects.create(slug="draft-path", title="Draft path", is_published=False)
    catalog["resources"][0].is_published = False
    catalog["resources"][0].save()
    paths = items(visitor.get(f"{V1}/paths"))
    assert [p["slug"] for p in paths] == ["kernels"]
    assert paths[0]["guide"] == "alpha" and paths[0]["step_count"] == 2
    assert paths[0]["resource_count"] == 3  # resources[0] is hidden now
    path = visitor.get(f"{V1}/paths/kernels").json()
    assert [step["title"] for step in path["steps"]] == ["Foundations", "Going deeper"]
    assert [r["title"] for r in path["steps"][0]["resources"]] == ["Shared resource", "alpha 0.1"]
    assert path["steps"][0]["effort"] == "2 weeks"
    assert visitor.get(f"{V1}/paths/draft-path").status_code == 404


def test_a_token_on_a_public_read_is_checked_not_ignored(visitor, catalog, token):
    """A script whose token was revoked learns it on its first call, whatever it calls."""
    assert visitor.get(f"{V1}/guides", **bearer(token)).status_code == 200
    response = visitor.get(f"{V1}/guides", **bearer("syl_wrong"))
    assert response.status_code == 401 and "not valid" in response.json()["detail"]
    # Another scheme is not a token (a proxy's Basic auth in front of the site).
    assert visitor.get(f"{V1}/guides", HTTP_AUTHORIZATION="Basic YTpi").status_code == 200


# --- Queries ---------------------------------------------------------------------------------
def _queries(client, url, **extra):
    """The warm request's queries (the second: the first builds this worker's memo)."""
    memos_clear()
    for _ in range(2):
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url, **extra)
            assert response.status_code == 200, response.content
    return len(queries)


def _grow(catalog, n):
    """`n` more resources in alpha (listed, linked, on the topic) and `n` more steps' worth."""
    section = Section.objects.get(guide=catalog["guide"], title="alpha part 1 tier 1")
    path = LearningPath.objects.filter(slug="kernels").first()
    step = PathStep.objects.create(path=path, position=10, title="More") if path else None
    for i in range(n):
        resource = Resource.objects.create(
            title=f"alpha grown {i}", url=f"https://example.com/g/{i}"
        )
        Entry.objects.create(section=section, resource=resource, position=100 + i)
        ResourceLinkFactory(resource=resource)
        catalog["topic"].resources.add(resource)
        if step:
            StepResource.objects.create(step=step, resource=resource, position=i + 1)


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        # content token; the memo answers the rest
        ("/guides", 1),
        ("/guides/alpha/sections", 1),
        ("/paths", 1),
        ("/paths/kernels", 1),
        # content token, the count, the page, its links and topics
        ("/resources", 5),
        ("/resources?q=alpha", 5),
        ("/resources?topic=attention", 6),  # and the topic
        # content token, the topics with their counts
        ("/topics", 2),
    ],
)
def test_catalog_lists_run_a_fixed_number_of_queries(
    visitor, catalog, learning_path, url, expected
):
    before = _queries(visitor, V1 + url)
    _grow(catalog, 30)
    after = _queries(visitor, V1 + url)
    assert before == after == expected


def test_with_a_token_a_list_costs_one_query_more_the_token(visitor, catalog, token):
    _queries(visitor, f"{V1}/guides", **bearer(token))  # the token's last use noted
    assert _queries(visitor, f"{V1}/guides", **bearer(token)) == 2
