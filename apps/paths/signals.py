"""Follow again the paths an imported "Download all my data" file says its learner followed; take
an own resource its learner removed out of their own paths."""

from django.dispatch import receiver
from django.utils.dateparse import parse_datetime
from django.utils.translation import ngettext

from apps.paths.account_data import file_uuid
from apps.paths.models import LearningPath
from apps.paths.services import own_items_remove_resource, path_follow_restore
from apps.progress.signals import (
    account_data_checked,
    account_data_imported,
    own_resource_removed,
)


@receiver(account_data_checked)
def preview_followed_paths(sender, user, data, **kwargs) -> list[str]:
    """The preview's line for the file's published paths `user` does not follow yet, if any."""
    items = data.get("followed_paths")
    uuids = {
        file_uuid(item.get("path"))
        for item in (items if isinstance(items, list) else [])[:1_000]
        if isinstance(item, dict)
    } - {None}
    count = (
        LearningPath.objects.filter(is_published=True, uuid__in=uuids)
        .exclude(follows__user=user)
        .count()
        if uuids
        else 0
    )
    if not count:
        return []
    return [
        ngettext(
            "%(count)s path you do not follow yet will be followed again, with its pace.",
            "%(count)s paths you do not follow yet will be followed again, with their pace.",
            count,
        )
        % {"count": count}
    ]


@receiver(account_data_imported)
def restore_followed_paths(sender, user, followed_paths, **kwargs):
    """Each published path of the file followed again, with its date and pace; a path the learner
    already follows stays as it is. `followed_paths` was checked by the import (dicts with a uuid)."""
    paths = LearningPath.objects.filter(is_published=True).in_bulk(
        [item["path"] for item in followed_paths], field_name="uuid"
    )
    for item in followed_paths:
        path = paths.get(item["path"])
        if path is None:
            continue
        hours = item.get("hours_per_week")
        minutes = item.get("done_minutes_at_follow")
        followed_at = item.get("followed_at")
        path_follow_restore(
            user=user,
            path=path,
            hours_per_week=hours if isinstance(hours, int) and 1 <= hours <= 168 else None,
            followed_at=parse_datetime(followed_at) if isinstance(followed_at, str) else None,
            done_minutes_at_follow=minutes if isinstance(minutes, int) and minutes >= 0 else 0,
        )


@receiver(own_resource_removed)
def remove_own_resource_from_own_paths(sender, user, resource, **kwargs):
    """A removed own resource leaves its learner's own paths with it (it showed to them alone);
    a link the catalog lists stays, as a catalog resource."""
    own_items_remove_resource(owner=user, resource=resource)
