"""Feeds the catalog follows and the items they offer curators.

A ``Feed`` is an RSS or Atom address, found in a catalog resource (``discovery.py``) or added by
hand in the admin. ``reading.py`` reads the enabled ones; each new item becomes an ``InboxItem``
for a curator to accept (a draft entry in a section: ``services.items_accept``) or dismiss. An
item's ``url_key`` is the catalog's own URL identity (``catalog.models.url_key``), unique here:
an item seen before, from this feed or another, is never added twice.
"""

from django.core.validators import URLValidator
from django.db import models

from apps.catalog.models import Resource, Section, url_key
from apps.progress.models import OwnResource


class FeedKind(models.TextChoices):
    BLOG = "blog", "Blog / site"
    GITHUB = "github", "GitHub releases"
    YOUTUBE = "youtube", "YouTube channel"
    ARXIV = "arxiv", "arXiv listing"
    OTHER = "other", "Other feed"


class Feed(models.Model):
    url = models.URLField(
        "feed URL",
        max_length=2000,
        unique=True,
        validators=[URLValidator(schemes=["http", "https"])],
    )
    kind = models.CharField(max_length=10, choices=FeedKind, default=FeedKind.OTHER)
    title = models.CharField(
        max_length=300, blank=True, help_text="The feed's own title, read with its items."
    )
    resource = models.ForeignKey(
        Resource,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="feeds",
        help_text="The catalog resource the feed was found in (blank: added by hand).",
    )
    section = models.ForeignKey(
        Section,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="Where its items are suggested to go. Blank: the section of the resource it "
        "was found in, else the section whose words best match each item.",
    )
    enabled = models.BooleanField(
        default=True, db_index=True, help_text="Switched off, the feed is no longer read."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    last_read_at = models.DateTimeField(
        "last read", null=True, blank=True, help_text="The last attempt, whatever its outcome."
    )
    last_ok_at = models.DateTimeField("last read without error", null=True, blank=True)
    last_error = models.CharField(max_length=500, blank=True)
    last_result = models.CharField(
        max_length=300, blank=True, help_text="What the last successful read found."
    )
    etag = models.CharField(max_length=300, blank=True, editable=False)
    modified = models.CharField(max_length=100, blank=True, editable=False)

    class Meta:
        ordering = ["url"]

    def __str__(self):
        return self.title or self.url


class ExaminedResource(models.Model):
    """A catalog resource discovery has looked at (so each run takes up resources not yet seen)."""

    resource = models.OneToOneField(Resource, on_delete=models.CASCADE, related_name="+")
    examined_at = models.DateTimeField(auto_now=True)
    outcome = models.CharField(max_length=300, blank=True)

    def __str__(self):
        return f"{self.resource}: {self.outcome}"


class ItemState(models.TextChoices):
    NEW = "new", "New"
    ACCEPTED = "accepted", "Accepted"
    DISMISSED = "dismissed", "Dismissed"


class InboxItem(models.Model):
    url = models.URLField(max_length=2000)
    url_key = models.CharField(
        max_length=2000,
        unique=True,
        editable=False,
        help_text="The URL in the catalog's normalized form: an item is offered once.",
    )
    title = models.CharField(max_length=300)
    date = models.DateTimeField(null=True, blank=True, db_index=True)
    summary = models.TextField(blank=True)
    feed = models.ForeignKey(Feed, on_delete=models.CASCADE, related_name="items")
    suggested_section = models.ForeignKey(
        Section, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    state = models.CharField(max_length=10, choices=ItemState, default=ItemState.NEW, db_index=True)
    resource = models.ForeignKey(
        Resource,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="The catalog resource an accepted item is (created, or found already there).",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "-pk"]
        verbose_name = "inbox item"

    def __str__(self):
        return self.title

    def save(self, *args, **kwargs):
        self.url_key = url_key(self.url)
        super().save(*args, **kwargs)


class LearnerSuggestion(OwnResource):
    """A learner's own resource they offered to the catalog (``OwnResource.suggestion``), as the
    curators' inbox lists it: the link, the learner's title, kind and author, never who they are.
    A proxy, so the Curators group's permissions (the inbox's models) reach it and no other
    learner data: curators accept it into a section (``services.suggestions_accept``) or dismiss
    it, and the learner reads the outcome on their row."""

    class Meta:
        proxy = True
        verbose_name = "learner suggestion"
