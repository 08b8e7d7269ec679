"""Study groups in admin: staff see that groups exist; memberships and invite links are for
superusers; no page shows progress or notes (a group stores none)."""

import pytest
from django.test import Client
from django.urls import reverse

from apps.progress.models import Status
from apps.progress.services import progress_set_note, progress_set_status

pytestmark = pytest.mark.django_db


def test_a_curator_sees_groups_but_not_who_is_in_them(group, curator):
    client = Client()
    client.force_login(curator)
    listing = client.get(reverse("admin:groups_studygroup_changelist"))
    assert listing.status_code == 200 and "Kernel club" in listing.content.decode()
    detail = client.get(reverse("admin:groups_studygroup_change", args=[group.pk]))
    assert detail.status_code == 200
    assert (
        client.post(
            reverse("admin:groups_studygroup_change", args=[group.pk]), {"name": "Renamed"}
        ).status_code
        == 403
    )
    for name in ("membership", "groupinvite"):
        assert client.get(reverse(f"admin:groups_{name}_changelist")).status_code == 403


def test_a_superuser_sees_memberships_and_no_notes(group, bob, catalog, superuser):
    progress_set_status(user=bob, resource=catalog["resources"][0], status=Status.DONE)
    progress_set_note(user=bob, resource=catalog["resources"][0], note="private words")
    client = Client()
    client.force_login(superuser)
    for name in ("studygroup", "membership", "groupinvite"):
        page = client.get(reverse(f"admin:groups_{name}_changelist"))
        assert page.status_code == 200 and "private words" not in page.content.decode()
    assert "bob" in client.get(reverse("admin:groups_membership_changelist")).content.decode()
