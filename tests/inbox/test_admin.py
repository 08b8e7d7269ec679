"""The curator inbox in the admin (apps/inbox/admin.py): the list with source, date and suggested
section (text escaped), accept as draft entries and dismiss in bulk, feeds added by hand and
switched off, and everyone who must be refused."""

from types import SimpleNamespace

import pytest
from django.contrib.admin.models import ADDITION, LogEntry
from django.contrib.auth.models import Permission
from django.contrib.messages import get_messages
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from apps.catalog.models import Entry, Resource
from apps.inbox.models import ExaminedResource, Feed, FeedKind, InboxItem, ItemState
from tests.factories import (
    GuideFactory,
    NumberedSectionFactory,
    ResourceFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

ITEMS = reverse("admin:inbox_inboxitem_changelist")
FEEDS = reverse("admin:inbox_feed_changelist")
EXAMINED = reverse("admin:inbox_examinedresource_changelist")


def messages_of(response):
    """The messages the response added (those of earlier requests are still stored: the
    redirects are not followed)."""
    return [str(m) for m in get_messages(response.wsgi_request)][-1:]


@pytest.fixture
def section():
    return NumberedSectionFactory(guide=GuideFactory(title="Inference"), title="Serving")


@pytest.fixture
def feed():
    return Feed.objects.create(
        url="https://blog.example/feed.xml", kind=FeedKind.BLOG, title="The Example Blog"
    )


def make_items(feed, section, count, start=0):
    return [
        InboxItem.objects.create(
            url=f"https://blog.example/post-{n}",
            title=f"Post number {n}",
            date=timezone.now(),
            feed=feed,
            suggested_section=section,
        )
        for n in range(start, start + count)
    ]


# --- the list ------------------------------------------------------------------------------------
def test_curators_find_the_inbox_on_the_admin_index(curator_client):
    html = curator_client.get(reverse("admin:index")).content.decode()
    for url in (ITEMS, FEEDS, EXAMINED):
        assert f'href="{url}"' in html


def test_the_inbox_lists_new_items_with_source_date_and_suggested_section(
    curator_client, feed, section
):
    new, dismissed = make_items(feed, section, 2)
    InboxItem.objects.filter(pk=dismissed.pk).update(state=ItemState.DISMISSED)
    html = curator_client.get(ITEMS).content.decode()
    assert "Post number 0" in html and "Post number 1" not in html  # new ones unless asked
    assert "The Example Blog" in html
    assert "Inference › 1 Serving" in html or "Inference › Serving" in html
    assert f'href="{new.url}"' in html and 'rel="noopener noreferrer"' in html
    every = curator_client.get(ITEMS, {"state": "all"}).content.decode()
    assert "Post number 0" in every and "Post number 1" in every
    only_dismissed = curator_client.get(ITEMS, {"state": "dismissed"}).content.decode()
    assert "Post number 0" not in only_dismissed and "Post number 1" in only_dismissed
    assert curator_client.get(ITEMS, {"state": "nonsense"}).status_code == 200


def test_a_new_item_catalogued_since_it_was_offered_says_so(curator_client, feed, section):
    first, second = make_items(feed, section, 2)
    ResourceFactory(url="https://Blog.example/post-1/")
    html = curator_client.get(ITEMS).content.decode()
    assert html.count("in the catalog now") == 1
    row = html[html.index("Post number 1") :]
    assert row.index("in the catalog now") < row.index("Post number 0")


def test_script_in_a_title_or_summary_is_escaped(curator_client, feed, section):
    item = InboxItem.objects.create(
        url="https://blog.example/x",
        title="<script>alert('title')</script>Release",
        summary="<img src=x onerror=alert(1)>",
        feed=feed,
        date=timezone.now(),
    )
    Feed.objects.filter(pk=feed.pk).update(title="<script>alert('feed')</script>")
    for url in (ITEMS, reverse("admin:inbox_inboxitem_change", args=[item.pk]), FEEDS):
        html = curator_client.get(url).content.decode()
        assert "<script>alert(" not in html and "<img src=x" not in html, url
    html = curator_client.get(ITEMS).content.decode()
    assert "&lt;script&gt;alert(&#x27;title&#x27;)&lt;/script&gt;Release" in html


def test_the_list_runs_the_same_queries_whatever_its_length(curator_client, feed, section):
    make_items(feed, section, 3)
    with CaptureQueriesContext(connection) as few:
        assert curator_client.get(ITEMS).status_code == 200
    other = Feed.objects.create(url="https://other.example/feed", title="Other")
    make_items(other, NumberedSectionFactory(), 30, start=3)
    with CaptureQueriesContext(connection) as many:
        assert curator_client.get(ITEMS).status_code == 200
    assert len(many) == len(few)


def test_the_feed_and_examined_lists_run_the_same_queries_whatever_their_length(curator_client):
    def add(n):
        resource = ResourceFactory()
        Feed.objects.create(url=f"https://b.example/{n}", resource=resource)
        ExaminedResource.objects.create(resource=resource, outcome="Feed found.")

    add(0)
    counts = []
    for extra in (0, 20):
        for n in range(extra):
            add(n + 1)
        with CaptureQueriesContext(connection) as feeds:
            assert curator_client.get(FEEDS).status_code == 200
        with CaptureQueriesContext(connection) as examined:
            assert curator_client.get(EXAMINED).status_code == 200
        counts.append((len(feeds), len(examined)))
    assert counts[0] == counts[1]


# --- accept and dismiss ----------------------------------------------------------------------------
def accept(client, items, **form):
    data = {"action": "accept", "_selected_action": [i.pk for i in items]}
    return client.post(ITEMS, {**data, **form})


def test_accept_asks_for_the_section_then_adds_draft_entries(
    curator_client, curator, feed, section
):
    items = make_items(feed, section, 2)
    page = accept(curator_client, items)
    assert page.status_code == 200
    html = page.content.decode()
    assert "Each item&#x27;s suggested section" in html and "Inference › " in html
    assert not Resource.objects.filter(url__startswith="https://blog.example/").exists()

    chosen = NumberedSectionFactory(title="Chosen")
    done = accept(curator_client, items, apply="Accept", section=chosen.pk)
    assert done.status_code == 302
    entries = Entry.objects.filter(resource__url__startswith="https://blog.example/")
    assert {(e.section, e.is_published) for e in entries} == {(chosen, False)}
    assert messages_of(done) == ["Accepted 2 items; 2 draft entries added."]
    assert set(InboxItem.objects.values_list("state", flat=True)) == {ItemState.ACCEPTED}
    added = LogEntry.objects.filter(action_flag=ADDITION, user=curator)
    assert added.count() == 4  # two resources, two entries
    # once more (the inbox shows new items: here, from the list of all of them): nothing changes
    again = curator_client.post(
        f"{ITEMS}?state=all",
        {"action": "accept", "apply": "Accept", "_selected_action": [i.pk for i in items]},
    )
    assert messages_of(again) == ["Accepted 0 items; 2 not new, left as they were."]
    assert entries.count() == 2
    assert Resource.objects.filter(url__startswith="https://blog.example/").count() == 2


def test_accept_without_a_section_for_every_item_changes_nothing(curator_client, feed, section):
    items = make_items(feed, section, 1)
    items[0].suggested_section = None
    items[0].save()
    response = accept(curator_client, items, apply="Accept", section="")
    assert messages_of(response) == [
        "Nothing accepted: 1 of the selected items has no suggested section: choose the section "
        "they go to."
    ]
    assert InboxItem.objects.get().state == ItemState.NEW
    assert not Entry.objects.exists()


def test_accept_refuses_a_section_that_does_not_exist(curator_client, feed, section):
    items = make_items(feed, section, 1)
    page = accept(curator_client, items, apply="Accept", section="999999")
    assert page.status_code == 200 and "Select a valid choice" in page.content.decode()
    assert not Entry.objects.exists()


def test_dismiss_and_put_back(curator_client, feed, section):
    items = make_items(feed, section, 2)
    response = curator_client.post(
        ITEMS, {"action": "dismiss", "_selected_action": [i.pk for i in items]}
    )
    assert messages_of(response) == ["Dismissed 2 items."]
    assert set(InboxItem.objects.values_list("state", flat=True)) == {ItemState.DISMISSED}
    response = curator_client.post(
        f"{ITEMS}?state=dismissed", {"action": "reopen", "_selected_action": [items[0].pk]}
    )
    assert messages_of(response) == ["1 item back in the inbox."]


def test_the_suggested_section_can_be_changed_and_nothing_else(curator_client, feed, section):
    [item] = make_items(feed, section, 1)
    other = NumberedSectionFactory()
    url = reverse("admin:inbox_inboxitem_change", args=[item.pk])
    response = curator_client.post(
        url, {"suggested_section": other.pk, "title": "Changed", "state": "accepted"}
    )
    assert response.status_code == 302
    item.refresh_from_db()
    assert (item.suggested_section, item.title, item.state) == (other, "Post number 0", "new")


def test_items_cannot_be_added_by_hand(curator_client):
    assert curator_client.get(reverse("admin:inbox_inboxitem_add")).status_code == 403


# --- feeds -----------------------------------------------------------------------------------------
def test_a_feed_added_by_hand_from_a_repository_page_follows_its_releases(
    curator_client, django_capture_on_commit_callbacks, monkeypatch
):
    from apps.inbox import tasks

    queued = []
    monkeypatch.setattr(
        tasks, "read_one_feed", SimpleNamespace(enqueue=lambda *args: queued.append(args))
    )
    with django_capture_on_commit_callbacks(execute=True):
        response = curator_client.post(
            reverse("admin:inbox_feed_add"),
            {"url": "https://github.com/vllm-project/vllm/tree/main", "kind": "other", "enabled": "on"},
        )  # fmt: skip
    assert response.status_code == 302
    feed = Feed.objects.get()
    assert (feed.url, feed.kind) == (
        "https://github.com/vllm-project/vllm/releases.atom",
        FeedKind.GITHUB,
    )
    assert queued == [(feed.pk,)]  # read at once, by the job queue
    # the same feed again is refused
    again = curator_client.post(
        reverse("admin:inbox_feed_add"),
        {"url": "https://github.com/vllm-project/vllm", "kind": "github", "enabled": "on"},
    )
    assert again.status_code == 200 and "already exists" in again.content.decode()


@pytest.mark.parametrize("url", ["file:///etc/passwd", "ftp://files.example/feed.xml", "feed"])
def test_a_feed_added_by_hand_must_be_a_web_address(curator_client, url):
    response = curator_client.post(reverse("admin:inbox_feed_add"), {"url": url, "kind": "other"})
    assert response.status_code == 200 and "Enter a valid URL" in response.content.decode()
    assert not Feed.objects.exists()


def test_switching_feeds_off_and_on(curator_client, feed):
    response = curator_client.post(FEEDS, {"action": "switch_off", "_selected_action": [feed.pk]})
    assert messages_of(response) == ["Switched 1 feed off."]
    feed.refresh_from_db()
    assert not feed.enabled
    response = curator_client.post(FEEDS, {"action": "switch_off", "_selected_action": [feed.pk]})
    assert messages_of(response) == ["Switched 0 feeds off."]
    curator_client.post(FEEDS, {"action": "switch_on", "_selected_action": [feed.pk]})
    feed.refresh_from_db()
    assert feed.enabled


def test_read_now_queues_enabled_feeds_only(
    curator_client, feed, django_capture_on_commit_callbacks, monkeypatch
):
    from apps.inbox import tasks

    off = Feed.objects.create(url="https://off.example/feed", enabled=False)
    queued = []
    monkeypatch.setattr(
        tasks, "read_one_feed", SimpleNamespace(enqueue=lambda *args: queued.append(args))
    )
    with django_capture_on_commit_callbacks(execute=True):
        response = curator_client.post(
            FEEDS, {"action": "read_now", "_selected_action": [feed.pk, off.pk]}
        )
    assert queued == [(feed.pk,)]
    assert messages_of(response) == ["1 feed queued to be read (switched-off feeds are not read)."]


def test_examine_again_queues_the_resource(
    curator_client, django_capture_on_commit_callbacks, monkeypatch
):
    from apps.inbox import tasks

    examined = ExaminedResource.objects.create(resource=ResourceFactory(), outcome="No feed found.")
    queued = []
    monkeypatch.setattr(
        tasks, "examine_resource", SimpleNamespace(enqueue=lambda *args: queued.append(args))
    )
    assert "No feed found." in curator_client.get(EXAMINED).content.decode()
    failed = ExaminedResource.objects.create(
        resource=ResourceFactory(title="Broken blog"), outcome="Error: The page answered HTTP 500."
    )
    errors = curator_client.get(EXAMINED, {"outcome": "error"}).content.decode()
    assert "Broken blog" in errors and "No feed found." not in errors
    assert (
        failed.resource.title
        not in curator_client.get(EXAMINED, {"outcome": "none"}).content.decode()
    )
    with django_capture_on_commit_callbacks(execute=True):
        curator_client.post(
            EXAMINED, {"action": "examine_again", "_selected_action": [examined.pk]}
        )
    assert queued == [(examined.resource_id,)]


def test_every_page_renders_for_a_curator(curator_client, feed, section):
    for url in every_url(feed, section):
        assert curator_client.get(url).status_code == 200, url


# --- who is refused --------------------------------------------------------------------------------
@pytest.fixture
def staff_without_permission(client):
    """Staff, but neither a curator nor given any inbox permission."""
    user = UserFactory(username="stan", email="stan@example.com", is_staff=True)
    client.force_login(user)
    return client


def every_url(feed, section):
    [item] = make_items(feed, section, 1)
    examined = ExaminedResource.objects.create(resource=ResourceFactory())
    return [
        ITEMS,
        reverse("admin:inbox_inboxitem_change", args=[item.pk]),
        reverse("admin:inbox_inboxitem_delete", args=[item.pk]),
        reverse("admin:inbox_inboxitem_history", args=[item.pk]),
        FEEDS,
        reverse("admin:inbox_feed_add"),
        reverse("admin:inbox_feed_change", args=[feed.pk]),
        reverse("admin:inbox_feed_delete", args=[feed.pk]),
        EXAMINED,
        reverse("admin:inbox_examinedresource_change", args=[examined.pk]),
    ]


def every_action(feed, section):
    [item] = make_items(feed, section, 1, start=50)
    examined = ExaminedResource.objects.create(resource=ResourceFactory())
    return [
        (ITEMS, {"action": "accept", "apply": "Accept", "section": section.pk, "_selected_action": [item.pk]}),
        (ITEMS, {"action": "dismiss", "_selected_action": [item.pk]}),
        (FEEDS, {"action": "switch_off", "_selected_action": [feed.pk]}),
        (FEEDS, {"action": "read_now", "_selected_action": [feed.pk]}),
        (EXAMINED, {"action": "examine_again", "_selected_action": [examined.pk]}),
    ]  # fmt: skip


def assert_nothing_changed(feed):
    assert set(InboxItem.objects.values_list("state", flat=True)) == {ItemState.NEW}
    assert not Entry.objects.exists()
    feed.refresh_from_db()
    assert feed.enabled and feed.last_read_at is None


@pytest.mark.parametrize("who", ["visitor", "learner_client"])
def test_visitors_and_learners_are_sent_to_the_login(request, who, feed, section):
    client = request.getfixturevalue(who)
    for url in every_url(feed, section):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith(
            reverse("admin:login")
        ), url
    for url, data in every_action(feed, section):
        response = client.post(url, data)
        assert response.status_code == 302, data["action"]
    assert_nothing_changed(feed)


def test_staff_without_the_inbox_permissions_are_refused(staff_without_permission, feed, section):
    for url in every_url(feed, section):
        assert staff_without_permission.get(url).status_code == 403, url
    for url, data in every_action(feed, section):
        assert staff_without_permission.post(url, data).status_code == 403, data["action"]
    assert_nothing_changed(feed)


def test_a_curator_who_may_not_add_resources_cannot_accept(curator_client, curator, feed, section):
    curator.groups.clear()
    curator.user_permissions.add(
        *Permission.objects.filter(content_type__app_label="inbox"),
        *Permission.objects.filter(codename__in=["view_section", "add_entry"]),
    )
    items = make_items(feed, section, 1)
    html = curator_client.get(ITEMS).content.decode()
    assert 'value="dismiss"' in html and 'value="accept"' not in html
    response = accept(curator_client, items, apply="Accept", section=section.pk)
    assert response.status_code == 302
    assert_nothing_changed(feed)


def test_a_curator_who_may_only_view_changes_nothing(client, feed, section):
    viewer = UserFactory(username="vic", email="vic@example.com", is_staff=True)
    viewer.user_permissions.add(
        *Permission.objects.filter(content_type__app_label="inbox", codename__startswith="view_")
    )
    client.force_login(viewer)
    assert client.get(ITEMS).status_code == 200
    for url, data in every_action(feed, section):
        client.post(url, data)
    assert_nothing_changed(feed)
