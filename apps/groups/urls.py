"""Study groups (`groups:`): every page but the invite link's answers members only."""

from django.urls import path

from apps.groups import views

app_name = "groups"

urlpatterns = [
    path("groups/", views.group_list, name="group-list"),
    path("groups/new/", views.group_create_view, name="group-create"),
    path("groups/join/<slug:token>/", views.group_join_view, name="join"),
    path("groups/<uuid:uuid>/", views.group_detail, name="group-detail"),
    path("groups/<uuid:uuid>/activity/", views.group_activity_view, name="group-activity"),
    path("groups/<uuid:uuid>/visibility/", views.group_visibility, name="group-visibility"),
    path("groups/<uuid:uuid>/settings/", views.group_settings, name="group-settings"),
    path("groups/<uuid:uuid>/leave/", views.group_leave_view, name="group-leave"),
    path("groups/<uuid:uuid>/edit/", views.group_edit, name="group-edit"),
    path("groups/<uuid:uuid>/invites/", views.group_invites, name="group-invites"),
    path(
        "groups/<uuid:uuid>/invites/<int:invite_id>/revoke/",
        views.group_invite_revoke,
        name="invite-revoke",
    ),
    path("groups/<uuid:uuid>/members/", views.group_members_view, name="group-members"),
    path(
        "groups/<uuid:uuid>/members/<int:member_id>/remove/",
        views.group_member_remove,
        name="member-remove",
    ),
    path(
        "groups/<uuid:uuid>/members/<int:member_id>/owner/",
        views.group_member_owner,
        name="member-owner",
    ),
]
