"""The learner's own time zone: their saved choice (Preferences.time_zone), else their browser's
(static/js/timezone.js puts it in the `tz` cookie), else the site's TIME_ZONE. The middleware
activates it for the request, so "today", streaks, the heatmap and every date shown are theirs.

The saved choice is copied into the session at log-in and when saved, so that no request reads
the Preferences row: the middleware asks only the session and the cookie.
"""

import zoneinfo
from functools import lru_cache

from django.contrib.auth.signals import user_logged_in
from django.core.exceptions import ObjectDoesNotExist
from django.dispatch import receiver
from django.utils import timezone

SESSION_KEY = "time_zone"  # the learner's saved zone; absent or "" for their browser's
COOKIE_NAME = "tz"  # set by static/js/timezone.js


@lru_cache(maxsize=1)
def zone_names() -> tuple[str, ...]:
    return tuple(sorted(zoneinfo.available_timezones()))


@lru_cache(maxsize=64)
def zone_named(name) -> zoneinfo.ZoneInfo | None:
    """The zone called `name`, or None for a name no zone has (a cookie is anyone's to write)."""
    if not isinstance(name, str) or name not in zoneinfo.available_timezones():
        return None
    return zoneinfo.ZoneInfo(name)


def browser_zone_name(request) -> str:
    """The zone the learner's browser reported, or "" when it has not (yet, or without JS)."""
    name = request.COOKIES.get(COOKIE_NAME, "")
    return name if zone_named(name) else ""


def saved_zone(user) -> zoneinfo.ZoneInfo | None:
    """`user`'s saved zone, or None (their browser's); reads Preferences unless select_related."""
    try:
        return zone_named(user.preferences.time_zone)
    except ObjectDoesNotExist:
        return None


def remember_time_zone(request, name: str) -> None:
    request.session[SESSION_KEY] = name


class TimeZoneMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        # Reading the session costs nothing more: every signed-in page reads it for the user.
        zone = zone_named(request.session.get(SESSION_KEY)) or zone_named(
            request.COOKIES.get(COOKIE_NAME)
        )
        if zone:
            timezone.activate(zone)
        else:
            timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


@receiver(user_logged_in)
def copy_saved_zone_to_session(sender, request, user, **kwargs):
    if request is None or not hasattr(request, "session"):
        return
    zone = saved_zone(user)
    remember_time_zone(request, zone.key if zone else "")
