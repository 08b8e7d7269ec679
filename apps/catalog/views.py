"""The learner-facing catalog pages: home, guides, resources, topics and search.

Each list page is one URL serving both the whole page and, to htmx, the fragment it
swaps (a ``{% partialdef %}`` inside the page template), so every filter and page link
works as a plain link too.
"""

from django.shortcuts import render
from django.views.decorators.http import require_safe
from django.views.decorators.vary import vary_on_headers

from apps.catalog import pages, selectors
from apps.catalog.forms import GuideFilterForm, SearchForm, TopicFilterForm
from apps.catalog.models import Guide, Topic
from apps.core.content import memoized, published_get
from apps.progress.context import progress_context
from apps.progress.overlay import overlay_fill
from apps.progress.views import dashboard


def _page_or_fragment(request, template_name: str, fragment: str, context: dict):
    """The fragment for htmx swaps; the full page otherwise (history restores need the whole page)."""
    if request.htmx and not request.htmx.history_restore_request:
        template_name = f"{template_name}#{fragment}"
    return render(request, template_name, context)


def _filters_from(request, form_class) -> tuple[dict, dict]:
    """The valid filters of the query string, and the context that shows them and any rejected."""
    if request.GET.keys().isdisjoint(form_class.base_fields):  # no filter asked for: nothing to check
        return {}, {"filters": {}, "filter_errors": []}
    form = form_class(request.GET)
    filters = form.cleaned_filters()
    return filters, {"filters": filters, "filter_errors": form.ignored_messages()}


@require_safe
def home(request):
    """The catalog for visitors; a signed-in learner's home is their dashboard."""
    if request.user.is_authenticated:
        return dashboard(request)
    overview = memoized("catalog-overview", selectors.catalog_overview)
    overview_html = pages.shared_html("home", "catalog/includes/catalog_overview.html", lambda: {"overview": overview})
    return render(request, "catalog/home.html", {"overview": overview, "overview_html": overview_html})


@require_safe
@vary_on_headers("HX-Request")
def guide_detail(request, slug):
    guide = published_get(Guide, slug=slug)
    filters, context = _filters_from(request, GuideFilterForm)
    parts = pages.guide_parts(guide=guide, filters=filters, path=request.path)
    context |= {"guide": guide, "parts": parts, "tick_next": pages.tick_next(request.path, filters)}
    context |= progress_context(request.user, guide=guide)
    tallies = parts.bar_tallies(context.get("section_tallies", {}))
    context["entries"] = overlay_fill(request, parts.entries, statuses=context["statuses"], tallies=tallies)
    return _page_or_fragment(request, "catalog/guide_detail.html", "guide-entries", context)


@require_safe
def resource_detail(request, uuid):
    parts = pages.resource_parts(uuid=uuid)
    context = {"resource": parts.resource, "parts": parts, **progress_context(request.user, resource=parts.resource)}
    return render(request, "catalog/resource_detail.html", context)


@require_safe
def topic_list(request):
    cards = pages.shared_html("topics", "catalog/includes/topic_cards.html", lambda: {"topics": selectors.topic_list()})
    return render(request, "catalog/topic_list.html", {"topic_cards": cards})


@require_safe
@vary_on_headers("HX-Request")
def topic_detail(request, slug):
    topic = published_get(Topic, slug=slug)
    filters, context = _filters_from(request, TopicFilterForm)
    parts = pages.topic_parts(topic=topic, filters=filters, path=request.path)
    context |= {"topic": topic, "parts": parts, "tick_next": pages.tick_next(request.path, filters)}
    context |= progress_context(request.user, topic=topic)
    context["resources"] = overlay_fill(request, parts.resources, statuses=context["statuses"])
    return _page_or_fragment(request, "catalog/topic_detail.html", "topic-resources", context)


@require_safe
@vary_on_headers("HX-Request")
def search(request):
    form = SearchForm(request.GET)
    query = form.query()
    context = {"form": form, "query": query, "truncated": form.truncated}
    if query:
        results = pages.search_results(query=query, page_number=request.GET.get("page"), path=request.path)
        context["results"] = overlay_fill(request, results, statuses=progress_context(request.user)["statuses"])
    return _page_or_fragment(request, "catalog/search.html", "search-results", context)
