"""Ticks stamped from a stencil (apps.learning.widgets.TickStencil) are the very bytes the tick
template renders for that resource, in every variant a page shows, whatever its title holds;
and a guide's shared part, whose ticks are stamped, fills to the same page as before."""

import itertools

import pytest

from apps.learning import shared
from apps.learning.widgets import TickStencil, tick_html
from apps.progress.models import Status
from tests.factories import EntryFactory, ResourceFactory

pytestmark = pytest.mark.django_db

TITLES = [
    "Plain title",
    '<script>alert("x")</script> & friends',
    "It's \"quoted\" 'twice'",
    "Ünïcödé — 注意力 🧠 ≤ ≥",
    "{{ resource.title }} {% tick %} %s {0}",  # template syntax is text in a title
    "00000000-57e0-4c11-8000-0000000000f1",  # the stencil's own placeholder uuid, as a title
    "\x02title\x03 \x02slot\x03",  # and its other placeholders
]
SLOTS = ["5f0e2a1c-0000-4000-8000-000000000001", 'a"b<c>&d', "42"]
VARIANTS = list(
    itertools.product(
        ["", *(Status.shown(status) for status in Status)],  # every status, "" not started
        [True, False],  # signed in
        [False, True],  # out of band
        [True, False],  # with its menu
        [False, True],  # menu open
    )
)


@pytest.mark.parametrize("title", TITLES)
def test_a_stamped_tick_is_byte_identical_to_the_rendered_one(title):
    resource = ResourceFactory(title=title)
    for status, signed_in, oob, menu, menu_open in VARIANTS:
        stencil = TickStencil(
            status=status, signed_in=signed_in, oob=oob, menu=menu, menu_open=menu_open
        )
        for slot in SLOTS:
            expected = tick_html(
                resource=resource,
                slot=slot,
                status=status,
                signed_in=signed_in,
                oob=oob,
                menu=menu,
                menu_open=menu_open,
            )
            stamped = stencil.stamp(TickStencil.fields(resource=resource, slot=slot))
            assert stamped == expected, (title, slot, status, signed_in, oob, menu, menu_open)


def test_a_stencil_is_made_once_per_variant_for_a_whole_overlay(monkeypatch):
    """225 rows cost the template engine five renders (four statuses and the visitor's), not
    five per row."""
    entries = [EntryFactory(resource=ResourceFactory(title=f"R <{n}>")) for n in range(6)]
    guide = entries[0].section.guide
    for entry in entries[1:]:
        entry.section = entries[0].section
        entry.save()
    renders = []
    real = shared.TickStencil.__init__

    def counting(self, **kwargs):
        renders.append(kwargs)
        real(self, **kwargs)

    monkeypatch.setattr(shared.TickStencil, "__init__", counting)
    parts = shared._guide_parts_build(guide=guide, filters={}, path=guide.get_absolute_url())
    assert len(renders) == len(shared.TICK_STATUSES) + 1
    html = parts.entries.fill(statuses={}, tallies={}, signed_in=True)
    for entry in entries:
        assert (
            tick_html(resource=entry.resource, slot=str(entry.uuid), status="", signed_in=True)
            in html
        )
    statuses = {entries[0].resource_id: Status.DONE, entries[1].resource_id: Status.SKIPPED}
    html = parts.entries.fill(statuses=statuses, tallies={}, signed_in=True)
    for entry, status in ((entries[0], "done"), (entries[1], "skipped"), (entries[2], "")):
        expected = tick_html(
            resource=entry.resource, slot=str(entry.uuid), status=status, signed_in=True
        )
        assert expected in html
    visitor = parts.entries.fill(statuses={}, tallies={}, signed_in=False)
    assert (
        tick_html(
            resource=entries[3].resource, slot=str(entries[3].uuid), status="", signed_in=False
        )
        in visitor
    )
