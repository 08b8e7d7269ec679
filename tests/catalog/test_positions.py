"""The one owner of renumbering under a unique (parent, position): park, then number."""

import pytest

from apps.catalog.positions import next_position, positions_park, positions_renumber
from tests.factories import EntryFactory, SectionFactory

pytestmark = pytest.mark.django_db


def test_park_moves_every_row_above_the_places_a_new_numbering_needs():
    section = SectionFactory()
    entries = [EntryFactory(section=section, position=p) for p in (1, 2, 3)]
    offset = positions_park(section.entries.all(), count=5)
    assert offset == 6
    assert list(section.entries.order_by("position").values_list("pk", "position")) == [
        (entries[0].pk, 7),
        (entries[1].pk, 8),
        (entries[2].pk, 9),
    ]


def test_park_above_the_highest_place_in_use():
    section = SectionFactory()
    EntryFactory(section=section, position=40)
    assert positions_park(section.entries.all(), count=2) == 41
    assert section.entries.get().position == 81


def test_renumber_reverses_siblings_without_tripping_the_unique_constraint():
    section = SectionFactory()
    a, b, c = (EntryFactory(section=section, position=p) for p in (1, 2, 3))
    assert positions_renumber(rows=[c, b, a]) == 2
    assert list(section.entries.order_by("position").values_list("pk", flat=True)) == [
        c.pk,
        b.pk,
        a.pk,
    ]
    assert positions_renumber(rows=[c, b, a]) == 0


def test_next_position_is_one_after_the_last_or_one():
    section = SectionFactory()
    assert next_position(section.entries.all()) == 1
    EntryFactory(section=section, position=7)
    assert next_position(section.entries.all()) == 8
