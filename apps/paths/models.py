"""Learning paths: ordered plans through the catalog, and the learners who follow them.

A path's steps are ordered; each step has an ordered set of resources and may point at
the guide section it was drawn from. Progress along a path is computed from the learner's
Progress rows on those resources, never stored here.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from apps.catalog.models import CatalogModel, Guide, Resource, Section, UUIDModel
from apps.core.reversing import reverse_cached


class Paced(models.Model):
    """What a pace is measured from: hours a week, and the path's minutes already done when
    following began. A curated path's PathFollow and a learner's OwnPath (which its owner follows)
    hold it; apps.paths.selectors reads both the same way."""

    hours_per_week = models.PositiveSmallIntegerField(null=True, blank=True)
    # The path's minutes already done when following: the pace counts from there.
    done_minutes_at_follow = models.PositiveIntegerField(default=0)

    class Meta:
        abstract = True
        constraints = [
            models.CheckConstraint(
                condition=Q(hours_per_week__isnull=True)
                | Q(hours_per_week__gte=1, hours_per_week__lte=168),
                name="%(class)s_hours_per_week_1_to_168",
                violation_error_message="Hours per week must be between 1 and 168 (or blank).",
                violation_error_code="hours_out_of_range",
            ),
        ]


class Step(UUIDModel):
    """A step of a path, numbered 1..n in it (apps.catalog.positions renumbers): a curated path's
    PathStep and a learner's OwnStep. A concrete step adds its `path`."""

    position = models.PositiveIntegerField()
    title = models.CharField(max_length=300)
    effort_hours = models.PositiveIntegerField(
        null=True, blank=True, help_text="Estimated hours; overrides the resources' own estimates."
    )

    class Meta:
        abstract = True
        ordering = ["path", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["path", "position"],
                name="%(class)s_unique_position",
                violation_error_message="Another step of this path already has this position.",
                violation_error_code="position_taken",
            )
        ]

    def __str__(self):
        return self.title

    @property
    def anchor(self):
        return f"step-{self.uuid}"


class StepItem(UUIDModel):
    """One resource of a step, numbered 1..n in it, once per step: a curated step's StepResource
    and an own step's OwnStepItem. A concrete item adds its `step` and `resource`."""

    position = models.PositiveIntegerField()

    class Meta:
        abstract = True
        ordering = ["step", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["step", "position"],
                name="%(class)s_unique_position",
                violation_error_message="Another resource of this step already has this position.",
                violation_error_code="position_taken",
            ),
            models.UniqueConstraint(
                fields=["step", "resource"],
                name="%(class)s_unique_resource",
                violation_error_message="This resource is already in this step.",
                violation_error_code="resource_taken",
            ),
        ]

    def __str__(self):
        return f"{self.step} · {self.resource}"


class LearningPath(CatalogModel):
    slug = models.SlugField(max_length=100, unique=True)
    title = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    guide = models.ForeignKey(
        Guide,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="paths",
        help_text="The guide that defines this path.",
    )
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["position", "title"]

    def __str__(self):
        return self.title

    def get_absolute_url(self):
        return reverse_cached("learning:path-detail", self.slug)


class PathStep(Step):
    path = models.ForeignKey(LearningPath, on_delete=models.CASCADE, related_name="steps")
    phase = models.CharField(max_length=100, blank=True)
    effort = models.CharField(
        max_length=50, blank=True, help_text='As the guide says it, e.g. "4-5 weeks".'
    )
    description = models.TextField(blank=True)
    section = models.ForeignKey(
        Section,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="path_steps",
        help_text="The guide section it was drawn from.",
    )
    resources = models.ManyToManyField(Resource, through="StepResource", related_name="path_steps")


class StepResource(StepItem):
    step = models.ForeignKey(PathStep, on_delete=models.CASCADE, related_name="step_resources")
    resource = models.ForeignKey(Resource, on_delete=models.CASCADE, related_name="step_links")
    # A path publishes as a whole, so a resource's addition to a step is when it joined it.
    added_at = models.DateTimeField(
        null=True,
        blank=True,
        default=timezone.now,
        editable=False,
        help_text='When the resource joined the step: what "What\'s new" dates it by. Empty: '
        "added before this was recorded.",
    )


class PathFollow(Paced):
    """A learner following a path; unfollowing deletes this row and keeps all progress."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="path_follows"
    )
    path = models.ForeignKey(LearningPath, on_delete=models.CASCADE, related_name="follows")
    followed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "path"],
                name="pathfollow_once_per_user",
                violation_error_message="This learner already follows this path.",
                violation_error_code="already_following",
            ),
            *Paced.Meta.constraints,
        ]

    def __str__(self):
        return f"{self.user} follows {self.path}"


class OwnPath(UUIDModel, Paced):
    """A learner's own path: their plan through the catalog and their own resources, private
    unless they publish it.

    Its owner follows it (its Paced fields are what a PathFollow holds for a curated path), so
    apps.paths.selectors builds its next up and pace with the curated paths' machinery. Learner
    data, not content (apps.core.content.LEARNER_MODELS): a change moves no content version.
    """

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="own_paths"
    )
    title = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    # Shown only to the owner, never on the published page or in a copy.
    notes = models.TextField(blank=True)
    # Published at /p/<slug>/ when `published`; unique over every learner's paths.
    slug = models.SlugField(max_length=100, unique=True, null=True, blank=True)
    published = models.BooleanField(default=False)
    copied_from = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="copies"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["owner", "-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(published=False) | Q(slug__isnull=False),
                name="ownpath_published_has_slug",
                violation_error_message="A published path needs a link.",
                violation_error_code="slug_required",
            ),
            *Paced.Meta.constraints,
        ]

    def __str__(self):
        return self.title

    def get_absolute_url(self):
        return reverse_cached("paths:own-detail", str(self.uuid))


class OwnStep(Step):
    path = models.ForeignKey(OwnPath, on_delete=models.CASCADE, related_name="steps")


class OwnStepItem(StepItem):
    """One resource of an own step: a catalog resource, or one of the owner's own resources (the
    hidden link row their OwnResource points at; apps.paths.selectors shows it to them alone)."""

    step = models.ForeignKey(OwnStep, on_delete=models.CASCADE, related_name="items")
    resource = models.ForeignKey(Resource, on_delete=models.CASCADE, related_name="own_step_items")
