"""The tick and the progress bar, rendered fast from their own templates as shapes
(apps.core.html): each template is rendered once per look (status, signed in or not, compact,
out-of-band…) with placeholders where the values go, and every widget after that is one join of
that shape's pieces with its values. A page may hold hundreds of ticks and dozens of bars.
"""

from functools import lru_cache
from types import SimpleNamespace

from django.contrib.auth.models import AnonymousUser
from django.template import Context
from django.utils.html import escape
from django.utils.safestring import SafeString

from apps.core.html import as_ascii, engine_template, shape_fill, shape_split, slot
from apps.progress.models import Status

TICK_TEMPLATE = "progress/includes/tick.html"
BAR_TEMPLATE = "progress/includes/bar.html"
_OPEN_UUID = "00000000-0000-0000-0000-000000000000"  # `{% url %}` needs a real UUID


@lru_cache(maxsize=64)
def _tick_shape(template, status: str, signed_in: bool, oob: bool) -> tuple[str, ...]:
    return shape_split(template.render(
        Context({
            "resource": SimpleNamespace(uuid=_OPEN_UUID, title=slot("title")),
            "status": status,
            "status_label": Status(status).label if status else "",
            "user": SimpleNamespace(is_authenticated=True) if signed_in else AnonymousUser(),
            "slot": slot("slot"),
            "oob": oob,
        })
    ).replace(_OPEN_UUID, slot("uuid")))


def tick_html(*, resource, slot, status, signed_in, oob=False) -> SafeString:
    """The checkbox of `resource` in `status` ("" or a Status value); see progress/includes/tick.html."""
    return shape_fill(
        _tick_shape(engine_template(TICK_TEMPLATE), status or "", bool(signed_in), bool(oob)),
        {"uuid": str(resource.uuid), "title": escape(resource.title), "slot": escape(slot)},
    )


class _OpenTally:
    def __init__(self, complete: bool):
        self.complete = complete
        self.done, self.countable, self.percent, self.progress_max = (
            slot(name) for name in ("done", "countable", "percent", "progress_max")
        )


@lru_cache(maxsize=16)
def _bar_shape(template, complete: bool, compact: bool, oob: bool) -> tuple[str, ...]:
    bar = SimpleNamespace(dom_id=slot("dom_id"), label=slot("label"), tally=_OpenTally(complete))
    return shape_split(template.render(Context({"bar": bar, "compact": compact, "oob": oob})))


def bar_html(bar, *, compact=False, oob=False) -> SafeString:
    """A progress bar (apps.progress.bars.Bar); see progress/includes/bar.html."""
    shape = _bar_shape(engine_template(BAR_TEMPLATE), bool(bar.tally.complete), bool(compact), bool(oob))
    numbers = dict(zip(_TALLY_FIELDS, map(str, _tally_numbers(bar.tally)), strict=True))
    return shape_fill(shape, {"dom_id": escape(bar.dom_id), "label": escape(bar.label), **numbers})


class BarShapes:
    """One bar's shapes (complete or not) with its id and label already in, as format strings:
    filling one with a learner's tally is one `str.format` of four numbers, in place. Overlays
    keep one per bar hole."""

    def __init__(self, dom_id: str, label: str, *, compact=False):
        template, known = engine_template(BAR_TEMPLATE), {"dom_id": escape(dom_id), "label": as_ascii(escape(label))}
        self._formats = {
            complete: _format_string(_partly_filled(_bar_shape(template, complete, bool(compact), False), known))
            for complete in (False, True)
        }

    def fill(self, tally) -> SafeString:
        return SafeString(self._formats[tally.complete].format(*_tally_numbers(tally)))  # ASCII: label made so, numbers


def _format_string(shape: tuple[str, ...]) -> str:
    """A (text, name, text, …) shape of the tally's fields as a format string that takes their
    numbers in `_TALLY_FIELDS` order."""
    return "".join(
        "{" + str(_TALLY_FIELDS.index(part)) + "}" if index % 2 else part.replace("{", "{{").replace("}", "}}")
        for index, part in enumerate(shape)
    )


_TALLY_FIELDS = ("done", "countable", "percent", "progress_max")  # what bar.html shows of a tally


def _tally_numbers(tally) -> tuple[int, ...]:
    return tally.done, tally.countable, tally.percent, tally.progress_max


def _partly_filled(shape: tuple[str, ...], values: dict) -> tuple[str, ...]:
    """`shape` with `values` put in: still a (text, name, text, …) shape, of the names left open."""
    parts = [shape[0]]
    for name, text in zip(shape[1::2], shape[2::2], strict=True):
        if name in values:
            parts[-1] += values[name] + text
        else:
            parts += [name, text]
    return tuple(parts)
