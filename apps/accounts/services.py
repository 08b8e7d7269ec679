"""Writes on a learner's account as a whole (allauth owns sign-up, log-in and email changes)."""

from importlib import import_module

from allauth.account.models import EmailAddress
from allauth.socialaccount.models import SocialAccount
from django.conf import settings
from django.contrib.auth import SESSION_KEY, get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from apps.groups.services import groups_account_closing


def preferences_save(*, user, time_zone: str | None = None, language: str | None = None):
    """Store the learner's time zone and/or language (each "" for their browser's; None leaves
    it as it is); both are checked values."""
    from apps.accounts.models import Preferences

    defaults = {"time_zone": time_zone, "language": language}
    Preferences.objects.update_or_create(
        user=user, defaults={name: value for name, value in defaults.items() if value is not None}
    )


class AccountError(Exception):
    """A request on an account that must be refused; the message is shown to the user."""


@transaction.atomic
def account_delete(*, user) -> None:
    """Delete ``user`` and everything that is theirs, all or nothing.

    Progress, activity and any other row keyed on the user go with it through their
    ``on_delete=CASCADE`` foreign keys; allauth's rows are deleted explicitly so that
    no login identity (an email address, a GitHub link) can outlive the account even
    if a future allauth release changes its cascades.
    """
    user_model = get_user_model()
    # Lock the row so two concurrent "delete" posts (or a concurrent admin demotion)
    # cannot both pass the last-administrator check below.
    user = user_model.objects.select_for_update().get(pk=user.pk)
    if user.is_superuser and user.is_active:
        other_admins = user_model.objects.filter(is_superuser=True, is_active=True).exclude(
            pk=user.pk
        )
        if not other_admins.exists():
            raise AccountError(
                _(
                    "You are the only administrator. Make someone else an administrator "
                    "before deleting your account, or this instance has nobody to run it."
                )
            )
    groups_account_closing(user=user)  # a group they own goes to another member
    SocialAccount.objects.filter(user=user).delete()
    EmailAddress.objects.filter(user=user).delete()
    _sessions_delete(user=user)
    user.delete()


def _sessions_delete(*, user) -> None:
    """Every session of ``user``'s in the database (their other devices' too, expired or not):
    allauth keeps their email in it. Sessions hold no user column, so each is decoded: linear in
    the sessions stored, once per deleted account. A backend without a database table (signed
    cookies, cache only) keeps nothing here to delete."""
    store = import_module(settings.SESSION_ENGINE).SessionStore
    if not hasattr(store, "get_model_class"):
        return
    user_id = str(user.pk)
    keys = [
        session.session_key
        for session in store.get_model_class()
        .objects.only("session_key", "session_data")
        .iterator()
        if str(store().decode(session.session_data).get(SESSION_KEY)) == user_id
    ]
    for key in keys:  # through the store, so cached_db's cache copy goes too
        store(session_key=key).delete()


def superuser_email_adopt(*, user) -> None:
    """A superuser whose account has no allauth address at all (made by ``createsuperuser``, which
    knows nothing of allauth) gets its ``email`` as a verified primary address: the operator who
    typed it on the server needs no mail to prove it, and /admin/ is reached at the first sign-in.
    Anyone else, and any address already known to allauth, is left to allauth's confirmation."""
    if not (user.is_superuser and user.email):
        return
    if EmailAddress.objects.filter(user=user).exists():
        return
    if EmailAddress.objects.filter(email__iexact=user.email).exists():
        return  # someone else's address: never taken over this way
    EmailAddress.objects.create(user=user, email=user.email.lower(), verified=True, primary=True)


class InviteRefused(Exception):
    """An invite link that signs nobody up; the message says why, for the visitor."""


def invite_use(*, invite) -> None:
    """Count one sign-up against ``invite``, or refuse it (expired, revoked or used up), in one
    conditional UPDATE: two sign-ups racing for the last use cannot both have it."""
    from django.db.models import F
    from django.utils import timezone

    from apps.accounts.models import Invite

    taken = Invite.objects.usable().filter(pk=invite.pk).update(uses=F("uses") + 1)
    if not taken:
        invite.refresh_from_db()
        raise InviteRefused(invite.refusal(now=timezone.now()) or _("This invite link is used up."))
