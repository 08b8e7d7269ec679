"""Finding the feeds of the catalog's own resources (apps/inbox/discovery.py, the discovery job),
pages served by a local server: a blog naming its Atom feed, a YouTube channel page by handle,
a site with no feed, junk and a slow page."""

import pytest

from apps.catalog.models import Kind
from apps.inbox import tasks
from apps.inbox.discovery import (
    DiscoveryError,
    discover,
    feed_from_url,
    feeds_in_page,
    page_needed,
)
from apps.inbox.models import ExaminedResource, Feed, FeedKind
from apps.inbox.services import resource_examine
from tests.factories import NumberedEntryFactory, NumberedSectionFactory, ResourceFactory
from tests.inbox.servers import Answer, atom, serving

CHANNEL = "UC" + "x" * 22


@pytest.mark.parametrize(
    ("url", "feed", "kind"),
    [
        ("https://github.com/vllm-project/vllm", "https://github.com/vllm-project/vllm/releases.atom", FeedKind.GITHUB),
        ("https://github.com/NVIDIA/TensorRT-LLM/tree/main/docs", "https://github.com/NVIDIA/TensorRT-LLM/releases.atom", FeedKind.GITHUB),
        ("https://www.github.com/owner/repo.git", "https://github.com/owner/repo/releases.atom", FeedKind.GITHUB),
        (f"https://www.youtube.com/channel/{CHANNEL}/videos", f"https://www.youtube.com/feeds/videos.xml?channel_id={CHANNEL}", FeedKind.YOUTUBE),
        ("https://www.youtube.com/playlist?list=PLoROMvodv4rMiGQp3WXShtMGgzqpfVfbU", "https://www.youtube.com/feeds/videos.xml?playlist_id=PLoROMvodv4rMiGQp3WXShtMGgzqpfVfbU", FeedKind.YOUTUBE),
        ("https://arxiv.org/list/cs.CL/recent", "https://rss.arxiv.org/rss/cs.CL", FeedKind.ARXIV),
        ("https://arxiv.org/list/stat.ML/new", "https://rss.arxiv.org/rss/stat.ML", FeedKind.ARXIV),
    ],
)  # fmt: skip
def test_a_feed_named_by_the_url_needs_no_fetch(url, feed, kind):
    found = feed_from_url(url)
    assert (found.url, found.kind) == (feed, kind)


@pytest.mark.parametrize(
    "url",
    [
        "https://github.com/lucidrains",  # a user, not a repository
        "https://github.com/orgs/NVIDIA/repositories?type=all",
        "https://github.com/topics/llm",
        "https://www.youtube.com/watch?v=abc",  # one video: its channel is not followed
        "https://www.youtube.com/@GPUMODE/videos",  # a handle: the page must be read
        "https://arxiv.org/abs/2205.14135",  # a paper
        "https://blog.example/",
        "not a url",
    ],
)
def test_other_urls_name_no_feed(url):
    assert feed_from_url(url) is None


@pytest.mark.parametrize(
    ("url", "kind", "needed"),
    [
        ("https://www.youtube.com/@GPUMODE/videos", Kind.VIDEO, True),
        ("https://www.youtube.com/c/SomeName", Kind.VIDEO, True),
        ("https://www.youtube.com/watch?v=abc", Kind.VIDEO, False),
        ("https://lilianweng.github.io/", Kind.SITE, True),
        ("https://blog.example/a-post", Kind.ARTICLE, False),  # a post: its blog is not followed
        ("https://x.com/someone", Kind.SITE, False),
        ("ftp://files.example/", Kind.SITE, False),
    ],
)
def test_which_pages_are_read(url, kind, needed):
    assert page_needed(url, kind) is needed


def test_a_pages_feed_links_are_read_best_first():
    html = """<html><head>
      <link rel="alternate" type="application/rss+xml" title="Comments Feed" href="/comments/feed">
      <link rel="stylesheet" href="/style.css">
      <link rel="alternate" type="application/atom+xml" title="Posts" href="/atom.xml">
      <link rel="alternate" type="application/rss+xml" href="javascript:alert(1)">
    </head><body></body></html>"""
    found = feeds_in_page(html, "https://blog.example/blog/")
    assert [f.url for f in found] == [
        "https://blog.example/atom.xml",
        "https://blog.example/comments/feed",
    ]


def test_a_youtube_page_names_its_channel_in_its_canonical_url_meta_or_data():
    canonical = f'<link rel="canonical" href="https://www.youtube.com/channel/{CHANNEL}">'
    meta = f'<meta itemprop="channelId" content="{CHANNEL}">'
    data = f'<script>var ytInitialData = {{"metadata": {{"externalId": "{CHANNEL}"}}}};</script>'
    expected = f"https://www.youtube.com/feeds/videos.xml?channel_id={CHANNEL}"
    for head in (canonical, meta, data):
        found = feeds_in_page(f"<head>{head}</head>", "https://www.youtube.com/@x", youtube=True)
        assert [(f.url, f.kind) for f in found] == [(expected, FeedKind.YOUTUBE)]


@pytest.fixture
def site(allow_loopback):
    with serving() as site:
        yield site


BLOG_PAGE = b"""<!doctype html><html><head><title>A blog</title>
<link rel="alternate" type="application/atom+xml" href="/feed.xml"></head><body>Posts</body></html>"""


def test_a_blog_page_is_read_for_its_feed_link(site):
    site.routes["/blog"] = Answer(BLOG_PAGE)
    found = discover(site.url("/blog"), Kind.SITE)
    assert (found.url, found.kind) == (site.url("/feed.xml"), FeedKind.BLOG)


def test_a_url_that_is_a_feed_is_its_own_feed(site):
    site.routes["/atom"] = Answer(atom([]), content_type="application/xml")
    assert discover(site.url("/atom"), Kind.SITE).url == site.url("/atom")


def test_a_page_without_a_feed_finds_none(site):
    site.routes["/plain"] = Answer(b"<html><head><title>x</title></head></html>")
    assert discover(site.url("/plain"), Kind.SITE) is None


def test_junk_finds_no_feed(site):
    site.routes["/junk"] = Answer(bytes(range(256)) * 10, content_type="application/octet-stream")
    assert discover(site.url("/junk"), Kind.SITE) is None


def test_a_page_that_cannot_be_read_says_why(site, settings):
    settings.FETCH_DEADLINE = 0.4
    site.routes["/slow"] = Answer(BLOG_PAGE, delay=0.3, chunks=4)
    site.routes["/missing"] = Answer(b"no", status=404)
    with pytest.raises(DiscoveryError, match="Could not fetch the URL"):
        discover(site.url("/slow"), Kind.SITE)
    with pytest.raises(DiscoveryError, match="HTTP 404"):
        discover(site.url("/missing"), Kind.SITE)


def test_a_youtube_handle_page_is_read_for_its_channel(site, monkeypatch):
    from apps.inbox import discovery

    # the handle page served locally stands for www.youtube.com/@name
    monkeypatch.setattr(discovery, "YOUTUBE_HOSTS", {"127.0.0.1", *discovery.YOUTUBE_HOSTS})
    site.routes["/@gpumode/videos"] = Answer(
        f'<html><head><link rel="canonical" href="https://www.youtube.com/channel/{CHANNEL}">'
        "</head></html>".encode()
    )
    found = discover(site.url("/@gpumode/videos"), Kind.VIDEO)
    assert (found.url, found.kind) == (
        f"https://www.youtube.com/feeds/videos.xml?channel_id={CHANNEL}",
        FeedKind.YOUTUBE,
    )


# --- the job -----------------------------------------------------------------------------------
@pytest.mark.django_db
def test_discovery_examines_each_resource_once_and_follows_what_it_finds(site):
    section = NumberedSectionFactory(title="Serving")
    repo = NumberedEntryFactory(
        section=section, resource__url="https://github.com/vllm-project/vllm", resource__kind="repo"
    ).resource
    site.routes["/blog"] = Answer(BLOG_PAGE)
    blog = ResourceFactory(url=site.url("/blog"), kind=Kind.SITE)
    site.routes["/down"] = Answer(b"", status=500)
    broken = ResourceFactory(url=site.url("/down"), kind=Kind.SITE)
    post = ResourceFactory(url="https://blog.example/a-post", kind=Kind.ARTICLE)
    ResourceFactory(url=None, kind=Kind.CONCEPT, title="A concept")

    assert tasks.discover_feeds.call() == {"examined": 4, "feeds": 2}

    feeds = {feed.resource: feed for feed in Feed.objects.all()}
    assert feeds[repo].url == "https://github.com/vllm-project/vllm/releases.atom"
    assert (feeds[repo].kind, feeds[repo].section, feeds[repo].enabled) == (
        FeedKind.GITHUB,
        section,
        True,
    )
    assert feeds[blog].url == site.url("/feed.xml")
    outcomes = dict(ExaminedResource.objects.values_list("resource", "outcome"))
    assert outcomes[repo.pk] == "Feed found: the repository's releases feed."
    assert outcomes[broken.pk] == "Error: The page answered HTTP 500."
    assert outcomes[post.pk] == "No feed found."
    requests = len(site.requests)

    # the next run has nothing left to examine: no fetch, nothing written
    assert tasks.discover_feeds.call() == {"examined": 0, "feeds": 0}
    assert len(site.requests) == requests


@pytest.mark.django_db
def test_a_feed_already_followed_keeps_its_settings(site):
    first = ResourceFactory(url="https://github.com/owner/repo", kind=Kind.REPO)
    Feed.objects.create(
        url="https://github.com/owner/repo/releases.atom", resource=first, enabled=False
    )
    other = ResourceFactory(url="https://github.com/owner/repo/issues", kind=Kind.REPO)
    feed, outcome = resource_examine(resource=other)
    assert outcome == "Feed found: the repository's releases feed, already followed."
    assert (feed.resource, feed.enabled) == (first, False)
    assert Feed.objects.count() == 1


@pytest.mark.django_db
def test_discovery_takes_a_batch_at_a_time():
    for n in range(3):
        ResourceFactory(url=f"https://github.com/owner/repo{n}", kind=Kind.REPO)
    assert tasks.discover_feeds.call(batch=2) == {"examined": 2, "feeds": 2}
    assert tasks.discover_feeds.call(batch=2) == {"examined": 1, "feeds": 1}
    assert ExaminedResource.objects.count() == 3
