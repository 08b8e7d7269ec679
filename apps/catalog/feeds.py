"""Atom feeds of what the catalog adds (`catalog:`): the whole catalog, one guide, one topic.

An item is an entry: a resource listed in a guide's section, dated by its first publishing
(`Entry.added_at`), so a resource added to two guides is an item in each guide's feed. Only what
learners may see (`selectors.entries_added`, from the one owner of visibility); a draft guide or
topic has no feed (404). Read from the per-version memo: a warm feed costs the content token's
query alone, however large the catalog.
"""

from django.conf import settings
from django.contrib.syndication.views import Feed
from django.utils.feedgenerator import Atom1Feed
from django.utils.html import format_html

from apps.catalog import selectors
from apps.catalog.models import Guide, Topic
from apps.core.content import published_get
from apps.core.reversing import reverse_cached

FEED_ITEMS = 50  # the newest additions a feed lists


class CatalogFeed(Feed):
    """What was added anywhere in the catalog, newest first."""

    feed_type = Atom1Feed

    def title(self, obj=None):
        return f"{settings.SITE_NAME}: new in the catalog"

    def subtitle(self, obj=None):
        return "Resources added to the guides, newest first."

    def link(self, obj=None):
        return reverse_cached("learning:guide-list")

    def feed_url(self, obj=None):
        return reverse_cached("catalog:feed")

    def items(self, obj=None):
        return selectors.entries_added()[:FEED_ITEMS]

    def item_title(self, entry):
        return entry.resource.title

    def item_description(self, entry):
        # Atom's summary is HTML, and the syndication framework escapes item_title's text but
        # not this one's: every text in it is escaped here.
        description = entry.resource.description or entry.note
        return format_html(
            "<p>Added to {}.</p>{}",
            selectors.entry_where(entry),
            format_html("<p>{}</p>", description) if description else "",
        )

    def item_link(self, entry):
        return entry.resource.get_absolute_url()

    def item_guid(self, entry):
        return f"urn:uuid:{entry.uuid}"  # the entry's own uuid: stable across edits and renames

    item_guid_is_permalink = False

    def item_pubdate(self, entry):
        return entry.added_at

    def item_updateddate(self, entry):
        return entry.added_at

    def item_author_name(self, entry):
        return entry.resource.author or None

    def item_categories(self, entry):
        membership = selectors.topic_membership()
        return [
            membership.topics[topic_id].title
            for topic_id in membership.topics_of.get(entry.resource_id, ())
        ]


class GuideFeed(CatalogFeed):
    """What was added to one published guide."""

    def get_object(self, request, slug):
        return published_get(Guide, slug=slug)

    def title(self, guide):
        return f"{settings.SITE_NAME}: new in {guide.title}"

    def subtitle(self, guide):
        return f"Resources added to the guide “{guide.title}”, newest first."

    def link(self, guide):
        return guide.get_absolute_url()

    def feed_url(self, guide):
        return reverse_cached("catalog:guide-feed", guide.slug)

    def items(self, guide):
        added = (entry for entry in selectors.entries_added() if entry.section.guide_id == guide.id)
        return [entry for _, entry in zip(range(FEED_ITEMS), added, strict=False)]


class TopicFeed(CatalogFeed):
    """What was added to the guides on one published topic."""

    def get_object(self, request, slug):
        return published_get(Topic, slug=slug)

    def title(self, topic):
        return f"{settings.SITE_NAME}: new on {topic.title}"

    def subtitle(self, topic):
        return f"Resources on {topic.title} added to the guides, newest first."

    def link(self, topic):
        return topic.get_absolute_url()

    def feed_url(self, topic):
        return reverse_cached("catalog:topic-feed", topic.slug)

    def items(self, topic):
        held = selectors.topic_membership().resources_of.get(topic.id, frozenset())
        added = (entry for entry in selectors.entries_added() if entry.resource_id in held)
        return [entry for _, entry in zip(range(FEED_ITEMS), added, strict=False)]
