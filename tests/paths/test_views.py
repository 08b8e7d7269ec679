"""Following a path and setting its pace (apps.paths.views)."""

import pytest
from django.urls import reverse

from apps.paths.models import PathFollow
from apps.progress.models import Progress, Status
from apps.progress.services import progress_set_status

pytestmark = pytest.mark.django_db


def test_follow_unfollow_keeps_progress_and_pace_gives_a_finish_date(
    client, learner, catalog, learning_path
):
    client.force_login(learner)
    progress_set_status(user=learner, resource=catalog["shared"], status=Status.DONE)
    follow_url = reverse("paths:path-follow", args=["kernels"])
    client.post(follow_url, {"action": "follow"})
    client.post(follow_url, {"action": "follow"})  # idempotent
    assert PathFollow.objects.filter(user=learner, path=learning_path).count() == 1
    dashboard = client.get(reverse("learning:dashboard")).content.decode()
    assert "Kernel development" in dashboard and f'id="next-up-{learning_path.uuid}"' in dashboard

    client.post(follow_url, {"action": "follow", "hours_per_week": "5"})
    html = client.get(reverse("learning:path-detail", args=["kernels"])).content.decode()
    # What was done before following is where the pace starts, not a lead.
    assert "At 5 h/week: finish around" in html and "on track" in html and "ahead" not in html
    progress_set_status(user=learner, resource=catalog["resources"][0], status=Status.DONE)
    html = client.get(reverse("learning:path-detail", args=["kernels"])).content.decode()
    assert "ahead by" in html

    client.post(follow_url, {"action": "unfollow"})
    assert not PathFollow.objects.filter(user=learner).exists()
    assert Progress.objects.filter(user=learner, status=Status.DONE).count() == 2


@pytest.mark.parametrize("hours", ["0", "999", "abc", "-3"])
def test_bad_pace_gets_a_message_and_changes_nothing(client, learner, learning_path, hours):
    client.force_login(learner)
    response = client.post(
        reverse("paths:path-follow", args=["kernels"]),
        {"action": "follow", "hours_per_week": hours},
        follow=True,
    )
    assert "Hours per week must be a whole number" in response.content.decode()
    assert not PathFollow.objects.exists()


def test_anonymous_follow_is_sent_to_sign_in_and_get_changes_nothing(
    client, learner, learning_path
):
    response = client.post(reverse("paths:path-follow", args=["kernels"]), {"action": "follow"})
    assert response.status_code == 302 and response["Location"].startswith(reverse("account_login"))
    client.force_login(learner)
    assert client.get(reverse("paths:path-follow", args=["kernels"])).status_code == 405
    assert not PathFollow.objects.exists()
