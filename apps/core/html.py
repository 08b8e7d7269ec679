"""HTML that encodes fast: pages are kept ASCII.

Python stores a string with one character beyond ASCII (a "—" in a title, a "↗" in a row) at two
or four bytes per character, and encoding such a string to UTF-8 converts every character: 0.28 ms
for a guide page of 290 KB, against 0.01 ms when it is all ASCII. So templates write characters
beyond ASCII as entities (&mdash;), and HTML rendered once and shared (apps.core.content) writes
the catalog's own text as character references. The browser shows the same text either way.
What a page renders per request (a guide's title in its heading, a path's next up) is small and
may still be beyond ASCII: such a page encodes at the slow rate, and is no less correct.
"""

import re
from functools import lru_cache

from django.template import Context
from django.template.loader import get_template, render_to_string
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe


def as_ascii(html: str) -> SafeString:
    """`html` (already safe, and a str: never lazy) with every character beyond ASCII as a
    character reference. Called for every tick and bar, so SafeString rather than mark_safe, which
    first checks its argument for laziness."""
    if html.isascii():  # O(1) for CPython's compact strings
        return SafeString(html)
    return SafeString(html.encode("ascii", "xmlcharrefreplace").decode("ascii"))


def render_shared(template_name: str, context: dict) -> SafeString:
    """`render_to_string` without a request, as ASCII: for HTML rendered once and shared."""
    return as_ascii(render_to_string(template_name, context))


# --- Shapes ------------------------------------------------------------------------------------
# A template (or partial) rendered once with a placeholder where each per-request value goes,
# then split at the placeholders: filling it is one join. The templates stay the one source of
# the markup; shapes are cached per loaded template, so an edited template (the development
# server reloads them) brings new shapes with it. NUL cannot occur in rendered content: Django's
# form fields refuse it and PostgreSQL cannot store it.


def slot(name: str) -> str:
    """The placeholder of the value `name` in a template rendered as a shape."""
    return f"\x00{name}\x00"


def engine_template(name: str):
    """The engine's own Template, which its cached loader keeps (and renews when the file changes)."""
    return get_template(name).template


_BLANKS = re.compile(r"[ \t]*\n\s*")


def squeeze(html: str) -> str:
    """Each whitespace run with a line break as one newline: the same rendering outside <pre>
    and <textarea>, without the indentation of nested includes (a third of a big page's bytes)."""
    return _BLANKS.sub("\n", html)


def shape_split(html: str) -> tuple[str, ...]:
    """A rendered shape, squeezed and split at its placeholders: (text, name, text, name, …, text).
    A value can never be mistaken for a placeholder."""
    return tuple(squeeze(html).split("\x00"))


def shape_fill(shape: tuple[str, ...], values: dict) -> SafeString:
    """`shape` with each placeholder replaced by its (already escaped) value, as ASCII."""
    parts = list(shape)
    parts[1::2] = [values[name] for name in parts[1::2]]
    return as_ascii("".join(parts))


def slots_html(template_name: str, **values) -> SafeString:
    """`template_name` (a template or partial whose only variables are plain `{{ slot }}`s) with
    `values` in its slots, each escaped unless safe: one join of a shape rendered once."""
    shape = _slots_shape(engine_template(template_name), tuple(values))
    return shape_fill(shape, {name: conditional_escape(value) for name, value in values.items()})


@lru_cache(maxsize=64)
def _slots_shape(template, names: tuple[str, ...]) -> tuple[str, ...]:
    return shape_split(template.render(Context({name: mark_safe(slot(name)) for name in names})))
