"""The learner pages' own writes: how far a learner has read What's new."""

from datetime import datetime

from apps.learning.models import WhatsNewSeen


def whats_new_mark_seen(*, user, when: datetime) -> None:
    """Move the learner's "seen up to" to ``when``, never back (a stale tab's "Mark as seen"
    cannot bring back what a later visit saw). One query when they have a row, two the first time."""
    if WhatsNewSeen.objects.filter(user=user, seen_up_to__lt=when).update(seen_up_to=when):
        return
    # No row yet, or one already at or past `when`: the insert is ignored for the latter.
    WhatsNewSeen.objects.bulk_create(
        [WhatsNewSeen(user=user, seen_up_to=when)], ignore_conflicts=True
    )
