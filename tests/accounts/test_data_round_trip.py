""" "Download all my data" imported into a fresh account restores its own history (streak and
heatmap), its followed paths and its progress; account deletion ends every session of the user's."""

import json
from datetime import timedelta
from importlib import import_module

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from apps.paths.models import LearningPath, PathFollow
from apps.progress.models import Activity, Progress, Status
from apps.progress.selectors import activity_year
from apps.progress.services import progress_set_note, progress_set_status
from tests.factories import EntryFactory, SectionFactory, UserFactory

pytestmark = pytest.mark.django_db


def _days_ago(days):
    return timezone.now().replace(microsecond=0) - timedelta(days=days, minutes=1)


@pytest.fixture
def history(learner):
    """A learner with 25 days of history: a 20-day run ending today, ticks undone, skips (one
    after starting, one straight away), something in progress, a note on something not begun."""
    section = SectionFactory()  # listed in a published guide: learners may see them
    resources = [EntryFactory(section=section).resource for _ in range(32)]
    for offset in range(20):  # done on each of the last 20 days: the current streak
        progress_set_status(
            user=learner, resource=resources[offset], status=Status.DONE, at=_days_ago(offset)
        )
    for offset, resource in zip((30, 31, 32, 33, 34), resources[20:25], strict=True):
        progress_set_status(
            user=learner, resource=resource, status=Status.DONE, at=_days_ago(offset)
        )
    progress_set_status(
        user=learner, resource=resources[25], status=Status.IN_PROGRESS, at=_days_ago(40)
    )
    progress_set_status(
        user=learner, resource=resources[26], status=Status.IN_PROGRESS, at=_days_ago(45)
    )
    progress_set_status(
        user=learner, resource=resources[26], status=Status.SKIPPED, at=_days_ago(44)
    )
    progress_set_status(
        user=learner, resource=resources[27], status=Status.SKIPPED, at=_days_ago(50)
    )
    # Ticked and unticked on a day of its own: no day's work.
    progress_set_status(user=learner, resource=resources[28], status=Status.DONE, at=_days_ago(60))
    progress_set_status(
        user=learner, resource=resources[28], status=Status.NOT_STARTED, at=_days_ago(60)
    )
    progress_set_note(user=learner, resource=resources[29], note="read after the course")
    return resources


def _year(user):
    year = activity_year(user=user)
    return year.days, year.current_streak, year.longest_streak, year.total, year.active_days


def _rows(user):
    return set(
        Progress.objects.filter(user=user).values_list(
            "resource_id", "status", "note", "started_at", "completed_at"
        )
    )


def _export(client):
    response = client.get(reverse("accounts:data-export"))
    assert response.status_code == 200
    return response.content.decode()


def _import(client, text):
    response = client.post(reverse("progress:import"), {"text": text, "confirm": "1"})
    assert response.status_code == 302, response.content.decode()[:2000]


def test_the_history_counts_days_started_or_finished_not_clicks(learner, history):
    days, current, longest, total, active = _year(learner)
    assert (current, longest) == (20, 20)
    assert not dict(days)[_days_ago(60).date()], "a tick and its untick are not a day's work"
    assert active == 20 + 5 + 1 + 1  # the run, the five, the start, the start of the later skip


def test_streak_and_heatmap_survive_a_round_trip_into_a_fresh_account(
    learner_client, learner, history
):
    before = _year(learner)
    text = _export(learner_client)
    fresh = UserFactory(email="fresh@example.com")
    client = Client()
    client.force_login(fresh)

    _import(client, text)

    assert _year(fresh) == before
    mine = {(row[0], *row[1:]) for row in _rows(learner)}
    assert _rows(fresh) == mine
    # Nothing imported is logged as today's: the skip without a date is not logged at all.
    today = timezone.localdate()
    assert not Activity.objects.filter(user=fresh, occurred_at__date=today).exclude(
        resource__in=history[:1]
    )


def test_the_export_imported_into_the_same_account_changes_nothing(
    learner_client, learner, history
):
    before, rows = _year(learner), _rows(learner)
    text = _export(learner_client)
    preview = learner_client.post(reverse("progress:import"), {"text": text})
    assert preview.context["plan"].changes == []
    assert _year(learner) == before and _rows(learner) == rows


@pytest.fixture
def paths():
    return [
        LearningPath.objects.create(slug=f"path-{n}", title=f"Path {n}", position=n)
        for n in range(3)
    ]


def test_the_export_holds_followed_paths_and_the_import_follows_them_again(
    learner_client, learner, paths
):
    followed = PathFollow.objects.create(
        user=learner, path=paths[0], hours_per_week=3, done_minutes_at_follow=45
    )
    followed_at = _days_ago(12)
    PathFollow.objects.filter(pk=followed.pk).update(followed_at=followed_at)
    PathFollow.objects.create(user=learner, path=paths[2])
    PathFollow.objects.create(user=UserFactory(), path=paths[1])  # not mine: not exported
    data = json.loads(_export(learner_client))
    assert [item["slug"] for item in data["followed_paths"]] == ["path-0", "path-2"]

    fresh = UserFactory(email="fresh@example.com")
    client = Client()
    client.force_login(fresh)
    preview = client.post(reverse("progress:import"), {"text": json.dumps(data)})
    assert "Path 0" in preview.content.decode() and "Path 2" in preview.content.decode()
    _import(client, json.dumps(data))

    restored = {
        follow.path.slug: follow
        for follow in PathFollow.objects.filter(user=fresh).select_related("path")
    }
    assert set(restored) == {"path-0", "path-2"}
    assert restored["path-0"].hours_per_week == 3
    assert restored["path-0"].done_minutes_at_follow == 45
    assert restored["path-0"].followed_at == followed_at
    # Imported again: nothing to apply, nothing doubles.
    again = client.post(reverse("progress:import"), {"text": json.dumps(data), "confirm": "1"})
    assert again.status_code == 200 and not again.context["plan"].anything_to_apply
    assert PathFollow.objects.filter(user=fresh).count() == 2


def _session_owners():
    store = import_module(settings.SESSION_ENGINE).SessionStore
    return [
        store().decode(session.session_data).get("_auth_user_id")
        for session in Session.objects.all()
    ]


def test_account_deletion_ends_every_session_of_the_user(learner, other_learner, password):
    assert settings.SESSION_ENGINE in (
        "django.contrib.sessions.backends.db",
        "django.contrib.sessions.backends.cached_db",
    )
    laptop, phone, theirs = Client(), Client(), Client()
    for client, user in ((laptop, learner), (phone, learner), (theirs, other_learner)):
        assert client.login(username=user.username, password=password)
    assert sorted(_session_owners()) == sorted([str(learner.pk)] * 2 + [str(other_learner.pk)])

    response = laptop.post(
        reverse("accounts:delete"), {"confirm": learner.email, "password": password}
    )

    assert response.status_code == 302
    assert _session_owners() == [str(other_learner.pk)]
    # The phone is signed out, not signed in as nobody.
    assert phone.get(reverse("accounts:account")).status_code == 302
    assert theirs.get(reverse("accounts:account")).status_code == 200
