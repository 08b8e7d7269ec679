"""Following a source the catalog holds, end to end: a blog listed in a guide is examined, its
Atom feed found and read by the jobs, a new post lands in the inbox (a post already catalogued
does not), a curator accepts it as a draft entry, and learners see it only once it is published."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from apps.catalog.models import Entry, Kind
from apps.inbox import tasks
from apps.inbox.models import Feed, InboxItem, ItemState
from tests.factories import (
    GuideFactory,
    NumberedEntryFactory,
    NumberedSectionFactory,
    ResourceFactory,
)
from tests.inbox.servers import Answer, atom, serving

pytestmark = pytest.mark.django_db


def test_a_blog_in_a_guide_is_followed_into_the_inbox_and_a_post_accepted(
    allow_loopback, curator_client, learner, django_capture_on_commit_callbacks
):
    learner_client = Client()
    learner_client.force_login(learner)
    day = (timezone.now() - timedelta(days=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    with serving() as site:
        site.routes["/blog/"] = Answer(
            b'<html><head><link rel="alternate" type="application/atom+xml" '
            b'title="Posts" href="/blog/atom.xml"></head><body>Posts</body></html>'
        )
        site.routes["/blog/atom.xml"] = Answer(
            atom(
                [
                    {"title": "Continuous batching", "link": site.url("/blog/batching"), "updated": day},
                    {"title": "Old favourite", "link": site.url("/blog/favourite"), "updated": day},
                ],
                title="Systems Blog",
            ),
            content_type="application/atom+xml",
        )  # fmt: skip
        guide = GuideFactory(title="Inference", slug="inference")
        blogs = NumberedSectionFactory(guide=guide, title="Blogs to read regularly")
        NumberedEntryFactory(
            section=blogs, resource__url=site.url("/blog/"), resource__kind=Kind.SITE
        )
        ResourceFactory(url=site.url("/blog/favourite"))  # catalogued already

        assert tasks.discover_feeds.call() == {"examined": 2, "feeds": 1}
        feed = Feed.objects.get()
        assert (feed.url, feed.section) == (site.url("/blog/atom.xml"), blogs)
        with django_capture_on_commit_callbacks(execute=True):
            assert tasks.read_due_feeds.call() == 1

    item = InboxItem.objects.get()
    assert (item.title, item.suggested_section, item.feed.title) == (
        "Continuous batching",
        blogs,
        "Systems Blog",
    )
    inbox = curator_client.get(reverse("admin:inbox_inboxitem_changelist")).content.decode()
    assert "Continuous batching" in inbox and "Old favourite" not in inbox

    response = curator_client.post(
        reverse("admin:inbox_inboxitem_changelist"),
        {"action": "accept", "apply": "Accept", "section": "", "_selected_action": [item.pk]},
    )
    assert response.status_code == 302
    item.refresh_from_db()
    assert item.state == ItemState.ACCEPTED
    entry = Entry.objects.get(resource=item.resource)
    assert (entry.section, entry.is_published) == (blogs, False)

    page = reverse("learning:resource-detail", args=[item.resource.uuid])
    assert learner_client.get(page).status_code == 404
    assert (
        "Continuous batching" not in learner_client.get(guide.get_absolute_url()).content.decode()
    )
    Entry.objects.filter(pk=entry.pk).update(is_published=True)
    assert learner_client.get(page).status_code == 200
    assert "Continuous batching" in learner_client.get(guide.get_absolute_url()).content.decode()
