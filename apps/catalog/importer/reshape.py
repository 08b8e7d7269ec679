"""A curator's corrections to an import plan before it is applied: split a link out, merge an entry up.

Plain functions over an ``ImportPlan`` (no database): the admin's import preview offers a
checkbox for each choice (``split_choices``, ``merge_choices``) and the confirm step
re-plans the same source and calls ``reshape_plan`` with what was ticked.

* split ``"<entry uuid>:<link uuid>"``: that extra link leaves the entry's resource and
  becomes a resource of its own (or the plan's resource with that URL), listed right
  after the entry. The new entry has an empty ``raw``: a later sync treats it as the
  curator's and keeps it.
* merge ``"<entry uuid>"``: the entry joins the entry above it in its section: its URL
  and extra links become extra links of that entry's resource, its note is appended; the
  entry goes, and so does its resource if nothing else in the plan lists it.

Choices refer to the plan before any change, so splits and merges can be ticked together.
Afterwards every section's entries are numbered 1..n and get the position-based uuids a
fresh plan would give them.
"""

from apps.catalog.importer.kinds import guess_kind
from apps.catalog.importer.planner import (
    TITLE_MAX,
    ImportPlan,
    PlannedEntry,
    PlannedLink,
    PlannedResource,
    resource_key,
    stable_uuid,
)
from apps.catalog.importer.urls import title_from_url


def split_choices(plan: ImportPlan) -> list[str]:
    """Every (entry, extra link) pair a curator may split out, as the form's values."""
    return [f"{entry.uuid}:{link.uuid}" for entry in plan.entries for link in entry.resource.links]


def merge_choices(plan: ImportPlan) -> list[str]:
    """Every entry that has an entry above it in its section and a URL to hand over."""
    values, previous = [], None
    for entry in plan.entries:
        if previous is not None and previous.section is entry.section and entry.resource.url:
            values.append(str(entry.uuid))
        previous = entry
    return values


def reshape_plan(plan: ImportPlan, *, split=(), merge=()) -> ImportPlan:
    """Apply the curator's ``split`` and ``merge`` choices to ``plan`` (changed in place, and returned).

    Unknown values are ignored; the form offering them only accepts ``*_choices(plan)``."""
    guide = plan.guides[0]
    by_uuid = {str(entry.uuid): entry for entry in guide.entries}
    above = {}
    for previous, entry in zip(guide.entries, guide.entries[1:], strict=False):
        if previous.section is entry.section:
            above[id(entry)] = previous
    merging = [
        by_uuid[value] for value in merge if value in by_uuid and id(by_uuid[value]) in above
    ]
    splits = []
    for value in split:
        entry_uuid, _, link_uuid = value.partition(":")
        entry = by_uuid.get(entry_uuid)
        link = (
            next((link for link in entry.resource.links if str(link.uuid) == link_uuid), None)
            if entry
            else None
        )
        if link is not None:
            splits.append((entry, link))

    for entry, link in splits:
        _split(plan, entry, link)
    merged = {id(entry) for entry in merging}
    for entry in merging:
        target = above[id(entry)]
        while id(target) in merged:  # a chain of merges ends at the first entry not merged
            target = above[id(target)]
        _merge(entry, target)
    guide.entries = [entry for entry in guide.entries if id(entry) not in merged]
    listed = {id(entry.resource) for entry in plan.entries}
    plan.resources = [resource for resource in plan.resources if id(resource) in listed]
    _renumber(guide)
    return plan


def _split(plan: ImportPlan, entry: PlannedEntry, link: PlannedLink) -> None:
    resource = entry.resource
    resource.links.remove(link)
    for position, other in enumerate(resource.links, start=1):
        other.position = position
    label = link.label.strip()
    title = label or title_from_url(link.url)
    if label and len(label.split()) == 1:  # "Slides", "code": name it after its entry
        title = f"{resource.title}: {label}"
    title = title[:TITLE_MAX]
    kind = guess_kind(link.url, title)
    key = resource_key(link.url, kind, title)
    new = next((r for r in plan.resources if r.key == key), None)
    if new is None:
        new = PlannedResource(
            key=key,
            uuid=stable_uuid("resource", key),
            url=link.url,
            title=title,
            kind=kind,
            topics=list(resource.topics),
        )
        plan.resources.insert(plan.resources.index(resource) + 1, new)
    entries = plan.guides[0].entries
    entries.insert(
        entries.index(entry) + 1,
        PlannedEntry(
            uuid=entry.uuid,  # renumbered below
            section=entry.section,
            resource=new,
            position=entry.position,
            tier=entry.tier,
            priority=entry.priority,
            rating=None,
            note="",
            marked_done=False,
            raw="",
            item=entry.item,
        ),
    )


def _merge(entry: PlannedEntry, target: PlannedEntry) -> None:
    resource, into = entry.resource, target.resource
    if resource is not into:
        known = {into.url, *(link.url for link in into.links)}
        handed = [(resource.url, resource.title)] + [
            (link.url, link.label) for link in resource.links
        ]
        for url, label in handed:
            if url and url not in known:
                known.add(url)
                into.links.append(
                    PlannedLink(
                        uuid=stable_uuid("link", into.key, url),
                        url=url,
                        label=label[:TITLE_MAX],
                        position=len(into.links) + 1,
                    )
                )
    if entry.note and entry.note not in target.note:
        target.note = f"{target.note} {entry.note}".strip()


def _renumber(guide) -> None:
    counts: dict = {}
    for entry in guide.entries:
        position = counts[id(entry.section)] = counts.get(id(entry.section), 0) + 1
        entry.position = position
        entry.uuid = stable_uuid("entry", guide.slug, entry.section.path, str(position))
