"""Link health: is each resource's URL still there?

A check asks with HEAD and falls back to GET (many servers refuse or mishandle HEAD) and
retries with backoff when no answer came in time or the server answered 5xx. Every request
goes through the guarded fetcher (``apps.core.fetch``): only http(s), only public addresses
at every redirect hop, at most ``max_redirects`` redirects, never in a loop, so a curator's
URL or a hostile redirect cannot make the server probe its own network.

The outcome, per Resource: ``link_status`` ok / redirected / broken (the final answer is
4xx or 5xx) / error (no answer: the fetcher's one generic message, so a check tells no open
port from a closed one; a redirect loop or too many redirects), ``link_status_code``
(the first redirect's code when redirected, else the final answer's), ``link_final_url``
(where redirects led), ``link_error`` and ``link_checked_at``.

Title suggestions: for a resource whose title looks poor (the importer's guess from the URL,
"YouTube video …", a bare host or URL: ``title_looks_poor``), or for every resource with
``titles="all"``, a page that answered 2xx is fetched once more with GET; when it is HTML,
its first ``TITLE_BYTES`` are parsed (html.parser) for ``og:title``, else ``<title>``, and
the tidied title (entities unescaped, whitespace collapsed, a site suffix such as
" - YouTube" trimmed) goes to ``Resource.suggested_title`` when it differs from the title.
A curator accepts or dismisses it in the admin; nothing renames a resource by itself.

The network work runs in worker threads (a thread pool) and only the calling thread touches
the database. It runs in a background job, never in a request: apps/curation/linkruns.py starts
and executes link-check runs, apps/curation/tasks.py is the job.
"""

import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from apps.catalog.importer.pagetitles import page_title, tidy_title
from apps.catalog.importer.titles import clean_title
from apps.catalog.models import LinkStatus, Resource
from apps.core.fetch import FetchError, fetch

DEFAULT_WORKERS = 8
DEFAULT_TIMEOUT = 10.0
DEFAULT_RETRIES = 2
MAX_WORKERS = 32
TITLE_BYTES = 64 * 1024  # a page's title sits in its <head>: never read more than this
TITLES_POOR, TITLES_ALL, TITLES_NONE = "poor", "all", "none"
HTML_TYPES = ("text/html", "application/xhtml+xml")


@dataclass(frozen=True)
class LinkCheck:
    url: str
    status: str  # a LinkStatus value
    status_code: int | None = None
    final_url: str = ""
    error: str = ""
    page_title: str = ""  # the page's own title when it was asked for and found


class LinkChecker:
    def __init__(
        self,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        retries: int = DEFAULT_RETRIES,
        backoff: float = 0.5,
        max_redirects: int = 5,
        budget: float | None = None,
        sleep=time.sleep,
    ):
        self.timeout = timeout  # seconds for one request, its redirects included
        self.budget = budget  # seconds for one URL, redirects and retries included (None: no limit)
        self.retries = retries
        self.backoff = backoff
        self.max_redirects = max_redirects
        self.sleep = sleep
        self.user_agent = f"Syllabus link checker (+{getattr(settings, 'SITE_URL', '')})"

    # --- one URL -----------------------------------------------------------------------------
    def check(self, url: str, *, read_title: bool = False) -> LinkCheck:
        """Where ``url`` leads; with ``read_title``, also the title of the page it leads to."""
        deadline = time.monotonic() + self.budget if self.budget else None
        try:
            answer = self._ask(url, deadline)
        except FetchError as failure:
            first_redirect = failure.redirects[0][0] if failure.redirects else None
            return LinkCheck(
                url, LinkStatus.ERROR, first_redirect, _moved(url, failure.url), str(failure)[:300]
            )
        code, current = answer.status, answer.url
        first_redirect = answer.redirects[0][0] if answer.redirects else None
        if 200 <= code < 300:
            title = self._read_title(current, deadline) if read_title else ""
            if current == url:
                return LinkCheck(url, LinkStatus.OK, code, page_title=title)
            return LinkCheck(url, LinkStatus.REDIRECTED, first_redirect, current, page_title=title)
        if code >= 400:
            return LinkCheck(url, LinkStatus.BROKEN, code, _moved(url, current), f"HTTP {code}")
        return LinkCheck(
            url, LinkStatus.ERROR, code, _moved(url, current), f"Unexpected HTTP {code}"
        )

    def _ask(self, url, deadline):
        """The answer at ``url``: HEAD, then GET when HEAD is refused; retried with exponential
        backoff when no answer came in time and on 5xx."""
        for attempt in range(self.retries + 1):
            last_try = attempt == self.retries
            try:
                answer = self._request(url, "HEAD", deadline)
                if answer.status >= 400:
                    answer = self._request(url, "GET", deadline)
            except FetchError as failure:
                if failure.retry and not last_try:
                    self._backoff(attempt, deadline)
                    continue
                raise
            if answer.status >= 500 and not last_try:
                self._backoff(attempt, deadline)
                continue
            return answer
        raise AssertionError("unreachable")  # pragma: no cover

    def _backoff(self, attempt, deadline):
        delay = self.backoff * 2**attempt
        if deadline is not None:
            delay = min(delay, max(0.0, deadline - time.monotonic()))
        self.sleep(delay)

    def _time_left(self, deadline) -> float | None:
        """One request's timeout: ``self.timeout``, or less when the URL's ``deadline`` is nearer;
        None when that deadline has passed."""
        if deadline is None:
            return self.timeout
        timeout = min(self.timeout, deadline - time.monotonic())
        return timeout if timeout > 0 else None

    def _request(self, url, method, deadline):
        timeout = self._time_left(deadline)
        if timeout is None:
            raise FetchError()  # the URL's budget ran out
        return fetch(
            url,
            method=method,
            headers={"User-Agent": self.user_agent, "Accept": "*/*"},
            timeout=timeout,
            max_bytes=0,  # the answer's status is all a check needs
            max_redirects=self.max_redirects,
        )

    def _read_title(self, url, deadline) -> str:
        """The tidied title of the HTML page at ``url``, or "" (not HTML, no title, any failure:
        a missing suggestion never changes the link's status)."""
        timeout = self._time_left(deadline)
        if timeout is None:
            return ""
        try:
            answer = fetch(
                url,
                headers={
                    "User-Agent": self.user_agent,
                    "Accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1",
                },
                timeout=timeout,
                max_bytes=TITLE_BYTES,
                max_redirects=0,
            )
        except FetchError:
            return ""
        if not 200 <= answer.status < 300 or answer.headers.get_content_type() not in HTML_TYPES:
            return ""
        charset = answer.headers.get_content_charset() or "utf-8"
        try:
            text = answer.body.decode(charset, errors="replace")
        except LookupError:  # an unknown charset
            return ""
        return clean_title(tidy_title(page_title(text), url))

    # --- many URLs ---------------------------------------------------------------------------
    def check_many(
        self, urls, *, workers: int = DEFAULT_WORKERS, progress=None, titles_for=()
    ) -> dict[str, LinkCheck]:
        """Check each distinct URL once, ``workers`` at a time; ``progress(done, total, url, result)``
        is called as each check finishes (the command prints it, so a long run is never silent).
        The URLs in ``titles_for`` also have their page's title read."""
        unique = list(dict.fromkeys(urls))
        titles_for = set(titles_for)
        if not unique:
            return {}
        workers = max(1, min(workers, MAX_WORKERS, len(unique)))
        results: dict[str, LinkCheck] = {}
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="linkcheck") as pool:
            futures = {
                pool.submit(self.check, url, read_title=url in titles_for): url for url in unique
            }
            try:
                for future in as_completed(futures):
                    url = futures[future]
                    results[url] = future.result()
                    if progress is not None:
                        progress(len(results), len(unique), url, results[url])
            except BaseException:
                for future in futures:  # a failed progress write: check no further URL
                    future.cancel()
                raise
        return {url: results[url] for url in unique}


def _moved(url, current):
    return "" if current == url else current


# --- Resources -------------------------------------------------------------------------------
def stale_resources(*, days: int | None = None):
    """Resources with a URL; with ``days``, only those never checked or checked longer ago."""
    resources = Resource.objects.exclude(url__isnull=True)
    if days is not None:
        cutoff = timezone.now() - timedelta(days=days)
        resources = resources.filter(
            Q(link_checked_at__isnull=True) | Q(link_checked_at__lt=cutoff)
        )
    return resources
