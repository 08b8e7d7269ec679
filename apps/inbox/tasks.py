"""The inbox's background jobs (Django's task framework; the schedule is config/schedule.py's).

* ``read_due_feeds`` (hourly): enqueues ``read_one_feed`` for every enabled feed not read for
  ``READ_EVERY``; nothing when none is due.
* ``read_one_feed``: reads one feed into the inbox (``reading.read_feed``); a failure is the job's
  error, recorded on the feed too, with nothing written.
* ``discover_feeds`` (every 30 minutes): examines up to ``DISCOVERY_BATCH`` catalog resources
  with a URL that discovery has not examined yet and follows the feeds it finds; nothing when
  every resource has been examined. A page that cannot be read is recorded as the resource's
  outcome (admin: Inbox › Examined resources), not the run's error.
* ``examine_resource``: examines one resource again (the admin's "Examine again").
"""

from datetime import timedelta
from functools import partial

from django.db import transaction
from django.db.models import Q
from django.tasks import task
from django.utils import timezone

from apps.catalog.models import Resource
from apps.inbox.models import ExaminedResource, Feed
from apps.inbox.reading import read_feed
from apps.inbox.services import resource_examine

READ_EVERY = timedelta(hours=6)
DISCOVERY_BATCH = 25


def due_feeds():
    """Enabled feeds not read (tried) for READ_EVERY, never read first."""
    stale = timezone.now() - READ_EVERY
    return Feed.objects.filter(enabled=True).filter(
        Q(last_read_at__isnull=True) | Q(last_read_at__lte=stale)
    )


@task
def read_due_feeds() -> int:
    """Enqueue a read of each due feed; returns how many."""
    feed_ids = list(due_feeds().order_by("last_read_at", "pk").values_list("pk", flat=True))
    for feed_id in feed_ids:
        transaction.on_commit(partial(read_one_feed.enqueue, feed_id))
    return len(feed_ids)


@task
def read_one_feed(feed_id: int) -> str:
    """Read one enabled feed into the inbox; returns what the read found. A feed deleted or
    switched off since the job was queued is left alone."""
    feed = Feed.objects.filter(pk=feed_id, enabled=True).first()
    if feed is None:
        return "The feed is gone or switched off: not read."
    return read_feed(feed).describe()


def unexamined_resources():
    return (
        Resource.objects.exclude(url__isnull=True)
        .exclude(pk__in=ExaminedResource.objects.values("resource_id"))
        .order_by("pk")
    )


@task
def discover_feeds(batch: int = DISCOVERY_BATCH) -> dict:
    """Examine up to ``batch`` resources not examined yet; returns the counts."""
    examined = found = 0
    for resource in unexamined_resources()[:batch]:
        feed, _outcome = resource_examine(resource=resource)
        examined += 1
        found += feed is not None
    return {"examined": examined, "feeds": found}


@task
def examine_resource(resource_id: int) -> str:
    """Examine one resource (again); returns the outcome."""
    resource = Resource.objects.filter(pk=resource_id).first()
    if resource is None:
        return "The resource is gone."
    return resource_examine(resource=resource)[1]
