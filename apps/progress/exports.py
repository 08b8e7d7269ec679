"""A learner's progress as Markdown (the guides' own checklist format), CSV and JSON.

Only resources learners may see (`apps.catalog.selectors.visible_resources`) appear in these, as
everywhere a learner looks; rows on hidden resources (unpublished, or in a draft guide) are kept in
the database and reappear when the resource is visible again.
"Download all my data" (`user_data_export`) holds every row, published or not.
"""

import csv
import io
import json
import re

from django.utils import timezone

from apps.catalog.models import Guide
from apps.catalog.selectors import visible_entries, visible_resources
from apps.progress.models import Activity, Progress, Status
from apps.progress.selectors import own_rows

JSON_FORMAT = "syllabus-progress"
# 2: an account export also holds own paths and pins; the CSV has author and own columns and the
# Markdown a section of own resources. Every version up to this one imports.
JSON_VERSION = 2
_BULLET = re.compile(r"^\s*(?:[-*+]|\d+\.)\s+(?:\[[ xX]\]\s+)?")


def _rows(user, *, published_only=True):
    rows = Progress.objects.filter(user=user)
    if published_only:
        rows = rows.filter(resource__in=visible_resources())
    return rows.select_related("resource").order_by("resource__title", "resource_id")


def _iso(value):
    return value.isoformat() if value else None


def progress_json(user, *, published_only=True) -> dict:
    return {
        "format": JSON_FORMAT,
        "version": JSON_VERSION,
        "exported_at": timezone.now().isoformat(),
        "progress": [
            {
                "resource": str(row.resource.uuid),
                "title": row.resource.title,
                "url": row.resource.url,
                "status": row.status,
                "note": row.note,
                "started_at": _iso(row.started_at),
                "completed_at": _iso(row.completed_at),
            }
            for row in _rows(user, published_only=published_only)
        ],
        "own_resources": own_resources_json(user),
    }


def own_resources_json(user) -> list[dict]:
    """The learner's own resources with their progress (a link that became a catalog resource
    too: its progress is also under "progress"); the import reads them back."""
    return [
        {
            "resource": str(row.own.resource.uuid),
            "url": row.own.resource.url,
            "title": row.own.title,
            "kind": row.own.kind,
            "author": row.own.author,
            "status": row.status or Status.NOT_STARTED,
            "note": row.note,
            "started_at": _iso(row.started_at),
            "completed_at": _iso(row.completed_at),
            "saved_at": _iso(row.own.created_at),
        }
        for row in own_rows(user=user)
    ]


CSV_COLUMNS = [
    "resource",
    "title",
    "url",
    "kind",
    "status",
    "started_at",
    "completed_at",
    "note",
    "author",
    "own",
]
OWN_MARK = "own"  # the "own" column of a learner's own resource's row
# A cell starting with one of these is a formula to a spreadsheet (OWASP, "CSV Injection").
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value) -> str:
    """`value` as a CSV cell a spreadsheet shows as text: a leading formula character gets a `'`
    before it, as OWASP recommends (the import takes it off again, see csv_cell_unguard)."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(_FORMULA_STARTS) else text


def csv_cell_unguard(text: str) -> str:
    """The text of a cell `csv_cell` wrote."""
    return text[1:] if text.startswith("'") and text[1:].startswith(_FORMULA_STARTS) else text


def progress_csv(user) -> str:
    """The learner's progress on resources they may see, then their own resources (marked in the
    "own" column, with their own title, kind and author for the link)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    rows = [
        (
            row.resource.uuid,
            row.resource.title,
            row.resource.url,
            row.resource.kind,
            row.status,
            _iso(row.started_at),
            _iso(row.completed_at),
            row.note,
            row.resource.author,
            "",
        )
        for row in _rows(user)
    ]
    rows.extend(
        (
            row.own.resource.uuid,
            row.own.title,
            row.own.resource.url,
            row.own.kind,
            row.status or Status.NOT_STARTED,
            _iso(row.started_at),
            _iso(row.completed_at),
            row.note,
            row.own.author,
            OWN_MARK,
        )
        for row in own_rows(user=user)
    )
    for values in rows:
        writer.writerow(csv_cell(value) for value in values)
    return out.getvalue()


# Each checklist line ends with its resource's uuid, hidden when the Markdown is rendered: the
# import reads it before any link, so a line names exactly one resource, linked or not.
MARKER = "<!-- syllabus:{} -->"
# A learner's own resource's line ends with what it is to them, as JSON the comment cannot end
# early on (no "-" or ">" in it); the import reads it back.
OWN_MARKER = "<!-- syllabus-own:{} -->"


def own_marker(*, url, title, kind, author) -> str:
    data = json.dumps(
        {"url": url, "title": title, "kind": kind, "author": author}, ensure_ascii=False
    )
    # and no character Python reads as the end of a line
    for char in "-<>\x85\u2028\u2029":
        data = data.replace(char, f"\\u{ord(char):04x}")
    return OWN_MARKER.format(data)


def _own_line(row) -> str:
    title = " ".join(row.own.title.split()).replace("[", "\\[").replace("]", "\\]")
    url = row.own.resource.url
    marker = own_marker(url=url, title=row.own.title, kind=row.own.kind, author=row.own.author)
    return f"- [{'x' if row.status == Status.DONE else ' '}] [{title}](<{url}>) {marker}"


def _entry_line(entry, done, *, own_line=True):
    """The guide's own line for `entry` with its checkbox set, so the export renders on GitHub,
    and its resource's marker. A source line that gave several resources (`own_line` False) is
    written once per resource, each with that resource's own title and link."""
    resource = entry.resource
    raw = entry.raw.strip()
    text = _BULLET.sub("", raw.splitlines()[0]).strip() if own_line and raw else ""
    if not text:
        text = f"[{resource.title}]({resource.url})" if resource.url else resource.title
    return f"- [{'x' if done else ' '}] {text} {MARKER.format(resource.uuid)}"


def progress_markdown(user, guides=None) -> str:
    """Every published guide as a checklist, `[x]` where the learner is done; then the learner's
    own resources, as a checklist of their own."""
    done = set(
        Progress.objects.filter(user=user, status=Status.DONE).values_list("resource_id", flat=True)
    )
    guides = list(guides if guides is not None else Guide.objects.published())
    entries = (
        visible_entries()
        .filter(section__guide__in=guides)
        .select_related("resource", "section")
        .order_by("section__guide__position", "section__position", "position")
    )
    by_guide = {}
    lines_shared = {}  # (section, source line): how many resources it gave
    for entry in entries:
        by_guide.setdefault(entry.section.guide_id, []).append(entry)
        if entry.raw.strip():
            key = (entry.section_id, entry.raw.strip())
            lines_shared[key] = lines_shared.get(key, 0) + 1
    lines = []

    def block(*new_lines):
        """`new_lines` as their own paragraph: exactly one blank line before and after."""
        if lines and lines[-1] != "":
            lines.append("")
        lines.extend([*new_lines, ""])

    for guide in guides:
        block(f"# {guide.title}")
        current_section = None
        for entry in by_guide.get(guide.id, []):
            if entry.section_id != current_section:
                current_section = entry.section_id
                block(f"{'#' * min(entry.section.depth + 2, 6)} {entry.section}")
            own_line = lines_shared.get((entry.section_id, entry.raw.strip()), 0) <= 1
            lines.append(_entry_line(entry, entry.resource_id in done, own_line=own_line))
    own = own_rows(user=user)
    if own:
        block("# Your own resources")
        lines.extend(_own_line(row) for row in own)
    return "\n".join(lines).strip() + "\n"


def user_data_export(user) -> dict:
    """Everything Syllabus holds about `user`, for "Download all my data": their progress, notes
    and activity on every resource, visible or not (a learner's data is theirs, whatever
    curators do)."""
    from allauth.account.models import EmailAddress

    data = {
        "account": {
            "email": user.email,
            "date_joined": _iso(user.date_joined),
            "last_login": _iso(user.last_login),
            "emails": [
                {"email": address.email, "verified": address.verified, "primary": address.primary}
                for address in EmailAddress.objects.filter(user=user)
            ],
        },
        **progress_json(user, published_only=False),
        "activity": [
            {"resource": str(resource_uuid), "status": status, "at": _iso(at)}
            for resource_uuid, status, at in Activity.objects.filter(user=user)
            .order_by("occurred_at")
            .values_list("resource__uuid", "status", "occurred_at")
        ],
    }
    return data
