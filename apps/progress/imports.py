"""Bring progress back: a Markdown checklist with `[x]` marks or a Syllabus JSON export.

`import_plan` only reads: it returns what would change and which lines matched nothing
(reported, never guessed). `import_apply` writes the plan in one transaction.
"""

import json
import re
from dataclasses import dataclass, field
from uuid import UUID

from django.utils.dateparse import parse_datetime

from apps.catalog.models import Resource, ResourceLink
from apps.progress.exports import JSON_FORMAT
from apps.progress.models import Progress, Status
from apps.progress.services import ProgressChange, progress_apply_many


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


_CHECKLIST = re.compile(r"^\s*[-*+]\s+\[([ xX])\]\s+(?P<text>.+?)\s*$")
_URL = re.compile(r"https?://[^\s<>()\[\]]+(?:\([^\s()]*\)[^\s<>()\[\]]*)*")
_MD_LINK = re.compile(r"\[([^\]]*)\]\([^)]*(?:\([^)]*\)[^)]*)*\)")


def import_plan(*, user, content: str) -> ImportPlan:
    content = content.lstrip("\ufeff")
    if content.lstrip().startswith("{"):
        return _plan_json(user, content)
    return _plan_markdown(user, content)


def import_apply(*, user, plan: ImportPlan):
    progress_apply_many(
        user=user,
        changes=[
            ProgressChange(
                resource_id=change.resource.id,
                status=change.new,
                note=change.note,
                started_at=change.started_at,
                completed_at=change.completed_at,
            )
            for change in plan.changes
        ],
    )


def _current(user, resource_ids):
    return {
        row.resource_id: row
        for row in Progress.objects.filter(user=user, resource_id__in=resource_ids)
    }


def _plan_markdown(user, content):
    from apps.catalog.importer.urls import normalize_url

    url_to_resource = {}
    for url, resource_id in Resource.objects.published().exclude(url=None).values_list("url", "id"):
        url_to_resource[url] = resource_id
    for url, resource_id in ResourceLink.objects.filter(resource__is_published=True).values_list("url", "resource_id"):
        url_to_resource.setdefault(url, resource_id)
    titles = {}
    for title, resource_id in Resource.objects.published().values_list("title", "id"):
        titles.setdefault(title.casefold(), set()).add(resource_id)

    plan = ImportPlan(format="markdown")
    wanted = {}  # resource_id -> line number
    checklist_lines = 0
    for number, line in enumerate(content.splitlines(), start=1):
        match = _CHECKLIST.match(line)
        if not match:
            continue
        checklist_lines += 1
        if match.group(1) == " ":
            continue  # unticked: nothing to record
        text = match.group("text")
        resource_id = None
        for raw_url in _URL.findall(text):
            try:
                resource_id = url_to_resource.get(normalize_url(raw_url))
            except ValueError:
                resource_id = None
            if resource_id:
                break
        if resource_id is None:
            plain = re.sub(r"[*_`]", "", _MD_LINK.sub(r"\1", text)).strip()
            candidates = titles.get(plain.casefold(), set())
            if len(candidates) == 1:
                resource_id = next(iter(candidates))
            else:
                reason = "several resources have this title" if candidates else "no resource has this link or title"
                plan.unmatched.append((number, text, reason))
                continue
        wanted.setdefault(resource_id, number)
    if checklist_lines == 0:
        raise ProgressImportError("No checklist lines (\"- [x] …\") were found; nothing was imported.")
    resources = Resource.objects.in_bulk(list(wanted))
    current = _current(user, list(wanted))
    for resource_id in wanted:
        row = current.get(resource_id)
        if row and row.status == Status.DONE:
            plan.unchanged += 1
        else:
            plan.changes.append(
                PlannedChange(resource=resources[resource_id], current=row.status if row else Status.NOT_STARTED, new=Status.DONE)
            )
    return plan


def _plan_json(user, content):
    try:
        data = json.loads(content)
    except json.JSONDecodeError as exc:
        raise ProgressImportError(f"That is not valid JSON ({exc.msg}, line {exc.lineno}); nothing was imported.") from None
    if not isinstance(data, dict) or data.get("format") != JSON_FORMAT or not isinstance(data.get("progress"), list):
        raise ProgressImportError("That JSON is not a Syllabus progress export; nothing was imported.")
    plan = ImportPlan(format="json")
    items = {}
    for index, item in enumerate(data["progress"], start=1):
        problem = _json_item_problem(item)
        if problem:
            plan.unmatched.append((index, str(item)[:200], problem))
            continue
        items[UUID(item["resource"])] = (index, item)
    resources = {resource.uuid: resource for resource in Resource.objects.published().filter(uuid__in=list(items))}
    current = _current(user, [resource.id for resource in resources.values()])
    for resource_uuid, (index, item) in items.items():
        resource = resources.get(resource_uuid)
        if resource is None:
            plan.unmatched.append((index, item.get("title") or str(resource_uuid), "no published resource has this uuid"))
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
                started_at=_datetime(item.get("started_at")),
                completed_at=_datetime(item.get("completed_at")),
            )
        )
    # By title, as exports are written; a hand-assembled file previews in the same order.
    plan.changes.sort(key=lambda change: (change.resource.title.casefold(), change.resource.id))
    plan.unmatched.sort(key=lambda unmatched: unmatched[0])
    return plan


def _datetime(value):
    """An ISO date-time, or None when missing or not a real date (e.g. month 13)."""
    try:
        return parse_datetime(value) if isinstance(value, str) else None
    except ValueError:
        return None


def _json_item_problem(item):
    if not isinstance(item, dict):
        return "not an object"
    try:
        UUID(str(item.get("resource")))
    except ValueError:
        return "missing or malformed resource uuid"
    if item.get("status") not in Status.values:
        return f"unknown status {item.get('status')!r}"
    if not isinstance(item.get("note") or "", str) or len(item.get("note") or "") > 10_000:
        return "note must be text of at most 10,000 characters"
    for key in ("started_at", "completed_at"):
        value = item.get(key)
        if value is not None and _datetime(value) is None:
            return f"{key} is not an ISO date-time"
    return None
