"""Study groups: learners working through chosen paths or guides together.

A group stores who is in it, what it works through and its invite links; never any progress or
notes. What members see of each other is computed from their own Progress rows on the group's
paths and guides (apps.groups.selectors), so leaving or being removed changes nothing of theirs.
"""

import secrets
import uuid
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from apps.catalog.models import Guide
from apps.paths.models import LearningPath

INVITE_DAYS = 14  # how long a new invite link works unless its owner says otherwise


class StudyGroup(models.Model):
    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    name = models.CharField(_("name"), max_length=100)
    description = models.TextField(_("description"), max_length=2000, blank=True)
    # Curated paths and guides only; the unpublished ones are left out wherever they are read
    # (selectors.group_plans), so a curator unpublishing one hides it in every group.
    paths = models.ManyToManyField(LearningPath, blank=True, related_name="study_groups")
    guides = models.ManyToManyField(Guide, blank=True, related_name="study_groups")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = _("study group")
        verbose_name_plural = _("study groups")

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("groups:group-detail", args=[self.uuid])


class Role(models.TextChoices):
    OWNER = "owner", _("Owner")
    MEMBER = "member", _("Member")


class Membership(models.Model):
    """One learner in one group. Exactly one owner per group (a partial unique constraint; the
    services keep one). The learner's choices: whether the others see their progress, and the
    weekly mail (off by default). `mailed_week`: the Monday of the last week mailed, the claim
    that keeps the weekly mail to one per week however often its job runs."""

    group = models.ForeignKey(StudyGroup, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="group_memberships"
    )
    role = models.CharField(max_length=6, choices=Role, default=Role.MEMBER)
    joined_at = models.DateTimeField(default=timezone.now)
    progress_hidden = models.BooleanField(_("hide my progress from the group"), default=False)
    weekly_mail = models.BooleanField(_("weekly mail"), default=False)
    mailed_week = models.DateField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["group", "user"],
                name="membership_one_per_group_user",
                violation_error_message=_("This learner is already in the group."),
            ),
            models.UniqueConstraint(
                fields=["group"],
                condition=Q(role="owner"),
                name="membership_one_owner_per_group",
                violation_error_message=_("A group has one owner."),
            ),
        ]

    def __str__(self):
        return f"{self.user} · {self.group} ({self.role})"

    @property
    def is_owner(self):
        return self.role == Role.OWNER


def _invite_token():
    return secrets.token_urlsafe(18)


def _invite_expiry():
    return timezone.now() + timedelta(days=INVITE_DAYS)


class GroupInviteQuerySet(models.QuerySet):
    def usable(self):
        return self.filter(
            Q(max_uses__isnull=True) | Q(uses__lt=F("max_uses")),
            revoked_at__isnull=True,
            expires_at__gt=timezone.now(),
        )


class GroupInvite(models.Model):
    """A link that lets whoever opens it join the group (signing up first if they must): until
    `expires_at`, unless revoked, and at most `max_uses` joins when set."""

    group = models.ForeignKey(StudyGroup, on_delete=models.CASCADE, related_name="invites")
    token = models.CharField(max_length=32, unique=True, default=_invite_token, editable=False)
    expires_at = models.DateTimeField(default=_invite_expiry)
    max_uses = models.PositiveIntegerField(null=True, blank=True)
    uses = models.PositiveIntegerField(default=0, editable=False)
    revoked_at = models.DateTimeField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, editable=False
    )

    objects = GroupInviteQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(max_uses__isnull=True) | Q(max_uses__gte=1),
                name="groupinvite_max_uses_min_1",
            ),
            models.CheckConstraint(
                condition=Q(max_uses__isnull=True) | Q(uses__lte=F("max_uses")),
                name="groupinvite_uses_within_max",
            ),
        ]

    def __str__(self):
        return f"{self.group} · {self.token[:6]}…"

    def get_absolute_url(self):
        return reverse("groups:join", args=[self.token])

    def refusal(self, *, now) -> str:
        """Why this link lets nobody join now; "" while it is usable."""
        if self.revoked_at is not None:
            return gettext("This invite link has been withdrawn by the group’s owner.")
        if self.expires_at <= now:
            return gettext("This invite link has expired.")
        if self.max_uses is not None and self.uses >= self.max_uses:
            return gettext("This invite link has been used as many times as it allows.")
        return ""
