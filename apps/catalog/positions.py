"""Positions under a unique (parent, position) constraint: the one owner of renumbering.

Sections, entries, resource links, path steps and step items are numbered 1..n inside their
parent, and the database refuses two rows on one place. A new order is therefore written in two
phases: the rows are first *parked* above every place in use (one UPDATE), then each gets its
final number. The curators' services, the admin's typed positions and a guide's sync all ask here.
"""

from collections.abc import Sequence

from django.db import models, transaction
from django.db.models import F, Max


def positions_park(
    queryset, *, count: int, field_name: str = "position", highest: int | None = None
) -> int:
    """Move every row of ``queryset`` above positions 1..``count`` and above where any of them is,
    in one UPDATE, so the final numbers can be written row by row without meeting a taken
    (parent, position) pair. Returns the offset added: parked rows sit in
    (offset, 2 * offset), so places from ``2 * offset`` up are free for temporary use too.

    ``highest`` is the greatest position in ``queryset`` when the caller has already read it.
    """
    if highest is None:
        highest = queryset.aggregate(highest=Max(field_name))["highest"] or 0
    offset = max(highest, count) + 1
    queryset.update(**{field_name: F(field_name) + offset})
    return offset


def positions_renumber(*, rows: Sequence[models.Model], field_name: str = "position") -> int:
    """Give ``rows`` (siblings under one unique (parent, position) constraint, in the wanted
    order) the positions 1..n. Returns how many rows changed position.

    ``rows`` must be all the siblings, or the parked values could meet a sibling left out.
    """
    rows = list(rows)
    if not rows:
        return 0
    model = type(rows[0])
    siblings = model._default_manager.filter(pk__in=[row.pk for row in rows])
    with transaction.atomic():
        current = dict(siblings.select_for_update().values_list("pk", field_name))
        changed = sum(current.get(row.pk) != index for index, row in enumerate(rows, start=1))
        if not changed:
            return 0
        positions_park(
            siblings,
            count=len(rows),
            field_name=field_name,
            highest=max(current.values(), default=0),
        )
        for index, row in enumerate(rows, start=1):
            setattr(row, field_name, index)
        model._default_manager.bulk_update(rows, [field_name])
    return changed


def next_position(queryset, field_name: str = "position") -> int:
    """The position after the last one in ``queryset`` (1 when empty)."""
    return (queryset.aggregate(last=Max(field_name))["last"] or 0) + 1
