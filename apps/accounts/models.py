"""Users are Django's, emails allauth's, sessions Django's. Ours are the learner's opt-in public
profile and their preferences."""

from django.conf import settings
from django.db import models
from django.urls import reverse


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
    (streaks, the heatmap, "today"); blank: their browser's (apps.accounts.timezones)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="preferences"
    )
    time_zone = models.CharField(max_length=64, blank=True)

    class Meta:
        verbose_name_plural = "preferences"

    def __str__(self):
        return f"{self.user} · {self.time_zone or 'browser time zone'}"
