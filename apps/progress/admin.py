"""Learners' progress in Django admin: for superusers only.

A learner's progress and notes are private. Curators (and any staff member granted
progress permissions by mistake) do not see these pages at all; superusers get a
read-mostly view for support.
"""

from django.contrib import admin

from apps.core.admin_autocomplete import AutocompleteGuard
from apps.progress.models import Activity, Progress


class SuperuserOnlyAdmin(AutocompleteGuard, admin.ModelAdmin):
    def has_module_permission(self, request):
        return request.user.is_active and request.user.is_superuser

    def has_view_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_superuser

    def has_add_permission(self, request):
        return False  # progress is written by learners (and imports), never typed in here

    def has_change_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_superuser

    def has_delete_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_superuser


@admin.register(Progress)
class ProgressAdmin(SuperuserOnlyAdmin):
    list_display = ["user", "resource", "status", "started_at", "completed_at", "updated_at"]
    list_filter = ["status"]
    list_select_related = ["user", "resource"]
    search_fields = ["user__email", "user__username", "resource__title"]
    raw_id_fields = ["user", "resource"]
    readonly_fields = ["created_at", "updated_at"]
    date_hierarchy = "updated_at"
    show_full_result_count = False


@admin.register(Activity)
class ActivityAdmin(SuperuserOnlyAdmin):
    list_display = ["occurred_at", "user", "status", "resource"]
    list_filter = ["status"]
    list_select_related = ["user", "resource"]
    search_fields = ["user__email", "user__username", "resource__title"]
    raw_id_fields = ["user", "resource"]
    date_hierarchy = "occurred_at"
    show_full_result_count = False

    def has_change_permission(self, request, obj=None):
        return False  # the log is history: it is not edited
