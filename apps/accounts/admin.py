"""Accounts in Django admin, for superusers only: invite links."""

from django.conf import settings
from django.contrib import admin, messages
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext_lazy, ngettext

from apps.accounts.models import Invite


class SuperuserOnly:
    def has_module_permission(self, request):
        return request.user.is_active and request.user.is_superuser

    def has_view_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_superuser

    def has_add_permission(self, request):
        return request.user.is_active and request.user.is_superuser

    def has_change_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_superuser

    def has_delete_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_superuser


@admin.register(Invite)
class InviteAdmin(SuperuserOnly, admin.ModelAdmin):
    list_display = ["__str__", "link", "uses", "max_uses", "expires_at", "status", "created_by"]
    list_select_related = ["created_by"]
    fields = ["note", "max_uses", "expires_at", "link", "uses", "status", "revoked_at"]
    readonly_fields = ["link", "uses", "status", "revoked_at"]
    actions = ["revoke"]

    def get_changeform_initial_data(self, request):
        return {"expires_at": timezone.now() + timezone.timedelta(days=7)}

    @admin.display(description=gettext_lazy("Link to hand out"))
    def link(self, obj):
        if not obj.pk:
            return "(shown once saved)"
        url = settings.SITE_URL + obj.get_absolute_url()
        return format_html("<code>{}</code>", url)

    @admin.display(description=gettext_lazy("Status"))
    def status(self, obj):
        if not obj.pk:
            return "(shown once saved)"
        return obj.refusal(now=timezone.now()) or "Usable"

    def save_model(self, request, obj, form, change):
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)

    @admin.action(description=gettext_lazy("Revoke the selected invite links"))
    def revoke(self, request, queryset):
        count = queryset.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())
        messages.success(
            request,
            ngettext(
                "%(count)s invite link revoked: it signs nobody up now.",
                "%(count)s invite links revoked: they sign nobody up now.",
                count,
            )
            % {"count": count},
        )
