"""Template helpers for the catalog pages: filter links and outbound-link labels."""

from urllib.parse import urlencode, urlsplit

from django import template
from django.utils.html import escape
from django.utils.safestring import mark_safe
from markdown_it import MarkdownIt

from apps.catalog.importer.urls import bare_host

register = template.Library()

# CommonMark without raw HTML: any <tag> a curator types is shown as text, and markdown-it's own
# link check refuses javascript:, vbscript: and data: (except images) URLs.
_MARKDOWN = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})


@register.filter
def markdown(text):
    """A curator's Markdown (a guide's description) as sanitized HTML."""
    return mark_safe(_MARKDOWN.render(text or ""))


@register.simple_tag(takes_context=True)
def filter_url(context, filters, name, value=None):
    """This page's URL with filter ``name`` set to ``value`` (or removed when ``value`` is None).

    Built from the validated ``filters`` rather than request.GET, so a rejected value never
    sticks to the links. Any other parameter (a page number) is dropped on purpose.
    """
    params = {key: val for key, val in filters.items() if key != name}
    if value is not None:
        params[name] = value
    path = context["page_path"]
    url = f"{path}?{urlencode(sorted(params.items()))}" if params else path
    # In a learner page's shared HTML, a hole for the learner's own parameters (their status
    # filter): the context names the function that makes it (apps.learning.shared).
    hole = context.get("overlay_query_hole")
    return mark_safe(escape(url) + hole("&" if params else "?")) if hole else url


@register.filter
def hostname(url):
    """``https://www.arxiv.org/abs/1`` → ``arxiv.org``: where an outbound link leads."""
    try:
        host = urlsplit(url or "").hostname or ""
    except ValueError:
        return ""
    return bare_host(host)


@register.filter
def duration(minutes):
    """90 → "1 h 30 min"; an effort estimate as a learner reads it."""
    if not minutes:
        return ""
    hours, rest = divmod(int(minutes), 60)
    return " ".join(
        part for part in (f"{hours} h" if hours else "", f"{rest} min" if rest else "") if part
    )
