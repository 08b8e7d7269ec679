"""Who an API request is, and how often they may call.

- `BearerToken`: `Authorization: Bearer syl_…`, a learner's personal token (apps.api.services).
  A request that sends one is that learner or is refused (401) — a wrong or revoked token never
  falls back to the browser's session, so a script learns at once that its token is bad.
- `BrowserSession`: the signed-in browser's session, with Django's CSRF check on writes
  (`X-CSRFToken`), as every form of the site has it. A visitor's request is not refused here: it
  is simply not a learner.
- `visitor`: the catalog reads are public, as the site's catalog pages are; the learner's own data
  (`/me/…`) is not (401).

`ApiRateLimit` counts every request with allauth's rate limiter, the sign-in and import limits'
own (RATE_LIMIT_API, in the shared cache): a learner's requests per learner, a visitor's per
address; past it a 429 says, with `Retry-After`, how long to wait (apps.accounts.ratelimits).
"""

import threading

from allauth.core.internal import ratelimit as allauth_ratelimit
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.utils.translation import gettext_lazy
from ninja.errors import AuthenticationError
from ninja.security import APIKeyCookie, HttpBearer
from ninja.throttling import BaseThrottle

from apps.accounts import ratelimits
from apps.api import services

RATE_LIMIT_ACTION = "api"  # settings.ACCOUNT_RATE_LIMITS
BAD_TOKEN = gettext_lazy(
    "That token is not valid: it was revoked, mistyped, or its account is closed. "
    "Make a new one on your account page."
)


class BearerToken(HttpBearer):
    """`Authorization: Bearer <token>`."""

    def __call__(self, request):
        header = request.headers.get("Authorization")
        if header is None:
            return None
        scheme, _, secret = header.partition(" ")
        if scheme.lower() != "bearer":
            # Not ours (a proxy's Basic auth in front of the site): no token was sent.
            return None
        return self.authenticate(request, secret.strip())

    def authenticate(self, request, token):
        found = services.token_authenticate(secret=token)
        if found is None:
            raise AuthenticationError(message=str(BAD_TOKEN))
        # The rest of the stack (rate limits, `Cache-Control: no-store`) sees the learner.
        request.user = found.user
        request.api_token = found
        return found.user


class BrowserSession(APIKeyCookie):
    """The browser's session cookie; writes carry the CSRF token (`X-CSRFToken`)."""

    param_name = settings.SESSION_COOKIE_NAME

    def __call__(self, request):
        if not request.user.is_authenticated:
            return None
        return super().__call__(request)  # the CSRF check (APIKeyCookie._get_key), then ours

    def authenticate(self, request, key):
        return request.user


def visitor(request):
    """Anyone, for the public catalog reads (truthy, so ninja takes it as an answer)."""
    return AnonymousUser()


LEARNER = [BearerToken(), BrowserSession()]
ANYONE = [*LEARNER, visitor]


def _rates_for(request) -> str:
    """RATE_LIMIT_API's rates that apply to this request: per learner, or per address."""
    per = "user" if request.user.is_authenticated else "ip"
    rates = settings.ACCOUNT_RATE_LIMITS.get(RATE_LIMIT_ACTION, "")
    return ",".join(
        rate
        for rate in (part.strip() for part in rates.split(","))
        if rate and (rate.split("/") + ["ip"])[2] == per
    )


def rate_limit_consume(request) -> int | None:
    """Count `request` against RATE_LIMIT_API; None if it may go on, else the seconds to wait.
    A refused one (401: a wrong token, a visitor asking for a learner's data) counts too, per
    address: guessing costs as much as reading."""
    usage = allauth_ratelimit.consume(
        request,
        app="allauth.account",
        action=RATE_LIMIT_ACTION,
        config={RATE_LIMIT_ACTION: _rates_for(request)},
        limit_get=True,  # reads count too: this is every request of a script
    )
    if usage is not None:
        return None
    return ratelimits.wait_seconds(request, (RATE_LIMIT_ACTION,)) or 60


class ApiRateLimit(BaseThrottle):
    """One instance serves every thread: the wait of a refused request is kept per thread, for
    ninja's `wait()` right after."""

    def __init__(self):
        self.refused = threading.local()

    def allow_request(self, request) -> bool:
        self.refused.wait = rate_limit_consume(request)
        return self.refused.wait is None

    def wait(self) -> float | None:
        return getattr(self.refused, "wait", None)
