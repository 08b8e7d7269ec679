"""Link checks in the admin: the list of runs, "Check all links…", a run's page (its progress
while it runs, then its broken and moved links and its title suggestions to accept or dismiss).

Nothing here fetches: starting a run enqueues its job (apps/curation/linkruns.py). Who may see
and start link checks: active staff who may change resources (the Curators group). Runs are
never added or edited through forms.
"""

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.views.decorators.http import require_http_methods

from apps.catalog.models import Resource
from apps.curation import linkruns
from apps.curation.linkcheck import TITLES_ALL, TITLES_NONE, TITLES_POOR
from apps.curation.models import ACTIVE_STATES, CATALOG_SCOPE, LinkCheckRun

TITLE_CHOICES = [
    (
        TITLES_POOR,
        "Only for resources whose title looks poor (a URL, a host, a guess from the URL)",
    ),
    (TITLES_ALL, "For every resource"),
    (TITLES_NONE, "None"),
]
# The two actions a run's page offers on its title suggestions: the resource admin's own.
SUGGESTION_ACTIONS = ("accept_suggested_titles", "dismiss_suggested_titles")


def can_check_links(user) -> bool:
    return user.is_active and user.is_staff and user.has_perm("catalog.change_resource")


def run_url(run) -> str:
    return reverse("admin:curation_linkcheckrun_change", args=[run.pk])


def start_run(request, **options) -> HttpResponseRedirect:
    """Start a run for ``request.user`` and go to its page; a run of the same scope in the way
    (or nothing to check) is said, and then its page (or the list) is where the curator lands."""
    try:
        run = linkruns.linkcheck_start(user=request.user, **options)
    except linkruns.LinkCheckRunning as running:
        messages.warning(request, str(running))
        return HttpResponseRedirect(run_url(running.run) if running.run.pk else _list_url())
    except linkruns.NothingToCheck as nothing:
        messages.info(request, str(nothing))
        return HttpResponseRedirect(reverse("admin:catalog_resource_changelist"))
    messages.success(
        request,
        f"Link check #{run.pk} started: {run.total} link{'s' if run.total != 1 else ''} to check. "
        "This page follows its progress.",
    )
    return HttpResponseRedirect(run_url(run))


def _list_url():
    return reverse("admin:curation_linkcheckrun_changelist")


class StartForm(forms.Form):
    titles = forms.ChoiceField(
        choices=TITLE_CHOICES,
        initial=TITLES_POOR,
        widget=forms.RadioSelect,
        label="Suggest titles",
        help_text="A page that answers is read once more for its own title, offered as a "
        "suggestion you accept or dismiss; nothing is renamed by itself.",
    )
    only_stale_days = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=3650,
        label="Only links not checked for",
        help_text="Days. Leave it empty to check every link.",
    )


class LinkCheckRunAdmin(admin.ModelAdmin):
    list_display = [
        "__str__",
        "created_at",
        "started_by",
        "state_shown",
        "progress",
        "broken_count",
        "moved_count",
        "suggested_count",
    ]
    list_display_links = ["__str__"]
    list_filter = ["state"]
    list_per_page = 50

    # --- permissions: view and start for those who may change resources --------------------
    def has_module_permission(self, request):
        return can_check_links(request.user)

    def has_view_permission(self, request, obj=None):
        return can_check_links(request.user)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def get_queryset(self, request):
        return linkruns.runs_with_counts(super().get_queryset(request)).select_related("started_by")

    # --- columns ------------------------------------------------------------------------------
    @admin.display(description="state", ordering="state")
    def state_shown(self, obj):
        return obj.state_label

    @admin.display(description="checked")
    def progress(self, obj):
        return f"{obj.checked} / {obj.total}"

    @admin.display(description="broken")
    def broken_count(self, obj):
        return obj.broken

    @admin.display(description="moved")
    def moved_count(self, obj):
        return obj.moved

    @admin.display(description="title suggestions")
    def suggested_count(self, obj):
        return obj.suggested

    # --- pages --------------------------------------------------------------------------------
    def get_urls(self):
        return [
            path(
                "start/",
                self.admin_site.admin_view(self.start_view, cacheable=False),
                name="curation_linkcheckrun_start",
            ),
            *super().get_urls(),
        ]

    def changelist_view(self, request, extra_context=None):
        extra_context = {"can_start": can_check_links(request.user), **(extra_context or {})}
        return super().changelist_view(request, extra_context)

    def start_view(self, request):
        return _start_view(request, self)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        return _run_view(request, self, object_id)


@require_http_methods(["GET", "POST"])
def _start_view(request, model_admin):
    """ "Check all links…": the options, then a whole-catalog run (POST)."""
    if not can_check_links(request.user):
        raise PermissionDenied
    form = StartForm(request.POST if request.method == "POST" else None)
    if form.is_bound and form.is_valid():
        return start_run(
            request,
            titles=form.cleaned_data["titles"],
            only_stale_days=form.cleaned_data["only_stale_days"],
        )
    return TemplateResponse(
        request,
        "curation/linkcheck_start.html",
        {
            **model_admin.admin_site.each_context(request),
            "opts": model_admin.opts,
            "title": "Check all links",
            "subtitle": None,
            "form": form,
            "running": LinkCheckRun.objects.filter(scope=CATALOG_SCOPE, state__in=ACTIVE_STATES)
            .order_by("-pk")
            .first(),
        },
    )


@require_http_methods(["GET", "POST"])
def _run_view(request, model_admin, object_id):
    """A run's page: progress (refreshed every few seconds while it runs), then its results. A
    POST accepts or dismisses the chosen title suggestions with the resource admin's actions."""
    if not can_check_links(request.user):
        raise PermissionDenied
    run = model_admin.get_object(request, unquote(object_id))  # None for a malformed id too
    if run is None:
        raise Http404("No such link check.")
    if request.method == "POST":
        return _suggestions_apply(request, model_admin, run)
    results = linkruns.run_results(run)
    return TemplateResponse(
        request,
        "curation/linkcheck_run.html",
        {
            **model_admin.admin_site.each_context(request),
            "opts": model_admin.opts,
            "title": str(run),
            "subtitle": None,
            "run": run,
            "percent": round(100 * run.checked / run.total) if run.total else 100,
            "stale_minutes": linkruns.stale_after_minutes(),
            "refresh_seconds": 3 if run.is_active and not run.is_stale else None,
            **results,
        },
    )


def _suggestions_apply(request, model_admin, run):
    resource_admin = model_admin.admin_site.get_model_admin(Resource)
    action = request.POST.get("action")
    if action not in SUGGESTION_ACTIONS or not resource_admin.has_change_permission(request):
        raise PermissionDenied
    chosen = [pk for pk in request.POST.getlist("resource") if pk.isdigit()]
    in_run = run.results.filter(resource_id__in=chosen).values("resource_id")
    queryset = Resource.objects.filter(pk__in=in_run)
    if not chosen:
        messages.info(request, "Choose the suggestions first: nothing was changed.")
    else:
        getattr(resource_admin, action)(request, queryset)
    return HttpResponseRedirect(run_url(run))
