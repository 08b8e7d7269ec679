"""Personal tokens in Django admin, for superusers only: which exist, whose, when last used;
deleting one revokes it (a leaked token). Never the secret (not stored) nor its digest."""

from django.contrib import admin

from apps.accounts.admin import SuperuserOnly
from apps.api.models import ApiToken


@admin.register(ApiToken)
class ApiTokenAdmin(SuperuserOnly, admin.ModelAdmin):
    list_display = ["name", "user", "prefix", "created_at", "last_used_at"]
    list_select_related = ["user"]
    search_fields = ["name", "prefix", "user__email"]
    fields = ["name", "user", "prefix", "created_at", "last_used_at"]
    readonly_fields = fields

    def has_add_permission(self, request):
        return False  # made by the learner, on their token page: the secret is theirs alone

    def has_change_permission(self, request, obj=None):
        return False
