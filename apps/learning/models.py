"""What the learner pages keep of their own: how far each learner has read "What's new"."""

from django.conf import settings
from django.db import models


class WhatsNewSeen(models.Model):
    """A learner's "seen up to": additions to the catalog after it are new to them. Moved to the
    time they open the What's new page; until then it is their sign-up (apps.learning.whatsnew)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="whats_new_seen",
    )
    seen_up_to = models.DateTimeField()

    class Meta:
        verbose_name = "What's new seen up to"
        verbose_name_plural = "What's new seen up to"

    def __str__(self):
        return f"{self.user} saw what's new up to {self.seen_up_to:%Y-%m-%d %H:%M}"
