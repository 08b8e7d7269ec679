"""Stamping: HTML a shared part repeats for hundreds of rows, rendered from its template once per
build with placeholder fields, and every row made from it by joining the row's escaped fields in.

Rendering a guide's 225 rows through the template engine (six includes a row, each tick in five
variants) was most of a cold guide build; stamping gives the same bytes without a render per row.

The contract, enforced by tests/learning/test_stencils.py (every tick variant, and rows of every
shape with hostile titles, descriptions, notes, labels and URLs, against the real templates):
- A stencil's template is rendered with stand-ins whose text attributes are placeholders
  (`\\x02name\\x03`, a placeholder uuid for a uuid); the HTML is split at them, and a stamp puts each
  field's value, escaped as the template's autoescaping would, in its place. So a placeholder
  must reach the HTML unchanged by the template: a field shown through a filter that changes it
  (`|hostname`, `|truncatechars`) is computed in Python by that filter (`_entry_row_values`).
- What a template decides with `{% if %}` on a value, or shows through a filter a placeholder
  cannot pass (`|floatformat`), is the row's shape: a stencil is rendered per shape (the
  seeded guides have 1 to 23), with the row's real values in those attributes.
- A stamped row template sees only the variables given to `{% stamp_row %}`, not the page's.
- The holes a row registers (`{% tick %}`, `{% row_start %}`, `{% note_mark %}`: methods of
  the overlay's holes, apps.learning.shared) are recorded while its stencil renders and made
  again for each row with its own objects; a hole may take the row's objects, uuid fields and
  constants.

Measured on the seeded catalog's largest guide (225 entries), its cold build (catalog read, rows,
heading, table of contents: shared._guide_parts_build), `time.process_time`, median of 11 runs,
the code before and after side by side on a 2-core machine shared with other work: at load
10-12, 98-152 ms before and 49-64 ms after; at load 4-5, 82-132 ms before and 44-75 ms after
(SQLite and PostgreSQL alike; the extra links read as a list, selectors.guide_contents, is about a
fifth of the gain). Stamping a row costs about as much as its tick's five variants; the 13
shapes of that guide are 13 renders.
"""

import html
import re
import uuid
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.template import defaultfilters
from django.template.loader import get_template
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from apps.catalog.models import Resource
from apps.catalog.templatetags.catalog_tags import hostname
from apps.learning.widgets import tick_html


def _escape(text) -> str:
    """django.utils.html.conditional_escape without its lazy-string wrapper, which cost a third
    of stamping a row: safe text as it is, any other escaped by html.escape (as Django does)."""
    return text.__html__() if hasattr(text, "__html__") else html.escape(str(text))


# --- Ticks ---------------------------------------------------------------------------------------


class _StencilResource:
    """Stands in for a resource while a tick's stencil is rendered: placeholders for the fields
    the tick shows, and nothing else (a field the template starts to show renders empty here,
    and the stamped ticks stop matching tick_html in tests/learning/test_stencils.py)."""

    uuid = uuid.UUID("00000000-57e0-4c11-8000-0000000000f1")
    title = "\x02title\x03"  # escape() leaves it alone; no real title holds control characters

    def get_absolute_url(self):
        return Resource.get_absolute_url(self)


_STENCIL_SLOT = "\x02slot\x03"
_STENCIL_FIELDS = re.compile(
    f"({re.escape(str(_StencilResource.uuid))}|\x02title\x03|\x02slot\x03)"
)


class TickStencil:
    """One tick variant (status, visitor or learner, out of band or not) rendered once through
    the tick template with placeholder fields; `stamp` makes any resource's tick from it by joining
    its escaped fields in: the same bytes as tick_html, without a template render per row (a
    225-row guide rendered five variants per row: 80 % of its cold build)."""

    def __init__(self, *, status, signed_in, oob=False, menu=True, menu_open=False):
        html = tick_html(
            resource=_StencilResource(),
            slot=_STENCIL_SLOT,
            status=status,
            signed_in=signed_in,
            oob=oob,
            menu=menu,
            menu_open=menu_open,
        )
        pieces = _STENCIL_FIELDS.split(html)  # literal, field, literal, field, …, literal
        self._literals = pieces[0::2]
        self._fields = [
            "uuid" if piece == str(_StencilResource.uuid) else piece.strip("\x02\x03")
            for piece in pieces[1::2]
        ]

    @staticmethod
    def fields(*, resource, slot: str) -> dict[str, str]:
        """A row's values as its ticks show them: worked out once for every variant stamped."""
        return {
            "uuid": str(resource.uuid),
            "title": _escape(resource.title),
            "slot": _escape(slot),
        }

    def stamp(self, fields: dict[str, str]) -> SafeString:
        """This variant's tick for the row whose `fields` (TickStencil.fields) are given."""
        literals = self._literals
        out = [literals[0]]
        for index, field in enumerate(self._fields, start=1):
            out.append(fields[field])
            out.append(literals[index])
        return SafeString("".join(out))


# --- Rows ----------------------------------------------------------------------------------------


def _field(name: str) -> str:
    return f"\x02{name}\x03"


def _uuid_field(number: int) -> uuid.UUID:
    return uuid.UUID(f"00000000-57e0-4c11-8000-{number:012x}")


class _StandIn:
    """A model instance as a stencil sees it: only the attributes given."""

    def __init__(self, **attributes):
        self.__dict__.update(attributes)


class _StandInResource(_StandIn):
    def get_absolute_url(self):
        return Resource.get_absolute_url(self)

    def get_kind_display(self):
        return self.kind_display


@dataclass(frozen=True)
class _Ref:
    kind: str  # "object" (a stand-in: the row's own object of that name) or "field"
    name: str


class _Recorder(list):
    """The holes a stencil's row registers, recorded as calls to make again per row."""

    rows = None  # a row inside a stamped row is rendered, not stamped

    def __init__(self, objects: dict[int, str], fields: dict[str, str]):
        super().__init__()
        self._objects, self._fields = objects, fields  # id(stand-in) -> name, placeholder -> name

    def _ref(self, value):
        if id(value) in self._objects:
            return _Ref("object", self._objects[id(value)])
        if isinstance(value, str) and value in self._fields:
            return _Ref("field", self._fields[value])
        if value is None or isinstance(value, bool):
            return value
        raise ValueError(f"a stamped row's hole takes its objects, fields or constants: {value!r}")

    def _record(self, method: str, **arguments) -> SafeString:
        self.append((method, {name: self._ref(value) for name, value in arguments.items()}))
        return SafeString(f"\x00{len(self) - 1}\x00")

    def tick(self, *, resource, slot, oob):
        return self._record("tick", resource=resource, slot=slot, oob=oob)

    def row_start(self, resource):
        return self._record("row_start", resource=resource)

    def row_end(self):
        return self._record("row_end")

    def note(self, resource):
        return self._record("note", resource=resource)


_HOLE = "\x00"


class RowStencil:
    """One shape of a row template, rendered once with stand-ins (`context`: name -> stand-in,
    `fields`: placeholder -> field name); `stamp` makes a real row from it."""

    def __init__(
        self, template_name: str, context: dict, fields: dict[str, str], objects: dict, holes_key
    ):
        recorder = _Recorder(objects, fields)
        html = get_template(template_name).render({**context, holes_key: recorder})
        by_length = sorted(fields, key=len, reverse=True)  # a URL holding its host's placeholder
        pattern = re.compile(
            "(" + "|".join([*map(re.escape, by_length), f"{_HOLE}[0-9]+{_HOLE}"]) + ")"
        )
        pieces = pattern.split(html)
        self._literals = pieces[0::2]
        self._slots: list[tuple[str, Any]] = [
            ("hole", recorder[int(piece.strip(_HOLE))])
            if piece.startswith(_HOLE)
            else ("field", fields[piece])
            for piece in pieces[1::2]
        ]

    def stamp(self, holes, objects: dict, values: dict[str, str]) -> SafeString:
        """The row of `objects` (name -> the row's object) whose escaped `values` (field name ->
        text) are given, its holes registered in `holes` (the overlay's)."""
        literals = self._literals
        out = [literals[0]]
        for index, (kind, slot) in enumerate(self._slots, start=1):
            if kind == "field":
                out.append(values[slot])
            else:
                method, arguments = slot
                out.append(
                    getattr(holes, method)(
                        **{
                            name: (
                                (objects if value.kind == "object" else values)[value.name]
                                if isinstance(value, _Ref)
                                else value
                            )
                            for name, value in arguments.items()
                        }
                    )
                )
            out.append(literals[index])
        return SafeString("".join(out))


class RowStencils:
    """The row stencils of one overlay build, by template and shape: an edited template shows
    at the next build. `holes_key`: the context key the row's tags find their holes under."""

    def __init__(self, holes_key: str):
        self._stencils: dict[tuple, RowStencil] = {}
        self._holes_key = holes_key

    def stamp(self, holes, template_name: str, row: dict) -> SafeString:
        spec = ROW_SPECS[template_name]
        shape = spec.shape(**row)
        stencil = self._stencils.get((template_name, shape))
        if stencil is None:
            context, fields, objects = spec.stand_ins(shape)
            stencil = self._stencils[(template_name, shape)] = RowStencil(
                template_name, context, fields, objects, self._holes_key
            )
        return stencil.stamp(holes, spec.objects(**row), spec.values(**row))


def stampable(template_name: str) -> bool:
    return template_name in ROW_SPECS


# An entry row: catalog/includes/entry_row.html and its includes.


def _entry_row_shape(*, entry):
    resource = entry.resource
    return (
        bool(resource.url),
        bool(resource.author),
        bool(resource.year),
        bool(resource.description),
        bool(entry.note and entry.note != resource.description),
        entry.tier,
        entry.priority,
        entry.rating,
        entry.marked_done,
        len(resource.extra_links),
    )


_RESOURCE_UUID, _ENTRY_UUID = _uuid_field(1), _uuid_field(2)
_HOST = _field("host")
_URL = f"https://{_HOST}/{_field('url')}"  # |hostname finds _HOST in it


def _entry_row_stand_ins(shape):
    (
        has_url,
        has_author,
        has_year,
        has_description,
        has_note,
        tier,
        priority,
        rating,
        marked_done,
        links,
    ) = shape
    resource = _StandInResource(
        id=0,
        uuid=_RESOURCE_UUID,
        title=_field("title"),
        url=_URL if has_url else "",
        kind=_field("kind"),
        kind_display=_field("kind_display"),
        author=_field("author") if has_author else "",
        year=_field("year") if has_year else None,
        description=_field("description") if has_description else "",
        extra_links=[
            _StandIn(url=_field(f"link{n}_url"), label=_field(f"link{n}_text"))
            for n in range(links)
        ],
    )
    entry = _StandIn(
        uuid=_ENTRY_UUID,
        resource=resource,
        tier=tier,
        priority=priority,
        rating=rating,
        marked_done=marked_done,
        note=_field("note") if has_note else "",
    )
    fields = {
        str(_RESOURCE_UUID): "resource_uuid",
        str(_ENTRY_UUID): "entry_uuid",
        _URL: "url",
        **{
            _field(name): name
            for name in (
                "host",
                "title",
                "kind",
                "kind_display",
                "author",
                "year",
                "description",
                "note",
            )
        },
        **{
            _field(f"link{n}_{part}"): f"link{n}_{part}"
            for n in range(links)
            for part in ("url", "text")
        },
    }
    return {"entry": entry}, fields, {id(entry): "entry", id(resource): "resource"}


@lru_cache(maxsize=64)
def _kind_display(kind: str, language: str) -> str:
    """A kind's label in `language` (the active one), escaped: get_kind_display's lookup cost
    more than the rest of a row."""
    return _escape(Resource(kind=kind).get_kind_display())


def _entry_row_values(*, entry) -> dict[str, str]:
    resource, escape = entry.resource, _escape
    values = {
        "resource_uuid": str(resource.uuid),
        "entry_uuid": str(entry.uuid),
        "title": escape(resource.title),
        "url": escape(resource.url),
        "host": escape(hostname(resource.url)) if resource.url else "",
        "kind": escape(resource.kind),
        "kind_display": _kind_display(resource.kind, get_language()),
        "author": escape(resource.author),
        "year": str(resource.year) if resource.year else "",
        "description": escape(resource.description),
        "note": escape(entry.note),
    }
    for n, link in enumerate(resource.extra_links):
        values[f"link{n}_url"] = escape(link.url)
        values[f"link{n}_text"] = escape(defaultfilters.truncatechars(link.label or link.url, 60))
    return values


@dataclass(frozen=True)
class _RowSpec:
    shape: Any  # (**row) -> hashable: everything the template decides on
    stand_ins: Any  # (shape) -> (context, {placeholder: field name}, {id(stand-in): name})
    objects: Any  # (**row) -> {name: the row's object}, the stand-ins' real counterparts
    values: Any  # (**row) -> {field name: escaped text}


ROW_SPECS = {
    "catalog/includes/entry_row.html": _RowSpec(
        shape=_entry_row_shape,
        stand_ins=_entry_row_stand_ins,
        objects=lambda *, entry: {"entry": entry, "resource": entry.resource},
        values=_entry_row_values,
    ),
}
