"""What "Download all my data" holds above progress, and how its import restores it: the learner's
own paths (apps.paths.account_data), their pins (a guide or a path by its slug, an own path by its
id in the same file) and how far they have read What's new.

The progress import (apps.progress.imports) reads the file and sends `account_data_checked` while
it plans and `account_data_imported` inside its transaction; the receivers here answer both, so a
file this module cannot read is refused before anything is written.
"""

from django.dispatch import receiver
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from apps.catalog.models import Guide
from apps.learning.models import Pin, WhatsNewSeen
from apps.paths import account_data as paths_data
from apps.paths.models import LearningPath
from apps.progress.imports import ProgressImportError
from apps.progress.signals import account_data_checked, account_data_imported

MAX_PINS = 1_000


def account_data_export(*, user) -> dict:
    """The parts of the account export this layer owns: own paths, pins, What's new."""
    data = {
        "own_paths": paths_data.own_paths_export(user=user),
        "pins": [
            {
                **(
                    {"guide": pin.guide.slug}
                    if pin.guide_id
                    else {"path": pin.path.slug}
                    if pin.path_id
                    else {"own_path": str(pin.own_path.uuid)}
                ),
                "pinned_at": pin.pinned_at.isoformat(),
            }
            for pin in Pin.objects.filter(user=user)
            .select_related("guide", "path", "own_path")
            .order_by("pinned_at", "pk")
        ],
    }
    seen = WhatsNewSeen.objects.filter(user=user).values_list("seen_up_to", flat=True).first()
    if seen:  # how far they read What's new
        data["whats_new_seen_up_to"] = seen.isoformat()
    return data


def _pins_check(items) -> list[tuple[str, str, object]]:
    """[(kind, key, pinned_at)] of the file's pins; ProgressImportError when malformed."""
    if items is None:
        return []
    if not isinstance(items, list) or len(items) > MAX_PINS:
        raise ProgressImportError(
            _("“pins” must be a list of at most %(count)s pins; nothing was imported.")
            % {"count": MAX_PINS}
        )
    pins = []
    for number, item in enumerate(items, start=1):
        kinds = (
            [kind for kind in ("guide", "path", "own_path") if kind in item]
            if isinstance(item, dict)
            else []
        )
        if len(kinds) != 1 or not isinstance(item[kinds[0]], str):
            raise ProgressImportError(
                _("Pin %(number)s names no guide, path or own path; nothing was imported.")
                % {"number": number}
            )
        key = item[kinds[0]][:100]
        pinned_at = _moment(item.get("pinned_at"))
        pins.append((kinds[0], key, pinned_at))
    return pins


def _moment(value):
    if not isinstance(value, str) or len(value) > 64:
        return None
    try:
        parsed = parse_datetime(value)
    except ValueError:
        return None
    return parsed if parsed is not None and parsed.tzinfo is not None else None


def _read(data):
    """(own paths, pins, seen up to) of the file, read; ProgressImportError when malformed."""
    try:
        planned = paths_data.own_paths_check(data.get("own_paths"))
    except paths_data.OwnPathsInvalid as exc:
        raise ProgressImportError(
            _("%(problem)s Nothing was imported.") % {"problem": exc}
        ) from None
    pins = _pins_check(data.get("pins"))
    seen = data.get("whats_new_seen_up_to")
    seen_at = _moment(seen)
    if seen_at is not None:  # never past now: what is added later is new to them
        seen_at = min(seen_at, timezone.now())
    if seen is not None and seen_at is None:
        raise ProgressImportError(
            _("“whats_new_seen_up_to” is not an ISO date-time; nothing was imported.")
        )
    return planned, pins, seen_at


@receiver(account_data_checked)
def preview_account_data(sender, user, data, **kwargs) -> list[str]:
    """What the import would add of this layer's parts, as preview lines (none: nothing to do)."""
    planned, pins, seen_at = _read(data)
    lines = []
    existing = paths_data.own_paths_matched(user=user, planned=planned)
    new_paths = paths_data.own_paths_preview(user=user, planned=planned)
    if new_paths:
        lines.append(
            ngettext(
                "%(count)s of your own paths will be added: %(titles)s.",
                "%(count)s of your own paths will be added: %(titles)s.",
                len(new_paths),
            )
            % {
                "count": len(new_paths),
                "titles": ", ".join(f"“{path.title[:80]}”" for path in new_paths[:20]),
            }
        )
    new_ids = {path.uuid for path in new_paths if path.uuid}
    new_pins = len(_not_pinned(user, _pin_targets(pins, existing))) + sum(
        1 for kind, key, _at in pins if kind == "own_path" and paths_data.file_uuid(key) in new_ids
    )
    if new_pins:
        lines.append(
            ngettext(
                "%(count)s pin will be restored to your dashboard (any you have stay).",
                "%(count)s pins will be restored to your dashboard (any you have stay).",
                new_pins,
            )
            % {"count": new_pins}
        )
    seen = WhatsNewSeen.objects.filter(user=user).values_list("seen_up_to", flat=True).first()
    if seen_at and (seen is None or seen_at > seen):
        lines.append(_("What's new will count from where you had read it up to."))
    return lines


@receiver(account_data_imported)
def restore_account_data(sender, user, data, **kwargs) -> list[str]:
    """Restore this layer's parts in the import's transaction; returns what the learner must know."""
    if not data:
        return []
    planned, pins, seen_at = _read(data)
    by_file_id, notes = paths_data.own_paths_restore(user=user, planned=planned)
    new = _not_pinned(user, _pin_targets(pins, by_file_id))
    Pin.objects.bulk_create([pin for pin, _at in new])
    for pin, pinned_at in new:  # auto_now_add stamped them now
        if pinned_at is not None:
            Pin.objects.filter(pk=pin.pk).update(pinned_at=pinned_at)
    if seen_at:
        seen = WhatsNewSeen.objects.filter(user=user).first()
        if seen is None:
            WhatsNewSeen.objects.create(user=user, seen_up_to=seen_at)
        elif seen_at > seen.seen_up_to:  # never back: what they read stays read
            seen.seen_up_to = seen_at
            seen.save(update_fields=["seen_up_to"])
    return notes


def _pin_targets(pins, own_by_file_id) -> list[tuple[dict, object]]:
    """[(the pin's target as Pin's field, its pinning time)] of the pins whose guide or path is
    published here (by slug), or whose own path is in `own_by_file_id`; the others are dropped."""
    guides = Guide.objects.published().in_bulk(
        [key for kind, key, _at in pins if kind == "guide"], field_name="slug"
    )
    paths = LearningPath.objects.published().in_bulk(
        [key for kind, key, _at in pins if kind == "path"], field_name="slug"
    )
    targets = []
    for kind, key, pinned_at in pins:
        if kind == "guide":
            target = guides.get(key)
        elif kind == "path":
            target = paths.get(key)
        else:
            kind, target = "own_path", own_by_file_id.get(paths_data.file_uuid(key))
        if target is not None:
            targets.append(({kind: target}, pinned_at))
    return targets


def _not_pinned(user, targets) -> list[tuple[Pin, object]]:
    """Unsaved Pins of the `targets` `user` has not pinned (each once), with their pinning time."""
    have = set(Pin.objects.filter(user=user).values_list("guide_id", "path_id", "own_path_id"))
    new = []
    for target, pinned_at in targets:
        pin = Pin(user=user, **target)
        key = (pin.guide_id, pin.path_id, pin.own_path_id)
        if key not in have:
            have.add(key)
            new.append((pin, pinned_at))
    return new
