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


class Pin(models.Model):
    """A guide or a path (curated, or the learner's own) the learner pinned to their dashboard:
    exactly one of the three is set."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="pins"
    )
    guide = models.ForeignKey(
        "catalog.Guide", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    path = models.ForeignKey(
        "paths.LearningPath", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    own_path = models.ForeignKey(
        "paths.OwnPath", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    pinned_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(guide__isnull=False, path__isnull=True, own_path__isnull=True)
                    | models.Q(guide__isnull=True, path__isnull=False, own_path__isnull=True)
                    | models.Q(guide__isnull=True, path__isnull=True, own_path__isnull=False)
                ),
                name="pin_exactly_one_target",
                violation_error_message="A pin is of one guide or one path.",
            ),
            models.UniqueConstraint(fields=["user", "guide"], name="pin_guide_once"),
            models.UniqueConstraint(fields=["user", "path"], name="pin_path_once"),
            models.UniqueConstraint(fields=["user", "own_path"], name="pin_own_path_once"),
        ]

    def __str__(self):
        return f"{self.user} pinned {self.guide or self.path or self.own_path}"

    @property
    def target(self):
        return self.guide or self.path or self.own_path
