"""The curators' custom admin pages: merge duplicates, import a markdown guide, export guides.

They are wired into the catalog's ModelAdmins (apps/catalog/admin.py: ``GuideAdmin.get_urls``
and the Resource merge action), wrapped by ``admin_site.admin_view``: only active staff get
here, others go to the admin login. Each view checks the model permissions it needs.
"""

import io
import zipfile

from django.contrib import messages
from django.contrib.admin import helpers
from django.contrib.admin.models import ADDITION, CHANGE, DELETION
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html
from django.views.decorators.http import require_http_methods

from apps.catalog.models import Entry, Guide, Resource
from apps.curation.admin_base import log_change_many
from apps.curation.exports import guide_export_filename, guide_to_markdown
from apps.curation.forms import GuideImportForm, ImportConfirmForm, MergeForm
from apps.curation.services import CurationError, resource_merge

MAX_MERGE = 10
IMPORT_PERMISSIONS = [f"catalog.add_{name}" for name in ("guide", "section", "entry", "resource", "resourcelink")]


# --- Merge -----------------------------------------------------------------------------------
def resource_merge_action(model_admin, request, queryset):
    """The "Merge selected resources…" action: choose the survivor, then merge (one transaction)."""
    from django.db.models import Count

    resources = list(
        Resource.objects.filter(pk__in=list(queryset.values_list("pk", flat=True)))
        .annotate(
            entry_count=Count("entries", distinct=True),
            learner_count=Count("progress", distinct=True),
            link_count=Count("links", distinct=True),
        )
        .order_by("-learner_count", "-entry_count", "pk")
    )
    if not 2 <= len(resources) <= MAX_MERGE:
        model_admin.message_user(request, f"Select between 2 and {MAX_MERGE} resources to merge.", messages.WARNING)
        return None
    form = MergeForm(request.POST if "apply" in request.POST else None, resources=resources, initial={"survivor": resources[0].pk})
    if form.is_bound and form.is_valid():
        survivor = form.cleaned_data["survivor"]
        duplicates = [resource for resource in resources if resource.pk != survivor.pk]
        try:
            result = resource_merge(survivor=survivor, duplicates=duplicates)
        except CurationError as error:
            model_admin.message_user(request, str(error), messages.ERROR)
            return None
        log_change_many(request, [result.survivor], f"Merged duplicates into this resource: {result.summary()}")
        log_change_many(request, duplicates, f"Merged into “{result.survivor.title}” (#{result.survivor.pk}).", DELETION)
        url = reverse("admin:catalog_resource_change", args=[result.survivor.pk])
        model_admin.message_user(
            request, format_html("Merged into <a href=\"{}\">{}</a>: {}", url, result.survivor.title, result.summary()), messages.SUCCESS
        )
        return HttpResponseRedirect(url)
    for resource in resources:
        resource.placements = [
            f"{entry.section.guide.title} › {entry.section}"
            for entry in Entry.objects.filter(resource=resource).select_related("section__guide")[:5]
        ]
    context = {
        **model_admin.admin_site.each_context(request),
        "title": "Merge duplicate resources",
        "subtitle": None,
        "opts": model_admin.model._meta,
        "form": form,
        "resources": resources,
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        "action_name": request.POST.get("action", "merge_resources"),
        "media": model_admin.media,
    }
    return TemplateResponse(request, "curation/resource_merge.html", context)


# --- Export ----------------------------------------------------------------------------------
def guide_export(request, object_id, model_admin):
    """One guide as a markdown file (the link on the guide's change page)."""
    guide = model_admin.get_object(request, unquote(object_id))
    if guide is None:
        raise Http404("No such guide.")
    if not model_admin.has_view_or_change_permission(request, guide):
        raise PermissionDenied
    return guides_export_response([guide])


def guides_export_response(guides: list[Guide]) -> HttpResponse:
    """A markdown file for one guide, a zip of them for several."""
    if len(guides) == 1:
        response = HttpResponse(guide_to_markdown(guides[0]), content_type="text/markdown; charset=utf-8")
        filename = guide_export_filename(guides[0])
    else:
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for guide in guides:
                archive.writestr(guide_export_filename(guide), guide_to_markdown(guide))
        response = HttpResponse(buffer.getvalue(), content_type="application/zip")
        filename = "guides.zip"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


# --- Import ----------------------------------------------------------------------------------
def can_import(user) -> bool:
    return user.is_active and user.is_staff and user.has_perms(IMPORT_PERMISSIONS)


@require_http_methods(["GET", "POST"])
def guide_import(request, model_admin):
    """Upload or paste → preview (nothing written) → confirm (applied atomically).

    The preview carries the source text in its confirm form and the confirm step plans it
    again: what is applied is always planned against the catalog as it is at that moment.
    """
    from apps.catalog.importer import CatalogImportError, apply_import, plan_import

    if not can_import(request.user):
        raise PermissionDenied
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": model_admin.model._meta,
        "title": "Import a markdown reading list",
        "subtitle": None,
        "media": model_admin.media,
    }
    if request.method == "POST" and "confirm" in request.POST:
        confirm = ImportConfirmForm(request.POST)
        if not confirm.is_valid():
            messages.error(request, "The import form was incomplete; start again.")
            return HttpResponseRedirect(reverse("admin:catalog_guide_import"))
        data = confirm.cleaned_data
        try:
            with transaction.atomic():
                plan = plan_import(data["text"], guide_slug=data["guide_slug"], title=data["title"])
                outcome = apply_import(plan)
                guide = _imported_guide(outcome, plan, data["guide_slug"])
                _log_import(request, guide, plan, outcome, data["source_name"])
        except CatalogImportError as error:
            form = GuideImportForm(initial={"guide_slug": data["guide_slug"], "title": data["title"], "text": data["text"]})
            form.add_error(None, str(error))
            return TemplateResponse(request, "curation/guide_import.html", {**context, "form": form})
        messages.success(request, f"Imported “{guide.title}”: {_plan_summary(plan)}.")
        return HttpResponseRedirect(reverse("admin:catalog_guide_change", args=[guide.pk]))

    form = GuideImportForm(request.POST, request.FILES) if request.method == "POST" else GuideImportForm()
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            plan = plan_import(data["source"], guide_slug=data["guide_slug"], title=data["title"])
        except CatalogImportError as error:
            form.add_error(None, str(error))
        else:
            confirm = ImportConfirmForm(
                initial={
                    "text": data["source"],
                    "source_name": data["source_name"],
                    "guide_slug": data["guide_slug"],
                    "title": data["title"],
                }
            )
            preview = {**context, "title": f"Preview: import “{data['title']}”", "plan": plan, "confirm": confirm}
            return TemplateResponse(request, "curation/guide_import_preview.html", preview)
    return TemplateResponse(request, "curation/guide_import.html", {**context, "form": form})


def _imported_guide(outcome, plan, slug) -> Guide:
    if isinstance(outcome, Guide):
        return outcome
    guide = getattr(outcome, "guide", None)
    return guide if isinstance(guide, Guide) else Guide.objects.get(slug=slug)


def _plan_summary(plan) -> str:
    summary = getattr(plan, "summary", None)
    return summary() if callable(summary) else str(summary or "done")


def _log_import(request, guide, plan, outcome, source_name):
    source = f" from {source_name}" if source_name else ""
    log_change_many(request, [guide], f"Imported markdown{source}: {_plan_summary(plan)}.", ADDITION)
    created = getattr(outcome, "created_resources", None)
    if created:
        log_change_many(request, list(created), f"Created by importing “{guide.title}”.", ADDITION)
    log_change_many  # noqa: B018
    return CHANGE
