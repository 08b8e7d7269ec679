"""Reading feeds into the curator inbox (apps/inbox/reading.py, tasks.py), against feeds a local
server serves: a blog's Atom feed, a "GitHub" releases feed, an RSS feed, and sources that are
junk, huge, slow, broken or redirect."""

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.catalog.models import Resource
from apps.inbox import reading, tasks
from apps.inbox.models import Feed, FeedKind, InboxItem, ItemState
from apps.inbox.reading import FeedReadError, read_feed
from tests.factories import (
    GuideFactory,
    NumberedEntryFactory,
    NumberedSectionFactory,
    ResourceFactory,
    ResourceLinkFactory,
)
from tests.inbox.servers import Answer, atom, rss, serving

pytestmark = pytest.mark.django_db


def ago(**delta) -> str:
    return (timezone.now() - timedelta(**delta)).strftime("%Y-%m-%dT%H:%M:%SZ")


@pytest.fixture
def site(allow_loopback):
    with serving() as site:
        yield site


def feed_at(site, path, body, *, content_type="application/atom+xml", **fields):
    site.routes[path] = Answer(body, content_type=content_type)
    return Feed.objects.create(url=site.url(path), **fields)


def github_releases(repo: str, tags: list[str]) -> bytes:
    """What github.com/OWNER/REPO/releases.atom looks like."""
    entries = "".join(
        f"""<entry><id>tag:github.com,2008:Repository/1/{tag}</id>
        <updated>{ago(days=index + 1)}</updated>
        <link rel="alternate" type="text/html" href="https://github.com/{repo}/releases/tag/{tag}"/>
        <title>{tag}</title><content type="html">&lt;p&gt;Highlights of {tag}&lt;/p&gt;</content>
        <author><name>maintainer</name></author></entry>"""
        for index, tag in enumerate(tags)
    )
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en-US">
  <id>tag:github.com,2008:https://github.com/{repo}/releases</id>
  <link type="text/html" rel="alternate" href="https://github.com/{repo}/releases"/>
  <title>Release notes from {repo.split("/")[1]}</title>
  <updated>{ago(days=1)}</updated>{entries}</feed>""".encode()


def test_a_blogs_atom_feed_lands_in_the_inbox_with_its_source_date_and_section(site):
    guide = GuideFactory(title="Inference")
    serving_section = NumberedSectionFactory(guide=guide, title="Serving engines")
    blog = NumberedEntryFactory(section=serving_section, resource__kind="site").resource
    feed = feed_at(
        site,
        "/blog/atom.xml",
        atom(
            [
                {
                    "title": "Paged attention, explained",
                    "link": "https://blog.example/paged-attention/?utm_source=rss",
                    "updated": ago(days=2),
                    "summary": "&lt;p&gt;How &lt;b&gt;pages&lt;/b&gt; of KV cache work.&lt;/p&gt;",
                },
                {"title": "Speculative decoding", "link": "/spec", "updated": ago(hours=3)},
            ],
            title="The Example Blog",
        ),
        kind=FeedKind.BLOG,
        resource=blog,
    )

    result = read_feed(feed)

    assert (result.entries, result.added) == (2, 2)
    items = {item.title: item for item in InboxItem.objects.all()}
    paged = items["Paged attention, explained"]
    assert paged.url_key == "https://blog.example/paged-attention"
    assert paged.summary == "How pages of KV cache work."
    assert paged.feed == feed and paged.state == ItemState.NEW
    assert timezone.now() - timedelta(days=2, minutes=5) < paged.date < timezone.now()
    # the section the feed's resource sits in
    assert {item.suggested_section for item in items.values()} == {serving_section}
    # a relative link is read against the feed's address
    assert items["Speculative decoding"].url == site.url("/spec")
    feed.refresh_from_db()
    assert feed.title == "The Example Blog"
    assert feed.last_error == "" and feed.last_ok_at is not None
    assert feed.last_result == "2 entries: 2 new."


def test_a_github_releases_feed_offers_each_release_once(site):
    feed = feed_at(
        site,
        "/vllm-project/vllm/releases.atom",
        github_releases("vllm-project/vllm", ["v0.7.0", "v0.6.6"]),
        kind=FeedKind.GITHUB,
    )
    assert read_feed(feed).added == 2
    assert sorted(InboxItem.objects.values_list("url", flat=True)) == [
        "https://github.com/vllm-project/vllm/releases/tag/v0.6.6",
        "https://github.com/vllm-project/vllm/releases/tag/v0.7.0",
    ]
    # read again (a retried job, the next hour's read): nothing is added twice
    again = read_feed(feed)
    assert (again.added, again.seen) == (0, 2)
    assert InboxItem.objects.count() == 2
    feed.refresh_from_db()
    assert feed.last_result == "2 entries: 0 new; 2 already in the inbox."


def test_an_item_already_in_the_catalog_is_recognised_however_its_url_is_written(site):
    ResourceFactory(url="https://blog.example/kv-cache")
    # a mirror link is the resource's own work: the page it mirrors is catalogued
    ResourceLinkFactory(
        resource=ResourceFactory(url="https://papers.example/flash"),
        url="https://mirror.example/flash.html",
        label="Mirror",
    )
    # a link a resource merely mentions is a different work: still offered
    ResourceLinkFactory(
        resource=ResourceFactory(url="https://blog.example/post-about-repo"),
        url="https://code.example/tool",
        label="Code",
    )
    feed = feed_at(
        site,
        "/feed",
        atom(
            [
                {"title": "KV", "link": "HTTPS://Blog.Example/kv-cache/?utm_medium=feed", "updated": ago(days=1)},
                {"title": "Flash mirror", "link": "https://mirror.example/flash.html", "updated": ago(days=1)},
                {"title": "The tool", "link": "https://code.example/tool", "updated": ago(days=1)},
            ]
        ),
    )  # fmt: skip
    result = read_feed(feed)
    assert (result.added, result.catalogued) == (1, 2)
    assert list(InboxItem.objects.values_list("title", flat=True)) == ["The tool"]


def test_an_item_seen_in_another_feed_is_not_offered_twice(site):
    entries = [
        {"title": "Shared post", "link": "https://blog.example/shared", "updated": ago(days=1)}
    ]
    first = feed_at(site, "/one", atom(entries))
    second = feed_at(site, "/two", rss([{"title": "Shared post", "link": "https://blog.example/shared/", "date": "Tue, 24 Nov 2026 10:00:00 GMT"}]))  # fmt: skip
    read_feed(first)
    InboxItem.objects.update(state=ItemState.DISMISSED)
    result = read_feed(second)
    assert (result.added, result.seen) == (0, 1)
    assert InboxItem.objects.get().state == ItemState.DISMISSED  # dismissed stays dismissed


def test_entries_without_a_link_or_a_date_and_old_ones_are_skipped_and_counted(site):
    feed = feed_at(
        site,
        "/feed",
        atom(
            [
                {"title": "No link", "updated": ago(days=1), "id": "urn:1"},
                {"title": "No date", "link": "https://blog.example/undated"},
                {"title": "Not a web page", "link": "javascript:alert(1)", "updated": ago(days=1)},
                {"title": "Ancient", "link": "https://blog.example/old", "updated": ago(days=400)},
                {"title": "Fresh", "link": "https://blog.example/fresh", "updated": ago(days=1)},
            ]
        ),
    )
    result = read_feed(feed)
    assert (result.added, result.no_link, result.no_date, result.old) == (1, 2, 1, 1)
    assert list(InboxItem.objects.values_list("title", flat=True)) == ["Fresh"]
    feed.refresh_from_db()
    assert feed.last_result == (
        "5 entries: 1 new; 1 older than the inbox keeps, 2 without a link, 1 without a date."
    )


def test_script_in_a_title_is_kept_as_text(site):
    feed = feed_at(
        site,
        "/feed",
        rss(
            [
                {
                    "title": "&lt;script&gt;alert(1)&lt;/script&gt;Release &amp; notes",
                    "link": "https://blog.example/x",
                    "date": "Tue, 24 Nov 2026 10:00:00 GMT",
                }
            ]
        ),
        content_type="application/rss+xml",
    )
    read_feed(feed)
    assert InboxItem.objects.get().title == "<script>alert(1)</script>Release & notes"


def test_html_in_an_atom_title_is_read_as_its_text(site):
    feed = feed_at(
        site,
        "/feed",
        b'<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>T</title>'
        b'<entry><title type="html">&lt;em&gt;Fast&lt;/em&gt; &amp;amp; &lt;script&gt;bad()'
        b'&lt;/script&gt;small</title><link href="https://blog.example/x"/>'
        + f"<updated>{ago(days=1)}</updated></entry></feed>".encode(),
    )
    read_feed(feed)
    assert InboxItem.objects.get().title == "Fast & small"


# --- hostile sources: a clear error, nothing written ----------------------------------------------
def assert_failed_cleanly(feed, error, message):
    assert message in str(error.value) and feed.url in str(error.value)
    feed.refresh_from_db()
    assert message in feed.last_error
    assert feed.last_read_at is not None and feed.last_ok_at is None
    assert (
        not InboxItem.objects.exists()
        and not Resource.objects.filter(url__contains="blog.example").exists()
    )


def test_junk_bytes_are_a_clear_error(site):
    feed = feed_at(site, "/junk", bytes(range(256)) * 40, content_type="application/octet-stream")
    with pytest.raises(FeedReadError) as error:
        read_feed(feed)
    assert_failed_cleanly(feed, error, "not an RSS or Atom feed")


def test_an_html_page_is_not_a_feed(site):
    feed = feed_at(site, "/page", b"<html><head><title>Blog</title></head><body>Hi</body></html>",
                   content_type="text/html")  # fmt: skip
    with pytest.raises(FeedReadError) as error:
        read_feed(feed)
    assert_failed_cleanly(feed, error, "not an RSS or Atom feed")


def test_a_feed_larger_than_the_cap_is_not_read(site, monkeypatch):
    monkeypatch.setattr(reading, "FEED_MAX_BYTES", 1024 * 1024)
    entries = [
        {"title": f"Post {n}", "link": f"https://blog.example/{n}", "updated": ago(days=1), "summary": "x" * 500}
        for n in range(3000)
    ]  # fmt: skip
    feed = feed_at(site, "/huge", atom(entries))
    with pytest.raises(FeedReadError) as error:
        read_feed(feed)
    assert_failed_cleanly(feed, error, "larger than 1 MB")


def test_a_slow_server_is_cut_at_the_deadline(site, settings):
    settings.FETCH_DEADLINE = 0.5
    body = atom([{"title": "Slow", "link": "https://blog.example/slow", "updated": ago(days=1)}])
    site.routes["/slow"] = Answer(body, content_type="application/atom+xml", delay=0.3, chunks=5)
    feed = Feed.objects.create(url=site.url("/slow"))
    with pytest.raises(FeedReadError) as error:
        read_feed(feed)
    assert_failed_cleanly(feed, error, "took too long")


def test_an_http_error_is_a_clear_error(site):
    site.routes["/gone"] = Answer(b"gone", status=410)
    feed = Feed.objects.create(url=site.url("/gone"))
    with pytest.raises(FeedReadError) as error:
        read_feed(feed)
    assert_failed_cleanly(feed, error, "answered HTTP 410")


def test_a_private_address_is_refused_without_the_test_switch(site, settings):
    settings.FETCH_ALLOW_LOOPBACK = False
    feed = feed_at(site, "/feed", atom([{"title": "A", "link": "https://blog.example/a", "updated": ago(days=1)}]))  # fmt: skip
    with pytest.raises(FeedReadError) as error:
        read_feed(feed)
    assert_failed_cleanly(feed, error, "Could not fetch the URL")
    assert site.requests == []


def test_a_redirect_is_followed_and_relative_links_read_against_where_it_ended(site):
    site.routes["/old-feed"] = Answer(status=301, headers={"Location": "/new/feed.xml"})
    site.routes["/new/feed.xml"] = Answer(
        atom([{"title": "Moved", "link": "post", "updated": ago(days=1)}]),
        content_type="application/atom+xml",
    )
    feed = Feed.objects.create(url=site.url("/old-feed"))
    assert read_feed(feed).added == 1
    assert InboxItem.objects.get().url == site.url("/new/post")


def test_an_unchanged_feed_is_not_read_again(site):
    body = atom([{"title": "A", "link": "https://blog.example/a", "updated": ago(days=1)}])

    def conditional(headers):
        if headers.get("If-None-Match") == '"v1"':
            return Answer(status=304)
        return Answer(body, content_type="application/atom+xml", headers={"ETag": '"v1"'})

    site.routes["/feed"] = conditional
    feed = Feed.objects.create(url=site.url("/feed"))
    read_feed(feed)
    feed.refresh_from_db()
    assert feed.etag == '"v1"'
    assert read_feed(feed).not_modified
    feed.refresh_from_db()
    assert feed.last_result == "Not changed since the last read."
    assert InboxItem.objects.count() == 1


def test_a_failure_after_a_good_read_keeps_the_items_and_records_the_error(site):
    feed = feed_at(site, "/feed", atom([{"title": "A", "link": "https://blog.example/a", "updated": ago(days=1)}]))  # fmt: skip
    read_feed(feed)
    site.routes["/feed"] = Answer(b"\x00\xff junk", content_type="application/atom+xml")
    with pytest.raises(FeedReadError):
        read_feed(feed)
    feed.refresh_from_db()
    assert "not an RSS or Atom feed" in feed.last_error
    assert InboxItem.objects.count() == 1


# --- the section suggested -------------------------------------------------------------------------
def test_a_hand_added_feed_suggests_the_section_whose_words_match_best(site):
    guide = GuideFactory(title="Systems")
    NumberedSectionFactory(guide=guide, title="Reading list")
    kernels = NumberedSectionFactory(guide=guide, title="GPU kernels and CUDA")
    quant = NumberedSectionFactory(guide=guide, title="Quantization")
    feed = feed_at(
        site,
        "/feed",
        atom(
            [
                {"title": "Writing fast CUDA kernels", "link": "https://blog.example/cuda", "updated": ago(days=1)},
                {"title": "Int4 quantization in practice", "link": "https://blog.example/int4", "updated": ago(days=1)},
                {"title": "Gardening tips", "link": "https://blog.example/garden", "updated": ago(days=1)},
            ]
        ),
    )  # fmt: skip
    read_feed(feed)
    suggested = dict(InboxItem.objects.values_list("title", "suggested_section"))
    assert suggested == {
        "Writing fast CUDA kernels": kernels.pk,
        "Int4 quantization in practice": quant.pk,
        "Gardening tips": None,
    }


def test_a_feeds_own_section_wins(site):
    chosen = NumberedSectionFactory(title="Blogs to follow")
    NumberedSectionFactory(title="CUDA kernels")
    feed = feed_at(
        site,
        "/feed",
        atom(
            [{"title": "CUDA kernels", "link": "https://blog.example/cuda", "updated": ago(days=1)}]
        ),
        section=chosen,
    )
    read_feed(feed)
    assert InboxItem.objects.get().suggested_section == chosen


# --- the jobs ------------------------------------------------------------------------------------
def test_read_due_feeds_reads_enabled_feeds_not_read_lately_and_nothing_else(
    site, django_capture_on_commit_callbacks
):
    body = atom([{"title": "A", "link": "https://blog.example/a", "updated": ago(days=1)}])
    site.routes["/due"] = site.routes["/recent"] = site.routes["/off"] = Answer(
        body, content_type="application/atom+xml"
    )
    due = Feed.objects.create(url=site.url("/due"))
    recent = Feed.objects.create(url=site.url("/recent"), last_read_at=timezone.now())
    Feed.objects.create(url=site.url("/off"), enabled=False)

    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.read_due_feeds.call() == 1
    assert [path for path, _ in site.requests] == ["/due"]
    due.refresh_from_db()
    assert due.last_ok_at is not None
    recent.refresh_from_db()
    assert recent.last_ok_at is None
    # nothing is due any more: the next run does nothing
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.read_due_feeds.call() == 0
    assert len(site.requests) == 1


def test_a_failed_read_is_the_jobs_visible_error(site):
    site.routes["/junk"] = Answer(b"junk", content_type="text/plain")
    feed = Feed.objects.create(url=site.url("/junk"))
    result = tasks.read_one_feed.enqueue(feed.pk)
    assert result.status == "FAILED"
    assert "not an RSS or Atom feed" in result.errors[0].traceback
    feed.refresh_from_db()
    assert "not an RSS or Atom feed" in feed.last_error


def test_a_feed_switched_off_after_it_was_queued_is_not_read(site):
    feed = Feed.objects.create(url=site.url("/feed"), enabled=False)
    assert tasks.read_one_feed.call(feed.pk) == "The feed is gone or switched off: not read."
    assert site.requests == []
