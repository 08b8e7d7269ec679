"""Users are Django's, emails allauth's, sessions Django's. Ours are the learner's opt-in public
profile and their preferences, and the admin's invite links."""

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext


class PublicProfile(models.Model):
    """A learner's public page at /u/<slug>/: per-guide progress and streak, never notes. Off by
    default (no row, or `is_public` False): the URL is a 404 the moment it is turned off. The slug
    is stored lower-case and validated by apps.accounts.forms.PublicProfileForm."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="public_profile"
    )
    slug = models.SlugField(max_length=40, unique=True)
    is_public = models.BooleanField(default=False)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self):
        return f"{self.slug} ({'public' if self.is_public else 'off'})"

    def get_absolute_url(self):
        return reverse("accounts:public-profile", args=[self.slug])


class Preferences(models.Model):
    """A learner's settings. `time_zone` (an IANA name) is the zone their days are counted in
    (streaks, the heatmap, "today"); blank: their browser's (apps.accounts.timezones).
    `language` (one of LANGUAGES) is the interface's; blank: their browser's
    (apps.accounts.languages)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="preferences"
    )
    time_zone = models.CharField(max_length=64, blank=True)
    language = models.CharField(max_length=16, blank=True)

    class Meta:
        verbose_name_plural = "preferences"

    def __str__(self):
        return f"{self.user} · {self.time_zone or 'browser time zone'}"


def _invite_token():
    return secrets.token_urlsafe(18)


class InviteQuerySet(models.QuerySet):
    def usable(self):
        return self.filter(
            revoked_at__isnull=True, expires_at__gt=timezone.now(), uses__lt=models.F("max_uses")
        )


class Invite(models.Model):
    """A link an admin hands a group (a class behind one network address): it signs up to
    `max_uses` people until `expires_at`, without the per-address sign-up limit
    (RATE_LIMIT_SIGNUP). Revoked by setting `revoked_at` (the admin's "Revoke" action)."""

    token = models.CharField(max_length=32, unique=True, default=_invite_token, editable=False)
    note = models.CharField(
        max_length=200, blank=True, help_text="For whom, e.g. “Tuesday evening class”."
    )
    max_uses = models.PositiveIntegerField(
        default=30, help_text="How many people may sign up with it."
    )
    uses = models.PositiveIntegerField(default=0, editable=False)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, editable=False
    )

    objects = InviteQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(uses__lte=models.F("max_uses")), name="invite_uses_within_max"
            ),
            models.CheckConstraint(
                condition=models.Q(max_uses__gte=1), name="invite_max_uses_min_1"
            ),
        ]

    def __str__(self):
        return self.note or f"Invite {self.token[:6]}…"

    def get_absolute_url(self):
        return reverse("accounts:invite-signup", args=[self.token])

    def refusal(self, *, now) -> str:
        """Why this link signs nobody up now, for the visitor; "" while it is usable."""
        if self.revoked_at is not None:
            return gettext(
                "This invite link has been withdrawn by the site’s admin. Ask them for a new one."
            )
        if self.expires_at <= now:
            return gettext(
                "This invite link has expired. Ask the person who gave it to you for a new one."
            )
        if self.uses >= self.max_uses:
            return gettext(
                "This invite link has been used as many times as it allows. Ask the person who "
                "gave it to you for a new one."
            )
        return ""
