"""A learner's progress as files: export and import (the tick, the note and the dashboard are
learner pages, apps.learning)."""

from allauth.core import ratelimit
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_http_methods

from apps.progress import exports
from apps.progress.forms import ImportForm
from apps.progress.imports import ProgressImportError, import_apply, import_plan

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


# allauth's rate limiter (the sign-in and sign-up limits' own): per learner, in the shared cache.
IMPORT_RATE_LIMIT_ACTION = "progress_import"  # settings.ACCOUNT_RATE_LIMITS
IMPORT_RATE_LIMITED = gettext_lazy(
    "You have imported several times in a short while: wait a few minutes and try again. "
    "Nothing was imported."
)


@login_required
@require_http_methods(["GET", "POST"])
def progress_import(request):
    """Upload or paste → preview of what will change → confirm → applied atomically. Each POST
    (a preview or a confirmation) counts against the learner's RATE_LIMIT_PROGRESS_IMPORT."""
    form = ImportForm(request.POST or None, request.FILES or None)
    plan = None
    if request.method == "POST" and not ratelimit.consume(
        request, action=IMPORT_RATE_LIMIT_ACTION, user=request.user
    ):
        form.is_valid()  # the pasted text stays in the form, to send again later
        form.add_error(None, IMPORT_RATE_LIMITED)
        return render(request, "progress/import.html", {"form": form}, status=429)
    if request.method == "POST" and form.is_valid():
        content = form.cleaned_data["content"]
        try:
            plan = import_plan(user=request.user, content=content)
        except ProgressImportError as exc:
            form.add_error(None, str(exc))
        else:
            if request.POST.get("confirm") == "1" and plan.anything_to_apply:
                told = import_apply(user=request.user, plan=plan)
                messages.success(request, _imported(plan))
                for note in told:
                    messages.warning(request, note)
                return redirect("learning:dashboard")
            form = ImportForm(initial={"text": content})
    return render(request, "progress/import.html", {"form": form, "plan": plan})


def _imported(plan) -> str:
    """What an applied import did: a sentence for each kind of thing it wrote."""
    count, own = len(plan.changes), len(plan.own)
    said = [
        ngettext(
            "Imported: %(count)s resource updated.", "Imported: %(count)s resources updated.", count
        )
        % {"count": count}
    ]
    if own:
        said.append(
            ngettext(
                "%(count)s own resource saved or updated.",
                "%(count)s own resources saved or updated.",
                own,
            )
            % {"count": own}
        )
    if plan.account_lines:
        said.append(gettext("Your paths, pins and What's new are as the preview said."))
    return " ".join(said)
