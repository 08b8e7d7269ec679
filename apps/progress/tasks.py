"""The progress app's background jobs (Django's task framework: docs/ARCHITECTURE.md).

``own_title_fetch``: a learner saved a link whose title is only the guess from its URL; the page's
own title (read through the guarded fetcher) replaces it. Ids only; running it twice writes once.
"""

import logging

from django.tasks import task

from apps.catalog.importer.pagetitles import page_title, tidy_title
from apps.catalog.importer.titles import clean_title
from apps.core.fetch import FetchError, fetch
from apps.progress import services
from apps.progress.models import OwnResource

logger = logging.getLogger(__name__)

TITLE_BYTES = 64 * 1024  # a page's title sits in its <head>
HTML_TYPES = ("text/html", "application/xhtml+xml")


def read_page_title(url: str) -> str:
    """The tidied title of the HTML page at ``url``, or "" (not HTML, no title, no answer)."""
    try:
        answer = fetch(
            url,
            headers={"Accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1"},
            max_bytes=TITLE_BYTES,
        )
    except FetchError as error:
        logger.info("own_title_fetch: %s: %s", url, error)
        return ""
    if not 200 <= answer.status < 300 or answer.headers.get_content_type() not in HTML_TYPES:
        return ""
    try:
        text = answer.body.decode(answer.headers.get_content_charset() or "utf-8", "replace")
    except LookupError:  # an unknown charset
        return ""
    return clean_title(tidy_title(page_title(text), url))


@task
def own_title_fetch(own_id: int) -> dict:
    """Improve own resource ``own_id``'s title from its page, if it is still a poor one."""
    own = OwnResource.objects.select_related("resource").filter(pk=own_id).first()
    if own is None or not own.resource.url:
        return {"own": own_id, "changed": False}
    title = read_page_title(own.resource.url)
    changed = services.own_title_improve(own_id=own_id, page_title=title)
    return {"own": own_id, "changed": changed}
