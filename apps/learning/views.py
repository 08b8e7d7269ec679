"""The learner's pages: the catalog (home, guides, resources, topics, search) and the paths with
the learner's progress on them, the dashboard, and the tick that changes it.

Each list page is one URL serving both the whole page and, to htmx, the fragment it swaps (a
``{% partialdef %}`` inside the page template), so every filter and page link works as a plain
link too. What is the same for every learner comes from apps.learning.shared.
"""

from urllib.parse import quote, urlencode, urlsplit

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRedirect, retarget

from apps.catalog import selectors
from apps.catalog.forms import GuideFilterForm, SearchForm, TopicFilterForm
from apps.catalog.models import Guide, ResourceAlias, Topic
from apps.core.content import published_get
from apps.core.reversing import reverse_cached
from apps.learning import quick, shared, whatsnew
from apps.learning import scope as scopes
from apps.learning.forms import SeenForm
from apps.learning.scope import TickScope
from apps.learning.services import whats_new_mark_seen
from apps.learning.shared import overlay_fill
from apps.learning.status_filter import (
    ENTRIES,
    RESOURCES,
    RESULTS,
    status_filter_context,
    status_filter_from,
    status_filter_of,
)
from apps.learning.widgets import (
    STATUS_CHOICES,
    bars_for_scope,
    dashboard_tallies,
    guide_bar,
    guide_card_tallies,
    next_up_html,
    overall_bar,
    step_bar,
    topic_bar,
    topic_tally,
)
from apps.paths import selectors as path_selectors
from apps.progress import selectors as progress_selectors
from apps.progress.forms import NoteForm, StatusForm
from apps.progress.models import Status
from apps.progress.services import progress_set_note, progress_set_status
from apps.progress.signals import PENDING_SESSION_KEY


def _page_or_fragment(request, template_name: str, fragment: str, context: dict):
    """The fragment for htmx swaps; the full page otherwise (history restores need the whole page)."""
    if request.htmx and not request.htmx.history_restore_request:
        template_name = f"{template_name}#{fragment}"
    return render(request, template_name, context)


def _filters_from(params, form_class) -> tuple[dict, dict]:
    """The valid filters of a query string (`params`, a QueryDict), and the context that shows
    them and any rejected."""
    if params.keys().isdisjoint(form_class.base_fields):  # no filter asked for: nothing to check
        return {}, {"filters": {}, "filter_errors": []}
    form = form_class(params)
    filters = form.cleaned_filters()
    return filters, {"filters": filters, "filter_errors": form.ignored_messages()}


@require_safe
def home(request):
    """The catalog for visitors; a signed-in learner's home is their dashboard."""
    if request.user.is_authenticated:
        return dashboard(request)
    overview = shared.catalog_overview()
    overview_html = shared.shared_html(
        "home",
        "catalog/includes/catalog_overview.html",
        lambda: {"overview": overview},
        shared.CATALOG_OVERVIEW_TOKENS,
    )
    return render(
        request, "catalog/home.html", {"overview": overview, "overview_html": overview_html}
    )


@require_safe
def guide_list(request):
    """Every published guide as a card; a signed-in learner sees their progress on each."""
    statuses = progress_selectors.statuses_for(user=request.user)
    context = {
        "cards": overlay_fill(
            request,
            shared.guide_cards(),
            statuses=statuses,
            tallies=guide_card_tallies(statuses=statuses),
        )
    }
    if request.user.is_authenticated:
        context["overall"] = progress_selectors.overall_tally(statuses=statuses)
    return render(request, "catalog/guide_list.html", context)


@require_safe
@vary_on_headers("HX-Request")
def guide_detail(request, slug):
    guide = published_get(Guide, slug=slug)
    filters, context = _filters_from(request.GET, GuideFilterForm)
    parts = shared.guide_parts(guide=guide, filters=filters, path=request.path)
    statuses = progress_selectors.statuses_for(user=request.user)
    tallies = progress_selectors.guide_tallies(guide=guide, statuses=statuses)
    entries, status_filter = _status_filtered(
        request,
        parts.entries,
        statuses,
        tallies=_section_bar_tallies(guide, tallies),
        params=filters,
        target="guide-entries",
        nouns=ENTRIES,
    )
    context |= status_filter | {
        "guide": guide,
        "parts": parts,
        "tick_next": shared.tick_next(request.path, filters | status_filter["status_params"]),
        "tick_scope": TickScope.of_guide(guide),
        "statuses": statuses,
        "entries": entries,
    }
    if request.user.is_authenticated:
        context["guide_progress_bar"] = guide_bar(guide, tallies.tally)
    return _page_or_fragment(request, "catalog/guide_detail.html", "guide-entries", context)


def _status_filtered(request, overlay, statuses, *, tallies=None, params, target, nouns):
    """`overlay` filled for the learner with only the rows their status filter keeps (its other
    filter links keeping it too), and the context that shows the filter
    (learning/includes/status_filter.html)."""
    status_filter = status_filter_from(request)
    html = overlay_fill(
        request,
        overlay,
        statuses=statuses,
        tallies=tallies,
        show=status_filter.show,
        query=urlencode(status_filter.params()),
    )
    return html, status_filter_context(
        status_filter,
        overlay.row_statuses(statuses),
        path=request.path,
        params=params,
        target=target,
        nouns=nouns,
    )


def _section_bar_tallies(guide, tallies) -> dict:
    """{section bar dom id: Tally} of the guide's sections (see widgets.section_bar)."""
    sections = selectors.visible_tree().visible
    return {f"bar-section-{sections[pk].uuid}": tally for pk, tally in tallies.sections.items()}


@require_safe
def resource_detail(request, uuid):
    try:
        parts = shared.resource_parts(uuid=uuid)
    except Http404:
        # A resource merged into another: its old address answers for the survivor, for good.
        alias = ResourceAlias.objects.filter(uuid=uuid).values_list("resource_id", flat=True)
        survivor = selectors.visible_resources_by_id().get(next(iter(alias), None))
        if survivor is None:
            raise
        return redirect(survivor.get_absolute_url(), permanent=True)
    resource = parts.resource
    context = {
        "resource": resource,
        "parts": parts,
        "tick_scope": scopes.RESOURCE,
        "statuses": {},
    }
    if request.user.is_authenticated:
        progress = progress_selectors.progress_row(user=request.user, resource=resource)
        shown = Status.shown(progress and progress.status)
        context |= {
            "my_progress": progress,
            "my_status": shown,
            "status_choices": STATUS_CHOICES,
            "statuses": {resource.id: shown} if shown else {},
        }
    return render(request, "catalog/resource_detail.html", context)


@require_safe
def topic_list(request):
    cards = shared.shared_html(
        "topics",
        "catalog/includes/topic_cards.html",
        lambda: {"topics": selectors.topic_list()},
        selectors.TOPICS,
    )
    return render(request, "catalog/topic_list.html", {"topic_cards": cards})


@require_safe
@vary_on_headers("HX-Request", "HX-Target")
def topic_detail(request, slug):
    """A topic's resources a page at a time (`?page=N`, previous/next links without JavaScript).
    htmx swaps the whole list for a filter, and appends the next page's rows when the learner
    scrolls to "Load more" (HX-Target `topic-rows`). The learner's status filter counts over every
    row and pages over those it keeps."""
    topic = published_get(Topic, slug=slug)
    filters, context = _filters_from(request.GET, TopicFilterForm)
    parts = shared.topic_parts(topic=topic, filters=filters, path=request.path)
    statuses = progress_selectors.statuses_for(user=request.user)
    status_filter = status_filter_from(request)
    found = [statuses.get(pk, "") for pk in parts.resource_ids] if status_filter.offered else []
    kept = None
    if status_filter.choice:
        show = status_filter.show
        kept = [pk for pk, status in zip(parts.resource_ids, found, strict=True) if show(status)]
    appending = bool(request.htmx) and request.htmx.target == "topic-rows"
    listed = shared.topic_rows(
        topic=topic,
        filters=filters,
        path=request.path,
        page_number=request.GET.get("page"),
        kept=kept,
        after=_row_after(request.GET.get("after")) if appending else None,
    )
    page = listed.page
    first = page
    if appending:  # the nav after the rows speaks for every page on screen since the page loaded
        shown_from = QueryDict(urlsplit(request.htmx.current_url or "").query).get("page")
        first = page.paginator.get_page(shown_from)
        first = first if first.number <= page.number else page
    params = filters | status_filter.params()
    query = urlencode(status_filter.params())

    def url(number, **more):
        return shared.tick_next(
            request.path, params | ({"page": number} if number > 1 else {}) | more
        )

    size = page.paginator.per_page
    context |= status_filter_context(
        status_filter,
        found,
        path=request.path,
        params=filters,
        target="topic-resources",
        nouns=RESOURCES,
    ) | {
        "topic": topic,
        "parts": parts,
        "page": page,
        "head": overlay_fill(request, parts.head, statuses=statuses, query=query),
        "rows": mark_safe(
            "".join(overlay_fill(request, row, statuses=statuses) for row in listed.rows)
        ),
        "where": _rows_shown(first, listed.stop, of_all=kept is None),
        "previous_url": url(first.previous_page_number()) if first.has_previous() else "",
        # Without JavaScript, the page holding the next row; "Load more" asks for the rows after
        # the last one on screen, so one that left the list since is no reason to skip another.
        "next_url": url(listed.stop // size + 1) if listed.has_next else "",
        "more_url": url(listed.stop // size + 1, after=listed.last)
        if listed.has_next and listed.last
        else "",
        "tick_next": url(page.number),
        "tick_scope": TickScope.of_topic(topic),
        "statuses": statuses,
    }
    if appending:
        return render(request, "catalog/topic_detail.html#topic-more", context)
    if request.user.is_authenticated:
        context["topic_progress_bar"] = topic_bar(
            topic, topic_tally(topic=topic, statuses=statuses)
        )
    return _page_or_fragment(request, "catalog/topic_detail.html", "topic-resources", context)


def _rows_shown(first, stop: int, *, of_all: bool) -> str:
    """ "Showing 101–200 of 1,033 resources" for the rows from page `first` to the list's index
    `stop`. Under a status filter the total is the filter's own sentence, which a tick refreshes
    (here it would go stale as ticked rows leave)."""
    start, count = number_format(first.start_index(), force_grouping=True), first.paginator.count
    if not of_all:
        return _("Showing %(start)s–%(stop)s") % {
            "start": start,
            "stop": number_format(stop, force_grouping=True),
        }
    return ngettext(
        "Showing %(start)s–%(stop)s of %(count)s resource",
        "Showing %(start)s–%(stop)s of %(count)s resources",
        count,
    ) % {
        "start": start,
        "stop": number_format(stop, force_grouping=True),
        "count": number_format(count, force_grouping=True),
    }


def _row_after(value) -> int | None:
    """The resource id of "Load more"'s `after` (a visible resource's uuid), else None."""
    if not value:
        return None
    try:
        return selectors.visible_resource(uuid=value).id
    except Http404:
        return None


@require_safe
@vary_on_headers("HX-Request")
def search(request):
    form = _search_form(request.GET)
    query, filters = form.query(), form.filters()
    context = {
        "form": form,
        "query": query,
        "truncated": form.truncated,
        "filters": filters,
        "filter_errors": form.ignored_messages(),
    }
    if query:
        context |= _search_results(request, query, filters)
        if request.user.is_authenticated and not request.GET.get("page"):
            # beside the catalog's results, the learner's own links (private: theirs only)
            context["own_results"] = progress_selectors.own_rows(
                user=request.user, query=query, limit=OWN_SEARCH_LIMIT
            )
    response = _page_or_fragment(request, "catalog/search.html", "search-results", context)
    if request.htmx:  # the address bar shows the search without empty or rejected filters
        params = {"q": query, **filters, **context.get("status_params", {})} if query else {}
        if request.GET.get("page"):
            params["page"] = request.GET["page"]
        response["HX-Replace-Url"] = (
            f"{request.path}?{urlencode(params)}" if params else request.path
        )
    return response


OWN_SEARCH_LIMIT = 20


def _search_form(params) -> SearchForm:
    """The search form over a query string: the page's own, or the one a tick was sent from."""
    guides = [(guide.slug, guide.title) for guide in selectors.guides_with_top_sections()]
    return SearchForm(params, guides=guides)


def _search_results(request, query: str, filters: dict) -> dict:
    """The results page for the learner, their status filter over every result (not one page):
    its counts are of all results, and a chosen status pages through only the results it keeps."""
    page_number = request.GET.get("page")
    statuses = progress_selectors.statuses_for(user=request.user)
    status_filter = status_filter_from(request)
    params = {"q": query, **filters}
    ids = shared.search_ids(query=query, filters=filters) if status_filter.offered else ()
    found = [statuses.get(pk, "") for pk in ids]
    within = None
    if status_filter.choice:
        within = [pk for pk, status in zip(ids, found, strict=True) if status_filter.show(status)]
    results = shared.search_results(
        query=query,
        page_number=page_number,
        path=request.path,
        filters=filters,
        within=within,
        params=status_filter.params(),
    )
    query_params = urlencode(status_filter.params())
    return status_filter_context(
        status_filter,
        found,
        path=request.path,
        params=params,
        target="search-results",
        nouns=RESULTS,
    ) | {"results": overlay_fill(request, results, statuses=statuses, query=query_params)}


# The dashboard's "Paths you follow" shows every curated path the learner follows and their newest
# own paths, up to this many (the rest are a link away, on /my/paths/).
DASHBOARD_OWN_PATHS = 5


def _dashboard_paths(*, user, statuses, follows):
    """The dashboard's "Paths you follow", for the page and for a tick's refresh alike."""
    return path_selectors.paths_followed(
        user=user, statuses=statuses, follows=follows, own_limit=DASHBOARD_OWN_PATHS
    )


def _whats_new_block(*, user, statuses, follows, seen):
    """The dashboard's What's new block: the numbers the What's new page shows as new."""
    since = whatsnew.page_since(user=user, seen=seen, now=timezone.now())
    return whatsnew.whats_new_block(statuses=statuses, follows=follows, seen=seen, since=since)


@login_required
def dashboard(request):
    user = request.user
    overview = progress_selectors.progress_overview(user=user)
    statuses = overview.statuses
    follows = path_selectors.follows_for(user=user)
    seen = whatsnew.seen_up_to(user=user)
    guide = progress_selectors.last_guide(
        guides=selectors.guides_with_top_sections(), recent=overview.recent
    )
    context = {
        "overall": overall_bar(progress_selectors.overall_tally(statuses=statuses)),
        "guide_bars": overlay_fill(
            request,
            shared.dashboard_guide_bars(),
            statuses=statuses,
            tallies=dashboard_tallies(statuses=statuses),
        ),
        "continue_guide": guide,
        "continue_entries": progress_selectors.continue_in_guide(guide=guide, statuses=statuses)
        if guide
        else [],
        "in_progress_rows": overview.in_progress,
        "recent_rows": overview.done,
        "year": progress_selectors.activity_year(user=user),
        "pins": quick.dashboard_pins(user=user, statuses=statuses),
        "followed": _dashboard_paths(user=user, statuses=statuses, follows=follows),
        "whats_new": _whats_new_block(user=user, statuses=statuses, follows=follows, seen=seen),
        "whats_new_shown_at": timezone.now(),
        "tick_scope": scopes.DASHBOARD,
        "statuses": statuses,
        "data_links": {fmt: reverse_cached("progress:export", fmt) for fmt in ("md", "csv", "json")}
        | {"import": reverse_cached("progress:import")},
    }
    return render(request, "progress/dashboard.html", context)


@login_required
@require_safe
def whats_new(request):
    """What was added to what the learner uses (apps.learning.whatsnew); opening the page (a GET,
    not a HEAD) moves their "seen up to" to now, after the page is read with the old one."""
    user, now = request.user, timezone.now()
    seen = whatsnew.seen_up_to(user=user)
    news = whatsnew.whats_new(
        statuses=progress_selectors.statuses_for(user=user),
        follows=path_selectors.follows_for(user=user),
        seen=seen,
        since=whatsnew.page_since(user=user, seen=seen, now=now),
    )
    if request.method == "GET":
        whats_new_mark_seen(user=user, when=now)
    return render(request, "learning/whats_new.html", {"news": news})


SEEN_REFUSED = gettext_lazy(
    "That “Mark as seen” could not be read; nothing was changed. Reload the page and try again."
)


@login_required
@require_POST
def whats_new_seen(request):
    """The dashboard block's "Mark as seen": the learner's "seen up to" moves to the moment the
    block was shown (never later than now). htmx removes the block; without JavaScript the
    dashboard comes back without it."""
    back = safe_next(request, reverse_cached("learning:dashboard"))
    form = SeenForm(request.POST)
    if not form.is_valid():
        return _refused(request, SEEN_REFUSED, status=400, back=back)
    whats_new_mark_seen(
        user=request.user, when=min(form.cleaned_data["seen_up_to"], timezone.now())
    )
    if request.htmx:
        return HttpResponse("")  # the block is swapped for nothing
    messages.success(request, _("Marked as seen."))
    return redirect(back)


@require_safe
def path_list(request):
    return render(
        request, "paths/path_list.html", {"paths": path_selectors.path_list(user=request.user)}
    )


@require_safe
@vary_on_headers("HX-Request")
def path_detail(request, slug):
    path = path_selectors.published_path(slug=slug)
    statuses = progress_selectors.statuses_for(user=request.user)
    view = path_selectors.path_detail(path=path, user=request.user, statuses=statuses)
    outline = shared.path_steps(
        path=view.path, outline=lambda: path_selectors.path_outline(view.path)
    )
    context = {
        "view": view,
        "heading": shared.shared_html(
            ("path-heading", path.id),
            "paths/path_detail.html#heading",
            lambda: {"view": path_selectors.path_outline(path)},
            path_selectors.path_titled_tokens(),
        ),
        "next_up": next_up_html(view),
        "tick_scope": TickScope.of_path(path),
    }
    context["steps"], status_filter = _status_filtered(
        request,
        outline,
        statuses,
        tallies={step_bar(step).dom_id: step.tally for step in view.steps},
        params={},
        target="path-steps",
        nouns=RESOURCES,
    )
    return _page_or_fragment(
        request, "paths/path_detail.html", "path-steps", context | status_filter
    )


def safe_next(request, fallback):
    """The `next` the request names if it is a path on this site, else `fallback` (another host,
    or a word `redirect` would take for a view name)."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    allowed = target.startswith("/") and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if allowed else fallback


@login_required
@require_POST
def progress_note(request, resource_uuid):
    resource = selectors.visible_resource(uuid=resource_uuid)
    form = NoteForm(request.POST)
    if not form.is_valid():
        return _refused(
            request, NOTE_TOO_LONG, status=400, back=safe_next(request, resource.get_absolute_url())
        )
    row = progress_set_note(user=request.user, resource=resource, note=form.cleaned_data["note"])
    if request.htmx:  # the resource page's progress block, the note as saved
        return retarget(
            _resource_progress(request, resource, row, note_saved=True), f"#{RESOURCE_PROGRESS_ID}"
        )
    messages.success(request, _("Note saved."))
    return redirect(safe_next(request, resource.get_absolute_url()))


NOTE_TOO_LONG = gettext_lazy("Notes can be at most 10,000 characters; nothing was saved.")
TICK_BUTTON_ID_PREFIX = "tick-btn-"  # progress/includes/tick.html


@require_POST
def progress_set(request, resource_uuid):
    """Put a resource in the status the request names. htmx gets the tick back plus every bar
    on its page (out-of-band); without JavaScript the form posts here and we redirect back.
    The resource is one the learner may tick (progress.selectors.tickable_resource): one learners
    may see, or one of their own; anything else (another learner's own) is a 404."""
    resource = progress_selectors.tickable_resource(user=request.user, uuid=resource_uuid)
    back = safe_next(request, _resource_home(resource))
    form = StatusForm(_with_slot(request))
    if not form.is_valid():
        return _refused(
            request, _("That status is not valid; nothing was changed."), status=400, back=back
        )
    status = form.cleaned_data["status"]
    note = None  # the resource page posts its note with a status: typed text is saved, not lost
    if request.user.is_authenticated and "note" in request.POST:
        note_form = NoteForm(request.POST)
        if not note_form.is_valid():
            return _refused(request, NOTE_TOO_LONG, status=400, back=back)
        note = note_form.cleaned_data["note"].strip()
    if not request.user.is_authenticated:
        # Remembered across sign-in (see apps.progress.signals), then applied.
        request.session[PENDING_SESSION_KEY] = {"resource": str(resource.uuid), "status": status}
        login_url = f"{reverse('account_login')}?next={quote(back)}"
        messages.info(
            request,
            _("Sign in to track your progress; “%(title)s” will be saved.")
            % {"title": resource.title},
        )
        return HttpResponseClientRedirect(login_url) if request.htmx else redirect(login_url)

    row = progress_set_status(user=request.user, resource=resource, status=status, note=note)
    scope = TickScope.parse(form.cleaned_data["scope"])
    if not request.htmx:
        anchor = "" if "#" in back else _row_anchor(scope, form.cleaned_data["slot"])
        return redirect(back + anchor)
    if scope == scopes.RESOURCE:  # the resource page: its whole progress block, status buttons too
        return retarget(_resource_progress(request, resource, row), f"#{RESOURCE_PROGRESS_ID}")
    status = Status.shown(row and row.status)
    slot = form.cleaned_data["slot"] or str(resource.uuid)
    statuses = progress_selectors.statuses_for(user=request.user)
    bars, other_slots, path_view = bars_for_scope(
        user=request.user, scope=scope, resource=resource, statuses=statuses
    )
    context = {
        "resource": resource,
        "status": status,
        "slot": slot,
        "other_slots": [s for s in other_slots if s != slot],
        "bars": bars,
        "path_view": path_view,
        "menu_open": request.POST.get("menu") == "1",  # sent from the row's status menu
        # A tick drawn without a menu (the resource page has its own buttons) says so.
        "status_menu": request.POST.get("menu") != "0",
    }
    context |= _list_refresh(
        request,
        scope=scope,
        statuses=statuses,
        status=status,
        slots=[slot, *context["other_slots"]],
        path_view=path_view,
    )
    if (
        scope == scopes.DASHBOARD
    ):  # its lists of started and finished resources, and the paths' pace
        overview = progress_selectors.progress_overview(user=request.user)
        follows = path_selectors.follows_for(user=request.user)
        seen = whatsnew.seen_up_to(user=request.user)
        context |= {
            "dashboard": True,
            "overall": bars[0],  # the sentence above the overall bar counts with it
            "year": progress_selectors.activity_year(user=request.user),
            "in_progress_rows": overview.in_progress,
            "recent_rows": overview.done,
            "pins": quick.dashboard_pins(user=request.user, statuses=statuses),
            "followed": _dashboard_paths(user=request.user, statuses=statuses, follows=follows),
            # What's new names the finished sections that gained items: a tick can finish one.
            "whats_new": _whats_new_block(
                user=request.user, statuses=statuses, follows=follows, seen=seen
            ),
            "whats_new_shown_at": timezone.now(),
        }
    return render(request, "progress/tick_response.html", context)


def _resource_home(resource) -> str:
    """Where a resource is at home for its learner: its page, or for one of their own resources
    (it has no page) its row in "My resources"."""
    own_pk = getattr(resource, "own_pk", None)
    if own_pk:
        return f"{reverse_cached('learning:own-list')}#own-{own_pk}"
    return resource.get_absolute_url()


def _list_refresh(request, *, scope: TickScope, statuses, status, slots, path_view) -> dict:
    """What else a tick changes on a list with a status filter (guide, topic, path, search), read
    from the page's own address (`HX-Current-URL`): the filter's counts, sent out of band, and
    the resource's rows when the filter no longer keeps them (`gone_rows`, removed). Nothing for
    another page, or an address that is not this scope's page. No query: the list's rows come
    from the memo (apps.learning.shared; a search's ids once per content version, as its page
    read them) and the statuses are the tick's own."""
    current = urlsplit(request.htmx.current_url or "")
    params = QueryDict(current.query)
    refresh = LIST_REFRESHES.get(scope.kind)
    if refresh is None:
        return {}
    try:
        listed = refresh(
            key=scope.key, current=current, params=params, statuses=statuses, path_view=path_view
        )
    except Http404:
        return {}
    if listed is None:
        return {}
    page, filters, found, target, nouns = listed
    if current.path != page:  # sent from somewhere else (or forged): its lists are not ours
        return {}
    status_filter = status_filter_of(user=request.user, params=params)
    context = status_filter_context(
        status_filter,
        found,
        path=page,
        params=filters,
        target=target,
        nouns=nouns,
    )
    if status_filter.show and not status_filter.show(status):
        prefix = ROW_ID_PREFIXES[scope.kind]
        context["gone_rows"] = [f"{prefix}{slot}" for slot in slots]
    return context


# Each kind of page with a filtered list owns what a tick refreshes of it: (its address, its
# filters, the statuses of its rows, the list's DOM id, its nouns), or None when there is none.
def _guide_list(*, key, current, params, statuses, path_view):
    guide = published_get(Guide, uuid=key)
    page = guide.get_absolute_url()
    filters, _ = _filters_from(params, GuideFilterForm)
    rows = shared.guide_parts(guide=guide, filters=filters, path=page).entries
    return page, filters, rows.row_statuses(statuses), "guide-entries", ENTRIES


def _topic_list(*, key, current, params, statuses, path_view):
    topic = published_get(Topic, slug=key)
    page = topic.get_absolute_url()
    filters, _ = _filters_from(params, TopicFilterForm)
    ids = shared.topic_parts(topic=topic, filters=filters, path=page).resource_ids
    found = [statuses.get(pk, "") for pk in ids]  # every row's, not one page's
    return page, filters, found, "topic-resources", RESOURCES


def _search_list(*, key, current, params, statuses, path_view):
    if key or current.path != reverse_cached("learning:search"):
        return None
    form = _search_form(params)
    query, search_filters = form.query(), form.filters()
    if not query:
        return None
    ids = shared.search_ids(query=query, filters=search_filters)
    found = [statuses.get(pk, "") for pk in ids]  # every result's, not one page's
    return (
        current.path,
        {"q": query, **search_filters},
        found,
        "search-results",
        RESULTS,
    )


def _path_list(*, key, current, params, statuses, path_view):
    if path_view is None:
        return None
    path = path_view.path
    rows = shared.path_steps(path=path, outline=lambda: path_selectors.path_outline(path))
    found = rows.row_statuses(statuses)
    return path.get_absolute_url(), {}, found, "path-steps", RESOURCES


LIST_REFRESHES = {"guide": _guide_list, "topic": _topic_list, "": _search_list, "path": _path_list}


RESOURCE_PROGRESS_ID = "my-progress"  # progress/includes/resource_progress.html
# The id of the row holding a tick, by its page's kind of scope: the tick's slot is the row's key.
ROW_ID_PREFIXES = {
    "guide": "entry-",
    "dashboard": "entry-",
    "path": "step-item-",
    "own": "step-item-",
    "topic": "resource-",
    "": "resource-",
}


def _row_anchor(scope: TickScope, slot: str) -> str:
    """`#<row id>` of the tick's row, so a tick without JavaScript comes back to where it was."""
    if scope == scopes.RESOURCE:
        return f"#{RESOURCE_PROGRESS_ID}"
    prefix = ROW_ID_PREFIXES.get(scope.kind)
    return f"#{prefix}{slot}" if slot and prefix else ""


def _resource_progress(request, resource, row, *, note_saved=False):
    shown = Status.shown(row and row.status)
    context = {
        "note_saved": note_saved,
        "resource": resource,
        "my_progress": row,
        "my_status": shown,
        "status_choices": STATUS_CHOICES,
        "statuses": {resource.id: shown} if shown else {},
        "tick_scope": scopes.RESOURCE,
    }
    return render(request, "progress/includes/resource_progress.html", context)


def _refused(request, message, *, status, back):
    """A tick that changed nothing: htmx gets `message` as plain text (static/js/shortcuts.js shows
    it), a page without JavaScript goes `back` with it as an error message."""
    if request.htmx:
        return HttpResponse(str(message), status=status, content_type="text/plain; charset=utf-8")
    messages.error(request, message)
    return redirect(back)


def _with_slot(request):
    """The posted data, with the slot of the tick an htmx request came from: its button's id
    (HX-Trigger) is `tick-btn-<slot>`. A posted slot wins; the form validates either."""
    trigger = request.htmx.trigger if request.htmx else None
    if request.POST.get("slot"):
        return request.POST
    data = request.POST.copy()
    if trigger and trigger.startswith(TICK_BUTTON_ID_PREFIX):
        data["slot"] = trigger.removeprefix(TICK_BUTTON_ID_PREFIX)
    elif request.GET.get("slot"):  # without JavaScript the button's formaction names it
        data["slot"] = request.GET["slot"]
    return data
