"""The curators' custom admin pages: merge duplicates, import a markdown guide, sync a guide
with its source (and review the pending syncs the fetch jobs leave), export guides.

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
from django.db.models import Count
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html
from django.views.decorators.http import require_http_methods

from apps.catalog.importer import CatalogImportError, apply_import, plan_import
from apps.catalog.importer.builder import IMPORT_RENAME_NOTE, offers_better_title, title_fixes
from apps.catalog.importer.reshape import merge_choices, reshape_plan, split_choices
from apps.catalog.importer.sync import apply_sync, diff_guide, sync_counts
from apps.catalog.models import Entry, Guide, Resource
from apps.curation.admin.base import log_change_many
from apps.curation.exports import guide_export_filename, guide_to_markdown
from apps.curation.forms import (
    GuideImportForm,
    GuideSyncForm,
    ImportChoicesForm,
    ImportConfirmForm,
    MergeForm,
    SyncConfirmForm,
)
from apps.curation.models import PendingSync, SyncState
from apps.curation.services import CurationError, resource_merge
from apps.curation.syncs import (
    SyncDecisionError,
    can_sync,
    diff_digest,
    pending_sync_apply,
    pending_sync_dismiss,
    pending_sync_request,
    source_plan,
)
from apps.curation.syncs import pending_sync_review as syncs_review

MAX_MERGE = 10
LOGGED_DIFF_LINES = 40  # a sync's history row lists at most this many of its diff's lines
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
            choices = ImportChoicesForm(request.POST, plan=plan)
            if not choices.is_valid():
                raise CatalogImportError(
                    "the merge and split choices do not match this file any more; preview it again."
                )
            retitle = choices.retitled_keys(plan)
            reshape_plan(
                plan, split=choices.cleaned_data["split"], merge=choices.cleaned_data["merge"]
            )
            result = apply_import(plan, retitle=retitle)
            created = Resource.objects.filter(uuid__in=[r.uuid for r in plan.new_resources])
            source = f" from {data['source_name']}" if data["source_name"] else ""
            log_change_many(
                request,
                [result.guide],
                f"Imported markdown{source}: {result.counts_text()}.",
                ADDITION,
            )
            log_change_many(
                request,
                created,
                f"Created by importing the guide “{result.guide.title}”.",
                ADDITION,
            )
            for resource, old_title in result.renamed:
                log_change_many(
                    request,
                    [resource],
                    f"Title: “{old_title}” → “{resource.title}” ({IMPORT_RENAME_NOTE} of “{result.guide.title}”).",
                )
    except CatalogImportError as error:
        form = GuideImportForm(
            {"guide_slug": data["guide_slug"], "title": data["title"], "text": data["text"]}
        )
        form.is_valid()
        form.add_error(None, f"Nothing was imported: {error}")
        return TemplateResponse(request, "curation/guide_import.html", {**context, "form": form})
    messages.success(request, f"Imported “{result.guide.title}”: {result.counts_text()}.")
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


class ImportPreview:
    """What the preview page shows of a plan: its sections with their entries, new vs matched.

    Each entry comes with the curator's choices it offers: ``entry.can_merge`` (into the
    entry above) and ``entry.split_links``, its extra links as ``(link, form value)``;
    ``entry.catalog`` is the catalog resource it would reuse (``MatchedResource``) and
    ``entry.duplicate`` says where the list already gave the same resource ("" if nowhere).
    """

    def __init__(self, plan):
        self.plan = plan
        self.guide = plan.guides[0]
        mergeable, splittable = set(merge_choices(plan)), set(split_choices(plan))
        known = Resource.objects.in_bulk([r.existing_id for r in plan.matched_resources])
        fixes = title_fixes(
            plan,
            {r.key: known[r.existing_id] for r in plan.matched_resources if r.existing_id in known},
        )
        self.matched = [
            MatchedResource(planned, known[planned.existing_id], planned.key in fixes)
            for planned in plan.matched_resources
            if planned.existing_id in known
        ]
        by_key = {match.planned.key: match for match in self.matched}
        self.title_fixes = [match for match in self.matched if match.fix]
        entries, first_seen = {}, {}
        self.duplicates = 0
        for entry in self.guide.entries:
            entry.can_merge = str(entry.uuid) in mergeable
            entry.split_links = [
                (link, value)
                for link in entry.resource.links
                if (value := f"{entry.uuid}:{link.uuid}") in splittable
            ]
            entry.catalog = by_key.get(entry.resource.key)
            earlier = first_seen.setdefault(entry.resource.key, entry)
            entry.duplicate = ""
            if earlier is not entry:
                self.duplicates += 1
                entry.duplicate = (
                    "twice in this section"
                    if earlier.section is entry.section
                    else f"also in “{earlier.section.title}”"
                )
            entries.setdefault(entry.section.uuid, []).append(entry)
        self.sections = [
            (section, entries.get(section.uuid, [])) for section in self.guide.sections
        ]
        self.new_resources = plan.new_resources
        self.skipped = plan.skipped_lines()
        self.matched_ids = {resource.key for resource in plan.matched_resources}
        self.link_count = sum(len(resource.links) for resource in plan.new_resources)
        self.topic_slugs = sorted(
            {slug for resource in plan.new_resources for slug in resource.topics}
        )
        self.warnings = plan.warnings
        self.paths = plan.paths


class MatchedResource:
    """A planned resource the catalog already holds, as the preview shows it: the real
    resource (its title, URL and admin page), and what importing does to its title: ``fix``,
    renamed to the list's title unless the curator unticks it; ``suggested``, the list's title
    offered as a suggestion (the catalog's title is a curator's)."""

    def __init__(self, planned, resource: Resource, fix: bool):
        self.planned = planned
        self.resource = resource
        self.admin_url = reverse("admin:catalog_resource_change", args=[resource.pk])
        self.fix = fix
        self.suggested = not fix and offers_better_title(resource, planned.title)
        self.named_differently = resource.title != planned.title
        self.retitle_value = str(planned.uuid)


# --- Sync ------------------------------------------------------------------------------------
@require_http_methods(["GET", "POST"])
def guide_sync(request, object_id, model_admin):
    """A guide against a newer version of its source.

    A URL is fetched by a job (``syncs.pending_sync_request``): the curator goes to the pending
    sync's page, which shows the diff once the job has stored it. An uploaded file needs no
    network: its diff is shown at once (nothing written), and the apply step diffs the same text
    again against the guide as it is then and applies it (``apply_sync``: one transaction).
    """
    guide = model_admin.get_object(request, unquote(object_id))
    if guide is None:
        raise Http404("No such guide.")
    if not (can_import(request.user) and model_admin.has_change_permission(request, guide)):
        raise PermissionDenied
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": model_admin.model._meta,
        "original": guide,
        "title": f"Sync “{guide.title}” with its source",
        "subtitle": None,
        "media": model_admin.media,
        "open_syncs": guide.pending_syncs.filter(state__in=[SyncState.FETCHING, SyncState.PENDING]),
    }
    if request.method == "POST" and "apply" in request.POST:
        return _sync_apply(request, guide)
    form = (
        GuideSyncForm(request.POST, request.FILES)
        if request.method == "POST"
        else GuideSyncForm(initial={"source_url": guide.source_url})
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        source_name = data.get("source_name", "")
        if not source_name:  # a URL: fetched by a job, reviewed on the pending sync's page
            pending = pending_sync_request(
                guide=guide, user=request.user, source_url=data["source_url"]
            )
            return HttpResponseRedirect(
                reverse("admin:curation_pendingsync_change", args=[pending.pk])
            )
        text = data["source"]
        try:
            plan = source_plan(guide, text, source_name=source_name)
        except CatalogImportError as error:
            form.add_error(None, str(error))
        else:
            diff = diff_guide(guide, plan)
            confirm = SyncConfirmForm(
                initial={"text": text, "source_name": source_name, "source_url": ""}
            )
            return TemplateResponse(
                request,
                "curation/guide_sync_preview.html",
                {
                    **context,
                    "title": f"Sync “{guide.title}”: what would change",
                    "diff": diff,
                    "source": source_name,
                    "new_source": source_name != guide.source_name,
                    "confirm": confirm,
                },
            )
    return TemplateResponse(request, "curation/guide_sync.html", {**context, "form": form})


def _sync_apply(request, guide):
    confirm = SyncConfirmForm(request.POST)
    change_url = reverse("admin:catalog_guide_change", args=[guide.pk])
    if not confirm.is_valid():
        messages.error(
            request, "The sync form came back incomplete; nothing was changed. Please start again."
        )
        return HttpResponseRedirect(reverse("admin:catalog_guide_sync", args=[guide.pk]))
    data = confirm.cleaned_data
    try:
        with transaction.atomic():
            plan = source_plan(
                guide, data["text"], source_name=data["source_name"], source_url=data["source_url"]
            )
            diff = diff_guide(guide, plan)
            result = apply_sync(plan)
            source = data["source_name"] or data["source_url"] or "its source"
            _log_sync(request, result, plan, diff, source)
    except CatalogImportError as error:
        messages.error(request, f"Nothing was changed: {error}")
        return HttpResponseRedirect(reverse("admin:catalog_guide_sync", args=[guide.pk]))
    messages.success(
        request, f"Synced “{guide.title}” with {source}: {diff.summary().splitlines()[0]}"
    )
    return HttpResponseRedirect(change_url)


def _log_sync(request, result, plan, diff, source):
    """The admin history of an applied sync: the guide's change (its diff) and the new resources."""
    lines = diff.summary().splitlines()
    if len(lines) > LOGGED_DIFF_LINES + 1:
        lines = [
            *lines[: LOGGED_DIFF_LINES + 1],
            f"… and {len(lines) - LOGGED_DIFF_LINES - 1} more",
        ]
    log_change_many(
        request,
        [result.guide],
        f"Synced with {source} ({sync_counts(result)}):\n" + "\n".join(lines),
        CHANGE,
    )
    log_change_many(
        request,
        Resource.objects.filter(uuid__in=[r.uuid for r in plan.new_resources]),
        f"Created by syncing the guide “{result.guide.title}”.",
        ADDITION,
    )


# --- Pending syncs -------------------------------------------------------------------------------
@require_http_methods(["GET", "POST"])
def pending_sync_review(request, object_id, model_admin):
    """A fetched source waiting for a curator: the diff against the guide as it is now, Apply
    (refused unless the guide still gives that diff) and Dismiss; while the job runs, the page
    reloads itself; a failed fetch shows its error and can be fetched again."""
    if not can_sync(request.user):
        raise PermissionDenied
    pending = (
        PendingSync.objects.select_related("guide", "requested_by", "decided_by")
        .filter(pk=_int_or_404(object_id))
        .first()
    )
    if pending is None:
        raise Http404("No such sync.")
    here = reverse("admin:curation_pendingsync_change", args=[pending.pk])
    if request.method == "POST":
        return _pending_sync_decide(request, pending, here)
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": model_admin.model._meta,
        "original": pending,
        "pending": pending,
        "guide": pending.guide,
        "title": f"Sync of “{pending.guide.title}”",
        "subtitle": None,
        "media": model_admin.media,
        "guide_url": reverse("admin:catalog_guide_change", args=[pending.guide.pk]),
    }
    if pending.state == SyncState.PENDING:
        try:
            _, diff = syncs_review(pending)
        except CatalogImportError as error:
            context["review_error"] = str(error)
        else:
            context.update(
                diff=diff,
                seen=diff_digest(diff),
                guide_changed=diff.summary() != pending.summary,
            )
    return TemplateResponse(request, "curation/pending_sync.html", context)


def _pending_sync_decide(request, pending, here):
    if "dismiss" in request.POST:
        try:
            pending_sync_dismiss(pending=pending, user=request.user)
        except SyncDecisionError as error:
            messages.error(request, str(error))
            return HttpResponseRedirect(here)
        messages.success(
            request, f"Dismissed the sync of “{pending.guide.title}”: nothing was changed."
        )
        return HttpResponseRedirect(reverse("admin:curation_pendingsync_changelist"))
    if "refetch" in request.POST:
        if pending.state != SyncState.FAILED:
            messages.error(request, "Only a failed fetch can be fetched again.")
            return HttpResponseRedirect(here)
        retry = pending_sync_request(
            guide=pending.guide, user=request.user, source_url=pending.source_url
        )
        PendingSync.objects.filter(pk=pending.pk).update(state=SyncState.DISMISSED)
        return HttpResponseRedirect(reverse("admin:curation_pendingsync_change", args=[retry.pk]))
    if "apply" not in request.POST:
        return HttpResponseRedirect(here)
    try:
        with transaction.atomic():
            result, diff, plan = pending_sync_apply(
                pending=pending, user=request.user, seen=request.POST.get("seen", "")
            )
            _log_sync(request, result, plan, diff, pending.source_url)
    except SyncDecisionError as error:
        messages.error(request, f"Nothing was changed: {error}")
        return HttpResponseRedirect(here)
    messages.success(
        request,
        f"Synced “{pending.guide.title}” with {pending.source_url}: {diff.summary().splitlines()[0]}",
    )
    return HttpResponseRedirect(reverse("admin:catalog_guide_change", args=[pending.guide.pk]))


def _int_or_404(value) -> int:
    try:
        return int(unquote(value))
    except ValueError:
        raise Http404("No such sync.") from None
