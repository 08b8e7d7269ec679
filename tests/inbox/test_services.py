"""Accepting and dismissing inbox items (apps/inbox/services.py): an accepted item is a draft
entry no learner sees; accepting twice, or an item catalogued meanwhile, changes nothing."""

import pytest
from django.urls import reverse

from apps.catalog.models import Entry, Kind, Resource
from apps.catalog.selectors import visible_resources
from apps.inbox.models import Feed, FeedKind, InboxItem, ItemState
from apps.inbox.services import AcceptError, items_accept, items_dismiss, items_reopen
from tests.factories import GuideFactory, NumberedEntryFactory, NumberedSectionFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def feed():
    return Feed.objects.create(
        url="https://blog.example/feed.xml", kind=FeedKind.BLOG, title="The Example Blog"
    )


@pytest.fixture
def section():
    section = NumberedSectionFactory(guide=GuideFactory(title="Inference"), title="Serving")
    NumberedEntryFactory(section=section)  # a published entry already there: position 1
    return section


def item(feed, n=1, **fields):
    fields = {"suggested_section": None, **fields}
    return InboxItem.objects.create(
        url=f"https://blog.example/post-{n}",
        title=f"Post {n}",
        summary=f"What post {n} says.",
        feed=feed,
        **fields,
    )


def test_accepting_makes_a_draft_entry_at_the_end_of_the_section_that_no_learner_sees(
    feed, section, learner_client
):
    offered = item(feed, suggested_section=section)
    result = items_accept(item_ids=[offered.pk])

    [resource] = result.resources
    assert (resource.url, resource.title, resource.kind, resource.author, resource.description) == (
        "https://blog.example/post-1",
        "Post 1",
        Kind.ARTICLE,
        "The Example Blog",
        "What post 1 says.",
    )
    entry = Entry.objects.get(resource=resource)
    assert (entry.section, entry.position, entry.is_published) == (section, 2, False)
    offered.refresh_from_db()
    assert (offered.state, offered.resource) == (ItemState.ACCEPTED, resource)

    # invisible to learners everywhere: no page, no search hit, not on the guide
    assert not visible_resources().filter(pk=resource.pk).exists()
    page = learner_client.get(reverse("learning:resource-detail", args=[resource.uuid]))
    assert page.status_code == 404
    search = learner_client.get(reverse("learning:search"), {"q": "Post"})
    assert str(resource.uuid) not in search.content.decode()
    guide = learner_client.get(reverse("learning:guide-detail", args=[section.guide.slug]))
    assert str(resource.uuid) not in guide.content.decode()
    assert str(section.entries.get(position=1).resource.uuid) in guide.content.decode()

    # until a curator publishes the entry
    Entry.objects.filter(pk=entry.pk).update(is_published=True)
    assert visible_resources().filter(pk=resource.pk).exists()


def test_a_chosen_section_overrides_the_suggestion(feed, section):
    other = NumberedSectionFactory(title="Elsewhere")
    offered = item(feed, suggested_section=other)
    items_accept(item_ids=[offered.pk], section=section)
    assert Entry.objects.get(resource__url=offered.url).section == section


def test_accepting_twice_changes_nothing(feed, section):
    offered = item(feed, suggested_section=section)
    items_accept(item_ids=[offered.pk])
    again = items_accept(item_ids=[offered.pk], section=NumberedSectionFactory())
    assert (again.items, again.resources, again.entries, again.skipped) == ([], [], [], 1)
    assert Resource.objects.filter(url=offered.url).count() == 1
    assert Entry.objects.filter(resource__url=offered.url).count() == 1


def test_an_item_catalogued_meanwhile_is_linked_and_nothing_added(feed, section):
    offered = item(feed, suggested_section=section)
    existing = NumberedEntryFactory(resource__url="https://Blog.example/post-1/").resource
    entries = Entry.objects.count()
    result = items_accept(item_ids=[offered.pk])
    assert (result.linked, result.resources, result.entries) == ([offered], [], [])
    assert Entry.objects.count() == entries
    offered.refresh_from_db()
    assert (offered.state, offered.resource) == (ItemState.ACCEPTED, existing)


def test_an_item_without_a_section_refuses_the_whole_accept(feed, section):
    placed = item(feed, 1, suggested_section=section)
    homeless = item(feed, 2)
    with pytest.raises(AcceptError, match="1 of the selected items has no suggested section"):
        items_accept(item_ids=[placed.pk, homeless.pk])
    assert not Resource.objects.filter(url__startswith="https://blog.example/").exists()
    assert set(InboxItem.objects.values_list("state", flat=True)) == {ItemState.NEW}
    # with a section chosen, both go there
    assert len(items_accept(item_ids=[placed.pk, homeless.pk], section=section).entries) == 2


def test_a_release_becomes_a_repository_resource_without_the_feeds_title_as_author(section):
    github = Feed.objects.create(
        url="https://github.com/o/r/releases.atom",
        kind=FeedKind.GITHUB,
        title="Release notes from r",
    )
    offered = InboxItem.objects.create(
        url="https://github.com/o/r/releases/tag/v1", title="v1", feed=github
    )
    [resource] = items_accept(item_ids=[offered.pk], section=section).resources
    assert (resource.kind, resource.author) == (Kind.REPO, "")


def test_dismissing_leaves_accepted_items_alone_and_can_be_undone(feed, section):
    accepted = item(feed, 1, suggested_section=section)
    items_accept(item_ids=[accepted.pk])
    new = item(feed, 2)
    assert items_dismiss(item_ids=[accepted.pk, new.pk]) == [new]
    states = dict(InboxItem.objects.values_list("pk", "state"))
    assert states == {accepted.pk: ItemState.ACCEPTED, new.pk: ItemState.DISMISSED}
    assert items_reopen(item_ids=[accepted.pk, new.pk]) == [new]
    new.refresh_from_db()
    assert new.state == ItemState.NEW
