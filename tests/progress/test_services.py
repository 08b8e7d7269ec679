import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from apps.progress.models import Activity, Progress, Status
from apps.progress.selectors import activity_year
from apps.progress.services import ProgressError, progress_set_note, progress_set_status

pytestmark = pytest.mark.django_db


def test_setting_done_twice_converges_to_one_row_and_one_activity(learner, catalog):
    resource = catalog["resources"][0]
    first = progress_set_status(user=learner, resource=resource, status=Status.DONE)
    second = progress_set_status(user=learner, resource=resource, status=Status.DONE)
    assert Progress.objects.filter(user=learner).count() == 1
    assert first.completed_at == second.completed_at
    assert Activity.objects.filter(user=learner, status=Status.DONE).count() == 1


def test_not_started_removes_the_row_unless_it_holds_a_note(learner, catalog):
    resource = catalog["resources"][0]
    progress_set_status(user=learner, resource=resource, status=Status.DONE)
    assert progress_set_status(user=learner, resource=resource, status=Status.NOT_STARTED) is None
    assert not Progress.objects.filter(user=learner).exists()

    progress_set_note(user=learner, resource=resource, note="come back to section 3")
    row = progress_set_status(user=learner, resource=resource, status=Status.NOT_STARTED)
    assert row.note == "come back to section 3" and row.completed_at is None


def test_clearing_the_note_of_an_unstarted_resource_removes_the_row_by_the_same_rule(
    learner, catalog
):
    resource = catalog["resources"][0]
    assert progress_set_note(user=learner, resource=resource, note="  ") is None
    assert not Progress.objects.exists()
    progress_set_note(user=learner, resource=resource, note="later")
    assert progress_set_note(user=learner, resource=resource, note="") is None
    assert not Progress.objects.filter(user=learner).exists()
    progress_set_status(user=learner, resource=resource, status=Status.SKIPPED)
    assert progress_set_note(user=learner, resource=resource, note="").status == Status.SKIPPED


def test_dates_follow_the_status(learner, catalog):
    resource = catalog["resources"][0]
    t0 = timezone.now() - timedelta(days=3)
    row = progress_set_status(user=learner, resource=resource, status=Status.IN_PROGRESS, at=t0)
    assert row.started_at == t0 and row.completed_at is None
    row = progress_set_status(user=learner, resource=resource, status=Status.DONE)
    assert row.started_at == t0 and row.completed_at > t0
    row = progress_set_status(user=learner, resource=resource, status=Status.SKIPPED)
    assert row.completed_at is None and row.started_at == t0


def test_unknown_status_is_refused_and_changes_nothing(learner, catalog):
    with pytest.raises(ProgressError):
        progress_set_status(user=learner, resource=catalog["resources"][0], status="toggle")
    assert not Progress.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_concurrent_writes_make_one_row_and_never_fail(learner, catalog):
    resource = catalog["resources"][0]
    errors, barrier = [], threading.Barrier(2)

    def tick():
        try:
            barrier.wait()
            progress_set_status(user=learner, resource=resource, status=Status.DONE)
        except Exception as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=tick) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert Progress.objects.filter(user=learner, resource=resource, status=Status.DONE).count() == 1


def test_the_same_status_again_writes_nothing(learner, catalog):
    resource = catalog["resources"][0]
    first = progress_set_status(user=learner, resource=resource, status=Status.DONE)
    again = progress_set_status(user=learner, resource=resource, status=Status.DONE)
    assert again.updated_at == first.updated_at == Progress.objects.get(pk=first.pk).updated_at


def test_a_day_counts_what_was_started_or_finished_on_it_not_clicks(
    learner, other_learner, catalog
):
    first, second, third = catalog["resources"][:3]
    monday = timezone.make_aware(timezone.datetime(2026, 3, 2, 23, 30))
    tuesday = monday + timedelta(hours=1)  # just past midnight in TIME_ZONE
    progress_set_status(user=learner, resource=first, status=Status.DONE, at=monday)
    progress_set_status(user=learner, resource=first, status=Status.DONE, at=monday)  # no change
    progress_set_status(user=learner, resource=second, status=Status.IN_PROGRESS, at=monday)
    # Ticked and unticked: not a day's work.
    progress_set_status(user=learner, resource=third, status=Status.DONE, at=tuesday)
    progress_set_status(user=learner, resource=third, status=Status.NOT_STARTED, at=tuesday)
    progress_set_status(user=other_learner, resource=first, status=Status.DONE, at=tuesday)
    year = activity_year(user=learner, today=tuesday.date())
    assert [(day, count) for day, count in year.days if count] == [(monday.date(), 2)]
    assert (year.current_streak, year.longest_streak) == (1, 1)
    other = activity_year(user=other_learner, today=tuesday.date())
    assert [(day, count) for day, count in other.days if count] == [(tuesday.date(), 1)]


def test_streaks_and_heatmap_read_the_day_counts(learner, catalog):
    resources = catalog["resources"]
    today = timezone.localdate()

    def on(days_ago, resource, status=Status.DONE):
        at = timezone.make_aware(
            timezone.datetime.combine(
                today - timedelta(days=days_ago), timezone.datetime.min.time()
            )
        )
        progress_set_status(
            user=learner, resource=resource, status=status, at=at + timedelta(hours=12)
        )

    for days_ago in (10, 9, 8, 7):  # a four-day run, long ago
        on(days_ago, resources[days_ago - 7])
    on(1, resources[4])  # yesterday and today: the current streak is 2
    on(0, resources[5])
    on(0, catalog["shared"])
    on(
        0, catalog["shared"], Status.NOT_STARTED
    )  # unticked: today counts one thing, not three clicks
    year = activity_year(user=learner)
    assert (year.current_streak, year.longest_streak, year.active_days, year.total) == (2, 4, 6, 6)
    assert year.days[-1] == (today, 1) and year.busiest == (today - timedelta(days=10), 1)


def test_latest_rows_are_the_newest_published_ones_even_behind_newer_unpublished_ones(
    learner, catalog
):
    from apps.catalog.models import Resource
    from apps.progress.selectors import progress_overview

    resources = catalog["resources"]  # 6 of them
    start = timezone.now() - timedelta(days=30)
    for day, resource in enumerate(resources):
        progress_set_status(
            user=learner, resource=resource, status=Status.DONE, at=start + timedelta(days=day)
        )
    progress_set_status(
        user=learner, resource=catalog["shared"], status=Status.IN_PROGRESS, at=start
    )
    Resource.objects.filter(pk__in=[resources[5].pk, resources[4].pk]).update(
        is_published=False
    )  # the newest two
    overview = progress_overview(user=learner, limit=3)
    done = overview.done
    assert [row.resource for row in done] == [resources[3], resources[2], resources[1]]
    assert [row.since for row in done] == [start + timedelta(days=day) for day in (3, 2, 1)]
    started = overview.in_progress
    assert [(row.resource, row.since) for row in started] == [(catalog["shared"], start)]


def test_heatmap_cells_place_each_day_with_its_level_and_count():
    from datetime import date

    from apps.learning.widgets import heatmap_cells

    sunday = date(2026, 11, 1)
    days = [
        (sunday + timedelta(days=i), count) for i, count in enumerate([0, 1, 0, 0, 0, 0, 0, 6, 3])
    ]
    html = heatmap_cells(days)
    assert html.count("<rect") == 9
    assert (
        '<rect x="0" y="14" width="11" height="11" rx="2" class="hm hm-1"><title>1 on Mon 2 Nov 2026</title></rect>'
        in html
    )
    assert (
        '<rect x="14" y="0" width="11" height="11" rx="2" class="hm hm-4"><title>6 on Sun 8 Nov 2026</title></rect>'
        in html
    )
    assert 'class="hm hm-2"><title>3 on Mon 9 Nov 2026</title>' in html
    assert html.startswith(
        '<rect x="0" y="0" width="11" height="11" rx="2" class="hm hm-0"><title>0 on Sun 1 Nov 2026</title>'
    )
    assert heatmap_cells([]) == ""


_BEFORE = timezone.now() - timedelta(days=3)
_FINISHED = timezone.now() - timedelta(days=2)
# (status, note, started_at, completed_at) of a row before a change, as the app leaves rows; None
# for no row.
_ROWS = [
    None,
    (Status.NOT_STARTED, "a note", None, None),
    (Status.IN_PROGRESS, "", _BEFORE, None),
    (Status.IN_PROGRESS, "a note", _BEFORE, None),
    (Status.DONE, "", _BEFORE, _FINISHED),
    (Status.DONE, "a note", _BEFORE, _FINISHED),
    (Status.SKIPPED, "", None, None),
    (Status.SKIPPED, "a note", _BEFORE, None),
]


@pytest.mark.parametrize(
    "row",
    _ROWS,
    ids=lambda row: "no row" if row is None else f"{row[0]}{'+note' if row[1] else ''}",
)
@pytest.mark.parametrize("status", Status.values)
def test_every_change_keeps_the_status_rules(learner, catalog, row, status):
    """From every row the app leaves to every status: dates follow the status, a row stays only
    to hold a status or a note, and a change (only a change) is logged on its day."""
    resource = catalog["resources"][0]
    if row is not None:
        status_was, note, started_at, completed_at = row
        Progress.objects.create(
            user=learner,
            resource=resource,
            status=status_was,
            note=note,
            started_at=started_at,
            completed_at=completed_at,
        )
    before = row[0] if row else Status.NOT_STARTED
    progress_set_status(user=learner, resource=resource, status=status)
    found = Progress.objects.filter(user=learner, resource=resource).first()
    note = row[1] if row else ""
    if status == Status.NOT_STARTED and not note:
        assert found is None
    else:
        assert (found.status, found.note) == (status, note)
        assert (found.completed_at is not None) == (status == Status.DONE)
        if status in (Status.IN_PROGRESS, Status.DONE):
            assert found.started_at is not None
            if row and row[2]:
                assert found.started_at == row[2]  # the first start is kept
        if status == Status.NOT_STARTED:
            assert found.started_at is None
        if status == Status.DONE and before == Status.DONE:
            assert found.completed_at == row[3]  # done again keeps its day
    logged = list(Activity.objects.filter(user=learner).values_list("status", flat=True))
    assert logged == ([] if before == status else [status])


def test_an_imported_change_is_logged_on_its_own_day(learner, catalog):
    """Imports carry their own dates (with or without a zone): the history lands on those days."""
    from datetime import datetime

    resource, other = catalog["resources"][:2]
    finished = timezone.now() - timedelta(days=40)
    progress_set_status(
        user=learner,
        resource=resource,
        status=Status.DONE,
        completed_at=finished,
        started_at=finished,
    )
    progress_set_status(
        user=learner,
        resource=other,
        status=Status.IN_PROGRESS,
        started_at=datetime(2025, 3, 1, 12, 0),
    )
    assert Progress.objects.get(user=learner, resource=resource).completed_at == finished
    days = {timezone.localdate(at) for at in Activity.objects.values_list("occurred_at", flat=True)}
    assert days == {timezone.localdate(finished), datetime(2025, 3, 1).date()}


def test_not_done_returns_to_in_progress_with_its_start_or_to_not_started(learner, catalog):
    from apps.progress.services import UNDONE

    started, straight, skipped = catalog["resources"][:3]
    start = timezone.now() - timedelta(days=2)
    progress_set_status(user=learner, resource=started, status=Status.IN_PROGRESS, started_at=start)
    progress_set_status(user=learner, resource=started, status=Status.DONE)
    row = progress_set_status(user=learner, resource=started, status=UNDONE)
    assert (row.status, row.started_at, row.completed_at) == (Status.IN_PROGRESS, start, None)
    progress_set_status(user=learner, resource=straight, status=Status.DONE)
    assert progress_set_status(user=learner, resource=straight, status=UNDONE) is None
    # Not done asks nothing of a resource that is not done: it stays as it is, no activity logged.
    progress_set_status(user=learner, resource=skipped, status=Status.SKIPPED)
    before = Activity.objects.count()
    assert (
        progress_set_status(user=learner, resource=skipped, status=UNDONE).status == Status.SKIPPED
    )
    assert Activity.objects.count() == before
