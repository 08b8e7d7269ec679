"""A guide back to markdown: its sections as headings, its entries as checklist lines.

Everything the guide holds is exported, published or not (this is the curator's copy).
An entry is written from its source line (``Entry.raw``) when it has one, so an exported
guide reads like the list it was imported from; otherwise it is composed from the
resource as ``[Title](url) - Author. Note``.
"""

import re

from apps.catalog.models import Entry, Guide

_LIST_MARKER = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[(?P<mark>[ xX])\]\s*)?")


def guide_export_filename(guide: Guide) -> str:
    return f"{guide.slug}.md"


def guide_to_markdown(guide: Guide) -> str:
    sections = list(guide.sections.order_by("position", "pk"))
    by_id = {section.id: section for section in sections}
    entries: dict[int, list[Entry]] = {section.id: [] for section in sections}
    for entry in (
        Entry.objects.filter(section__guide=guide).select_related("resource").prefetch_related("resource__links")
    ).order_by("position", "pk"):
        entries[entry.section_id].append(entry)

    blocks = [f"# {_one_line(guide.title)}"]
    if guide.description.strip():
        blocks.append(guide.description.strip())
    for section in sections:
        level = min(2 + _depth(section, by_id), 6)
        blocks.append(f"{'#' * level} {_one_line(str(section))}")
        if section.description.strip():
            blocks.append(section.description.strip())
        lines = [_entry_line(entry) for entry in entries[section.id]]
        if lines:
            blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


def _depth(section, by_id) -> int:
    depth, seen, parent_id = 0, {section.id}, section.parent_id
    while parent_id in by_id and parent_id not in seen:
        seen.add(parent_id)
        depth += 1
        parent_id = by_id[parent_id].parent_id
    return depth


def _entry_line(entry: Entry) -> str:
    done = entry.marked_done
    raw = _one_line(entry.raw)
    if raw:
        marker = _LIST_MARKER.match(raw)
        if marker:
            done = done or (marker.group("mark") or "").lower() == "x"
            raw = raw[marker.end() :]
        text = raw
    else:
        text = _compose(entry)
    return f"- [{'x' if done else ' '}] {text}"


def _compose(entry: Entry) -> str:
    resource = entry.resource
    title = _one_line(resource.title)
    text = f"[{title}]({resource.url})" if resource.url else title
    extra = [f"[{_one_line(link.label) or 'link'}]({link.url})" for link in resource.links.all()]
    if extra:
        text += " (" + ", ".join(extra) + ")"
    words = [part for part in (_one_line(resource.author), _one_line(entry.note)) if part]
    if words:
        text += " - " + ". ".join(word.rstrip(".") for word in words) + "."
    return text


def _one_line(text: str) -> str:
    return " ".join((text or "").split())
