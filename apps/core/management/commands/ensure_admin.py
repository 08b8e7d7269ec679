"""Create the first superuser from DJANGO_ADMIN_EMAIL / DJANGO_ADMIN_PASSWORD, once.

Run on every start by the compose `migrate` service, so it must be idempotent: with both
variables unset it does nothing, and an email that already has an account is left alone
(its password is never reset from the environment). Sign-in is by email through allauth,
so the account gets a verified, primary allauth EmailAddress and can log in at once.
"""

from allauth.account.adapter import get_adapter
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.core.validators import validate_email
from django.db import transaction

from config.env import env_str


class Command(BaseCommand):
    help = "Create the first superuser from DJANGO_ADMIN_EMAIL and DJANGO_ADMIN_PASSWORD (if set)."

    def handle(self, *args, **options):
        email = env_str("DJANGO_ADMIN_EMAIL").strip().lower()
        password = env_str("DJANGO_ADMIN_PASSWORD")
        if not email and not password:
            self.stdout.write("ensure_admin: DJANGO_ADMIN_EMAIL is not set; no admin created.")
            return
        if not email or not password:
            raise CommandError("Set both DJANGO_ADMIN_EMAIL and DJANGO_ADMIN_PASSWORD, or neither.")
        try:
            validate_email(email)
        except ValidationError:
            raise CommandError(f"DJANGO_ADMIN_EMAIL is not an email address: {email!r}") from None

        if admin_exists(email=email):
            self.stdout.write(
                f"ensure_admin: an account for {email} already exists; left unchanged."
            )
            return
        admin_create(email=email, password=password)
        self.stdout.write(self.style.SUCCESS(f"ensure_admin: created superuser {email}."))


def admin_exists(*, email: str) -> bool:
    user_model = get_user_model()
    return (
        user_model.objects.filter(email__iexact=email).exists()
        or EmailAddress.objects.filter(email__iexact=email).exists()
    )


@transaction.atomic
def admin_create(*, email: str, password: str):
    """A superuser with a verified primary email; the password must pass allauth's validators."""
    adapter = get_adapter()
    user = get_user_model()(email=email, is_staff=True, is_superuser=True)
    adapter.populate_username(None, user)
    try:
        adapter.clean_password(password, user=user)
    except ValidationError as exc:
        raise CommandError("DJANGO_ADMIN_PASSWORD is too weak: " + " ".join(exc.messages)) from None
    user.set_password(password)
    user.save()
    EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
    return user
