"""`manage.py worker`: runs the jobs. The scheduler (apps.core.scheduler) in a thread, and, with
the database backend, django-tasks-db's worker (`db_worker`) on every queue. With another backend
(TASKS_BACKEND) only the scheduler runs here: that backend's own worker runs the jobs.

`manage.py worker --health` is the compose worker's healthcheck: it exits 0 when the database
answers and the scheduled heartbeat ran within --max-age seconds."""

import signal
import threading

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.tasks import DEFAULT_TASK_BACKEND_ALIAS, task_backends
from django.utils import timezone

from apps.core.scheduler import Scheduler, schedule


class Command(BaseCommand):
    help = "Run the background jobs: the schedule, and the database queue's worker."
    # The checks run in handle(), not for --health: the healthcheck runs every 30 s.
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument(
            "--no-scheduler", action="store_true", help="Run jobs only; enqueue no scheduled job."
        )
        parser.add_argument(
            "--batch", action="store_true", help="Run the jobs ready now, then exit (no scheduler)."
        )
        parser.add_argument(
            "--interval",
            type=float,
            default=1.0,
            help="Seconds between looks at an empty queue (default 1).",
        )
        parser.add_argument(
            "--max-tasks", type=int, default=None, help="Exit after this many jobs."
        )
        parser.add_argument(
            "--health",
            action="store_true",
            help="Check the jobs run (the heartbeat is recent), and exit 0 or 1.",
        )
        parser.add_argument(
            "--max-age",
            type=int,
            default=180,
            help="With --health: the oldest heartbeat, in seconds, that counts (default 180).",
        )

    def handle(self, *args, **options):
        if options["health"]:
            return self.health(options["max_age"])
        self.check()
        entries = schedule()  # a bad schedule stops the worker at once, with its line named
        stop = threading.Event()
        if not (options["no_scheduler"] or options["batch"]):
            scheduler = Scheduler(entries)
            threading.Thread(
                target=scheduler.run, args=(stop,), name="scheduler", daemon=True
            ).start()
        try:
            if _is_database_backend():
                worker_options = {
                    "queue_name": "*",
                    "interval": options["interval"],
                    "batch": options["batch"],
                    "reload": False,
                    "startup_delay": not options["batch"],
                    "verbosity": options["verbosity"],
                }
                if options["max_tasks"]:
                    worker_options["max_tasks"] = options["max_tasks"]
                call_command("db_worker", **worker_options)
            elif not options["batch"]:
                self.stdout.write(
                    f"Jobs run on {_backend().__class__.__name__}'s own worker; "
                    "this process runs the schedule only."
                )
                signal.signal(signal.SIGTERM, lambda *_: stop.set())
                try:
                    while not stop.wait(3600):
                        pass
                except KeyboardInterrupt:
                    pass
        finally:
            stop.set()

    def health(self, max_age):
        from apps.core.models import Heartbeat

        try:
            beat = Heartbeat.objects.first()
        except Exception as exc:
            raise CommandError(f"The database does not answer: {exc.__class__.__name__}") from None
        if beat is None:
            raise CommandError("No heartbeat yet: the scheduler has not run it, or no worker has.")
        age = (timezone.now() - beat.ran_at).total_seconds()
        if age > max_age:
            raise CommandError(
                f"The last heartbeat ran {age:.0f} s ago (more than {max_age} s): "
                "the scheduler or the workers are not running jobs."
            )
        self.stdout.write(f"ok: the heartbeat ran {age:.0f} s ago")


def _backend():
    return task_backends[DEFAULT_TASK_BACKEND_ALIAS]


def _is_database_backend() -> bool:
    from django_tasks_db import DatabaseBackend

    return isinstance(_backend(), DatabaseBackend)
