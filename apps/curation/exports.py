"""A guide back to markdown: its sections as headings, its entries as checklist lines.

Everything the guide holds is exported, published or not (this is the curator's copy),
as the catalog holds it now: every entry is composed from its resource's current title,
URL, year, author and further links (curators' edits included) as ``[Title](url) (2017) -
Author. Note``, so exporting and importing again is a round trip.
"""

from apps.catalog.models import Entry, Guide


def guide_export_filename(guide: Guide) -> str:
    return f"{guide.slug}.md"


def guide_to_markdown(guide: Guide) -> str:
    sections = list(guide.sections.order_by("position", "pk"))
    by_id = {section.id: section for section in sections}
    children: dict[int | None, list] = {}
    for section in sections:
        # A parent outside this guide (typed into the admin) counts as none: the section is top-level.
        children.setdefault(section.parent_id if section.parent_id in by_id else None, []).append(
            section
        )
    entries: dict[int, list[Entry]] = {section.id: [] for section in sections}
    for entry in (
        Entry.objects.filter(section__guide=guide)
        .select_related("resource")
        .prefetch_related("resource__links")
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
    text = _compose(entry)
    if done:
        text = f"[DONE] {text}"
    if entry.rating is not None:
        text += f" (rating {entry.rating.normalize():f}/10)"
    return f"- [{'x' if done else ' '}] {text}"


def _compose(entry: Entry) -> str:
    """The entry as the catalog holds it now: the resource's current title, URL, author and
    further links (curators' edits included), then the guide's note or the description."""
    resource = entry.resource
    title = _one_line(resource.title)
    text = f"[{_escape(title)}]({resource.url})" if resource.url else title
    if resource.year:
        text += f" ({resource.year})"  # "[Title](url) (2017)": the importer reads it as the year
    extra = [
        f"[{_escape(_one_line(link.label)) or 'link'}]({link.url})" for link in resource.links.all()
    ]
    if extra:
        text += " (" + ", ".join(extra) + ")"
    words = [
        part
        for part in (
            _one_line(resource.author),
            _one_line(entry.note) or _one_line(resource.description),
        )
        if part
    ]
    if words:
        # "[Title](url) - Author. Note." as 002 writes it; a URL-less item reads "Title: words"
        text += (
            (" - " if resource.url else ": ") + ". ".join(word.rstrip(".") for word in words) + "."
        )
    return text


def _escape(label: str) -> str:
    return label.replace("[", "\\[").replace("]", "\\]")


def _one_line(text: str) -> str:
    return " ".join((text or "").split())
