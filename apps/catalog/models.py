"""The catalog: guides, their nested sections and entries, the resources they point at, topics.

A Resource is the thing a learner ticks; it appears once however many guides list it.
An Entry is where a guide lists a resource, carrying that guide's own annotation.
Every model has a stable ``uuid`` (its natural key): fixtures, progress and exports key
on it, never on auto ids.
"""

import uuid
from functools import lru_cache

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from apps.core.reversing import reverse_cached


class Kind(models.TextChoices):
    PAPER = "paper", _("Paper")
    ARTICLE = "article", _("Article")
    VIDEO = "video", _("Video")
    COURSE = "course", _("Course")
    BOOK = "book", _("Book")
    REPO = "repo", _("Repository")
    TOOL = "tool", _("Tool")
    TALK = "talk", _("Talk")
    SLIDES = "slides", _("Slides")
    THREAD = "thread", _("Thread")
    SITE = "site", _("Blog / site")
    DOCS = "docs", _("Documentation")
    CONCEPT = "concept", _("Concept")
    CHAPTER = "chapter", _("Notes chapter")


class Priority(models.TextChoices):
    MUST = "must", "MUST"
    MAYBE = "maybe", "MAYBE"


class LinkStatus(models.TextChoices):
    UNCHECKED = "unchecked", "Not checked"
    OK = "ok", "OK"
    REDIRECTED = "redirected", "Redirected"
    BROKEN = "broken", "Broken"
    ERROR = "error", "Unreachable"


@lru_cache(maxsize=65_536)
def url_key(url: str | None) -> str:
    """A URL's identity in the catalog (the importer's ``normalize_url``), "" for none: what
    resources and their extra links store as ``url_key`` and every URL match compares. Cached:
    an import reads the same links many times over."""
    if not url:
        return ""
    # Read late: the importer package imports these models.
    from apps.catalog.importer.urls import normalize_url

    return normalize_url(url)


class UUIDQuerySet(models.QuerySet):
    def published(self):
        return self.filter(is_published=True)


class UUIDManager(models.Manager.from_queryset(UUIDQuerySet)):
    """Looks rows up by uuid, so fixtures can use natural keys."""

    def get_by_natural_key(self, uuid_value):
        return self.get(uuid=uuid_value)


class UUIDModel(models.Model):
    """A row with a stable uuid as its natural key (fixtures, progress and exports use it)."""

    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)

    objects = UUIDManager()

    class Meta:
        abstract = True

    def natural_key(self):
        return (str(self.uuid),)


class CatalogModel(UUIDModel):
    is_published = models.BooleanField(
        "published",
        default=True,
        db_index=True,
        help_text="Unpublished objects are invisible to learners.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        abstract = True


class Topic(CatalogModel):
    """A cross-guide subject (Attention, Quantization, GPU kernels, …)."""

    slug = models.SlugField(max_length=80, unique=True)
    title = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["position", "title"]

    def __str__(self):
        return self.title

    def get_absolute_url(self):
        return reverse_cached("learning:topic-detail", self.slug)


class SyncSchedule(models.TextChoices):
    OFF = "off", "Off"
    DAILY = "daily", "Daily"
    WEEKLY = "weekly", "Weekly"


class Guide(CatalogModel):
    """One source reading list."""

    slug = models.SlugField(max_length=80, unique=True)
    title = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    source_name = models.CharField(
        max_length=200, blank=True, help_text="File the guide was imported from."
    )
    source_url = models.URLField(max_length=500, blank=True)
    source_note = models.TextField(
        blank=True,
        help_text="Where the guide comes from, for learners (markdown), when it has no public "
        "source URL or the source needs a word; shown on the guide's page.",
    )
    sync_schedule = models.CharField(
        "re-fetch the source",
        max_length=6,
        choices=SyncSchedule,
        default=SyncSchedule.OFF,
        help_text="Fetch the source URL on this schedule; a change waits as a pending sync "
        "for a curator to review and apply.",
    )
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["position", "title"]
        constraints = [
            models.CheckConstraint(
                condition=Q(sync_schedule="off") | ~Q(source_url=""),
                name="guide_schedule_needs_source_url",
                violation_error_message="Only a guide with a source URL can be re-fetched on a schedule.",
                violation_error_code="schedule_without_source",
            ),
        ]

    def __str__(self):
        return self.title

    def get_absolute_url(self):
        return reverse_cached("learning:guide-detail", self.slug)


class Section(CatalogModel):
    """A heading of a guide. Sections nest (``parent``); ``position`` is document order within the guide."""

    guide = models.ForeignKey(Guide, on_delete=models.CASCADE, related_name="sections")
    parent = models.ForeignKey(
        "self", on_delete=models.CASCADE, null=True, blank=True, related_name="children"
    )
    title = models.CharField(max_length=300)
    number = models.CharField(
        max_length=10, blank=True, help_text='The guide\'s own label, e.g. "05" or "A".'
    )
    description = models.TextField(blank=True)
    position = models.PositiveIntegerField()
    depth = models.PositiveSmallIntegerField(default=0)
    tier = models.PositiveSmallIntegerField(null=True, blank=True)
    priority = models.CharField(max_length=5, choices=Priority, blank=True)
    phase = models.CharField(max_length=100, blank=True)
    effort = models.CharField(
        max_length=50, blank=True, help_text='The guide\'s own estimate, e.g. "8-10 weeks".'
    )
    raw = models.TextField(
        blank=True,
        help_text="The heading as imported; a sync compares it to tell a source change from a curator's edit.",
    )

    class Meta:
        ordering = ["guide", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["guide", "position"],
                name="section_unique_position_in_guide",
                violation_error_message="Another section of this guide already has this position.",
                violation_error_code="position_taken",
            ),
            models.CheckConstraint(
                condition=Q(tier__isnull=True) | Q(tier__gte=1, tier__lte=3),
                name="section_tier_1_to_3",
                violation_error_message="Tier must be 1, 2 or 3 (or blank).",
                violation_error_code="tier_out_of_range",
            ),
        ]

    def __str__(self):
        return f"{self.number} {self.title}".strip()

    @property
    def anchor(self):
        return f"section-{self.uuid}"


class Resource(CatalogModel):
    """A real-world thing to read, watch or build: one row however many guides list it."""

    url = models.URLField(
        max_length=2000,
        unique=True,
        null=True,
        blank=True,
        help_text="Normalized; empty for a concept, book or chapter.",
    )
    url_key = models.CharField(
        max_length=2000,
        editable=False,
        db_index=True,
        default="",
        help_text="The URL in its normalized form, set on save: what URL matching compares.",
    )
    url_issue = models.CharField(
        max_length=300,
        blank=True,
        help_text="Set by the importer when the source URL was broken and had to be repaired.",
    )
    title = models.CharField(max_length=300)
    kind = models.CharField(max_length=10, choices=Kind, default=Kind.ARTICLE, db_index=True)
    author = models.CharField("author / publisher", max_length=300, blank=True)
    year = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(9999)],
        help_text="The year it appeared (a paper's, a book's edition), when known.",
    )
    description = models.TextField(blank=True)
    effort_minutes = models.PositiveIntegerField(
        null=True, blank=True, help_text="Estimated effort in minutes."
    )
    topics = models.ManyToManyField(Topic, blank=True, related_name="resources")

    link_status = models.CharField(
        max_length=10, choices=LinkStatus, default=LinkStatus.UNCHECKED, db_index=True
    )
    link_status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    link_final_url = models.URLField(max_length=2000, blank=True)
    link_checked_at = models.DateTimeField(null=True, blank=True)
    link_error = models.CharField(max_length=300, blank=True)
    suggested_title = models.CharField(
        max_length=300,
        blank=True,
        help_text="The linked page's own title (its HTML title or og:title), read by the link checker.",
    )

    class Meta:
        ordering = ["title"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(url=""),
                name="resource_url_null_not_empty",
                violation_error_message="A URL cannot be empty text: leave it blank for none.",
                violation_error_code="url_empty",
            ),
            models.CheckConstraint(
                condition=~Q(title=""),
                name="resource_title_not_empty",
                violation_error_message="A resource needs a title.",
                violation_error_code="title_empty",
            ),
        ]

    def __str__(self):
        return self.title

    def save(self, *args, **kwargs):
        # An empty URL means "no URL": store NULL so the unique constraint ignores it.
        if not self.url:
            self.url = None
        self.url_key = url_key(self.url)
        if kwargs.get("update_fields") is not None and "url" in kwargs["update_fields"]:
            kwargs["update_fields"] = {*kwargs["update_fields"], "url_key"}
        super().save(*args, **kwargs)

    def get_absolute_url(self):
        return reverse_cached("learning:resource-detail", self.uuid)


class ResourceAliasQuerySet(models.QuerySet):
    def survivors(self, uuids) -> dict:
        """``{uuid: the Resource it was merged into}`` for those of ``uuids`` merged away."""
        aliases = self.filter(uuid__in=uuids).select_related("resource")
        return {alias.uuid: alias.resource for alias in aliases}


class ResourceAlias(models.Model):
    """The uuid of a resource merged into another: its page redirects to the survivor."""

    uuid = models.UUIDField(unique=True)
    resource = models.ForeignKey(Resource, on_delete=models.CASCADE, related_name="aliases")

    objects = ResourceAliasQuerySet.as_manager()

    class Meta:
        verbose_name_plural = "resource aliases"

    def __str__(self):
        return f"{self.uuid} → {self.resource}"


class ResourceLink(UUIDModel):
    """A further link of a resource (an item in a guide may hold several links)."""

    resource = models.ForeignKey(Resource, on_delete=models.CASCADE, related_name="links")
    url = models.URLField(max_length=2000)
    url_key = models.CharField(
        max_length=2000,
        editable=False,
        db_index=True,
        default="",
        help_text="The URL in its normalized form, set on save: what URL matching compares.",
    )
    label = models.CharField(max_length=300, blank=True)
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["resource", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["resource", "url"],
                name="resourcelink_unique_url",
                violation_error_message="This resource already has a link with this URL.",
                violation_error_code="link_taken",
            )
        ]

    def __str__(self):
        return self.label or self.url

    def save(self, *args, **kwargs):
        self.url_key = url_key(self.url)
        if kwargs.get("update_fields") is not None and "url" in kwargs["update_fields"]:
            kwargs["update_fields"] = {*kwargs["update_fields"], "url_key"}
        super().save(*args, **kwargs)


class Entry(CatalogModel):
    """Where a guide lists a resource, with that guide's own annotation."""

    section = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="entries")
    resource = models.ForeignKey(Resource, on_delete=models.CASCADE, related_name="entries")
    position = models.PositiveIntegerField()
    tier = models.PositiveSmallIntegerField(null=True, blank=True)
    priority = models.CharField(max_length=5, choices=Priority, blank=True)
    rating = models.DecimalField(
        max_digits=3, decimal_places=1, null=True, blank=True, help_text="Out of 10."
    )
    note = models.TextField(blank=True, help_text="The guide's own words about this item.")
    marked_done = models.BooleanField(
        default=False, help_text="The guide's author marked it [DONE]."
    )
    raw = models.TextField(blank=True, help_text="The source line, as imported.")
    added_at = models.DateTimeField(
        null=True,
        blank=True,
        editable=False,
        db_index=True,
        help_text='When the entry was first published (set on save): what "What\'s new" and the '
        "feeds date it by. Empty for a draft never published.",
    )

    class Meta:
        ordering = ["section__guide", "section__position", "position"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(
                fields=["section", "position"],
                name="entry_unique_position_in_section",
                violation_error_message="Another entry of this section already has this position.",
                violation_error_code="position_taken",
            ),
            models.CheckConstraint(
                condition=Q(tier__isnull=True) | Q(tier__gte=1, tier__lte=3),
                name="entry_tier_1_to_3",
                violation_error_message="Tier must be 1, 2 or 3 (or blank).",
                violation_error_code="tier_out_of_range",
            ),
            models.CheckConstraint(
                condition=Q(rating__isnull=True) | Q(rating__gte=0, rating__lte=10),
                name="entry_rating_0_to_10",
                violation_error_message="Rating must be between 0 and 10 (or blank).",
                violation_error_code="rating_out_of_range",
            ),
        ]

    def __str__(self):
        return f"{self.section} → {self.resource}"

    def save(self, *args, **kwargs):
        # The first publishing is the entry's addition (a draft imported on Monday and published
        # on Friday is new on Friday); unpublishing and publishing again keeps that first date.
        if self.is_published and self.added_at is None:
            self.added_at = timezone.now()
            if kwargs.get("update_fields") is not None:
                kwargs["update_fields"] = {*kwargs["update_fields"], "added_at"}
        super().save(*args, **kwargs)
