"""The pending syncs (every fetched source waiting for a curator, in one list) and each guide's
last fetch, for the curators who may sync guides (``syncs.can_sync``); read-only lists, the
review page is ``views.pending_sync_review``. Registered by the site itself (``CurationAdminSite``)."""

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from apps.curation.models import SyncState
from apps.curation.syncs import can_sync


class SyncersOnly:
    """Seen only by those who may sync guides; nobody adds, edits or deletes rows here."""

    def has_module_permission(self, request):
        return can_sync(request.user)

    def has_view_permission(self, request, obj=None):
        return can_sync(request.user)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class OpenFilter(admin.SimpleListFilter):
    """Open syncs (fetching or waiting for review) first: what needs a curator."""

    title = "state"
    parameter_name = "state"

    def lookups(self, request, model_admin):
        return [("open", "Open (fetching or waiting)"), *SyncState.choices, ("all", "All")]

    def choices(self, changelist):
        for lookup, title in self.lookup_choices:
            yield {
                "selected": (self.value() or "open") == lookup,
                "query_string": changelist.get_query_string({self.parameter_name: lookup}),
                "display": title,
            }

    def queryset(self, request, queryset):
        value = self.value() or "open"
        if value == "open":
            return queryset.filter(state__in=[SyncState.FETCHING, SyncState.PENDING])
        if value in SyncState.values:
            return queryset.filter(state=value)
        return queryset


class PendingSyncAdmin(SyncersOnly, admin.ModelAdmin):
    list_display = ["review", "state", "what_changed", "fetched_by", "created_at", "fetched_at"]
    list_display_links = None  # "review" is the link, to the review page
    list_filter = [OpenFilter]
    list_select_related = ["guide", "requested_by"]
    search_fields = ["guide__title", "source_url"]
    list_per_page = 50
    fields = ["guide", "source_url", "state"]

    @admin.display(description="guide")
    def review(self, obj):
        url = reverse("admin:curation_pendingsync_change", args=[obj.pk])
        return format_html('<a href="{}">{}</a>', url, obj.guide.title)

    @admin.display(description="what changed")
    def what_changed(self, obj):
        return obj.headline

    @admin.display(description="fetched for")
    def fetched_by(self, obj):
        if obj.scheduled:
            return "the schedule"
        return obj.requested_by or "—"

    def change_view(self, request, object_id, form_url="", extra_context=None):
        from apps.curation.views import pending_sync_review

        return pending_sync_review(request, object_id, model_admin=self)


class SourceStatusAdmin(SyncersOnly, admin.ModelAdmin):
    list_display = ["guide", "schedule", "fetched_at", "outcome", "error", "queued_at"]
    list_filter = ["outcome"]
    list_select_related = ["guide"]
    fields = ["guide", "fetched_at", "outcome", "error", "queued_at"]
    readonly_fields = fields

    @admin.display(description="re-fetched", ordering="guide__sync_schedule")
    def schedule(self, obj):
        return obj.guide.get_sync_schedule_display()
