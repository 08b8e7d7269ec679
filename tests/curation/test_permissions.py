"""Who gets into the admin, and what a curator may and may not see."""

import pytest
from django.contrib.auth.models import Group, Permission
from django.urls import reverse

from apps.curation import permissions as permissions_module
from apps.curation.permissions import CURATORS_GROUP, sync_curator_permissions
from tests.factories import GuideFactory, ResourceFactory

pytestmark = pytest.mark.django_db

CURATED = [
    *(
        ("catalog", model)
        for model in [
            "guide",
            "section",
            "entry",
            "resource",
            "resourcealias",
            "resourcelink",
            "topic",
        ]
    ),
    *(
        ("paths", model) for model in ["learningpath", "pathstep", "stepresource"]
    ),  # not pathfollow: learner data
    # learnersuggestion: the links learners offered (a proxy of their own resources that lists
    # only offered ones, never who offered them); no permission reaches OwnResource itself
    *(("inbox", model) for model in ["feed", "inboxitem", "examinedresource", "learnersuggestion"]),
]


def test_curators_group_has_exactly_the_catalog_and_path_permissions():
    group = Group.objects.get(name=CURATORS_GROUP)
    codenames = set(group.permissions.values_list("content_type__app_label", "codename"))
    expected = {
        (app, f"{action}_{model}")
        for action in ("view", "add", "change", "delete")
        for app, model in CURATED
    }
    assert codenames == expected


def test_sync_is_idempotent_and_takes_back_permissions_granted_by_hand():
    group = Group.objects.get(name=CURATORS_GROUP)
    group.permissions.add(Permission.objects.get(codename="change_user"))
    sync_curator_permissions()
    sync_curator_permissions()
    assert Group.objects.filter(name=CURATORS_GROUP).count() == 1
    assert not group.permissions.filter(content_type__app_label="auth").exists()
    assert group.permissions.count() == len(CURATED) * 4


def test_sync_picks_up_an_app_added_to_the_list(monkeypatch):
    monkeypatch.setattr(
        permissions_module, "CURATOR_APP_LABELS", ["catalog", "paths", "not_installed"]
    )
    group = sync_curator_permissions()
    labels = set(group.permissions.values_list("content_type__app_label", flat=True))
    assert labels == {"catalog", "paths"}


def test_the_group_comes_back_after_a_flush():
    from django.core.management.sql import emit_post_migrate_signal

    Group.objects.filter(name=CURATORS_GROUP).delete()
    emit_post_migrate_signal(
        verbosity=0, interactive=False, db="default"
    )  # what flush does after emptying
    assert Group.objects.get(name=CURATORS_GROUP).permissions.count() == len(CURATED) * 4


def test_sync_recreates_a_deleted_group():
    Group.objects.filter(name=CURATORS_GROUP).delete()
    assert sync_curator_permissions().permissions.count() == len(CURATED) * 4


def test_curator_sees_the_catalog_but_not_users_groups_or_progress(curator_client):
    response = curator_client.get(reverse("admin:index"))
    assert response.status_code == 200
    app_labels = {app["app_label"] for app in response.context["app_list"]}
    assert "catalog" in app_labels
    # and curation's own lists: the link checks (they may change resources: they may check them),
    # the pending syncs and the sources' last fetches (they may sync guides)
    # and that study groups exist (read-only; who is in them is for superusers: tests/groups)
    assert app_labels <= {*permissions_module.CURATOR_APP_LABELS, "curation", "groups"}
    groups = next(app for app in response.context["app_list"] if app["app_label"] == "groups")
    assert [model["object_name"] for model in groups["models"]] == ["StudyGroup"]
    curation = next(app for app in response.context["app_list"] if app["app_label"] == "curation")
    assert [model["object_name"] for model in curation["models"]] == [
        "LinkCheckRun",
        "PendingSync",
        "SourceStatus",
    ]
    html = response.content.decode()
    assert "Resources" in html and "Users" not in html and "Progress" not in html


@pytest.mark.parametrize(
    "url_name",
    [
        "admin:auth_user_changelist",
        "admin:auth_group_changelist",
        "admin:progress_progress_changelist",
        "admin:progress_activity_changelist",
    ],
)
def test_curator_is_refused_users_groups_and_progress(curator_client, url_name):
    assert curator_client.get(reverse(url_name)).status_code == 403


def test_curator_is_refused_a_users_change_page(curator_client, learner):
    assert (
        curator_client.get(reverse("admin:auth_user_change", args=[learner.pk])).status_code == 403
    )


def test_staff_given_progress_permissions_by_mistake_still_cannot_see_progress(client, curator):
    curator.user_permissions.add(*Permission.objects.filter(content_type__app_label="progress"))
    client.force_login(curator)
    assert client.get(reverse("admin:progress_progress_changelist")).status_code == 403


def test_superuser_sees_progress(client, superuser):
    client.force_login(superuser)
    assert client.get(reverse("admin:progress_progress_changelist")).status_code == 200
    assert client.get(reverse("admin:progress_activity_changelist")).status_code == 200


@pytest.mark.parametrize(
    "url",
    [
        lambda: reverse("admin:index"),
        lambda: reverse("admin:catalog_resource_changelist"),
        lambda: reverse("admin:catalog_guide_import"),
        lambda: reverse("admin:catalog_guide_export", args=[GuideFactory().pk]),
        lambda: reverse("admin:catalog_resource_change", args=[ResourceFactory().pk]),
    ],
)
def test_learner_is_sent_to_the_admin_login(learner_client, url):
    target = url()
    response = learner_client.get(target)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))


def test_learner_cannot_post_an_admin_action(learner_client):
    resource = ResourceFactory()
    response = learner_client.post(
        reverse("admin:catalog_resource_changelist"),
        {"action": "unpublish", "_selected_action": [resource.pk]},
    )
    assert response.status_code == 302 and response["Location"].startswith(reverse("admin:login"))
    resource.refresh_from_db()
    assert resource.is_published


def test_curators_edit_exactly_the_models_learner_pages_are_built_from_and_their_tools():
    """One owner: the content apps and their learner models (apps/core/content.py) decide both
    what bumps the content version and what the Curators group may change; besides them, the
    curators' tool apps (the inbox)."""
    from django.apps import apps

    from apps.core import content

    content_models = {
        (model._meta.app_label, model._meta.model_name)
        for label in (*content.CONTENT_APPS, *permissions_module.CURATOR_TOOL_APPS)
        for model in apps.get_app_config(label).get_models()
    } - content.LEARNER_MODELS
    group = sync_curator_permissions()
    granted = set(group.permissions.values_list("content_type__app_label", "content_type__model"))
    assert granted == content_models
    assert ("paths", "pathfollow") not in granted
