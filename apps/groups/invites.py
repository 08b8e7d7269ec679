"""An invite link opened before signing in: its token waits in the session, so that signing up
(with the confirmation mail opened in the same browser) or logging in lands on the join page.
The accounts adapter asks `pending_join_url` where to go after either."""

from django.urls import reverse

SESSION_KEY = "groups_invite_token"


def remember(request, token: str) -> None:
    request.session[SESSION_KEY] = token


def forget(request) -> None:
    request.session.pop(SESSION_KEY, None)


def pending_join_url(request) -> str | None:
    token = request.session.get(SESSION_KEY)
    return reverse("groups:join", args=[token]) if token else None
