"""Finding the feed of a catalog resource.

Some addresses name their feed outright, so nothing is fetched (``feed_from_url``):

* a GitHub repository (any page of it): ``https://github.com/OWNER/REPO/releases.atom``;
* a YouTube channel whose id is in the URL (``/channel/UC…``) or a playlist (``?list=PL…``):
  ``https://www.youtube.com/feeds/videos.xml?channel_id=…`` (``playlist_id=…``);
* an arXiv listing (``arxiv.org/list/cs.CL/recent``): ``https://rss.arxiv.org/rss/cs.CL``.

Others need their page read (``page_needed``), through the guarded fetcher: a YouTube channel
named by its handle (``/@name``, ``/c/name``, ``/user/name``: the page's feed link, canonical URL
or ``channelId`` meta holds the id) and a blog or site (a resource of kind "Blog / site"), whose
``<link rel="alternate" type="application/atom+xml">`` (or ``rss+xml``) names its feed
(``feeds_in_page``). A URL that is itself a feed is its own feed.

A blog post (kind "Article") is not followed: its page names its whole blog's feed, and a
catalog of 200 posts would follow 200 blogs no guide recommends. A curator adds such a feed by
hand.
"""

import re
from dataclasses import dataclass
from html.parser import HTMLParser
from urllib.parse import parse_qs, urljoin, urlsplit

from apps.catalog.importer.urls import bare_host
from apps.catalog.models import Kind
from apps.core.fetch import FetchError, fetch
from apps.inbox.models import FeedKind

PAGE_BYTES = 1024 * 1024  # the head (and a YouTube page's data) is early on; the rest is not read
USER_AGENT = "Syllabus feed finder (+https://github.com/)"
FEED_TYPES = {"application/atom+xml", "application/rss+xml", "application/feed+xml"}
XML_TYPES = FEED_TYPES | {"application/xml", "text/xml"}

_CHANNEL_ID = re.compile(r"^UC[0-9A-Za-z_-]{22}$")
# The channel's id in the data a YouTube page carries for its scripts.
_CHANNEL_IN_DATA = re.compile(r'"(?:externalId|channelId|browseId)"\s*:\s*"(UC[0-9A-Za-z_-]{22})"')
_PLAYLIST_ID = re.compile(r"^(?:PL|UU|LL|FL|OL)[0-9A-Za-z_-]{10,}$")
_ARXIV_CATEGORY = re.compile(r"^[a-z-]+(?:\.[A-Za-z-]+)?$")
# github.com/<owner>/<repo>: not a user's or an organisation's page, nor GitHub's own sections
_GITHUB_NOT_OWNERS = {
    "orgs",
    "topics",
    "collections",
    "sponsors",
    "marketplace",
    "features",
    "settings",
    "apps",
    "search",
    "explore",
    "trending",
    "users",
    "enterprise",
    "about",
    "login",
    "notifications",
    "codespaces",
}
YOUTUBE_HOSTS = {"youtube.com", "m.youtube.com"}


@dataclass(frozen=True)
class FoundFeed:
    url: str
    kind: str  # a FeedKind
    how: str  # said in the examined resource's outcome


class DiscoveryError(Exception):
    """The page could not be read: the message says why (safe to show)."""


def youtube_channel_feed(channel_id: str) -> str:
    return f"https://www.youtube.com/feeds/videos.xml?channel_id={channel_id}"


def feed_from_url(url: str) -> FoundFeed | None:
    """The feed ``url`` names without reading its page, or None."""
    try:
        parts = urlsplit(url)
        host = bare_host(parts.hostname or "")
    except ValueError:
        return None
    segments = [s for s in parts.path.split("/") if s]
    if host == "github.com" and len(segments) >= 2 and segments[0] not in _GITHUB_NOT_OWNERS:
        owner, repo = segments[0], segments[1].removesuffix(".git")
        if repo:
            return FoundFeed(
                f"https://github.com/{owner}/{repo}/releases.atom",
                FeedKind.GITHUB,
                "the repository's releases feed",
            )
    if host in YOUTUBE_HOSTS:
        if len(segments) >= 2 and segments[0] == "channel" and _CHANNEL_ID.match(segments[1]):
            return FoundFeed(
                youtube_channel_feed(segments[1]), FeedKind.YOUTUBE, "the channel id in its URL"
            )
        playlist = parse_qs(parts.query).get("list", [""])[0]
        if segments[:1] == ["playlist"] and _PLAYLIST_ID.match(playlist):
            return FoundFeed(
                f"https://www.youtube.com/feeds/videos.xml?playlist_id={playlist}",
                FeedKind.YOUTUBE,
                "the playlist id in its URL",
            )
    if host in {"arxiv.org", "export.arxiv.org"} and len(segments) >= 2 and segments[0] == "list":
        category = segments[1]
        if _ARXIV_CATEGORY.match(category):
            return FoundFeed(
                f"https://rss.arxiv.org/rss/{category}", FeedKind.ARXIV, "the arXiv listing's RSS"
            )
    return None


def page_needed(url: str, resource_kind: str) -> bool:
    """Whether the feed of a resource at ``url`` can only be found by reading its page."""
    try:
        parts = urlsplit(url)
        host = bare_host(parts.hostname or "")
    except ValueError:
        return False
    if parts.scheme not in ("http", "https") or not host:
        return False
    if host in YOUTUBE_HOSTS:
        first = next((s for s in parts.path.split("/") if s), "")
        return first.startswith("@") or first in {"c", "user"}
    return resource_kind == Kind.SITE and host not in {"github.com", "x.com", "twitter.com"}


class _HeadReader(HTMLParser):
    """The feed links, canonical URL and channel-id metas of a page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.feeds: list[tuple[str, str]] = []  # (href, title)
        self.canonical = ""
        self.channel_ids: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = {name.lower(): value or "" for name, value in attrs}
        if tag == "link":
            rels = set(attrs.get("rel", "").lower().split())
            href = attrs.get("href", "").strip()
            if not href:
                return
            if "alternate" in rels and attrs.get("type", "").lower().strip() in FEED_TYPES:
                self.feeds.append((href, attrs.get("title", "")))
            elif "canonical" in rels and not self.canonical:
                self.canonical = href
        elif tag == "meta":
            name = (
                attrs.get("itemprop") or attrs.get("property") or attrs.get("name") or ""
            ).lower()
            if name in {"channelid", "identifier", "og:url"}:
                content = attrs.get("content", "").strip()
                if _CHANNEL_ID.match(content):
                    self.channel_ids.append(content)
                elif name == "og:url" and not self.canonical:
                    self.canonical = content


def feeds_in_page(html: str, page_url: str, *, youtube: bool = False) -> list[FoundFeed]:
    """The feeds a page names, best first: its ``<link rel="alternate">`` feeds (a comments feed
    last), and for a YouTube page the channel's feed from its canonical URL or channel-id meta."""
    reader = _HeadReader()
    try:
        reader.feed(html)
        reader.close()
    except AssertionError:  # pragma: no cover - html.parser on hopeless markup
        pass
    kind = FeedKind.YOUTUBE if youtube else FeedKind.BLOG
    found = []
    for href, _title in sorted(reader.feeds, key=lambda f: "comment" in f[1].lower()):
        url = urljoin(page_url, href)
        if urlsplit(url).scheme in ("http", "https"):
            found.append(FoundFeed(url, kind, "the page's feed link"))
    if youtube:
        canonical = feed_from_url(urljoin(page_url, reader.canonical)) if reader.canonical else None
        if canonical is not None and canonical.kind == FeedKind.YOUTUBE:
            found.append(FoundFeed(canonical.url, kind, "the page's canonical URL"))
        found += [
            FoundFeed(youtube_channel_feed(channel), kind, "the page's channel id")
            for channel in reader.channel_ids
        ]
        if not found and (match := _CHANNEL_IN_DATA.search(html)):
            found.append(
                FoundFeed(youtube_channel_feed(match.group(1)), kind, "the page's channel id")
            )
    return found


def looks_like_feed(content_type: str, body: bytes) -> bool:
    """Whether an answer is a feed itself rather than a page naming one."""
    if content_type in FEED_TYPES:
        return True
    head = body[:2048].lstrip().lower()
    names_feed = b"<rss" in head or b"<feed" in head
    return names_feed and (content_type in XML_TYPES or head.startswith(b"<?xml"))


def discover(url: str, resource_kind: str) -> FoundFeed | None:
    """The feed of a resource at ``url`` of kind ``resource_kind``: named by the URL, else read
    from its page when one must be read (``page_needed``), else None. Raises DiscoveryError when
    the page cannot be read."""
    found = feed_from_url(url)
    if found is not None or not page_needed(url, resource_kind):
        return found
    try:
        answer = fetch(
            url,
            headers={
                "User-Agent": USER_AGENT,
                "Accept": "text/html,application/xhtml+xml,application/atom+xml;q=0.9,*/*;q=0.1",
            },
            max_bytes=PAGE_BYTES,
        )
    except FetchError as error:
        raise DiscoveryError(str(error)) from None
    if not 200 <= answer.status < 300:
        raise DiscoveryError(f"The page answered HTTP {answer.status}.")
    content_type = answer.headers.get_content_type()
    if looks_like_feed(content_type, answer.body):
        return FoundFeed(answer.url, FeedKind.BLOG, "the URL is a feed")
    charset = answer.headers.get_content_charset() or "utf-8"
    try:
        text = answer.body.decode(charset, errors="replace")
    except LookupError:
        text = answer.body.decode("utf-8", errors="replace")
    youtube = bare_host(urlsplit(answer.url).hostname or "") in YOUTUBE_HOSTS
    feeds = feeds_in_page(text, answer.url, youtube=youtube)
    return feeds[0] if feeds else None
