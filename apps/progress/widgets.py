"""The tick and the progress bar, rendered fast from their own templates.

A page may hold hundreds of ticks and dozens of bars. Each template is rendered once per look
(status, signed in or not, compact, out-of-band…) with placeholders where the values go, and
every widget after that is one join of that *shape*'s pieces with its values. The templates stay the
one source of the markup; shapes are cached per loaded template, so an edited template (the
development server reloads them) brings new shapes with it.
"""

import re
from functools import lru_cache
from types import SimpleNamespace

from django.contrib.auth.models import AnonymousUser
from django.template import Context
from django.template.loader import get_template
from django.utils.html import conditional_escape, escape
from django.utils.safestring import SafeString, mark_safe

from apps.core.html import as_ascii
from apps.progress.models import Status

TICK_TEMPLATE = "progress/includes/tick.html"
BAR_TEMPLATE = "progress/includes/bar.html"
# NUL cannot occur in rendered content: Django's form fields refuse it and PostgreSQL cannot store it.
_OPEN_UUID = "00000000-0000-0000-0000-000000000000"  # `{% url %}` needs a real UUID


def _open(name: str) -> str:
    return f"\x00{name}\x00"


def _template(name: str):
    """The engine's own Template, which its cached loader keeps (and renews when the file changes)."""
    return get_template(name).template


_BLANKS = re.compile(r"[ \t]*\n\s*")


@lru_cache(maxsize=64)
def _tick_shape(template, status: str, signed_in: bool, oob: bool) -> tuple[str, ...]:
    return _split(template.render(
        Context({
            "resource": SimpleNamespace(uuid=_OPEN_UUID, title=_open("title")),
            "status": status,
            "status_label": Status(status).label if status else "",
            "user": SimpleNamespace(is_authenticated=True) if signed_in else AnonymousUser(),
            "slot": _open("slot"),
            "oob": oob,
        })
    ).replace(_OPEN_UUID, _open("uuid")))


def tick_html(*, resource, slot, status, signed_in, oob=False) -> SafeString:
    """The checkbox of `resource` in `status` ("" or a Status value); see progress/includes/tick.html."""
    return _filled(
        _tick_shape(_template(TICK_TEMPLATE), status or "", bool(signed_in), bool(oob)),
        {"uuid": str(resource.uuid), "title": escape(resource.title), "slot": escape(slot)},
    )


def slots_html(template_name: str, **values) -> SafeString:
    """`template_name` (a template or partial whose only variables are plain `{{ slot }}`s) with
    `values` in its slots, each escaped unless safe: one join of a shape rendered once."""
    shape = _slots_shape(_template(template_name), tuple(values))
    return _filled(shape, {name: conditional_escape(value) for name, value in values.items()})


@lru_cache(maxsize=32)
def _slots_shape(template, names: tuple[str, ...]) -> tuple[str, ...]:
    return _split(template.render(Context({name: mark_safe(_open(name)) for name in names})))


class _OpenTally:
    def __init__(self, complete: bool):
        self.complete = complete
        self.done, self.countable, self.percent, self.progress_max = (
            _open(name) for name in ("done", "countable", "percent", "progress_max")
        )


@lru_cache(maxsize=16)
def _bar_shape(template, complete: bool, compact: bool, oob: bool) -> tuple[str, ...]:
    bar = SimpleNamespace(dom_id=_open("dom_id"), label=_open("label"), tally=_OpenTally(complete))
    return _split(template.render(Context({"bar": bar, "compact": compact, "oob": oob})))


def _split(html: str) -> tuple[str, ...]:
    """A rendered shape, squeezed and split at its placeholders: (text, name, text, name, …, text).
    Filling it is one join, and a value can never be mistaken for a placeholder."""
    return tuple(squeeze(html).split("\x00"))


def _filled(shape: tuple[str, ...], values: dict) -> SafeString:
    parts = list(shape)
    parts[1::2] = [values[name] for name in parts[1::2]]
    return as_ascii("".join(parts))


def squeeze(html: str) -> str:
    """Each whitespace run with a line break as one newline: the same rendering outside <pre>
    and <textarea>, without the indentation of nested includes (a third of a big page's bytes)."""
    return _BLANKS.sub("\n", html)


def bar_html(bar, *, compact=False, oob=False) -> SafeString:
    """A progress bar (apps.progress.bars.Bar); see progress/includes/bar.html."""
    shape = _bar_shape(_template(BAR_TEMPLATE), bool(bar.tally.complete), bool(compact), bool(oob))
    numbers = dict(zip(_TALLY_FIELDS, map(str, _tally_numbers(bar.tally)), strict=True))
    return _filled(shape, {"dom_id": escape(bar.dom_id), "label": escape(bar.label), **numbers})


class BarShapes:
    """One bar's shapes (complete or not) with its id and label already in, as format strings:
    filling one with a learner's tally is one `str.format` of four numbers, in place. Overlays
    keep one per bar hole."""

    def __init__(self, dom_id: str, label: str, *, compact=False):
        template, known = _template(BAR_TEMPLATE), {"dom_id": escape(dom_id), "label": as_ascii(escape(label))}
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
