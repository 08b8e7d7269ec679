"""Following a path and setting a pace. Unfollowing never touches progress."""

from django.db import IntegrityError, transaction

from apps.paths.models import PathFollow
from apps.paths.selectors import path_detail


def path_follow(*, user, path, hours_per_week=None):
    """Follow `path` (idempotent); `hours_per_week` updates the pace when given."""
    try:
        with transaction.atomic():
            follow = PathFollow.objects.filter(user=user, path=path).first()
            if follow is None:
                done = path_detail(path=path, user=user, follows={}).done_minutes
                follow = PathFollow.objects.create(
                    user=user, path=path, done_minutes_at_follow=done
                )
    except IntegrityError:  # a concurrent follow won the race
        follow = PathFollow.objects.get(user=user, path=path)
    if hours_per_week is not None and follow.hours_per_week != hours_per_week:
        follow.hours_per_week = hours_per_week
        follow.save(update_fields=["hours_per_week"])
    return follow


def path_unfollow(*, user, path):
    PathFollow.objects.filter(user=user, path=path).delete()


def path_follow_restore(*, user, path, hours_per_week, followed_at, done_minutes_at_follow):
    """Follow `path` as an account export recorded it (its date and the pace's starting point), if
    `user` does not follow it yet; returns the new PathFollow, or None when already following."""
    try:
        with transaction.atomic():
            if PathFollow.objects.filter(user=user, path=path).exists():
                return None
            follow = PathFollow.objects.create(
                user=user,
                path=path,
                hours_per_week=hours_per_week,
                done_minutes_at_follow=done_minutes_at_follow,
            )
            if followed_at is not None:  # auto_now_add set it to now on create
                follow.followed_at = followed_at
                follow.save(update_fields=["followed_at"])
            return follow
    except IntegrityError:  # a concurrent follow won the race
        return None
