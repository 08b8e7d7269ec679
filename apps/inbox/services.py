"""The inbox's writes: accepting and dismissing items, recording what discovery found.

Accepting an item makes it a catalog resource listed by a **draft** entry (``is_published``
False) in a section: a learner sees it nowhere (``catalog.selectors``: a resource is visible only
through a published entry) until a curator publishes the entry. An item whose page the catalog
holds by then (the catalog's URL identity) is linked to that resource and nothing is added. Only
new items are accepted or dismissed: accepting twice, or dismissing an accepted item, changes
nothing.
"""

from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.utils import timezone

from apps.catalog.importer.urls import title_from_url
from apps.catalog.models import Entry, Kind, Resource, Section
from apps.catalog.positions import next_position
from apps.inbox.discovery import DiscoveryError, discover
from apps.inbox.models import (
    ExaminedResource,
    Feed,
    FeedKind,
    InboxItem,
    ItemState,
    LearnerSuggestion,
)
from apps.inbox.selectors import catalogued_resources, resource_section
from apps.progress.models import Suggestion
from apps.progress.services import own_suggestion_set

RESOURCE_KIND = {
    FeedKind.BLOG: Kind.ARTICLE,
    FeedKind.GITHUB: Kind.REPO,
    FeedKind.YOUTUBE: Kind.VIDEO,
    FeedKind.ARXIV: Kind.PAPER,
    FeedKind.OTHER: Kind.ARTICLE,
}
# A feed's title names the author of its items for these kinds (a blog's name, a channel's);
# GitHub's ("Release notes from vllm") and arXiv's ("cs.CL updates on arXiv.org") do not.
AUTHOR_FROM_FEED = {FeedKind.BLOG, FeedKind.YOUTUBE}


class AcceptError(Exception):
    """The accept cannot be done as asked; nothing was written."""


@dataclass
class Accepted:
    items: list[InboxItem] = field(default_factory=list)  # every item accepted now
    resources: list[Resource] = field(default_factory=list)  # created
    entries: list[Entry] = field(default_factory=list)  # created, drafts
    linked: list[InboxItem] = field(default_factory=list)  # already catalogued: nothing added
    skipped: int = 0  # not new (accepted or dismissed before)


def items_accept(*, item_ids: Iterable[int], section: Section | None = None) -> Accepted:
    """Accept the new items among ``item_ids``: each becomes a resource with a draft entry at
    the end of ``section`` (None: each item's suggested section). One transaction; raises
    AcceptError, writing nothing, when an item has no section to go to."""
    item_ids = list(item_ids)
    result = Accepted()
    with transaction.atomic():
        items = list(
            # the items' rows only: the suggested section is an outer join
            InboxItem.objects.select_for_update(of=("self",))
            .filter(pk__in=item_ids, state=ItemState.NEW)
            .select_related("feed", "suggested_section")
            .order_by("pk")
        )
        result.skipped = len(set(item_ids)) - len(items)
        homeless = [item for item in items if section is None and item.suggested_section is None]
        if homeless:
            count = len(homeless)
            raise AcceptError(
                f"{count} of the selected items {'has' if count == 1 else 'have'} no suggested "
                "section: choose the section they go to."
            )
        catalogued = catalogued_resources(item.url_key for item in items)
        for item in items:
            resource = catalogued.get(item.url_key)
            if resource is not None:
                result.linked.append(item)
            else:
                resource = _new_resource(item)
                result.resources.append(resource)
                target = section or item.suggested_section
                entry = Entry(
                    section=target,
                    resource=resource,
                    position=next_position(Entry.objects.filter(section=target)),
                    is_published=False,
                )
                entry.save()
                result.entries.append(entry)
            item.state, item.resource = ItemState.ACCEPTED, resource
            result.items.append(item)
        InboxItem.objects.bulk_update(result.items, ["state", "resource"])
    return result


def _new_resource(item: InboxItem) -> Resource:
    feed = item.feed
    resource = Resource(
        url=item.url,
        title=item.title,
        kind=RESOURCE_KIND.get(FeedKind(feed.kind), Kind.ARTICLE),
        author=feed.title[:300] if feed.kind in AUTHOR_FROM_FEED else "",
        description=item.summary,
    )
    try:
        with transaction.atomic():
            resource.save()
    except IntegrityError:  # its URL was catalogued since this transaction read the catalog
        raise AcceptError(
            f"“{item.title}” was added to the catalog meanwhile: try again."
        ) from None
    return resource


def items_dismiss(*, item_ids: Iterable[int]) -> list[InboxItem]:
    """Dismiss the new items among ``item_ids``; returns those dismissed. An accepted item stays
    accepted."""
    with transaction.atomic():
        items = list(
            InboxItem.objects.select_for_update().filter(pk__in=item_ids, state=ItemState.NEW)
        )
        for item in items:
            item.state = ItemState.DISMISSED
        InboxItem.objects.bulk_update(items, ["state"])
    return items


def items_reopen(*, item_ids: Iterable[int]) -> list[InboxItem]:
    """Put dismissed items among ``item_ids`` back to new; returns them."""
    with transaction.atomic():
        items = list(
            InboxItem.objects.select_for_update().filter(pk__in=item_ids, state=ItemState.DISMISSED)
        )
        for item in items:
            item.state = ItemState.NEW
        InboxItem.objects.bulk_update(items, ["state"])
    return items


def feeds_set_enabled(*, feed_ids: Iterable[int], enabled: bool) -> list[Feed]:
    """Switch feeds on or off; returns those changed."""
    with transaction.atomic():
        feeds = list(
            Feed.objects.select_for_update().filter(pk__in=feed_ids).exclude(enabled=enabled)
        )
        for feed in feeds:
            feed.enabled = enabled
        Feed.objects.bulk_update(feeds, ["enabled"])
    return feeds


def resource_examine(*, resource: Resource) -> tuple[Feed | None, str]:
    """Look for the feed of ``resource`` (``discovery.discover``), record that it was examined
    and what was found, and follow the feed found (a feed already followed keeps its settings).
    Returns (the feed, or None; the outcome)."""
    feed, created = None, False
    try:
        found = discover(resource.url or "", resource.kind)
    except DiscoveryError as error:
        found, outcome = None, f"Error: {error}"[:300]
    else:
        outcome = "No feed found." if found is None else f"Feed found: {found.how}."
    with transaction.atomic():
        if found is not None:
            section = resource_section(resource.pk)
            feed, created = Feed.objects.get_or_create(
                url=found.url,
                defaults={"kind": found.kind, "resource": resource, "section": section},
            )
            if not created:
                outcome = f"{outcome[:-1]}, already followed."
        ExaminedResource.objects.update_or_create(
            resource=resource, defaults={"outcome": outcome, "examined_at": timezone.now()}
        )
    return feed, outcome


# --- Learners' suggestions --------------------------------------------------------------------
@dataclass
class SuggestionsAccepted:
    entries: list = field(default_factory=list)  # the draft entries added
    resources: list = field(default_factory=list)  # the links, now catalog resources
    skipped: int = 0  # no longer pending (accepted or dismissed meanwhile)


def suggestions_accept(*, suggestion_ids: Iterable[int], section: Section) -> SuggestionsAccepted:
    """Take the pending suggestions among ``suggestion_ids`` into the catalog: each link's
    resource (the row learners' progress is already on) gets the suggesting learner's title,
    kind and author where it has only its guess from the URL, and a draft entry at the end of
    ``section``, as an inbox item does; every learner who saved it reads "accepted". One
    transaction; a link suggested by several learners is accepted once."""
    result = SuggestionsAccepted()
    with transaction.atomic():
        rows = list(
            LearnerSuggestion.objects.select_for_update(of=("self",))
            .filter(pk__in=list(suggestion_ids), suggestion=Suggestion.PENDING)
            .select_related("resource")
            .order_by("pk")
        )
        by_resource: dict[int, LearnerSuggestion] = {}
        for row in rows:
            by_resource.setdefault(row.resource_id, row)
        result.skipped = len(set(suggestion_ids)) - len(rows)
        outcome = f"Accepted into {section.guide.title} › {section.title}."
        for row in by_resource.values():
            resource = row.resource
            if resource.title == title_from_url(resource.url or ""):
                resource.title = row.title
                resource.kind = row.kind
            resource.author = resource.author or row.author
            resource.is_published = True
            resource.save()
            if not Entry.objects.filter(section=section, resource=resource).exists():
                entry = Entry(
                    section=section,
                    resource=resource,
                    position=next_position(Entry.objects.filter(section=section)),
                    is_published=False,
                )
                entry.save()
                result.entries.append(entry)
            own_suggestion_set(resource=resource, state=Suggestion.ACCEPTED, outcome=outcome)
            result.resources.append(resource)
    return result


def suggestions_dismiss(*, suggestion_ids: Iterable[int]) -> int:
    """Dismiss the pending suggestions among ``suggestion_ids`` (every learner who offered the
    same link reads it); returns how many links were dismissed."""
    with transaction.atomic():
        resources = {
            row.resource
            for row in LearnerSuggestion.objects.select_for_update(of=("self",))
            .filter(pk__in=list(suggestion_ids), suggestion=Suggestion.PENDING)
            .select_related("resource")
        }
        for resource in resources:
            own_suggestion_set(
                resource=resource,
                state=Suggestion.DISMISSED,
                outcome="The curators did not take it into the catalog.",
                only_pending=True,
            )
    return len(resources)
