"""Progress endpoints: tick/status, note, dashboard, export and import. Writes are POST only."""

from urllib.parse import quote

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from apps.catalog.models import Resource
from apps.core.content import published_get
from apps.core.db import read_all
from apps.core.reversing import reverse_cached
from apps.paths.pages import next_up_html
from apps.paths.selectors import followed_paths, follows_read
from apps.progress import exports, pages, selectors
from apps.progress.bars import bars_for_scope, dashboard_tallies, overall_bar, scope_reads
from apps.progress.forms import ImportForm, NoteForm, StatusForm
from apps.progress.imports import ProgressImportError, import_apply, import_plan
from apps.progress.models import Status
from apps.progress.overlay import overlay_fill
from apps.progress.services import progress_set_note, progress_tick

PENDING_SESSION_KEY = "pending_progress"


def _safe_next(request, fallback):
    """A `next` on this site, as a path: anything else (another host, or a word `redirect` would
    take for a view name) goes to `fallback`."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target.startswith("/") and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return fallback


def _get_published_resource(resource_uuid):
    return published_get(Resource, uuid=resource_uuid)


@require_POST
def progress_set(request, resource_uuid):
    """Put a resource in the status the request names. htmx gets the tick back plus every bar
    on its page (out-of-band); without JavaScript the form posts here and we redirect back."""
    resource = _get_published_resource(resource_uuid)
    back = _safe_next(request, resource.get_absolute_url())
    form = StatusForm(_with_slot(request))
    if not form.is_valid():
        return _refused(request, "That status is not valid; nothing was changed.", status=400, back=back)
    status = form.cleaned_data["status"]
    if not request.user.is_authenticated:
        # Remembered across sign-in (see signals.py), then applied.
        request.session[PENDING_SESSION_KEY] = {"resource": str(resource.uuid), "status": status}
        login_url = f"{reverse('account_login')}?next={quote(back)}"
        messages.info(request, f"Sign in to track your progress; “{resource.title}” will be saved.")
        return HttpResponseClientRedirect(login_url) if request.htmx else redirect(login_url)

    # With htmx, the page's bars are refreshed from statuses read right after the write.
    then = scope_reads(user=request.user) if request.htmx else ()
    after = progress_tick(user=request.user, resource=resource, status=status, then=then)
    if not request.htmx:
        return redirect(back)
    scope, slot = form.cleaned_data["scope"], form.cleaned_data["slot"] or str(resource.uuid)
    statuses, follows = after
    bars, other_slots, path_view = bars_for_scope(
        user=request.user, scope=scope, resource=resource, statuses=statuses, follows=follows
    )
    context = {
        "resource": resource,
        "status": status if status != Status.NOT_STARTED else "",
        "slot": slot,
        "other_slots": [s for s in other_slots if s != slot],
        "bars": bars,
        "next_up": next_up_html(path_view, oob=True) if path_view else "",
    }
    return HttpResponse(render_to_string("progress/tick_response.html", context, request=request))


def _refused(request, message, *, status, back):
    """A tick that changed nothing: htmx gets `message` as plain text (static/js/shortcuts.js shows
    it), a page without JavaScript goes `back` with it as an error message."""
    if request.htmx:
        return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")
    messages.error(request, message)
    return redirect(back)


TICK_BUTTON_ID_PREFIX = "tick-btn-"  # progress/includes/tick.html


def _with_slot(request):
    """The posted data, with the slot of the tick an htmx request came from: its button's id
    (HX-Trigger) is `tick-btn-<slot>`. A posted slot wins; the form validates either."""
    trigger = request.htmx.trigger if request.htmx else None
    if request.POST.get("slot") or not trigger or not trigger.startswith(TICK_BUTTON_ID_PREFIX):
        return request.POST
    data = request.POST.copy()
    data["slot"] = trigger.removeprefix(TICK_BUTTON_ID_PREFIX)
    return data


@login_required
@require_POST
def progress_note(request, resource_uuid):
    resource = _get_published_resource(resource_uuid)
    form = NoteForm(request.POST)
    if form.is_valid():
        progress_set_note(user=request.user, resource=resource, note=form.cleaned_data["note"])
        messages.success(request, "Note saved.")
    else:
        messages.error(request, "Notes can be at most 10,000 characters; nothing was saved.")
    return redirect(_safe_next(request, resource.get_absolute_url()))


@login_required
def dashboard(request):
    user = request.user
    statuses, latest, recent, year, follows = read_all(  # one round trip
        selectors.statuses_read(user=user),
        selectors.latest_read(user=user),
        selectors.recently_changed_read(user=user),
        selectors.activity_year_read(user=user),
        follows_read(user=user),
    )
    guide = selectors.last_guide(guides=selectors.dashboard_guides(), recent=recent)
    context = {
        "overall": overall_bar(selectors.overall_tally(statuses=statuses)),
        "guide_bars": overlay_fill(request, pages.guide_bars(), statuses=statuses, tallies=dashboard_tallies(statuses=statuses)),
        "continue_guide": guide,
        "continue_rows": pages.continue_rows(
            selectors.continue_in_guide(guide=guide, statuses=statuses) if guide else [], statuses=statuses
        ),
        "in_progress_rows": pages.latest_rows(latest[Status.IN_PROGRESS], partial="in-progress-row"),
        "recent_rows": pages.latest_rows(latest[Status.DONE], partial="done-row"),
        "year": year,
        "heatmap": pages.heatmap(year),
        "followed_path_rows": pages.followed_path_rows(followed_paths(user=user, statuses=statuses, follows=follows)),
        "scope": "dashboard",
        "statuses": statuses,
        "data_links": _data_links(),
    }
    return render(request, pages.DASHBOARD, context)


def _data_links() -> dict:
    links = {fmt: reverse_cached("progress:export", fmt) for fmt in ("md", "csv", "json")}
    return links | {"import": reverse_cached("progress:import")}


EXPORTS = {
    "md": ("text/markdown; charset=utf-8", exports.progress_markdown),
    "csv": ("text/csv; charset=utf-8", exports.progress_csv),
}


@login_required
@require_GET
def progress_export(request, fmt):
    stamp = timezone.localdate().isoformat()
    if fmt == "json":
        response = JsonResponse(exports.progress_json(request.user), json_dumps_params={"indent": 2})
    else:
        content_type, build = EXPORTS[fmt]
        response = HttpResponse(build(request.user), content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="syllabus-progress-{stamp}.{fmt}"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def progress_import(request):
    """Upload or paste → preview of what will change → confirm → applied atomically."""
    form = ImportForm(request.POST or None, request.FILES or None)
    plan = None
    if request.method == "POST" and form.is_valid():
        content = form.cleaned_data["content"]
        try:
            plan = import_plan(user=request.user, content=content)
        except ProgressImportError as exc:
            form.add_error(None, str(exc))
        else:
            if request.POST.get("confirm") == "1" and plan.changes:
                import_apply(user=request.user, plan=plan)
                messages.success(request, f"Imported: {len(plan.changes)} resources updated.")
                return redirect("progress:dashboard")
            form = ImportForm(initial={"text": content})
    return render(request, "progress/import.html", {"form": form, "plan": plan})
