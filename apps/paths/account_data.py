"""A learner's own paths in "Download all my data", and restored from it.

`own_paths_export` writes each path with its steps and items (three queries, however many paths,
steps or items); `own_paths_check` reads the file's list before anything is written (bad input is
refused whole, with a message saying where); `own_paths_restore` writes it back in the import's
transaction. An item names its resource by uuid and by link: a resource of this instance by its
uuid (or the resource it was merged into), else the catalog resource of its link, else the
learner's own resource of its link (the same file restores those first).
"""

from dataclasses import dataclass, field
from datetime import UTC, datetime
from uuid import UUID

from django.db.models import Prefetch
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.text import slugify
from django.utils.translation import gettext as _

from apps.catalog.models import Resource, ResourceAlias, url_key
from apps.catalog.selectors import visible_resources
from apps.paths.models import OwnPath, OwnStep, OwnStepItem
from apps.progress.models import OwnResource

EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
MAX_PATHS = 1_000
MAX_STEPS = 500  # per path
MAX_ITEMS = 2_000  # per step


def own_paths_export(*, user) -> list[dict]:
    """`user`'s own paths, oldest first, as the account export writes them: three queries."""
    items = OwnStepItem.objects.select_related("resource").order_by("position")
    steps = OwnStep.objects.order_by("position").prefetch_related(
        Prefetch("items", queryset=items, to_attr="export_items")
    )
    paths = (
        OwnPath.objects.filter(owner=user)
        .select_related("copied_from")
        .prefetch_related(Prefetch("steps", queryset=steps, to_attr="export_steps"))
        .order_by("created_at", "pk")
    )
    return [
        {
            "id": str(path.uuid),
            "title": path.title,
            "description": path.description,
            "notes": path.notes,
            "slug": path.slug,
            "published": path.published,
            "hours_per_week": path.hours_per_week,
            "done_minutes_at_follow": path.done_minutes_at_follow,
            "created_at": path.created_at.isoformat(),
            "copied_from": str(path.copied_from.uuid) if path.copied_from else None,
            "steps": [
                {
                    "title": step.title,
                    "effort_hours": step.effort_hours,
                    "items": [
                        {
                            "resource": str(item.resource.uuid),
                            "url": item.resource.url,
                            "title": item.resource.title,
                        }
                        for item in step.export_items
                    ],
                }
                for step in path.export_steps
            ],
        }
        for path in paths
    ]


class OwnPathsInvalid(ValueError):
    """The file's own paths cannot be read; the message says which and why."""


@dataclass
class PlannedPath:
    uuid: UUID | None
    title: str
    description: str
    notes: str
    slug: str | None
    published: bool
    hours_per_week: int | None
    done_minutes_at_follow: int
    created_at: object
    copied_from: UUID | None
    steps: list = field(default_factory=list)  # [(title, effort_hours, [(uuid|None, url)])]


def _text(item, key, limit, where, *, required=False) -> str:
    value = item.get(key)
    if value is None and not required:
        return ""
    if not isinstance(value, str) or len(value) > limit or "\x00" in value:
        raise OwnPathsInvalid(
            _("%(where)s: “%(key)s” must be text of at most %(limit)s characters, without NUL.")
            % {"where": where, "key": key, "limit": limit}
        )
    if required and not value.strip():
        raise OwnPathsInvalid(_("%(where)s has no title.") % {"where": where})
    return value


def _whole(item, key, where, *, low, high, default):
    value = item.get(key, default)
    if value is None and default is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise OwnPathsInvalid(
            _("%(where)s: “%(key)s” must be a whole number from %(low)s to %(high)s.")
            % {"where": where, "key": key, "low": low, "high": high}
        )
    return value


def _moment(value):
    """An ISO date-time with its offset, between 1970 and now; else None."""
    if not isinstance(value, str) or len(value) > 64:
        return None
    try:
        moment = parse_datetime(value)
    except ValueError:  # well-formed but no such date (a 13th month)
        return None
    if moment is None or moment.tzinfo is None:
        return None
    try:
        if not EARLIEST <= moment <= timezone.now():
            return None
    except OverflowError:
        return None
    return moment


def file_uuid(value) -> UUID | None:
    if not isinstance(value, str) or len(value) > 64:
        return None
    try:
        return UUID(value)
    except ValueError:
        return None


def own_paths_check(items) -> list[PlannedPath]:
    """The file's own paths, read; OwnPathsInvalid for anything that is not what the export
    writes (so nothing of a malformed file is imported)."""
    if items is None:
        return []
    if not isinstance(items, list) or len(items) > MAX_PATHS:
        raise OwnPathsInvalid(
            _("“own_paths” must be a list of at most %(count)s paths.") % {"count": MAX_PATHS}
        )
    planned, seen_uuids, seen_slugs = [], set(), set()
    for number, item in enumerate(items, start=1):
        where = _("Own path %(number)s") % {"number": number}
        if not isinstance(item, dict):
            raise OwnPathsInvalid(_("%(where)s is not an object.") % {"where": where})
        title = _text(item, "title", 200, where, required=True).strip()
        slug_text = _text(item, "slug", 100, where)
        slug = slugify(slug_text)[:100] or None
        if slug_text and slug != slug_text:
            raise OwnPathsInvalid(
                _("%(where)s: “%(slug)s” is not a link (letters, digits and dashes).")
                % {"where": where, "slug": slug_text[:40]}
            )
        if slug and slug in seen_slugs:
            raise OwnPathsInvalid(
                _("%(where)s: the link “%(slug)s” is given to two paths.")
                % {"where": where, "slug": slug}
            )
        seen_slugs.add(slug)
        published = item.get("published", False)
        if not isinstance(published, bool) or (published and not slug):
            raise OwnPathsInvalid(
                _(
                    "%(where)s: “published” must be true or false, and a published path needs a link."
                )
                % {"where": where}
            )
        created = _moment(item.get("created_at"))
        if created is None:
            raise OwnPathsInvalid(
                _(
                    "%(where)s: “created_at” must be an ISO date-time with its offset, not in the future."
                )
                % {"where": where}
            )
        path_uuid = file_uuid(item.get("id"))
        if path_uuid in seen_uuids and path_uuid is not None:
            raise OwnPathsInvalid(_("%(where)s repeats another path's id.") % {"where": where})
        seen_uuids.add(path_uuid)
        steps = item.get("steps", [])
        if not isinstance(steps, list) or len(steps) > MAX_STEPS:
            raise OwnPathsInvalid(
                _("%(where)s: “steps” must be a list of at most %(count)s steps.")
                % {"where": where, "count": MAX_STEPS}
            )
        path = PlannedPath(
            uuid=path_uuid,
            title=title,
            description=_text(item, "description", 20_000, where),
            notes=_text(item, "notes", 20_000, where),
            slug=slug,
            published=published,
            hours_per_week=_whole(item, "hours_per_week", where, low=1, high=168, default=None),
            done_minutes_at_follow=_whole(
                item, "done_minutes_at_follow", where, low=0, high=2**31 - 1, default=0
            ),
            created_at=created,
            copied_from=file_uuid(item.get("copied_from")),
        )
        for step_number, step in enumerate(steps, start=1):
            step_where = _("%(where)s, step %(number)s") % {"where": where, "number": step_number}
            if not isinstance(step, dict):
                raise OwnPathsInvalid(_("%(where)s is not an object.") % {"where": step_where})
            step_items = step.get("items", [])
            if not isinstance(step_items, list) or len(step_items) > MAX_ITEMS:
                raise OwnPathsInvalid(
                    _("%(where)s: “items” must be a list of at most %(count)s items.")
                    % {"where": step_where, "count": MAX_ITEMS}
                )
            refs = []
            for step_item in step_items:
                if not isinstance(step_item, dict):
                    raise OwnPathsInvalid(
                        _("%(where)s: an item is not an object.") % {"where": step_where}
                    )
                url = _text(step_item, "url", 2000, step_where)
                refs.append((file_uuid(step_item.get("resource")), url))
            path.steps.append(
                (
                    _text(step, "title", 300, step_where, required=True).strip(),
                    _whole(step, "effort_hours", step_where, low=1, high=2**31 - 1, default=None),
                    refs,
                )
            )
        planned.append(path)
    return planned


def _existing(user, planned):
    """{index in planned: the learner's own path it already is} (same id, or same title and
    creation time: a file imported twice restores nothing twice)."""
    mine = list(OwnPath.objects.filter(owner=user).only("uuid", "title", "created_at"))
    by_uuid = {path.uuid: path for path in mine}
    by_key = {(path.title, path.created_at): path for path in mine}
    found = {}
    for index, path in enumerate(planned):
        match = by_uuid.get(path.uuid) or by_key.get((path.title, path.created_at))
        if match is not None:
            found[index] = match
    return found


def own_paths_preview(*, user, planned) -> list[PlannedPath]:
    """The planned paths the learner does not have yet (what the import would add)."""
    existing = _existing(user, planned)
    return [path for index, path in enumerate(planned) if index not in existing]


def own_paths_matched(*, user, planned) -> dict:
    """{file id: the learner's own path it already is} for the planned paths they have."""
    return {
        planned[index].uuid: path
        for index, path in _existing(user, planned).items()
        if planned[index].uuid
    }


def _resolver(user, planned):
    """A function from an item's (uuid, url) to a Resource id, or None: four queries in all."""
    uuids = {ref for path in planned for _t, _e, refs in path.steps for ref, _url in refs if ref}
    keys = set()
    for path in planned:
        for _t, _e, refs in path.steps:
            for _ref, url in refs:
                try:
                    if url and (key := url_key(url)):
                        keys.add(key)
                except ValueError:
                    continue
    by_uuid = dict(Resource.objects.filter(uuid__in=uuids).values_list("uuid", "id"))
    by_uuid |= {
        alias: resource.id
        for alias, resource in ResourceAlias.objects.survivors(uuids - set(by_uuid)).items()
    }
    catalog = dict(visible_resources().filter(url_key__in=keys).values_list("url_key", "id"))
    own = dict(
        OwnResource.objects.filter(user=user, resource__url_key__in=keys).values_list(
            "resource__url_key", "resource_id"
        )
    )

    def resolve(ref, url):
        if ref in by_uuid:
            return by_uuid[ref]
        try:
            key = url_key(url) if url else ""
        except ValueError:
            return None
        return catalog.get(key) or own.get(key)

    return resolve


def own_paths_restore(*, user, planned) -> tuple[dict, list[str]]:
    """Create the planned paths `user` does not have yet, in the caller's transaction.
    Returns ({file id: the learner's OwnPath} for every path of the file, new or already
    there; what the learner must know: a link another learner uses, items whose resource is gone)."""
    existing = _existing(user, planned)
    resolve = _resolver(user, planned)
    wanted_uuids = [path.uuid for path in planned if path.uuid]
    taken_uuids = set(OwnPath.objects.filter(uuid__in=wanted_uuids).values_list("uuid", flat=True))
    slugs = [path.slug for path in planned if path.slug]
    taken_slugs = set(OwnPath.objects.filter(slug__in=slugs).values_list("slug", flat=True))
    sources = dict(
        OwnPath.objects.filter(
            uuid__in=[path.copied_from for path in planned if path.copied_from]
        ).values_list("uuid", "pk")
    )
    by_file_id, notes = {}, []
    for index, path in enumerate(planned):
        if index in existing:
            if path.uuid:
                by_file_id[path.uuid] = existing[index]
            continue
        slug, published = path.slug, path.published
        if slug and slug in taken_slugs:
            notes.append(
                _(
                    "Your path “%(title)s” had the link “%(slug)s”, which another path uses now: "
                    "it was imported unpublished, without a link; choose a new one to publish it."
                )
                % {"title": path.title, "slug": slug}
            )
            slug, published = None, False
        own = OwnPath(
            owner=user,
            title=path.title,
            description=path.description,
            notes=path.notes,
            slug=slug,
            published=published,
            hours_per_week=path.hours_per_week,
            done_minutes_at_follow=path.done_minutes_at_follow,
            created_at=path.created_at,
            copied_from=None,
        )
        if path.uuid and path.uuid not in taken_uuids:
            own.uuid = path.uuid  # the same address as before, when nobody has it
        # The path it was copied from, if it still exists: one of this file's (as restored), else
        # the one with that id here.
        if path.copied_from in by_file_id:
            own.copied_from = by_file_id[path.copied_from]
        elif path.copied_from in sources:
            own.copied_from_id = sources[path.copied_from]
        own.save()
        if path.uuid:
            by_file_id[path.uuid] = own
        missing = 0
        items = []
        for position, (title, effort_hours, refs) in enumerate(path.steps, start=1):
            step = OwnStep.objects.create(
                path=own, position=position, title=title, effort_hours=effort_hours
            )
            kept = set()
            for ref, url in refs:
                resource_id = resolve(ref, url)
                if resource_id is None:
                    missing += 1
                    continue
                if resource_id in kept:  # two items merged into one resource since
                    continue
                kept.add(resource_id)
                items.append(OwnStepItem(step=step, resource_id=resource_id, position=len(kept)))
        OwnStepItem.objects.bulk_create(items)
        if missing:
            notes.append(
                _(
                    "Your path “%(title)s”: %(count)s resource(s) no longer in Syllabus were left out."
                )
                % {"title": path.title, "count": missing}
            )
    return by_file_id, notes
