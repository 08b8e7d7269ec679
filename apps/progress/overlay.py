"""Shared HTML with per-learner holes.

The catalog part of a page (a guide's sections and rows, a topic's or a path's resources) is
the same for every learner but for the ticks and the bars. `overlay_render` renders it once with
a *hole* where each tick and bar goes; `Overlay.fill` then serves a learner by filling the holes
— string joins instead of rendering hundreds of rows. The `{% tick %}` and `{% progress_bar %}`
tags make the holes, so a page's markup has one source whether it is rendered whole or overlaid.
"""

import re
from dataclasses import dataclass

from django.utils.safestring import SafeString, mark_safe

from apps.core.html import render_shared, squeeze
from apps.progress.models import Status
from apps.progress.widgets import BarShapes, tick_html

HOLES = "overlay_holes"  # the context key under which a template being overlaid collects holes
_MARK = re.compile("\x00(\\d+)\x00")  # NUL never occurs in rendered content (see apps.core.html)
TICK_STATUSES = ("", Status.IN_PROGRESS, Status.DONE, Status.SKIPPED)  # "" is not started


@dataclass(frozen=True)
class TickHole:
    resource_id: int
    signed_in: dict  # status ("" for not started) -> html
    anonymous: str


@dataclass(frozen=True)
class BarHole:
    dom_id: str
    shapes: BarShapes  # filled with the learner's tally for `dom_id`

    def fill(self, tallies):
        tally = tallies.get(self.dom_id)
        return "" if tally is None else self.shapes.fill(tally)


class Overlay:
    """Shared HTML with holes. Filling copies the list of its pieces and puts each hole's HTML at
    its place: a page's hundreds of ticks are one dict lookup each."""

    def __init__(self, parts):
        parts = tuple(parts)  # str | TickHole | BarHole
        self._pieces = [part if type(part) is str else "" for part in parts]
        self._ticks = tuple((i, part.resource_id, part.signed_in) for i, part in enumerate(parts) if type(part) is TickHole)
        self._bars = tuple((i, part) for i, part in enumerate(parts) if type(part) is BarHole)
        visitor = self._pieces.copy()  # visitors see each tick's sign-in button and no bars
        for index, part in enumerate(parts):
            if type(part) is TickHole:
                visitor[index] = part.anonymous
        self._anonymous = mark_safe("".join(visitor))

    def fill(self, *, statuses: dict, tallies: dict, signed_in: bool) -> SafeString:
        """The HTML for one learner: `statuses` {resource_id: status}, `tallies` {bar dom id: Tally}."""
        if not signed_in:
            return self._anonymous
        pieces, status_of = self._pieces.copy(), statuses.get
        for index, resource_id, html in self._ticks:
            pieces[index] = html[status_of(resource_id, "")]
        for index, hole in self._bars:
            pieces[index] = hole.fill(tallies)
        return mark_safe("".join(pieces))


def overlay_fill(request, overlay: Overlay, *, statuses: dict, tallies: dict | None = None) -> SafeString:
    """`overlay` as the learner making `request` sees it."""
    return overlay.fill(statuses=statuses, tallies=tallies or {}, signed_in=request.user.is_authenticated)


def overlay_render(template_name: str, context: dict) -> Overlay:
    """Render `template_name` with holes for its ticks and bars. No request and no context
    processors: nothing of the learner who happens to trigger the render can leak into it."""
    holes = []
    html = squeeze(render_shared(template_name, {**context, HOLES: holes}))
    pieces = _MARK.split(html)
    parts = [holes[int(piece)] if index % 2 else piece for index, piece in enumerate(pieces)]
    return Overlay(part for part in parts if part != "")


def tick_hole(holes: list, *, resource, slot: str, oob: bool) -> SafeString:
    """Register a tick with a checkbox per status; returns its marker."""

    def render(status, signed_in):
        return tick_html(resource=resource, slot=slot, status=status, signed_in=signed_in, oob=oob)

    signed_in = {status: render(status, True) for status in TICK_STATUSES}
    signed_in[Status.NOT_STARTED] = signed_in[""]
    holes.append(TickHole(resource_id=resource.id, signed_in=signed_in, anonymous=render("", False)))
    return mark_safe(f"\x00{len(holes) - 1}\x00")


def bar_hole(holes: list, bar, *, compact: bool) -> SafeString:
    """Register a bar, filled with the learner's tally for its dom id; returns its marker."""
    holes.append(BarHole(dom_id=bar.dom_id, shapes=BarShapes(bar.dom_id, bar.label, compact=compact)))
    return mark_safe(f"\x00{len(holes) - 1}\x00")
