import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.db.models import QuerySet
from django.utils import timezone

from apps.progress.models import Activity, Progress, Status
from apps.progress.services import ProgressError, progress_set_note, progress_set_status

pytestmark = pytest.mark.django_db


def test_setting_done_twice_converges_to_one_row_and_one_activity(user, catalog):
    resource = catalog["resources"][0]
    first = progress_set_status(user=user, resource=resource, status=Status.DONE)
    second = progress_set_status(user=user, resource=resource, status=Status.DONE)
    assert Progress.objects.filter(user=user).count() == 1
    assert first.completed_at == second.completed_at
    assert Activity.objects.filter(user=user, status=Status.DONE).count() == 1


def test_not_started_removes_the_row_unless_it_holds_a_note(user, catalog):
    resource = catalog["resources"][0]
    progress_set_status(user=user, resource=resource, status=Status.DONE)
    assert progress_set_status(user=user, resource=resource, status=Status.NOT_STARTED) is None
    assert not Progress.objects.filter(user=user).exists()

    progress_set_note(user=user, resource=resource, note="come back to section 3")
    row = progress_set_status(user=user, resource=resource, status=Status.NOT_STARTED)
    assert row.note == "come back to section 3" and row.completed_at is None


def test_dates_follow_the_status(user, catalog):
    resource = catalog["resources"][0]
    t0 = timezone.now() - timedelta(days=3)
    row = progress_set_status(user=user, resource=resource, status=Status.IN_PROGRESS, at=t0)
    assert row.started_at == t0 and row.completed_at is None
    row = progress_set_status(user=user, resource=resource, status=Status.DONE)
    assert row.started_at == t0 and row.completed_at > t0
    row = progress_set_status(user=user, resource=resource, status=Status.SKIPPED)
    assert row.completed_at is None and row.started_at == t0


def test_unknown_status_is_refused_and_changes_nothing(user, catalog):
    with pytest.raises(ProgressError):
        progress_set_status(user=user, resource=catalog["resources"][0], status="toggle")
    assert not Progress.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_concurrent_writes_make_one_row_and_never_fail(user, catalog):
    resource = catalog["resources"][0]
    errors, barrier = [], threading.Barrier(2)

    def tick():
        try:
            barrier.wait()
            progress_set_status(user=user, resource=resource, status=Status.DONE)
        except Exception as exc:  # noqa: BLE001 - the test asserts there are none
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=tick) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert Progress.objects.filter(user=user, resource=resource, status=Status.DONE).count() == 1


def test_a_row_made_after_the_lookup_is_updated_not_duplicated(user, catalog, monkeypatch):
    """The race the concurrent test provokes, made certain: another request inserts the row
    between our lookup and our insert, so the insert conflicts and the write applies on top."""
    resource = catalog["resources"][0]
    progress_set_status(user=user, resource=resource, status=Status.IN_PROGRESS)
    real_first, missed = QuerySet.first, []

    def first_misses_once(queryset):
        if queryset.model is Progress and not missed:
            missed.append(True)
            return None
        return real_first(queryset)

    monkeypatch.setattr(QuerySet, "first", first_misses_once)
    progress = progress_set_status(user=user, resource=resource, status=Status.DONE)
    assert missed == [True]
    assert Progress.objects.get(user=user, resource=resource) == progress
    assert progress.status == Status.DONE and progress.started_at and progress.completed_at
    assert list(Activity.objects.filter(user=user).order_by("occurred_at").values_list("status", flat=True)) == [
        Status.IN_PROGRESS,
        Status.DONE,
    ]
