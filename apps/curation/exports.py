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
    children: dict[int | None, list] = {}
    for section in sections:
        # A parent outside this guide (typed into the admin) counts as none: the section is top-level.
        children.setdefault(section.parent_id if section.parent_id in by_id else None, []).append(section)
    entries: dict[int, list[Entry]] = {section.id: [] for section in sections}
    for entry in (
        Entry.objects.filter(section__guide=guide).select_related("resource").prefetch_related("resource__links")
    ).order_by("position", "pk"):
        entries[entry.section_id].append(entry)

    blocks = [f"# {_one_line(guide.title)}"]
    if guide.description.strip():
        blocks.append(guide.description.strip())
    seen: set[int] = set()

    def write(section, depth):
        seen.add(section.id)
        blocks.append(f"{'#' * min(2 + depth, 6)} {_one_line(str(section))}")
        if section.description.strip():
            blocks.append(section.description.strip())
        lines = [_entry_line(entry) for entry in entries[section.id]]
        if lines:
            blocks.append("\n".join(lines))
        for child in children.get(section.id, []):
            if child.id not in seen:  # a cycle typed into the admin is cut, not followed
                write(child, depth + 1)

    for root in children.get(None, []):
        write(root, 0)
    for section in sections:  # only sections caught in a cycle are left
        if section.id not in seen:
            write(section, 0)
    return "\n\n".join(blocks) + "\n"


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
