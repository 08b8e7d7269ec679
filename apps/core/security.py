"""Response headers no view should have to remember (settings.PERMISSIONS_POLICY, and
Cache-Control on personal responses): one middleware, one rule each.

Every response to a signed-in learner is personal — their ticks, notes, exports, account, htmx
fragments — so none may be kept by a shared cache, and none by the browser's back/forward
cache either (Back after a tick must show the tick): `no-store`, via Django's own
`add_never_cache_headers`. Pages for visitors are untouched.
"""

from django.conf import settings
from django.utils.cache import add_never_cache_headers


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
