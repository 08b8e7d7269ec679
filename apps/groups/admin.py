"""Study groups in Django admin. Staff (curators) see that groups exist and what they work
through; who is in them and their invite links are for superusers only. No group stores progress
or notes, so no admin page can show them."""

from django.contrib import admin
from django.db.models import Count
from django.utils.translation import gettext_lazy as _

from apps.groups.models import GroupInvite, Membership, StudyGroup


def _superuser(request) -> bool:
    return request.user.is_active and request.user.is_superuser


def _staff(request) -> bool:
    return request.user.is_active and request.user.is_staff


class SuperuserOnlyAdmin(admin.ModelAdmin):
    def has_module_permission(self, request):
        return _superuser(request)

    def has_view_permission(self, request, obj=None):
        return _superuser(request)

    def has_add_permission(self, request):
        return False  # groups are made, joined and left by learners

    def has_change_permission(self, request, obj=None):
        return _superuser(request)

    def has_delete_permission(self, request, obj=None):
        return _superuser(request)


@admin.register(StudyGroup)
class StudyGroupAdmin(SuperuserOnlyAdmin):
    list_display = ["name", "member_count", "created_at"]
    search_fields = ["name"]
    readonly_fields = ["uuid", "created_at"]
    filter_horizontal = ["paths", "guides"]
    ordering = ["-created_at"]

    def has_module_permission(self, request):
        return _staff(request)

    def has_view_permission(self, request, obj=None):
        return _staff(request)

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(member_count=Count("memberships"))

    @admin.display(description=_("members"), ordering="member_count")
    def member_count(self, group):
        return group.member_count


@admin.register(Membership)
class MembershipAdmin(SuperuserOnlyAdmin):
    list_display = ["group", "user", "role", "progress_hidden", "weekly_mail", "joined_at"]
    list_select_related = ["group", "user"]
    list_filter = ["role"]
    search_fields = ["group__name", "user__email__exact"]
    raw_id_fields = ["group", "user"]
    readonly_fields = ["mailed_week"]


@admin.register(GroupInvite)
class GroupInviteAdmin(SuperuserOnlyAdmin):
    list_display = [
        "group",
        "created_by",
        "created_at",
        "expires_at",
        "uses",
        "max_uses",
        "revoked_at",
    ]
    list_select_related = ["group", "created_by"]
    raw_id_fields = ["group"]
    readonly_fields = ["token", "uses", "revoked_at", "created_by", "created_at"]
