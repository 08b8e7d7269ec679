"""Authentication that takes the user its session was read with (apps.accounts.sessions).

Django's `auth.get_user` runs unchanged: it reads the user id and backend from the session,
asks the backend for the user, and verifies the session hash. Only the backend's lookup is
different: while the middleware resolves `request.user`, the backends below answer with the row
the session store already read, when it is the user asked for, and query otherwise.
"""

from contextvars import ContextVar

from allauth.account.auth_backends import AuthenticationBackend as AllauthBackend
from django.contrib import auth
from django.contrib.auth import backends
from django.contrib.auth import middleware as auth_middleware
from django.utils.functional import SimpleLazyObject

_session_user: ContextVar = ContextVar("session_user", default=None)


class _SessionUserMixin:
    def get_user(self, user_id):
        user = _session_user.get()
        if user is not None and str(user.pk) == str(user_id):
            return user if self.user_can_authenticate(user) else None
        return super().get_user(user_id)


class ModelBackend(_SessionUserMixin, backends.ModelBackend):
    """Django's ModelBackend (used by `force_login` and the admin)."""


class AuthenticationBackend(_SessionUserMixin, AllauthBackend):
    """allauth's backend (email and password sign-in)."""


def session_user(request):
    """`auth.get_user(request)`, with the session's own user row offered to the backend."""
    if not hasattr(request, "_cached_user"):
        offered = _session_user.set(getattr(request.session, "user", None))
        try:
            request._cached_user = auth.get_user(request)
        finally:
            _session_user.reset(offered)
    return request._cached_user


class AuthenticationMiddleware(auth_middleware.AuthenticationMiddleware):
    def process_request(self, request):
        super().process_request(request)
        request.user = SimpleLazyObject(lambda: session_user(request))
