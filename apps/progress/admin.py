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


# The lists below hold every learner's rows (millions): each reads one page of them through an
# index, never the whole table. No total count (show_full_result_count), no date hierarchy (its
# year links read every row's date), no filter on an unindexed column, an ordering an index
# gives, and searches by exact values only: a learner's username or email (looked up in the
# users table, then their rows through the (user, resource) index) or a resource's uuid.
SEARCH_FIELDS = ["user__username__exact", "user__email__exact", "resource__uuid__exact"]


@admin.register(Progress)
class ProgressAdmin(SuperuserOnlyAdmin):
    list_display = ["user", "resource", "status", "started_at", "completed_at", "updated_at"]
    list_select_related = ["user", "resource"]
    search_fields = SEARCH_FIELDS
    search_help_text = "A learner's exact username or email, or a resource's uuid."
    raw_id_fields = ["user", "resource"]
    readonly_fields = ["created_at", "updated_at"]
    ordering = ["-pk"]  # newest rows first, read backwards along the primary key
    show_full_result_count = False


@admin.register(Activity)
class ActivityAdmin(SuperuserOnlyAdmin):
    list_display = ["occurred_at", "user", "status", "resource"]
    list_select_related = ["user", "resource"]
    search_fields = SEARCH_FIELDS
    search_help_text = ProgressAdmin.search_help_text
    raw_id_fields = ["user", "resource"]
    ordering = ["-occurred_at", "-pk"]  # the occurred_at index, newest first
    show_full_result_count = False

    def has_change_permission(self, request, obj=None):
        return False  # the log is history: it is not edited
