"""Writes on a learner's account as a whole (allauth owns sign-up, log-in and email changes)."""

from allauth.account.models import EmailAddress
from allauth.socialaccount.models import SocialAccount
from django.contrib.auth import get_user_model
from django.db import transaction


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
                "You are the only administrator. Make someone else an administrator "
                "before deleting your account, or this instance has nobody to run it."
            )
    SocialAccount.objects.filter(user=user).delete()
    EmailAddress.objects.filter(user=user).delete()
    user.delete()
