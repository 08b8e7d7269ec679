"""Reading a feed into the curator inbox.

The feed's bytes are fetched by the guarded fetcher (``apps.core.fetch``: public addresses only,
redirects checked hop by hop, one deadline, a size cap) and handed to feedparser as bytes:
feedparser never opens a URL itself. Each entry becomes an ``InboxItem`` unless it is

* without a link (an http(s) address) or without a date (published, else updated): nothing says
  what or how recent it is;
* older than ``ITEM_MAX_AGE``: a feed read for the first time offers its recent items, not its
  whole history;
* already in the inbox (new, accepted or dismissed, from any feed) or already in the catalog,
  compared by the catalog's URL identity (``catalog.models.url_key``, and an extra link that is
  a resource's own work).

A read writes its items and the feed's state in one transaction. A read that fails (no answer,
an HTTP error, more than ``FEED_MAX_BYTES``, not RSS or Atom) writes no item, records the
reason on the feed (``last_error``) and raises ``FeedReadError`` with it: the job's error.
"""

import calendar
import html
import io
import logging
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from urllib.parse import urljoin, urlsplit

import feedparser
from django.db import transaction
from django.utils import timezone
from django.utils.html import strip_tags
from django.utils.text import Truncator

from apps.catalog.models import url_key
from apps.core.fetch import FetchError, fetch
from apps.inbox.models import Feed, InboxItem
from apps.inbox.selectors import (
    best_section,
    catalogued_resources,
    resource_section,
    section_words,
)

logger = logging.getLogger(__name__)

FEED_MAX_BYTES = 2 * 1024 * 1024
ITEM_MAX_AGE = timedelta(days=60)
ENTRIES_READ = 200  # a feed's first entries (the newest, by convention); the rest are not read
SUMMARY_CHARS = 1000
USER_AGENT = "Syllabus feed reader"
ACCEPT = (
    "application/atom+xml, application/rss+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.1"
)


class FeedReadError(Exception):
    """A feed could not be read; the message names the feed and says why."""


@dataclass
class ReadResult:
    entries: int = 0
    added: int = 0
    seen: int = 0  # already in the inbox
    catalogued: int = 0
    no_link: int = 0
    no_date: int = 0
    old: int = 0
    not_modified: bool = False

    def describe(self) -> str:
        if self.not_modified:
            return "Not changed since the last read."
        parts = [
            f"{count} {label}"
            for count, label in (
                (self.seen, "already in the inbox"),
                (self.catalogued, "already in the catalog"),
                (self.old, "older than the inbox keeps"),
                (self.no_link, "without a link"),
                (self.no_date, "without a date"),
            )
            if count
        ]
        entries = f"{self.entries} entr{'y' if self.entries == 1 else 'ies'}"
        return f"{entries}: {self.added} new" + (f"; {', '.join(parts)}." if parts else ".")


@dataclass(frozen=True)
class Candidate:
    url: str
    key: str
    title: str
    date: datetime
    summary: str


def _fail(feed: Feed, message: str) -> FeedReadError:
    """Record ``message`` on the feed (nothing else is written) and return the job's error."""
    logger.info("feed %s: %s", feed.url, message)
    Feed.objects.filter(pk=feed.pk).update(last_read_at=timezone.now(), last_error=message[:500])
    return FeedReadError(f"Feed {feed.url}: {message}")


def read_feed(feed: Feed, *, now: datetime | None = None) -> ReadResult:
    """Read ``feed`` and put its new items in the inbox; raises FeedReadError (see the module)."""
    now = now or timezone.now()
    headers = {"User-Agent": USER_AGENT, "Accept": ACCEPT}
    if feed.etag:
        headers["If-None-Match"] = feed.etag
    if feed.modified:
        headers["If-Modified-Since"] = feed.modified
    try:
        answer = fetch(feed.url, headers=headers, max_bytes=FEED_MAX_BYTES)
    except FetchError as error:
        retry = " (it took too long: the next read tries again)" if error.retry else ""
        raise _fail(feed, f"{error}{retry}") from None
    if answer.status == 304:
        result = ReadResult(not_modified=True)
        _record(feed, result, now=now, etag=feed.etag, modified=feed.modified)
        return result
    if not 200 <= answer.status < 300:
        raise _fail(feed, f"The feed answered HTTP {answer.status}.")
    if answer.truncated:
        raise _fail(
            feed, f"The feed is larger than {FEED_MAX_BYTES // (1024 * 1024)} MB: not read."
        )
    parsed = feedparser.parse(
        io.BytesIO(answer.body),
        response_headers={
            "content-type": answer.headers.get("Content-Type", "application/xml"),
            "content-location": answer.url,
        },
    )
    if not parsed.get("version") and not parsed.entries:
        raise _fail(feed, "The answer is not an RSS or Atom feed.")
    result = ReadResult(entries=min(len(parsed.entries), ENTRIES_READ))
    candidates = _candidates(parsed.entries[:ENTRIES_READ], answer.url, now=now, result=result)
    with transaction.atomic():
        seen = set(
            InboxItem.objects.filter(url_key__in=candidates.keys()).values_list(
                "url_key", flat=True
            )
        )
        catalogued = catalogued_resources(candidates.keys() - seen)
        fresh = [c for key, c in candidates.items() if key not in seen and key not in catalogued]
        result.seen, result.catalogued = len(seen), len(catalogued)
        items = _items(feed, fresh)
        # ignore_conflicts: a read of another feed running at the same time may have offered
        # the same page first; it stays offered once.
        created = InboxItem.objects.bulk_create(items, ignore_conflicts=True)
        result.added = len(created)
        _record(
            feed,
            result,
            now=now,
            title=_field_text(parsed.feed, "title")[:300],
            etag=answer.headers.get("ETag", "")[:300],
            modified=answer.headers.get("Last-Modified", "")[:100],
        )
    return result


def _record(feed: Feed, result: ReadResult, *, now, etag, modified, title=None) -> None:
    feed.last_read_at = feed.last_ok_at = now
    feed.last_error = ""
    feed.last_result = result.describe()[:300]
    feed.etag, feed.modified = etag, modified
    fields = ["last_read_at", "last_ok_at", "last_error", "last_result", "etag", "modified"]
    if title:
        feed.title = title
        fields.append("title")
    feed.save(update_fields=fields)


def _text(value: str, content_type: str = "text/html") -> str:
    """Plain text of a feed's field, whitespace collapsed: HTML (feedparser has sanitized it)
    loses its tags; text is kept as written, markup and all (the admin escapes it). Entities
    left in either (RSS titles are often escaped twice) are read."""
    value = value or ""
    if content_type in ("text/html", "application/xhtml+xml"):
        value = strip_tags(value)
    return " ".join(html.unescape(value).split())


def _field_text(entry, name: str) -> str:
    detail = entry.get(f"{name}_detail") or {}
    return _text(entry.get(name, ""), detail.get("type", "text/html"))


def _entry_date(entry) -> datetime | None:
    for name in ("published_parsed", "updated_parsed", "created_parsed"):
        value = entry.get(name)
        if value:
            try:
                return datetime.fromtimestamp(calendar.timegm(value), tz=UTC)
            except (OverflowError, ValueError, TypeError):
                continue
    return None


def _candidates(entries, base_url: str, *, now, result: ReadResult) -> dict[str, Candidate]:
    """{url_key: Candidate} of the entries worth offering (first of each URL), counting the rest."""
    found: dict[str, Candidate] = {}
    oldest = now - ITEM_MAX_AGE
    for entry in entries:
        link = (entry.get("link") or "").strip()
        url = urljoin(base_url, link) if link else ""
        if not url or urlsplit(url).scheme not in ("http", "https") or len(url) > 2000:
            result.no_link += 1
            continue
        date = _entry_date(entry)
        if date is None:
            result.no_date += 1
            continue
        if date < oldest:
            result.old += 1
            continue
        key = url_key(url)
        if key in found:
            result.seen += 1
            continue
        title = _field_text(entry, "title") or url
        summary = _field_text(entry, "summary")
        found[key] = Candidate(
            url=url,
            key=key,
            title=Truncator(title).chars(300),
            date=min(date, now),
            summary=Truncator(summary).chars(SUMMARY_CHARS),
        )
    return found


def _items(feed: Feed, candidates: list[Candidate]) -> list[InboxItem]:
    """Unsaved items for ``candidates``, each with its suggested section (see ``suggest``)."""
    if not candidates:
        return []
    fixed = feed.section_id
    if fixed is None and feed.resource_id is not None:
        section = resource_section(feed.resource_id)
        fixed = section.pk if section is not None else None
    by_words = section_words() if fixed is None else []
    return [
        InboxItem(
            url=c.url,
            url_key=c.key,
            title=c.title,
            date=c.date,
            summary=c.summary,
            feed=feed,
            suggested_section_id=fixed or best_section(c.title, c.summary, by_words),
        )
        for c in candidates
    ]
