"""Progress endpoints of their own: a note, export and import (the tick and the dashboard are learner
pages, apps.learning). Writes are POST only."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.defaultfilters import pluralize
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.catalog.models import Resource
from apps.core.content import published_get
from apps.progress import exports
from apps.progress.forms import ImportForm, NoteForm
from apps.progress.imports import ProgressImportError, import_apply, import_plan
from apps.progress.services import progress_set_note


def safe_next(request, fallback):
    """The `next` the request names if it stays on this site, else `fallback`."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return fallback


@login_required
@require_POST
def progress_note(request, resource_uuid):
    resource = published_get(Resource, uuid=resource_uuid)
    form = NoteForm(request.POST)
    if form.is_valid():
        progress_set_note(user=request.user, resource=resource, note=form.cleaned_data["note"])
        messages.success(request, "Note saved.")
    else:
        messages.error(request, "Notes can be at most 10,000 characters; nothing was saved.")
    return redirect(safe_next(request, resource.get_absolute_url()))


EXPORTS = {
    "md": ("text/markdown; charset=utf-8", exports.progress_markdown),
    "csv": ("text/csv; charset=utf-8", exports.progress_csv),
}


@login_required
@require_GET
def progress_export(request, fmt):
    stamp = timezone.localdate().isoformat()
    if fmt == "json":
        response = JsonResponse(
            exports.progress_json(request.user), json_dumps_params={"indent": 2}
        )
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
                count = len(plan.changes)
                messages.success(request, f"Imported: {count} resource{pluralize(count)} updated.")
                return redirect("progress:dashboard")
            form = ImportForm(initial={"text": content})
    return render(request, "progress/import.html", {"form": form, "plan": plan})
