"""The curators' custom admin pages: merge duplicates, import a markdown guide, export guides.

They are wired into the catalog's ModelAdmins (apps/curation/admin/catalog.py: ``GuideAdmin.get_urls``
and the Resource merge action), wrapped by ``admin_site.admin_view``: only active staff get
here, others go to the admin login. Each view checks the model permissions it needs.
"""

import io
import zipfile

from django.contrib import messages
from django.contrib.admin import helpers
from django.contrib.admin.models import ADDITION, DELETION
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Count
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html
from django.views.decorators.http import require_http_methods

from apps.catalog.importer import CatalogImportError, apply_import, plan_import
from apps.catalog.models import Entry, Guide, Resource
from apps.curation.admin.base import log_change_many
from apps.curation.exports import guide_export_filename, guide_to_markdown
from apps.curation.forms import GuideImportForm, ImportConfirmForm, MergeForm
from apps.curation.services import CurationError, resource_merge

MAX_MERGE = 10
IMPORT_PERMISSIONS = [
    f"catalog.add_{name}" for name in ("guide", "section", "entry", "resource", "resourcelink")
]


# --- Merge -----------------------------------------------------------------------------------
def resource_merge_action(model_admin, request, queryset):
    """The "Merge selected resources…" action: choose the survivor, then merge (one transaction)."""
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
        model_admin.message_user(
            request, f"Select between 2 and {MAX_MERGE} resources to merge.", messages.WARNING
        )
        return None
    form = MergeForm(
        request.POST if "apply" in request.POST else None,
        resources=resources,
        initial={"survivor": resources[0].pk},
    )
    if form.is_bound and form.is_valid():
        survivor = form.cleaned_data["survivor"]
        duplicates = [resource for resource in resources if resource.pk != survivor.pk]
        try:
            result = resource_merge(survivor=survivor, duplicates=duplicates)
        except CurationError as error:
            model_admin.message_user(request, str(error), messages.ERROR)
            return None
        log_change_many(
            request, [result.survivor], f"Merged duplicates into this resource: {result.summary()}"
        )
        log_change_many(
            request,
            duplicates,
            f"Merged into “{result.survivor.title}” (#{result.survivor.pk}).",
            DELETION,
        )
        url = reverse("admin:catalog_resource_change", args=[result.survivor.pk])
        model_admin.message_user(
            request,
            format_html(
                'Merged into <a href="{}">{}</a>: {}', url, result.survivor.title, result.summary()
            ),
            messages.SUCCESS,
        )
        return HttpResponseRedirect(url)
    placements = {}
    for entry in (
        Entry.objects.filter(resource__in=resources).select_related("section__guide").order_by("pk")
    ):
        placements.setdefault(entry.resource_id, []).append(
            f"{entry.section.guide.title} › {entry.section}"
        )
    for resource in resources:
        resource.placements = placements.get(resource.pk, [])
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
        response = HttpResponse(
            guide_to_markdown(guides[0]), content_type="text/markdown; charset=utf-8"
        )
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
    """Upload or paste → preview (nothing written) → confirm (applied in one transaction).

    The preview carries the source text in its confirm form and the confirm step plans it
    again, so what is applied is planned against the catalog as it is at that moment.
    """
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
        return _import_confirm(request, model_admin, context)
    form = (
        GuideImportForm(request.POST, request.FILES)
        if request.method == "POST"
        else GuideImportForm()
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            plan = _plan(data["source"], data["guide_slug"], data["title"], data["source_name"])
        except CatalogImportError as error:
            form.add_error(None, str(error))
        else:
            confirm = ImportConfirmForm(
                initial={
                    "text": data["source"],
                    "source_name": data["source_name"],
                    "guide_slug": data["guide_slug"],
                    "title": plan.guides[0].title,
                }
            )
            return TemplateResponse(
                request,
                "curation/guide_import_preview.html",
                {
                    **context,
                    "title": f"Preview: import “{plan.guides[0].title}”",
                    "preview": ImportPreview(plan),
                    "confirm": confirm,
                },
            )
    return TemplateResponse(request, "curation/guide_import.html", {**context, "form": form})


def _import_confirm(request, model_admin, context):
    confirm = ImportConfirmForm(request.POST)
    if not confirm.is_valid():
        messages.error(
            request,
            "The import form came back incomplete; nothing was imported. Please start again.",
        )
        return HttpResponseRedirect(reverse("admin:catalog_guide_import"))
    data = confirm.cleaned_data
    try:
        with transaction.atomic():
            plan = _plan(data["text"], data["guide_slug"], data["title"], data["source_name"])
            result = apply_import(plan)
            created = Resource.objects.filter(uuid__in=[r.uuid for r in plan.new_resources])
            source = f" from {data['source_name']}" if data["source_name"] else ""
            log_change_many(
                request, [result.guide], f"Imported markdown{source}: {_counts(result)}.", ADDITION
            )
            log_change_many(
                request,
                created,
                f"Created by importing the guide “{result.guide.title}”.",
                ADDITION,
            )
    except CatalogImportError as error:
        form = GuideImportForm(
            {"guide_slug": data["guide_slug"], "title": data["title"], "text": data["text"]}
        )
        form.is_valid()
        form.add_error(None, f"Nothing was imported: {error}")
        return TemplateResponse(request, "curation/guide_import.html", {**context, "form": form})
    messages.success(request, f"Imported “{result.guide.title}”: {_counts(result)}.")
    return HttpResponseRedirect(reverse("admin:catalog_guide_change", args=[result.guide.pk]))


def _plan(source, slug, title, source_name):
    plan = plan_import(source, guide_slug=slug, title=title, source_name=source_name)
    if plan.guides[0].existing_id:
        raise CatalogImportError(
            f"A guide with the slug “{slug}” already exists: choose another slug."
        )
    if not plan.entries:
        raise CatalogImportError(
            "Nothing in this file looks like a reading list item (no links, no checklist lines)."
        )
    return plan


def _counts(result) -> str:
    c = result.counts
    return (
        f"{c.get('sections', 0)} sections, {c.get('entries', 0)} entries, {c.get('resources', 0)} new resources, "
        f"{c.get('resources_matched', 0)} already in the catalog, {c.get('links', 0)} extra links, "
        f"{c.get('topics', 0)} new topics"
    )


class ImportPreview:
    """What the preview page shows of a plan: its sections with their entries, new vs matched."""

    def __init__(self, plan):
        self.plan = plan
        self.guide = plan.guides[0]
        entries = {}
        for entry in self.guide.entries:
            entries.setdefault(entry.section.uuid, []).append(entry)
        self.sections = [
            (section, entries.get(section.uuid, [])) for section in self.guide.sections
        ]
        self.new_resources = plan.new_resources
        titles = dict(
            Resource.objects.filter(
                pk__in=[r.existing_id for r in plan.matched_resources]
            ).values_list("pk", "title")
        )
        # (planned resource, its admin URL, the catalog's title when the file names it differently)
        self.matched = [
            (
                resource,
                reverse("admin:catalog_resource_change", args=[resource.existing_id]),
                titles.get(resource.existing_id)
                if titles.get(resource.existing_id) != resource.title
                else "",
            )
            for resource in plan.matched_resources
        ]
        self.skipped = plan.skipped_lines()
        self.matched_ids = {resource.key for resource in plan.matched_resources}
        self.link_count = sum(len(resource.links) for resource in plan.new_resources)
        self.topic_slugs = sorted(
            {slug for resource in plan.new_resources for slug in resource.topics}
        )
        self.warnings = plan.warnings
        self.paths = plan.paths
