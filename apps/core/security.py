"""Response headers no view should have to remember (settings.PERMISSIONS_POLICY, and
Cache-Control on personal responses): one middleware, one rule each. And the one rule for a
second factor: whether a curator or admin must have one (settings.REQUIRE_MFA_FOR_STAFF), asked
by the admin site and the account page.

Every response to a signed-in learner is personal — their ticks, notes, exports, account, htmx
fragments — so none may be kept by a shared cache, and none by the browser's back/forward
cache either (Back after a tick must show the tick): `no-store`, via Django's own
`add_never_cache_headers`. Pages for visitors are untouched.
"""

from allauth.mfa.models import Authenticator
from django.conf import settings
from django.utils.cache import add_never_cache_headers

# What counts as a second factor: an authenticator app or a passkey/security key (recovery codes
# only ever come with one of them, and stay after it is removed).
SECOND_FACTOR_TYPES = (Authenticator.Type.TOTP, Authenticator.Type.WEBAUTHN)


def staff_second_factor_required(user) -> bool:
    """Whether `user` (a curator or admin) must use a second factor on this site."""
    return bool(settings.REQUIRE_MFA_FOR_STAFF and user.is_active and user.is_staff)


def staff_second_factor_missing(user) -> bool:
    """Whether `user` must set up a second factor before any admin page. allauth asks every
    sign-in of an account with one for it, so having one is having used it."""
    return (
        staff_second_factor_required(user)
        and not Authenticator.objects.filter(user=user, type__in=SECOND_FACTOR_TYPES).exists()
    )


class SecurityHeadersMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.permissions_policy = settings.PERMISSIONS_POLICY

    def __call__(self, request):
        response = self.get_response(request)
        if self.permissions_policy:
            response.headers.setdefault("Permissions-Policy", self.permissions_policy)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            add_never_cache_headers(response)
        return response
