"""`{% tick %}` and `{% progress_bar %}`: the checkbox and the bar, the same markup everywhere."""

from datetime import timedelta
from functools import lru_cache

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe

from apps.core.content import memoized
from apps.core.html import as_ascii
from apps.progress.overlay import HOLES, bar_hole, tick_hole
from apps.progress.widgets import bar_html, tick_html

register = template.Library()


@register.simple_tag(takes_context=True)
def tick(context, resource, slot, status=None):
    """A done/not-done checkbox for `resource`; it submits the page's {% tick_form %}. `status`
    defaults to the page's `statuses` dict. In an overlay (apps.progress.overlay) it is a hole,
    filled with the learner's status."""
    oob = context.get("oob", False)
    holes = context.get(HOLES)
    if holes is not None:
        return tick_hole(holes, resource=resource, slot=str(slot), oob=oob)
    if status is None:
        status = (context.get("statuses") or {}).get(resource.id, "")
    user = context.get("user")
    signed_in = user is not None and user.is_authenticated
    return tick_html(resource=resource, slot=str(slot), status=status, signed_in=signed_in, oob=oob)


@register.inclusion_tag("progress/includes/tick_form.html", takes_context=True)
def tick_form(context, scope=""):
    """The one form a page's ticks submit: CSRF token, the page's `scope` and where a tick without
    JavaScript returns to (`tick_next`, else this page)."""
    request = context.get("request")
    return {
        "scope": scope,
        "next": context.get("tick_next") or (request.get_full_path() if request else ""),
        "csrf_token": context.get("csrf_token"),
    }


@register.simple_tag(takes_context=True)
def progress_bar(context, bar, oob=False, compact=False):
    """Renders nothing when `bar` is None (anonymous visitors, sections with no entries).
    In an overlay it is a hole, filled with the learner's tally."""
    if not bar:  # None, or "" from a variable that did not resolve
        return ""
    holes, compact = context.get(HOLES), compact or bar.compact
    return bar_hole(holes, bar, compact=compact) if holes is not None else bar_html(bar, compact=compact, oob=oob)


@register.filter
def section_progress_bar(section, section_tallies):
    """The bar of a guide section, from progress_context's `section_tallies` (None if absent)."""
    from apps.progress.bars import section_bar

    tally = (section_tallies or {}).get(section.id)
    return section_bar(section, tally) if tally and tally.total else None


_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


@register.simple_tag
def heatmap_cells(days):
    """The cells of a GitHub-style heatmap, one column per week (Sunday on top), level 0–4.
    Built as one string: 371 cells through the template engine cost more than the page's queries.
    Each cell's fixed markup (place, date) is made once per day the heatmap starts on."""
    if not days:
        return ""
    peak = max(max(count for _, count in days), 1)
    frame = _heatmap_frame(days[0][0], len(days))
    return mark_safe(
        "".join(
            f'{before}{0 if count == 0 else min(4, 1 + (3 * count) // peak)}"><title>{count}{after}'
            for (before, after), (_, count) in zip(frame, days, strict=True)
        )
    )


@lru_cache(maxsize=4)
def _heatmap_frame(start, length: int) -> tuple[tuple[str, str], ...]:
    """Per cell, the markup before its level and after its count."""
    frame = []
    for index in range(length):
        day = start + timedelta(days=index)
        frame.append((
            f'<rect x="{(index // 7) * 14}" y="{(index % 7) * 14}" width="11" height="11" rx="2" class="hm hm-',
            f" on {_WEEKDAYS[day.weekday()]} {day.day} {_MONTHS[day.month - 1]} {day.year}</title></rect>",
        ))
    return tuple(frame)


@register.filter
def heatmap_width(days):
    return ((len(days) + 6) // 7) * 14


@register.filter
def path_progress_bar(path_view):
    from apps.progress.bars import path_bar

    return path_bar(path_view)


@register.filter
def step_progress_bar(step_view):
    from apps.progress.bars import step_bar

    return step_bar(step_view)


@register.filter
def resource_link(resource):
    """`<a href="…">title</a>` of a published resource, made once per content version: the
    dashboard's rows are mostly these links, and a link through the template engine costs more
    than the rest of its row."""
    links = memoized("resource-links", dict)  # filled as rows ask; one link's HTML is a pure value
    html = links.get(resource.id)
    if html is None:
        html = links[resource.id] = as_ascii(format_html('<a href="{}">{}</a>', resource.get_absolute_url(), resource.title))
    return html


@register.filter(name="ascii", is_safe=True)
def ascii_text(text):
    """Text beyond ASCII as character references (naturaltime's no-break spaces): see apps.core.html."""
    return as_ascii(conditional_escape(text))
