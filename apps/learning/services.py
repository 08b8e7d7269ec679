"""The learner pages' own writes: how far a learner has read What's new."""

from datetime import datetime

from apps.learning.models import Pin, WhatsNewSeen


def whats_new_mark_seen(*, user, when: datetime) -> None:
    """Move the learner's "seen up to" to ``when``, never back (a stale tab's "Mark as seen"
    cannot bring back what a later visit saw). One query when they have a row, two the first time."""
    if WhatsNewSeen.objects.filter(user=user, seen_up_to__lt=when).update(seen_up_to=when):
        return
    # No row yet, or one already at or past `when`: the insert is ignored for the latter.
    WhatsNewSeen.objects.bulk_create(
        [WhatsNewSeen(user=user, seen_up_to=when)], ignore_conflicts=True
    )


def pin_set(*, user, pinned: bool, guide=None, path=None, own_path=None) -> None:
    """Pin (or unpin) one guide, curated path or own path to `user`'s dashboard; idempotent."""
    target = {"guide": guide, "path": path, "own_path": own_path}
    if sum(value is not None for value in target.values()) != 1:
        raise ValueError("Pin one guide or one path.")
    if pinned:
        Pin.objects.bulk_create([Pin(user=user, **target)], ignore_conflicts=True)
    else:
        Pin.objects.filter(user=user, **{k: v for k, v in target.items() if v is not None}).delete()
