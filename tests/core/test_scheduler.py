"""apps/core/scheduler.py and config/schedule.py: each due time of a scheduled job is enqueued
once however many schedulers run, a worker runs it (the heartbeat proves both), and a schedule
with a bad line stops the worker with that line named."""

import threading
from datetime import UTC, datetime, timedelta

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.management import CommandError, call_command
from django.db import connection
from django.tasks import task
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from apps.core.models import Heartbeat, ScheduledRun
from apps.core.scheduler import Entry, Scheduler, claim, next_due, schedule
from config.schedule import SCHEDULE

NOT_A_TASK = "hello"
TEST_SCHEDULE = [("*/5 * * * *", "apps.core.tasks.heartbeat")]
BAD_CRON = [("61 * * * *", "apps.core.tasks.heartbeat")]
BAD_TASK = [("* * * * *", "tests.core.test_scheduler.NOT_A_TASK")]
MISSING = [("* * * * *", "apps.core.tasks.no_such_job")]


@task
def noop() -> None:
    pass


def test_the_sites_schedule_reads_and_has_the_heartbeat():
    entries = schedule()
    assert [entry.task_path for entry in entries] == [path for _, path in SCHEDULE]
    assert Entry("* * * * *", "apps.core.tasks.heartbeat") in entries


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ("BAD_CRON", "'61 * * * *' is not a cron line"),
        ("BAD_TASK", "'tests.core.test_scheduler.NOT_A_TASK' is not a @task"),
        ("MISSING", "cannot import 'apps.core.tasks.no_such_job'"),
    ],
)
def test_a_bad_schedule_line_is_named(setting, message):
    with pytest.raises(ImproperlyConfigured) as raised:
        schedule(f"tests.core.test_scheduler.{setting}")
    assert message in str(raised.value)


def test_due_times_follow_the_cron_line_in_the_sites_time_zone(settings):
    settings.TIME_ZONE = "Europe/Berlin"
    after = datetime(2026, 3, 28, 12, 0, tzinfo=UTC)
    # 04:17 Berlin time: 03:17 UTC in winter, 02:17 UTC from the night the clocks go forward.
    assert next_due("17 4 * * *", after) == datetime(2026, 3, 29, 2, 17, tzinfo=UTC)
    assert next_due("*/15 * * * *", after) == datetime(2026, 3, 28, 12, 15, tzinfo=UTC)


@pytest.mark.django_db
def test_a_due_time_is_enqueued_once_however_many_schedulers_tick(database_queue):
    start = datetime(2026, 1, 1, 9, 58, 30, tzinfo=UTC)
    entries = schedule("tests.core.test_scheduler.TEST_SCHEDULE")
    schedulers = [Scheduler(entries, now=start) for _ in range(3)]

    assert [s.tick(now=start + timedelta(seconds=20)) for s in schedulers] == [[], [], []]
    at_ten = [s.tick(now=datetime(2026, 1, 1, 10, 0, 1, tzinfo=UTC)) for s in schedulers]

    assert at_ten == [["apps.core.tasks.heartbeat"], [], []]
    run = ScheduledRun.objects.get()
    assert run.due_at == datetime(2026, 1, 1, 10, 0, tzinfo=UTC)
    assert DBTaskResult.objects.get().id.hex == run.result_id.replace("-", "")


@pytest.mark.django_db
def test_a_scheduler_that_was_down_runs_the_next_due_time_not_every_missed_one(database_queue):
    start = datetime(2026, 1, 1, 9, 58, tzinfo=UTC)
    scheduler = Scheduler(schedule("tests.core.test_scheduler.TEST_SCHEDULE"), now=start)

    assert scheduler.tick(now=datetime(2026, 1, 1, 11, 2, tzinfo=UTC)) == [
        "apps.core.tasks.heartbeat"
    ]
    assert scheduler.due[Entry(*TEST_SCHEDULE[0])] == datetime(2026, 1, 1, 11, 5, tzinfo=UTC)
    assert ScheduledRun.objects.count() == 1
    assert scheduler.seconds_to_next(now=datetime(2026, 1, 1, 11, 4, 50, tzinfo=UTC)) == 10


@pytest.mark.django_db(transaction=True)
def test_schedulers_racing_in_threads_enqueue_a_due_time_once(database_queue):
    due = datetime(2026, 1, 1, 10, 0, tzinfo=UTC)
    entry = Entry("* * * * *", "tests.core.test_scheduler.noop")
    barrier = threading.Barrier(4)
    won = []

    def race():
        try:
            barrier.wait()
            won.append(claim(entry, due))
        finally:
            connection.close()

    threads = [threading.Thread(target=race) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)

    assert sorted(won) == [False, False, False, True]
    assert ScheduledRun.objects.count() == 1
    assert DBTaskResult.objects.count() == 1


@pytest.mark.django_db
def test_the_heartbeat_scheduled_and_run_by_the_worker_makes_the_health_check_pass(run_jobs):
    with pytest.raises(CommandError, match="No heartbeat yet"):
        call_command("worker", health=True)
    now = timezone.now()
    scheduler = Scheduler(schedule(), now=now - timedelta(minutes=1))

    assert "apps.core.tasks.heartbeat" in scheduler.tick(now=now)
    run_jobs()

    job = DBTaskResult.objects.get(task_path="apps.core.tasks.heartbeat")
    assert job.status == "SUCCESSFUL"
    assert Heartbeat.objects.get().ran_at >= now
    call_command("worker", health=True)  # passes
    Heartbeat.objects.update(ran_at=now - timedelta(minutes=5))
    with pytest.raises(CommandError, match="more than 180 s"):
        call_command("worker", health=True)


@pytest.mark.django_db
def test_prune_deletes_old_finished_jobs_and_keeps_recent_and_waiting_ones(run_jobs, settings):
    from apps.core.tasks import heartbeat, prune_jobs

    for _ in range(2):
        heartbeat.enqueue()
    run_jobs()
    old, recent = DBTaskResult.objects.all()
    DBTaskResult.objects.filter(id=old.id).update(finished_at=timezone.now() - timedelta(days=8))
    waiting = heartbeat.enqueue()

    prune_jobs.call()

    assert set(DBTaskResult.objects.values_list("id", flat=True)) == {
        recent.id,
        old.id.__class__(waiting.id),
    }
