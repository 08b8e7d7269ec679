"""The contract of apps.learning.stencils: ticks stamped from a stencil (TickStencil) are the
very bytes the tick template renders for that resource, in every variant a page shows, whatever
its title holds; rows stamped from a stencil of their template (RowStencils, `{% stamp_row %}`)
are the bytes the template renders for that row, in every shape and whatever its texts and URLs
hold; and a guide's shared part, stamped, fills to the same page as rendered row by row."""

import itertools
from decimal import Decimal

import pytest
from django.utils import translation

from apps.catalog.models import Kind, Priority
from apps.catalog.selectors import guide_contents
from apps.learning import shared, stencils
from apps.learning.stencils import TickStencil
from apps.learning.widgets import tick_html
from apps.progress.models import Status
from apps.progress.selectors import Tally
from tests.factories import (
    EntryFactory,
    GuideFactory,
    ResourceFactory,
    ResourceLinkFactory,
    SectionFactory,
)

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


@pytest.fixture(autouse=True, params=["en", "zh-hans"])
def language(request):
    """Every stencil is byte-identical to the template in each language (a stencil is built in
    the language of the memo entry it belongs to)."""
    with translation.override(request.param):
        yield request.param


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


HOSTILE = [
    '<script>alert("x")</script> & friends',
    "It's \"quoted\" 'twice' </p><p>",
    "{{ entry.note }} {% tick %} %s {0} \x02title\x03 \x02note\x03",  # template syntax, placeholders
    "00000000-57e0-4c11-8000-000000000001",  # a row stencil's placeholder uuid
    "Ünïcödé — 注意力 🧠 ≤ ≥ &amp;",
]
URLS = [
    "https://example.com/a?b=1&c=<2>\"'",
    "https://WWW.Example.ORG/path",  # |hostname: lower case, no www.
    "https://\x02host\x03/\x02url\x03",  # the stencil's own placeholder URL
    "http://[::1]:8000/x",
    "not a url at all",
    None,  # no URL: the title links to the resource page
]


def _rows_of_every_shape():
    """A guide whose entries take every branch of entry_row.html and its includes, with hostile
    texts: the same texts in different shapes share nothing but the template."""
    guide = GuideFactory()
    section = SectionFactory(guide=guide, description=HOSTILE[0])
    subsection = SectionFactory(guide=guide, parent=section)
    shapes = itertools.product(
        [None, 1, 3],  # tier
        ["", Priority.MUST, Priority.MAYBE],  # priority
        [None, Decimal("7.5"), Decimal("10")],  # rating
        [False, True],  # marked done by the author
    )
    for n, (tier, priority, rating, marked_done) in enumerate(shapes):
        text = HOSTILE[n % len(HOSTILE)]
        description = "" if n % 4 == 0 else HOSTILE[(n + 1) % len(HOSTILE)]
        resource = ResourceFactory(
            title=text,
            url=None if URLS[n % len(URLS)] is None else f"{URLS[n % len(URLS)]}#{n}",
            kind=list(Kind)[n % len(Kind)],
            author="" if n % 3 == 0 else HOSTILE[(n + 2) % len(HOSTILE)],
            description=description,
        )
        for index in range(n % 3):
            ResourceLinkFactory(
                resource=resource,
                url=URLS[(n + index) % len(URLS)] or 'https://example.com/x"<>&',
                label=["", "x" * 70 + "<&>", HOSTILE[n % len(HOSTILE)]][(n + index) % 3],
            )
        EntryFactory(
            section=subsection if n % 2 else section,
            resource=resource,
            tier=tier,
            priority=priority,
            rating=rating,
            marked_done=marked_done,
            note=["", description, HOSTILE[(n + 3) % len(HOSTILE)]][
                n % 3
            ],  # same as description too
        )
    return guide


def _entries_overlay(guide, *, stamp):
    contents = guide_contents(guide=guide, filters={})
    context = {
        "contents": contents,
        "filters": {},
        "page_path": guide.get_absolute_url(),
        "section_tallies": {
            section.id: Tally(total=1) for section in shared._walk(contents.sections)
        },
    }
    return shared.overlay_render("catalog/includes/guide_entries.html", context, stamp=stamp)


def test_stamped_entry_rows_are_byte_identical_to_the_rendered_ones():
    guide = _rows_of_every_shape()
    stamped, rendered = (_entries_overlay(guide, stamp=stamp) for stamp in (True, False))
    entries = list(guide_contents(guide=guide, filters={}).sections[0].shown_entries)
    ids = [entry.resource_id for entry in entries]
    statuses = {
        pk: [Status.DONE, Status.IN_PROGRESS, Status.SKIPPED, ""][n % 4] for n, pk in enumerate(ids)
    }

    class Noted(dict):
        noted = frozenset(ids[::2])

    for fill in (
        {"statuses": {}, "signed_in": False},
        {"statuses": {}, "signed_in": True},
        {"statuses": Noted(statuses), "signed_in": True},
        {"statuses": Noted(statuses), "signed_in": True, "show": lambda status: status != "done"},
        {"statuses": Noted(statuses), "signed_in": True, "query": "status=skipped"},
    ):
        html = stamped.fill(tallies={}, **fill)
        assert html == rendered.fill(tallies={}, **fill)
    assert html.count('class="row"') == 54
    assert "&lt;script&gt;" in html and "<script>" not in html


def test_a_stencil_is_rendered_once_per_shape_not_per_row(monkeypatch):
    guide = _rows_of_every_shape()
    renders = []
    real = stencils.RowStencil.__init__

    def counting(self, *args, **kwargs):
        renders.append(args[0])
        real(self, *args, **kwargs)

    monkeypatch.setattr(stencils.RowStencil, "__init__", counting)
    section = guide.sections.first()
    for n in range(10):  # ten rows of one more shape
        EntryFactory(section=section, resource=ResourceFactory(title=HOSTILE[n % 5], author=""))
    entries = [
        entry
        for section in shared._walk(guide_contents(guide=guide, filters={}).sections)
        for entry in section.shown_entries
    ]
    _entries_overlay(guide, stamp=True)
    shapes = {stencils._entry_row_shape(entry=entry) for entry in entries}
    assert len(renders) == len(shapes) == len(entries) - 9


def test_outside_shared_html_a_stamped_row_is_the_template_included():
    """{% stamp_row %} in a page rendered for one learner is an include: nothing stamped."""
    from django.template import Context, Template

    entry = EntryFactory(resource=ResourceFactory(title=HOSTILE[0]))
    entry.resource.extra_links = []
    template = Template(
        '{% load progress_tags %}{% stamp_row "catalog/includes/entry_row.html" entry=entry %}'
    )
    included = Template('{% include "catalog/includes/entry_row.html" %}')
    context = {"entry": entry, "statuses": {}}
    assert template.render(Context(context)) == included.render(Context(context))
    assert "&lt;script&gt;" in template.render(Context(context))


def test_a_row_hole_taking_anything_but_the_rows_own_values_is_refused():
    recorder = stencils._Recorder({}, {})
    with pytest.raises(ValueError, match="objects, fields or constants"):
        recorder.tick(resource=object(), slot="a real slot", oob=False)
