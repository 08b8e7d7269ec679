"""Following a path and setting a pace. Unfollowing never touches progress."""

from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from apps.catalog.positions import next_position, positions_renumber
from apps.catalog.selectors import visible_resources
from apps.paths.models import LearningPath, OwnPath, OwnStep, OwnStepItem, PathFollow
from apps.paths.selectors import own_path_outline, own_path_view, path_detail, path_outline
from apps.progress.selectors import statuses_for


def path_follow(*, user, path, hours_per_week=None):
    """Follow `path` (idempotent); `hours_per_week` updates the pace when given."""
    try:
        with transaction.atomic():
            follow = PathFollow.objects.filter(user=user, path=path).first()
            if follow is None:
                done = path_detail(path=path, user=user, follows={}).done_minutes
                follow = PathFollow.objects.create(
                    user=user, path=path, done_minutes_at_follow=done
                )
    except IntegrityError:  # a concurrent follow won the race
        follow = PathFollow.objects.get(user=user, path=path)
    if hours_per_week is not None and follow.hours_per_week != hours_per_week:
        follow.hours_per_week = hours_per_week
        follow.save(update_fields=["hours_per_week"])
    return follow


def path_unfollow(*, user, path):
    PathFollow.objects.filter(user=user, path=path).delete()


def path_follow_restore(*, user, path, hours_per_week, followed_at, done_minutes_at_follow):
    """Follow `path` as an account export recorded it (its date and the pace's starting point), if
    `user` does not follow it yet; returns the new PathFollow, or None when already following."""
    try:
        with transaction.atomic():
            if PathFollow.objects.filter(user=user, path=path).exists():
                return None
            follow = PathFollow.objects.create(
                user=user,
                path=path,
                hours_per_week=hours_per_week,
                done_minutes_at_follow=done_minutes_at_follow,
            )
            if followed_at is not None:  # auto_now_add set it to now on create
                follow.followed_at = followed_at
                follow.save(update_fields=["followed_at"])
            return follow
    except IntegrityError:  # a concurrent follow won the race
        return None


# A learner's own paths. Every write checks nothing about who asks: the views and the API look the
# path up through apps.paths.selectors (own_path_for_owner), which refuses anyone but its owner.


class OwnPathError(Exception):
    """Bad input for an own path: its message says what, and nothing was changed."""


def _no_nul(*values) -> None:
    """Text with a NUL character is refused (PostgreSQL cannot store it)."""
    if any(isinstance(value, str) and "\x00" in value for value in values):
        raise OwnPathError(_("Text cannot hold a NUL character."))


def own_path_create(*, user, title, description="", notes="") -> OwnPath:
    _no_nul(title, description, notes)
    title = title.strip()
    if not title:
        raise OwnPathError(_("A path needs a title."))
    if len(title) > 200:
        raise OwnPathError(_("A path's title is at most 200 characters."))
    return OwnPath.objects.create(owner=user, title=title, description=description, notes=notes)


def own_path_update(*, path, **fields) -> OwnPath:
    """Set `fields` (title, description, notes, hours_per_week, slug, published) of `path`.
    A published path needs a slug no other path has."""
    allowed = {"title", "description", "notes", "hours_per_week", "slug", "published"}
    if unknown := set(fields) - allowed:
        raise OwnPathError(_("Unknown field: %(fields)s.") % {"fields": ", ".join(sorted(unknown))})
    _no_nul(*fields.values())
    for name, value in fields.items():
        setattr(path, name, value)
    path.title = path.title.strip()
    if not path.title:
        raise OwnPathError(_("A path needs a title."))
    if path.slug:
        path.slug = slugify(path.slug)[:100] or None
    if path.published and not path.slug:
        raise OwnPathError(_("Choose a link (letters, digits and dashes) to publish this path."))
    if path.hours_per_week is not None and not 1 <= path.hours_per_week <= 168:
        raise OwnPathError(_("Hours per week must be a whole number from 1 to 168."))
    if path.slug and OwnPath.objects.filter(slug=path.slug).exclude(pk=path.pk).exists():
        raise OwnPathError(_("The link “%(slug)s” is taken; choose another.") % {"slug": path.slug})
    try:
        with transaction.atomic():
            path.save()
    except IntegrityError:  # a concurrent publish took the slug
        raise OwnPathError(
            _("The link “%(slug)s” is taken; choose another.") % {"slug": path.slug}
        ) from None
    return path


def own_path_delete(*, path) -> None:
    path.delete()


def _step_fields(title, effort_hours) -> str:
    """A step's title (stripped) once it and the estimate are good; OwnPathError if not."""
    _no_nul(title)
    title = title.strip()
    if not title:
        raise OwnPathError(_("A step needs a title."))
    if effort_hours is not None and effort_hours < 1:
        raise OwnPathError(_("A step's estimate is a whole number of hours, 1 or more."))
    return title


def own_step_add(*, path, title, effort_hours=None) -> OwnStep:
    title = _step_fields(title, effort_hours)
    with transaction.atomic():
        OwnPath.objects.select_for_update().filter(pk=path.pk).first()
        return OwnStep.objects.create(
            path=path,
            title=title,
            effort_hours=effort_hours,
            position=next_position(OwnStep.objects.filter(path=path)),
        )


def own_step_update(*, step, title, effort_hours=None) -> OwnStep:
    step.title, step.effort_hours = _step_fields(title, effort_hours), effort_hours
    step.save(update_fields=["title", "effort_hours"])
    return step


def own_step_remove(*, step) -> None:
    with transaction.atomic():
        path = step.path
        step.delete()
        positions_renumber(rows=list(OwnStep.objects.filter(path=path).order_by("position")))


def own_step_move(*, step, by: int) -> None:
    """Move `step` `by` places (-1 up, +1 down) within its path."""
    with transaction.atomic():
        rows = list(OwnStep.objects.filter(path_id=step.path_id).order_by("position"))
        _move(rows, step.pk, by)


def own_item_add(*, path, resource, step=None) -> OwnStepItem:
    """Add `resource` (one the owner may add: the caller looks it up through
    selectors.addable_resource, a catalog resource or one of their own) to `step`, else to the path's last step (a first step is made when it has
    none). Adding a resource already in that step changes nothing."""
    with transaction.atomic():
        OwnPath.objects.select_for_update().filter(pk=path.pk).first()
        if step is None:
            step = OwnStep.objects.filter(path=path).order_by("-position").first()
        if step is None:
            step = OwnStep.objects.create(path=path, title=_("Step 1"), position=1)
        if step.path_id != path.pk:
            raise OwnPathError(_("That step is not in this path."))
        existing = OwnStepItem.objects.filter(step=step, resource=resource).first()
        if existing:
            return existing
        return OwnStepItem.objects.create(
            step=step,
            resource=resource,
            position=next_position(OwnStepItem.objects.filter(step=step)),
        )


def own_item_remove(*, item) -> None:
    with transaction.atomic():
        step = item.step
        item.delete()
        positions_renumber(rows=list(OwnStepItem.objects.filter(step=step).order_by("position")))


def own_items_remove_resource(*, owner, resource) -> int:
    """Take `resource` out of `owner`'s own paths unless learners may see it (a link they no longer
    keep as their own); the steps it leaves are renumbered. Returns how many items went."""
    if visible_resources().filter(pk=resource.pk).exists():
        return 0
    with transaction.atomic():
        items = OwnStepItem.objects.filter(step__path__owner=owner, resource=resource)
        steps = list(OwnStep.objects.filter(items__in=items).distinct())
        removed, _ = items.delete()
        for step in steps:
            positions_renumber(
                rows=list(OwnStepItem.objects.filter(step=step).order_by("position"))
            )
    return removed


def own_item_move(*, item, by: int = 0, to_step=None) -> None:
    """Move `item` `by` places within its step, or to the end of `to_step` (same path)."""
    with transaction.atomic():
        if to_step is not None and to_step.pk != item.step_id:
            if to_step.path_id != item.step.path_id:
                raise OwnPathError(_("That step is not in this path."))
            if OwnStepItem.objects.filter(step=to_step, resource_id=item.resource_id).exists():
                raise OwnPathError(_("That step holds this resource already."))
            old_step = item.step
            item.step = to_step
            item.position = next_position(OwnStepItem.objects.filter(step=to_step))
            item.save(update_fields=["step", "position"])
            positions_renumber(
                rows=list(OwnStepItem.objects.filter(step=old_step).order_by("position"))
            )
            return
        rows = list(OwnStepItem.objects.filter(step_id=item.step_id).order_by("position"))
        _move(rows, item.pk, by)


def _move(rows, pk, by):
    index = next(i for i, row in enumerate(rows) if row.pk == pk)
    target = min(max(index + by, 0), len(rows) - 1)
    rows.insert(target, rows.pop(index))
    positions_renumber(rows=rows)


def own_path_copy(*, user, source, title=None) -> OwnPath:
    """A new own path of `user` with `source`'s steps and resources as `user` sees them (an own
    path someone may see, or a curated path): title, description, steps and their estimates; never
    the source's notes, publishing or slug, nor, in another learner's copy, its owner's own
    resources. Its pace starts from what `user` has done of it already."""
    curated = isinstance(source, LearningPath)
    outline = path_outline(source) if curated else own_path_outline(source, user=user)
    with transaction.atomic():
        copy = OwnPath.objects.create(
            owner=user,
            title=(title or source.title)[:200],
            description=source.description,
            copied_from=None if curated else source,
        )
        items: list[OwnStepItem] = []
        for position, plan in enumerate(outline.steps, start=1):
            step = OwnStep.objects.create(
                path=copy,
                position=position,
                title=plan.step.title[:300],
                effort_hours=plan.step.effort_hours,
            )
            items.extend(
                OwnStepItem(step=step, resource_id=item.resource_id, position=index)
                for index, (item, _) in enumerate(plan.items, start=1)
            )
        OwnStepItem.objects.bulk_create(items)
        copy.done_minutes_at_follow = own_path_view(
            path=copy, user=user, statuses=statuses_for(user=user)
        ).done_minutes
        copy.save(update_fields=["done_minutes_at_follow"])
    return copy
