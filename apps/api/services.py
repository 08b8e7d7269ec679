"""Writes of personal tokens: made (the secret returned once), revoked, and the one check a
request's token goes through (`token_authenticate`), which also records when it was last used."""

import hashlib
import secrets
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.api.models import ApiToken

TOKEN_START = "syl_"
PREFIX_LENGTH = 12  # "syl_" and 8 characters of the secret: enough to tell 20 tokens apart
MAX_TOKENS = 20  # per learner: a list they can still read
# `last_used_at` is written at most this often per token: a script calling the API in a loop
# costs one UPDATE a minute, not one per request.
TOKEN_TOUCH_EVERY = timedelta(minutes=1)


class TokenError(Exception):
    """A token that cannot be made; the message is shown to the learner."""


def token_digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def token_create(*, user, name: str) -> tuple[ApiToken, str]:
    """A new token named `name` for `user`, and its secret: returned here only, never stored
    (only its digest is). 256 bits from `secrets`, so one SHA-256 (no slow hash) is enough."""
    name = name.strip()
    if not name:
        raise TokenError(_("Give the token a name, e.g. the script or device that will use it."))
    with transaction.atomic():
        # The learner's row locked: two creates at once cannot both pass the count.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        if ApiToken.objects.filter(user=user).count() >= MAX_TOKENS:
            raise TokenError(
                _("You have %(count)s tokens, the most one account may hold: revoke one first.")
                % {"count": MAX_TOKENS}
            )
        if ApiToken.objects.filter(user=user, name=name).exists():
            raise TokenError(
                _("You already have a token named “%(name)s”: choose another name.")
                % {"name": name}
            )
        secret = TOKEN_START + secrets.token_urlsafe(32)
        try:
            with transaction.atomic():
                token = ApiToken.objects.create(
                    user=user, name=name, prefix=secret[:PREFIX_LENGTH], digest=token_digest(secret)
                )
        except IntegrityError:  # the same name, made by a concurrent request
            raise TokenError(
                _("You already have a token named “%(name)s”: choose another name.")
                % {"name": name}
            ) from None
    return token, secret


def token_revoke(*, user, uuid) -> ApiToken:
    """Delete `user`'s token `uuid` (ApiToken.DoesNotExist when they have none such: another
    learner's token is not theirs to revoke). It stops working at once."""
    token = ApiToken.objects.get(user=user, uuid=uuid)
    token.delete()
    return token


def token_authenticate(*, secret: str, now: datetime | None = None) -> ApiToken | None:
    """The token `secret` is, with its learner (`.user`), or None: unknown, revoked, or its
    account deactivated. One query; one more, at most once a minute per token, to note its use."""
    if not secret.startswith(TOKEN_START) or len(secret) > 200:
        return None
    token = (
        ApiToken.objects.select_related("user")
        .filter(digest=token_digest(secret), user__is_active=True)
        .first()
    )
    if token is None:
        return None
    now = now or timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= TOKEN_TOUCH_EVERY:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token
