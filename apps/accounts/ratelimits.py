"""How long a visitor refused by one of allauth's rate limits really has to wait.

allauth keeps, per limit and per client address (or user), the times of the attempts it
counted, newest first, in the cache. A full limit frees its first slot when its oldest attempt
leaves the window; that moment, not "a few minutes", is what the 429 page tells the visitor.
This reads allauth's internal key scheme (``allauth.core.internal.ratelimit``, pinned with the
allauth version in uv.lock); the tests fail if it changes.
"""

import math
import time

from allauth.core.internal import ratelimit as allauth_ratelimit
from django.core.cache import cache

# The URL a limit guards → the allauth actions counted there.
ACTIONS_BY_URL_NAME = {
    "account_signup": ("signup",),
    "account_login": ("login", "login_failed"),
    "account_reset_password": ("reset_password",),
    "account_reset_password_from_key": ("reset_password_from_key",),
    "account_email": ("manage_email",),
    "account_change_password": ("change_password",),
    "account_set_password": ("change_password",),
    "delete": ("reauthenticate",),
}


def actions_for(request) -> tuple[str, ...]:
    match = getattr(request, "resolver_match", None)
    return ACTIONS_BY_URL_NAME.get(match.url_name, ()) if match else ()


def wait_seconds(request, actions) -> int | None:
    """Seconds until ``request``'s client may try ``actions`` again: the latest moment a full
    per-address (or per-user) limit frees a slot. The longest window when the full limit is
    per key (an address typed into the form), which this cannot see. None: no limit applies."""
    now = time.time()
    waits, windows = [], []
    for action in actions:
        for rate in allauth_ratelimit.get_rates(app="allauth.account", action=action):
            windows.append(rate.duration)
            if rate.per == "ip" or (rate.per == "user" and request.user.is_authenticated):
                key = allauth_ratelimit.get_cache_key(
                    request, app="allauth.account", action=action, rate=rate
                )
                history = [t for t in cache.get(key, []) if t > now - rate.duration]
                if len(history) >= rate.amount:
                    waits.append(min(history) + rate.duration - now)
    if waits:
        return max(1, math.ceil(max(waits)))
    return math.ceil(max(windows)) if windows else None


def wait_phrase(seconds: int) -> str:
    """``3540`` → "59 minutes"; ``5400`` → "1 hour 30 minutes"; ``40`` → "40 seconds"."""
    if seconds < 90:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = math.ceil(seconds / 60)
    hours, minutes = divmod(minutes, 60)
    parts = []
    if hours:
        parts.append(f"{hours} hour{'s' if hours != 1 else ''}")
    if minutes:
        parts.append(f"{minutes} minute{'s' if minutes != 1 else ''}")
    return " ".join(parts)
