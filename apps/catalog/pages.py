"""The learner-free part of catalog pages, rendered once per content version and worker.

A guide or topic page is the same for every learner but for ticks and bars: its rows are
rendered as an Overlay (apps.progress.overlay) under apps.core.content's memo, and each
request only fills in the learner's statuses. Keys hold everything the rendered HTML depends on
(the object, the validated filters, the page's path); the content token holds the rest.
"""

from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlencode

from django.utils.safestring import SafeString

from apps.catalog import selectors
from apps.catalog.models import Guide, Resource, Topic
from apps.core.content import ContentMemo, content_token, memoized
from apps.core.html import render_shared
from apps.progress.bars import section_bar
from apps.progress.overlay import Overlay, overlay_render
from apps.progress.selectors import Tally


def tick_next(path: str, filters: dict) -> str:
    """Where a no-JavaScript tick returns to: this page with only the valid filters."""
    return f"{path}?{urlencode(filters)}" if filters else path


def shared_html(key, template_name: str, context: Callable[[], dict]) -> SafeString:
    """A template that shows no learner and no request, rendered once per content version."""
    return memoized(("html", key), lambda: render_shared(template_name, context()))


@dataclass(frozen=True)
class GuideParts:
    total_count: int
    heading: SafeString  # breadcrumbs, title, description and size: the header up to the learner's bar
    toc: SafeString  # "" when the guide is too small to need one
    entries: Overlay  # filters, result count and the section tree with its rows
    section_bars: dict  # section_id -> the dom id of its bar in `entries`

    def bar_tallies(self, section_tallies: dict) -> dict:
        """{bar dom id: Tally} for `entries` from the learner's {section_id: Tally}."""
        return {dom_id: section_tallies[pk] for pk, dom_id in self.section_bars.items() if pk in section_tallies}


def guide_parts(*, guide: Guide, filters: dict, path: str) -> GuideParts:
    key = ("guide", guide.id, path, tuple(sorted(filters.items())))
    return memoized(key, lambda: _guide_parts_build(guide=guide, filters=filters, path=path))


def _guide_parts_build(*, guide, filters, path):
    contents = selectors.guide_contents(guide=guide, filters=filters)
    sections = list(_walk(contents.sections))
    context = {
        "contents": contents,
        "filters": filters,
        "page_path": path,
        # Every section bar becomes a hole; the learner's tallies fill it.
        "section_tallies": {section.id: Tally(total=1) for section in sections},
    }
    return GuideParts(
        total_count=contents.total_count,
        heading=render_shared("catalog/guide_detail.html#heading", {"guide": guide, "total_count": contents.total_count}),
        toc=render_shared("catalog/includes/guide_toc.html", {"contents": contents}) if len(contents.contents) > 2 else "",
        entries=overlay_render("catalog/includes/guide_entries.html", context),
        section_bars={section.id: section_bar(section, None).dom_id for section in sections},
    )


def _walk(sections):
    for section in sections:
        yield section
        yield from _walk(section.shown_subsections)


@dataclass(frozen=True)
class TopicParts:
    total_count: int
    shown_count: int
    resources: Overlay


def topic_parts(*, topic: Topic, filters: dict, path: str) -> TopicParts:
    key = ("topic", topic.id, path, tuple(sorted(filters.items())))
    return memoized(key, lambda: _topic_parts_build(topic=topic, filters=filters, path=path))


def _topic_parts_build(*, topic, filters, path):
    contents = selectors.topic_contents(topic=topic, filters=filters)
    context = {
        "topic": topic,
        "contents": contents,
        "filters": filters,
        "page_path": path,
    }
    return TopicParts(
        total_count=contents.total_count,
        shown_count=len(contents.resources),
        resources=overlay_render("catalog/includes/topic_resources.html", context),
    )


@dataclass(frozen=True)
class ResourceParts:
    resource: Resource  # with its links, topics and placements (selectors.resource_details); read-only
    crumbs: SafeString
    head: SafeString  # badges, title, author, the link and any notice about it
    body: SafeString  # description, more links, placements in the guides, topics


# Resource pages get their own memo, sized for every resource: a crawl through them all must
# not push the guides out of the shared one.
_resource_memo = ContentMemo(size=1024)


def resource_parts(*, uuid) -> ResourceParts:
    """Everything of a published resource's page but the learner's progress; Http404 if none."""
    return _resource_memo.get(content_token(), uuid, lambda: _resource_parts_build(uuid=uuid))


def _resource_parts_build(*, uuid):
    resource = selectors.resource_details(uuid=uuid)
    context = {"resource": resource}
    return ResourceParts(
        resource=resource,
        crumbs=render_shared("catalog/includes/resource_crumbs.html", context),
        head=render_shared("catalog/includes/resource_head.html", context),
        body=render_shared("catalog/includes/resource_body.html", context),
    )


# Searches get their own memo: live search makes a key per keystroke, which must not push the
# guides out of the shared one.
_search_memo = ContentMemo(size=256)


def search_results(*, query: str, page_number, path: str) -> Overlay:
    """One page of results for `query` (non-empty), rows with ticks as holes."""
    key = (query, str(page_number))
    return _search_memo.get(content_token(), key, lambda: _search_results_build(query=query, page_number=page_number, path=path))


def _search_results_build(*, query, page_number, path):
    page = selectors.search_page(query=query, page_number=page_number)

    def url(number):
        return f"{path}?{urlencode({'q': query, 'page': number})}"

    context = {
        "query": query,
        "page": page,
        "previous_url": url(page.previous_page_number()) if page.has_previous() else "",
        "next_url": url(page.next_page_number()) if page.has_next() else "",
    }
    return overlay_render("catalog/includes/search_results.html", context)
