"""Bring progress back: a Markdown checklist with `[x]` marks, or a Syllabus JSON or CSV export.

Every reader runs in time linear in its input (checklist lines by string operations and
patterns that cannot backtrack far, JSON and CSV by the standard library), and anything it cannot read is either
reported per line/item or raised as ProgressImportError: never another exception.

`import_plan` only reads: it returns what would change and which lines matched nothing
(reported, never guessed). `import_apply` writes the plan in one transaction.
"""

import csv
import io
import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from uuid import UUID

from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from apps.catalog.importer.markdown import trim_bare_url
from apps.catalog.importer.titles import title_key
from apps.catalog.importer.urls import normalize_url
from apps.catalog.models import Kind, Resource, ResourceAlias, url_key
from apps.catalog.selectors import visible_resources, visible_resources_by_id, visible_url_keys
from apps.progress.exports import (
    CSV_COLUMNS,
    JSON_FORMAT,
    JSON_VERSION,
    OWN_MARK,
    csv_cell_unguard,
)
from apps.progress.models import Progress, Status
from apps.progress.selectors import own_rows
from apps.progress.services import (
    STATUS_RANK,
    ProgressChange,
    own_resource_save,
    progress_apply_many,
)
from apps.progress.signals import account_data_checked, account_data_imported


class ProgressImportError(Exception):
    """The content cannot be read at all; nothing was imported."""


@dataclass
class PlannedChange:
    resource: Resource
    current: str
    new: str
    note: str | None = None
    started_at: object = None
    completed_at: object = None

    @property
    def occurred_at(self):
        """When the change happened, by the file's own dates: history shows on its own days."""
        if self.new == Status.DONE:
            return self.completed_at
        if self.new == Status.IN_PROGRESS:
            return self.started_at
        return None

    @property
    def current_label(self):
        return Status(self.current).label

    @property
    def new_label(self):
        return Status(self.new).label


@dataclass
class ImportPlan:
    format: str
    changes: list = field(default_factory=list)
    unchanged: int = 0
    unmatched: list = field(default_factory=list)  # [(line number, text, reason)]
    # An account export's followed paths ({"path": uuid, …}), restored by apps.paths on apply.
    followed_paths: list = field(default_factory=list)
    own: list = field(default_factory=list)  # PlannedOwn: the learner's own resources
    # An account export's parts above progress (own paths, pins, What's new), restored by the
    # receivers of account_data_imported; what they would change, as the preview's lines.
    account: dict | None = None
    account_lines: list = field(default_factory=list)

    @property
    def anything_to_apply(self):
        # (the followed paths that are not followed yet are among account_lines)
        return bool(self.changes or self.own or self.account_lines)


@dataclass
class PlannedOwn:
    """One of the learner's own resources in a JSON export, to save again (by its link)."""

    url: str
    title: str
    kind: str
    author: str
    status: str | None  # None: leave the learner's progress on it as it is (a Markdown "[ ]")
    note: str | None
    started_at: object = None
    completed_at: object = None
    saved_at: object = None


# The inline Markdown a checklist item's text is read for, as patterns a regular-expression engine
# runs in linear time: every repetition is over a character class that the next literal (a
# bracket, parenthesis or space) cannot be part of, so no input makes one backtrack far.
# (markdown-it-py, the catalog importer's reader, reads the same correctly, but 1 MB of short
# ticked lines full of brackets or emphasis took it 12-19 s here: linear, with a constant a worker
# cannot afford. Where a bare URL found in prose ends is the importer's rule, trim_bare_url.)
_MD_LINK = re.compile(
    r"\[([^\[\]]*)\]\(\s*(?:<([^<>\n]*)>|([^()\s]*(?:\([^()\s]*\)[^()\s]*)*))(?:\s+\"[^\"]*\")?\s*\)"
)
_AUTOLINK = re.compile(r"<(https?://[^<>\s]*)>")
_BARE_URL = re.compile(r"https?://[^\s<>\[\]`\"]+")
_MARKS = re.compile(r"[*_`~]+")
# The export's hidden marker at the end of a line (exports.MARKER): the resource it stands for.
_MARKER = re.compile(r"<!--\s*syllabus:([0-9a-fA-F-]{32,36})\s*-->\s*$")
# An own resource's line (exports.own_marker): JSON without "<" or ">" in it.
_OWN_MARKER = re.compile(r"<!--\s*syllabus-own:(\{[^<>]*\})\s*-->\s*$")
_MARKER_ANYWHERE = re.compile(r"<!--\s*syllabus:([0-9a-fA-F-]{32,36})\s*-->")
# A checklist line longer than this is not an item anyone wrote: reported, not read.
MAX_LINE_CHARS = 4_000
# Dates a learner can have recorded: none before this, none after now.
EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
MAX_OFFSET = timedelta(hours=14)  # the widest real time-zone offset (UTC+14, Kiribati)


def import_plan(*, user, content: str) -> ImportPlan:
    content = content.lstrip("\ufeff")
    if content.lstrip().startswith("{"):
        return _plan_json(user, content)
    if content.startswith(CSV_COLUMNS[0] + ","):
        return _plan_csv(user, content)
    return _plan_markdown(user, content)


@transaction.atomic
def import_apply(*, user, plan: ImportPlan) -> list[str]:
    """Write `plan`, all or nothing; returns what the learner must be told besides the counts
    (a link of theirs another learner uses now, resources gone from a path)."""
    progress_apply_many(
        user=user,
        changes=[
            ProgressChange(
                resource_id=change.resource.id,
                status=change.new,
                note=change.note,
                started_at=change.started_at,
                completed_at=change.completed_at,
                at=change.occurred_at,
            )
            for change in plan.changes
        ],
    )
    for own in plan.own:
        own_resource_save(
            user=user,
            url=own.url,
            title=own.title,
            kind=own.kind,
            author=own.author,
            note=own.note,
            status=own.status,
            dates={"started_at": own.started_at, "completed_at": own.completed_at},
            dated=True,
            saved_at=own.saved_at,
        )
    notes: list[str] = []
    if plan.followed_paths or plan.account:
        for _receiver, told in account_data_imported.send(
            sender=ImportPlan, user=user, followed_paths=plan.followed_paths, data=plan.account
        ):
            notes.extend(told or [])
    return notes


def _current(user, resource_ids):
    return {
        row.resource_id: row
        for row in Progress.objects.filter(user=user, resource_id__in=resource_ids)
    }


def _plan_markdown(user, content):
    # What learners may see, from the per-version memo: no query however long the file.
    visible = visible_resources_by_id()
    url_to_resource = visible_url_keys()
    titles = {}
    for resource_id, resource in visible.items():
        titles.setdefault(title_key(resource.title), set()).add(resource_id)

    marked = _marked_resources(content)
    plan = ImportPlan(format="markdown")
    wanted = {}  # resource_id -> line number
    own_items = []  # (line number, item): the learner's own resources, ticked or not
    checklist_lines = 0
    for number, line in enumerate(content.splitlines(), start=1):
        ticked, text = _checklist_item(line)
        if ticked is None:
            continue
        checklist_lines += 1
        if (own := _own_item(text, ticked)) is not None:
            if isinstance(own, str):
                plan.unmatched.append((number, text[:200], own))
            else:
                own_items.append((number, own))
            continue
        if not ticked:
            continue  # unticked: nothing to record
        if len(text) > MAX_LINE_CHARS:
            plan.unmatched.append((number, text[:200], "too long to be a checklist item"))
            continue
        marker = _MARKER.search(text)
        if marker:  # the export's own line: its resource, else (gone since) its link or title
            text = text[: marker.start()].rstrip()
            resource_id = marked.get(_uuid_text(marker.group(1)))
            if resource_id:
                wanted.setdefault(resource_id, number)
                continue
        hrefs, plain = _inline(text)
        resource_id = None
        for raw_url in hrefs:
            # A link written as the catalog stores it needs no normalizing (most of them).
            resource_id = url_to_resource.get(raw_url)
            if resource_id is None:
                try:
                    resource_id = url_to_resource.get(url_key(raw_url))
                except ValueError:
                    resource_id = None
            if resource_id:
                break
        if resource_id is None:
            candidates = titles.get(title_key(plain), set())
            if len(candidates) == 1:
                resource_id = next(iter(candidates))
            else:
                reason = (
                    _("several resources have this title")
                    if candidates
                    else _("no resource has this link or title")
                )
                plan.unmatched.append((number, text, reason))
                continue
        wanted.setdefault(resource_id, number)
    if checklist_lines == 0:
        raise ProgressImportError(
            _('No checklist lines ("- [x] …") were found; nothing was imported.')
        )
    current = _current(user, list(wanted))
    for resource_id in wanted:
        row = current.get(resource_id)
        if row and row.status == Status.DONE:
            plan.unchanged += 1
        else:
            plan.changes.append(
                PlannedChange(
                    resource=visible[resource_id],
                    current=row.status if row else Status.NOT_STARTED,
                    new=Status.DONE,
                )
            )
    _plan_own(user, own_items, plan)
    plan.unmatched.sort(key=lambda unmatched: unmatched[0])
    return plan


def _own_item(text, ticked):
    """For a line the export wrote for an own resource: its item (done when ticked; unticked
    leaves the learner's status as it is), or why it cannot be read. None for any other line."""
    if "syllabus-own:" not in text:
        return None
    if len(text) > MAX_LINE_CHARS:
        return "too long to be a checklist item"
    match = _OWN_MARKER.search(text)
    if match is None:
        return "an own resource's marker that cannot be read"
    try:
        item = json.loads(match.group(1))
    except (ValueError, RecursionError):
        return "an own resource's marker that cannot be read"
    if not isinstance(item, dict):
        return "an own resource's marker that cannot be read"
    keep = {key: item.get(key) for key in ("url", "title", "kind", "author")}
    return {**keep, "status": Status.DONE if ticked else None}


def _marked_resources(content) -> dict:
    """{marker uuid (as text): resource id} for the export's markers in `content` that name a
    visible resource, or one merged into a visible one since."""
    uuids = {
        UUID(text)
        for match in _MARKER_ANYWHERE.finditer(content)
        if (text := _uuid_text(match.group(1)))
    }
    if not uuids:
        return {}
    resources = {
        resource.uuid: resource for resource in visible_resources().filter(uuid__in=list(uuids))
    }
    resources |= _aliased(uuids - set(resources))
    return {str(resource_uuid): resource.id for resource_uuid, resource in resources.items()}


def _uuid_text(text) -> str | None:
    try:
        return str(UUID(text))
    except ValueError:
        return None


def _checklist_item(line):
    """(True, text) for `- [x] text`, (False, text) for `- [ ] text`, (None, "") for any other
    line. String operations only: linear in the line."""
    stripped = line.strip()
    if len(stripped) < 5 or stripped[0] not in "-*+" or not stripped[1].isspace():
        return None, ""
    rest = stripped[1:].lstrip()
    if (
        len(rest) < 4
        or rest[0] != "["
        or rest[2] != "]"
        or rest[1] not in " xX"
        or not rest[3].isspace()
    ):
        return None, ""
    text = rest[3:].strip()
    if not text:
        return None, ""
    return rest[1] != " ", text


def _inline(text):
    """The links of a checklist item's text (Markdown links and autolinks first, then bare URLs)
    and its plain text (what a reader sees: link text kept, emphasis and code marks dropped)."""
    hrefs = []

    def link_text(match):
        hrefs.append(match.group(2) if match.group(2) is not None else match.group(3))
        return match.group(1)

    def autolink(match):
        hrefs.append(match.group(1))
        return match.group(1)

    plain = _AUTOLINK.sub(autolink, _MD_LINK.sub(link_text, text))
    hrefs.extend(_bare_urls(plain))
    return hrefs, " ".join(_MARKS.sub("", plain).split())


def _bare_urls(text):
    """Bare http(s) URLs in `text`, without the sentence punctuation, emphasis marks or closing
    parenthesis around them (one kept when the URL opened one, as Wikipedia's do)."""
    return [trim_bare_url(match.group()) for match in _BARE_URL.finditer(text)]


def _plan_json(user, content):
    try:
        data = json.loads(content)
    except json.JSONDecodeError as exc:
        raise ProgressImportError(
            _("That is not valid JSON (%(error)s, line %(line)s); nothing was imported.")
            % {"error": exc.msg, "line": exc.lineno}
        ) from None
    except (ValueError, RecursionError):  # nested too deep, or a number too long to read
        raise ProgressImportError(
            _(
                "That JSON is nested too deeply or holds a number too long to read; "
                "nothing was imported."
            )
        ) from None
    if (
        not isinstance(data, dict)
        or data.get("format") != JSON_FORMAT
        or not isinstance(data.get("progress"), list)
    ):
        raise ProgressImportError(
            _("That JSON is not a Syllabus progress export; nothing was imported.")
        )
    version = data.get("version", 1)
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise ProgressImportError(
            "That export's version is not a whole number; nothing was imported."
        )
    if version > JSON_VERSION:
        raise ProgressImportError(
            f"That export was made by a newer Syllabus (format version {version}; this one "
            f"reads up to {JSON_VERSION}); nothing was imported."
        )
    own = data.get("own_resources")
    own_links = {
        item["resource"]
        for item in (own if isinstance(own, list) else [])[:MAX_OWN_RESOURCES]
        if isinstance(item, dict) and isinstance(item.get("resource"), str)
    }
    # An own resource's progress is in both lists; its own item restores it (by its link).
    progress = [
        (index, item)
        for index, item in enumerate(data["progress"], start=1)
        if not (
            isinstance(item, dict)
            and isinstance(item.get("resource"), str)
            and item["resource"] in own_links
        )
    ]
    plan = _plan_items(user, "json", progress)
    plan.followed_paths = _followed_paths(data.get("followed_paths"))
    if isinstance(own, list):
        _plan_own(user, enumerate(own[:MAX_OWN_RESOURCES], start=1), plan)
    if any(key in data for key in ACCOUNT_KEYS):
        plan.account = {key: data[key] for key in ACCOUNT_KEYS if key in data}
        for _receiver, lines in account_data_checked.send(
            sender=ImportPlan, user=user, data=plan.account
        ):
            plan.account_lines.extend(lines or [])
    return plan


# The parts of an account export the layers above progress restore (account_data_checked).
ACCOUNT_KEYS = ("followed_paths", "own_paths", "pins", "whats_new_seen_up_to")


MAX_OWN_RESOURCES = 10_000
_ANY_UUID = "00000000-0000-0000-0000-000000000000"


def _plan_own(user, numbered_items, plan):
    """The own resources of an export (JSON items, CSV rows, Markdown lines: dicts with a url,
    title, kind, author, status, note and dates) that would change something, each checked as a
    progress item is and for its link, title, kind and author; the others are reported. A status
    of None (a Markdown "[ ]") leaves the learner's progress on it as it is."""
    now = timezone.now()
    mine = None
    for index, item in numbered_items:
        if mine is None:  # read once, and only for a file that has own resources
            mine = {row.own.resource.url_key: row for row in own_rows(user=user)}
        status_given = isinstance(item, dict) and item.get("status") is not None
        # the progress checks, with a stand-in for the uuid an own resource does not need
        problem, dates = (
            _item_problem(
                {**item, "resource": _ANY_UUID, "status": item.get("status") or Status.NOT_STARTED},
                now,
            )
            if isinstance(item, dict)
            else ("not an object", None)
        )
        url = item.get("url") if isinstance(item, dict) else None
        if not problem:
            problem = _own_problem(item, url)
        saved_at = None
        if not problem:
            saved_at, saved_problem = _read_datetime(item.get("saved_at"), now)
            problem = f"saved_at {saved_problem}" if saved_problem else None
        if problem:
            shown = url[:200] if isinstance(url, str) and url else f"own resource {index}"
            plan.unmatched.append((index, shown, problem))
            continue
        try:
            key = url_key(normalize_url(url))
        except ValueError:
            plan.unmatched.append((index, url[:200], "an own resource needs an http(s) link"))
            continue
        row = mine.get(key)
        note = item.get("note") or None  # an empty note in the file keeps the learner's
        if (
            row is not None
            and row.own.title == (item.get("title") or row.own.title)
            and row.own.kind == (item.get("kind") or row.own.kind)
            and row.own.author == (item.get("author") or "")
            and (not status_given or row.status == Status.shown(item["status"]))
            and (note is None or row.note == note)
        ):
            plan.unchanged += 1
            continue
        plan.own.append(
            PlannedOwn(
                url=url,
                title=item.get("title") or "",
                kind=item.get("kind") or "",
                author=item.get("author") or "",
                status=item["status"] if status_given else None,
                note=note,
                started_at=dates[0],
                completed_at=dates[1],
                saved_at=saved_at,
            )
        )


def _own_problem(item, url) -> str | None:
    if not isinstance(url, str) or len(url) > 2000 or not re.match(r"https?://[^\s/]+", url):
        return "an own resource needs an http(s) link"
    for key, limit in (("title", 300), ("author", 300)):
        value = item.get(key) or ""
        if not isinstance(value, str) or len(value) > limit or "\x00" in value:
            return f"{key} must be text of at most {limit} characters"
    kind = item.get("kind") or ""
    if kind not in ("", *Kind.values):
        return f"unknown kind “{str(kind)[:40]}”"
    return None


MAX_FOLLOWED_PATHS = 1_000


def _followed_paths(items):
    """The followed-path items of an account export that name a path by uuid (others ignored)."""
    if not isinstance(items, list):
        return []
    kept = []
    for item in items[:MAX_FOLLOWED_PATHS]:
        if not isinstance(item, dict) or not isinstance(item.get("path"), str):
            continue
        try:
            kept.append({**item, "path": UUID(item["path"][:64])})
        except ValueError:
            continue
    return kept


def _plan_csv(user, content):
    """A Syllabus CSV export (header row first; columns found by name, extra ones ignored)."""
    try:
        rows = list(csv.reader(io.StringIO(content, newline="")))
    except csv.Error as exc:
        raise ProgressImportError(
            _("That CSV cannot be read (%(error)s); nothing was imported.") % {"error": exc}
        ) from None
    if not rows:
        raise ProgressImportError("That CSV is empty; nothing was imported.")
    header = rows[0]
    missing = [name for name in ("resource", "status") if name not in header]
    if missing:
        raise ProgressImportError(
            _(
                "That CSV is not a Syllabus progress export (no resource or status column); "
                "nothing was imported."
            )
        )
    columns = {name: header.index(name) for name in CSV_COLUMNS if name in header}

    def item(row):
        values = {name: (row[index] if index < len(row) else "") for name, index in columns.items()}
        return {
            "resource": values["resource"],
            "title": csv_cell_unguard(values.get("title", "")),
            "url": values.get("url", ""),
            "kind": values.get("kind", ""),
            "author": csv_cell_unguard(values.get("author", "")),
            "own": values.get("own", "") == OWN_MARK,
            "status": values["status"],
            "note": csv_cell_unguard(values.get("note", "")),
            "started_at": values.get("started_at") or None,
            "completed_at": values.get("completed_at") or None,
        }

    # Numbered by line in the file: the header is line 1.
    items = [(number, item(row)) for number, row in enumerate(rows[1:], start=2) if any(row)]
    plan = _plan_items(user, "csv", ((n, i) for n, i in items if not i["own"]))
    _plan_own(user, ((n, i) for n, i in items if i["own"]), plan)
    plan.unmatched.sort(key=lambda unmatched: unmatched[0])
    return plan


def _plan_items(user, format, numbered_items):
    """The plan of export items (JSON objects or CSV rows as dicts), each checked first."""
    plan = ImportPlan(format=format)
    items = {}
    now = timezone.now()
    for index, item in numbered_items:
        problem, dates = _item_problem(item, now)
        if problem:
            plan.unmatched.append((index, _shown(item), problem))
            continue
        items[UUID(item["resource"])] = (index, item, dates)
    resources = {
        resource.uuid: resource for resource in visible_resources().filter(uuid__in=list(items))
    }
    resources |= _aliased(set(items) - set(resources))
    _drop_merged_twins(items, resources, plan)
    current = _current(user, [resource.id for resource in resources.values()])
    for resource_uuid, (index, item, (started_at, completed_at)) in items.items():
        resource = resources.get(resource_uuid)
        if resource is None:
            title = item.get("title")
            shown = title[:200] if isinstance(title, str) and title else str(resource_uuid)
            plan.unmatched.append((index, shown, "no published resource has this uuid"))
            continue
        row = current.get(resource.id)
        note = item.get("note") or ""
        if row and row.status == item["status"] and row.note == note:
            plan.unchanged += 1
            continue
        plan.changes.append(
            PlannedChange(
                resource=resource,
                current=row.status if row else Status.NOT_STARTED,
                new=item["status"],
                note=note,
                started_at=started_at,
                completed_at=completed_at,
            )
        )
    # By title, as exports are written; a hand-assembled file previews in the same order.
    plan.changes.sort(key=lambda change: (change.resource.title.casefold(), change.resource.id))
    plan.unmatched.sort(key=lambda unmatched: unmatched[0])
    return plan


def _aliased(uuids) -> dict:
    """{uuid: its visible survivor} for uuids of resources merged away since the export."""
    if not uuids:
        return {}
    return ResourceAlias.objects.filter(resource__in=visible_resources()).survivors(uuids)


def _drop_merged_twins(items, resources, plan):
    """Two items of a file exported before a merge may now name one resource: the one with the
    furthest status is imported (the first on a tie), the other reported."""
    kept = {}  # resource id: uuid of the item kept
    for resource_uuid, (_index, item, _dates) in list(items.items()):
        resource = resources.get(resource_uuid)
        if resource is None:
            continue
        other_uuid = kept.get(resource.id)
        if other_uuid is None:
            kept[resource.id] = resource_uuid
            continue
        if STATUS_RANK[item["status"]] > STATUS_RANK[items[other_uuid][1]["status"]]:
            kept[resource.id], resource_uuid, other_uuid = resource_uuid, other_uuid, resource_uuid
        dropped_index, dropped_item, _dates = items.pop(resource_uuid)
        plan.unmatched.append(
            (
                dropped_index,
                _shown(dropped_item),
                f"now the same resource as “{_shown(items[other_uuid][1])}” (merged since), "
                "whose status is imported",
            )
        )


def _shown(item):
    """An item as the preview quotes it, in words: its title, else its resource, else what it is."""
    if isinstance(item, dict):
        for key in ("title", "url", "resource"):
            if isinstance(item.get(key), str) and item[key].strip():
                return item[key].strip()[:200]
        return _("an item with no title, URL or resource")
    what = {
        list: _("a list"),
        str: _("a text"),
        bool: _("a true/false value"),
        type(None): _("null"),
    }.get(type(item), _("a number"))
    return _("%(what)s, where an item (an object) belongs") % {"what": what}


def _item_problem(item, now):
    """(why the item cannot be imported, or None; its (started_at, completed_at), read)."""
    if not isinstance(item, dict):
        return _("not an object"), None
    resource = item.get("resource")
    try:
        if not isinstance(resource, str) or len(resource) > 64:
            raise ValueError
        UUID(resource)
    except ValueError:
        return _("missing or malformed resource uuid"), None
    status = item.get("status")
    if not isinstance(status, str) or status not in Status.values:
        shown = (
            _("unknown status “%(status)s”") % {"status": status[:40]}
            if isinstance(status, str)
            else _("no status")
        )
        return _("%(problem)s (in_progress, done, skipped or not_started)") % {
            "problem": shown
        }, None
    note = item.get("note") or ""
    if not isinstance(note, str) or len(note) > 10_000:
        return _("note must be text of at most 10,000 characters"), None
    if "\x00" in note:
        return _("note holds a NUL character"), None
    dates = []
    for key in ("started_at", "completed_at"):
        value, problem = _read_datetime(item.get(key), now)
        if problem:
            return f"{key} {problem}", None  # the field, as the file names it
        dates.append(value)
    started_at, completed_at = dates
    if status == Status.DONE and started_at and completed_at and started_at > completed_at:
        return _("started_at is after completed_at"), None
    return None, (started_at, completed_at)


def _read_datetime(value, now):
    """(the date-time, in UTC, or None when missing; why it cannot be used, or None). A date-time
    without an offset is in the site's time zone."""
    if value is None or value == "":
        return None, None
    if not isinstance(value, str) or len(value) > 64:
        return None, _("is not an ISO date-time")
    try:
        parsed = parse_datetime(value.strip())
    except ValueError:
        parsed = None
    if parsed is None:
        return None, _("is not an ISO date-time")
    try:
        if timezone.is_naive(parsed):
            parsed = timezone.make_aware(parsed)
        if abs(parsed.utcoffset()) > MAX_OFFSET:
            return None, _("has a time-zone offset no place uses")
        parsed = parsed.astimezone(UTC)
    except (OverflowError, ValueError):
        return None, _("is out of range")
    if parsed < EARLIEST:
        return None, _("is before 1970")
    if parsed > now:
        return None, _("is in the future")
    return parsed, None
