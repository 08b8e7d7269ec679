"""The catalog's Atom feeds (`catalog:`): the whole catalog, a guide, a topic; and the pages'
<head> links that let feed readers find them."""

import xml.etree.ElementTree as ET
from datetime import datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from apps.catalog.models import Entry, Guide, Resource, Section
from tests.conftest import page_queries
from tests.progress.conftest import build_guide, catalog  # noqa: F401 - the fixture, by name

ATOM = "{http://www.w3.org/2005/Atom}"
CATALOG_FEED = reverse("catalog:feed")


@pytest.fixture
def feeds_catalog(catalog):  # noqa: F811 - the fixture, by name
    """The progress tests' catalog, its entries added a day apart (alpha's newest)."""
    now = timezone.now()
    for age, entry in enumerate(Entry.objects.order_by("section__guide__position", "-id")):
        Entry.objects.filter(pk=entry.pk).update(added_at=now - timedelta(days=age + 1))
    return catalog


def atom(client, url) -> ET.Element:
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/atom+xml")
    root = ET.fromstring(response.content)  # well-formed XML, or this raises
    assert root.tag == f"{ATOM}feed"
    return root


def entries_of(root) -> list[dict]:
    return [
        {
            "title": item.findtext(f"{ATOM}title"),
            "id": item.findtext(f"{ATOM}id"),
            "link": item.find(f"{ATOM}link").get("href"),
            "updated": item.findtext(f"{ATOM}updated"),
            "summary": item.findtext(f"{ATOM}summary"),
        }
        for item in root.findall(f"{ATOM}entry")
    ]


def test_the_catalog_feed_is_atom_with_absolute_links_stable_ids_and_dates(client, feeds_catalog):
    root = atom(client, CATALOG_FEED)
    for name in ("title", "id", "updated"):
        assert root.findtext(f"{ATOM}{name}")
    self_link = root.find(f"{ATOM}link[@rel='self']")
    assert self_link is not None and self_link.get("href") == f"http://testserver{CATALOG_FEED}"
    items = entries_of(root)
    assert len(items) == Entry.objects.count()
    newest = Entry.objects.order_by("-added_at").select_related("resource").first()
    assert items[0]["title"] == newest.resource.title
    assert items[0]["id"] == f"urn:uuid:{newest.uuid}"
    assert items[0]["link"] == f"http://testserver{newest.resource.get_absolute_url()}"
    assert datetime.fromisoformat(items[0]["updated"]) == newest.added_at
    assert "Added to Alpha › alpha part 1 › alpha part 1 tier 1." in items[0]["summary"]
    # The same ids on the next read: a feed reader does not see an item twice.
    assert [i["id"] for i in entries_of(atom(client, CATALOG_FEED))] == [i["id"] for i in items]


def test_feeds_list_only_what_learners_may_see(client, feeds_catalog):
    guide = feeds_catalog["guide"]
    section = guide.sections.filter(parent__isnull=False).first()

    def add(title, section=section, **fields):
        resource = Resource.objects.create(title=title, url=f"https://example.com/{title}")
        position = 90 + Entry.objects.count()
        return Entry.objects.create(section=section, resource=resource, position=position, **fields)

    add("draft-entry", is_published=False)
    hidden = Section.objects.create(guide=guide, title="Hidden", position=80, is_published=False)
    add("under-hidden", Section.objects.create(guide=guide, parent=hidden, title="In", position=81))
    draft_resource = add("draft-resource", section=guide.sections.last()).resource
    Resource.objects.filter(pk=draft_resource.pk).update(is_published=False)
    draft_guide, _ = build_guide("draftguide")
    Guide.objects.filter(pk=draft_guide.pk).update(is_published=False)
    for url in (CATALOG_FEED, reverse("catalog:guide-feed", args=[guide.slug])):
        titles = {item["title"] for item in entries_of(atom(client, url))}
        assert not titles & {"draft-entry", "under-hidden", "draft-resource", "draftguide 0.0"}
    assert client.get(reverse("catalog:guide-feed", args=["draftguide"])).status_code == 404


def test_a_guide_feed_lists_that_guide_and_a_topic_feed_that_topic(client, feeds_catalog):
    guide, topic = feeds_catalog["other_guide"], feeds_catalog["topic"]
    guide_items = entries_of(atom(client, reverse("catalog:guide-feed", args=[guide.slug])))
    assert {i["title"] for i in guide_items} == {
        e.resource.title for e in Entry.objects.filter(section__guide=guide)
    }
    topic_items = entries_of(atom(client, reverse("catalog:topic-feed", args=[topic.slug])))
    # The shared resource is in three sections of two guides: an item for each of its entries.
    shared = feeds_catalog["shared"]
    assert sorted(i["title"] for i in topic_items) == sorted(
        [shared.title] * shared.entries.count() + [feeds_catalog["resources"][0].title]
    )
    assert client.get(reverse("catalog:topic-feed", args=["no-such-topic"])).status_code == 404


def test_pages_link_their_feeds_in_the_head(client, learner, feeds_catalog):
    guide, topic = feeds_catalog["guide"], feeds_catalog["topic"]
    catalog_link = (
        f'<link rel="alternate" type="application/atom+xml" title="New in the catalog" '
        f'href="{CATALOG_FEED}">'
    )

    def head(url):
        html = client.get(url).content.decode()
        return html[: html.index("</head>")]

    guide_head = head(guide.get_absolute_url())
    assert (
        f'<link rel="alternate" type="application/atom+xml" title="New in Alpha" '
        f'href="{reverse("catalog:guide-feed", args=[guide.slug])}">' in guide_head
    )
    topic_head = head(topic.get_absolute_url())
    assert (
        f'<link rel="alternate" type="application/atom+xml" title="New on Attention" '
        f'href="{reverse("catalog:topic-feed", args=[topic.slug])}">' in topic_head
    )
    for url in (reverse("learning:home"), reverse("learning:guide-list")):
        assert catalog_link in head(url)
    assert catalog_link in guide_head and catalog_link in topic_head
    client.force_login(learner)  # a learner's home is their dashboard
    assert catalog_link in head(reverse("learning:home"))


def test_feed_query_counts_do_not_grow_with_the_catalog(client, feeds_catalog):
    guide, topic = feeds_catalog["guide"], feeds_catalog["topic"]
    urls = [
        CATALOG_FEED,
        reverse("catalog:guide-feed", args=[guide.slug]),
        reverse("catalog:topic-feed", args=[topic.slug]),
    ]
    small = [page_queries(client, url) for url in urls]
    for n in range(3):
        _, resources = build_guide(f"more{n}", n_sections=3, per_section=10)
        topic.resources.add(*resources)
    section = guide.sections.filter(parent__isnull=False).first()
    for i in range(20):
        resource = Resource.objects.create(title=f"More {i}", url=f"https://example.com/m/{i}")
        Entry.objects.create(section=section, resource=resource, position=200 + i)
    # Warm: the content tokens alone; the rest is read from the memo.
    assert [page_queries(client, url) for url in urls] == small
    assert all(warm == 1 for _, warm in small)
