"""The schedule: which jobs the scheduler enqueues, and when. The one place it is read.

Each line is ``(cron line, task path)``: five cron fields (minute, hour, day of month, month, day
of week) in the site's TIME_ZONE, and the dotted path of a module-level ``@task`` taking no
arguments. Every worker runs the scheduler; each due time is enqueued once however many run
(apps/core/scheduler.py). A job is written so that it does nothing when nothing is due, so a
missed or late run costs nothing but the delay.
"""

SCHEDULE = [
    # Records when a worker last ran a scheduled job: `manage.py worker --health` (the compose
    # worker's healthcheck) reads it.
    ("* * * * *", "apps.core.tasks.heartbeat"),
    # Finished jobs' rows (mail jobs hold their message) are deleted after a while.
    ("17 4 * * *", "apps.core.tasks.prune_jobs"),
    # Guides whose source is re-fetched daily or weekly (a due one gets a job; none: nothing).
    ("*/15 * * * *", "apps.curation.tasks.refetch_due_guides"),
    # The whole catalog's links, weekly (Sunday night); it starts no check while one runs.
    ("40 4 * * 0", "apps.curation.tasks.check_all_links"),
    # The curator inbox: feeds found in resources not yet examined, and feeds due to be read.
    ("*/30 * * * *", "apps.inbox.tasks.discover_feeds"),
    ("15 * * * *", "apps.inbox.tasks.read_due_feeds"),
    # Study groups' weekly mail (members who asked for it), Monday morning: one per member per week.
    ("5 7 * * 1", "apps.groups.tasks.send_weekly_mails"),
]
