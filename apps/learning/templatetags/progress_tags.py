"""`{% tick %}` and `{% progress_bar %}`: the checkbox and the bar, the same markup everywhere."""

from django import template

from apps.learning.scope import TickScope
from apps.learning.shared import HOLES, bar_hole
from apps.learning.widgets import (
    HEATMAP_LEFT,
    HEATMAP_TOP,
    STATUS_MENU_CHOICES,
    bar_html,
    heatmap_cells,
    heatmap_labels,
    note_mark_html,
    path_bar,
    section_bar,
    step_bar,
    tick_html,
)

register = template.Library()


@register.simple_tag(takes_context=True)
def tick(context, resource, slot, status=None, menu=None):
    """A done/not-done checkbox for `resource`; it submits the page's {% tick_form %}. `status`
    defaults to the page's `statuses` dict. In shared HTML (apps.learning.shared) it is a hole,
    filled with the learner's status. A learner's tick has a status menu unless `menu` (else the
    context's `status_menu`) is False: the resource page has its own status buttons."""
    oob = context.get("oob", False)
    holes = context.get(HOLES)
    if holes is not None:
        return holes.tick(resource=resource, slot=str(slot), oob=oob)
    if status is None:
        status = (context.get("statuses") or {}).get(resource.id, "")
    user = context.get("user")
    signed_in = user is not None and user.is_authenticated
    menu_open = bool(context.get("menu_open")) and not oob
    return tick_html(
        resource=resource,
        slot=str(slot),
        status=status,
        signed_in=signed_in,
        oob=oob,
        menu=context.get("status_menu", True) if menu is None else menu,
        menu_open=menu_open,
    )


@register.simple_tag(takes_context=True)
def row_start(context, resource):
    """Where a row of `resource` starts: in shared HTML a mark, so a status filter can leave the
    row out per learner (apps.learning.shared); elsewhere nothing."""
    holes = context.get(HOLES)
    return holes.row_start(resource) if holes is not None else ""


@register.simple_tag(takes_context=True)
def row_end(context):
    holes = context.get(HOLES)
    return holes.row_end() if holes is not None else ""


@register.simple_tag(takes_context=True)
def note_mark(context, resource):
    """A marker on a row whose resource the learner has a private note on. In shared HTML a hole;
    elsewhere from the page's `statuses` (progress.selectors.statuses_for)."""
    holes = context.get(HOLES)
    if holes is not None:
        return holes.note(resource)
    noted = getattr(context.get("statuses"), "noted", ())
    return note_mark_html(resource) if resource.id in noted else ""


@register.simple_tag(takes_context=True)
def stamp_row(context, template_name, **row):
    """`{% include template_name with row… %}`, except in shared HTML (apps.learning.shared),
    where the row is stamped from a stencil of its template (apps.learning.stencils): the same
    bytes, one template render per shape of row instead of one per row. The row sees only `row`."""
    rows = getattr(context.get(HOLES), "rows", None)
    if rows is not None:
        return rows.stamp(context[HOLES], template_name, row)
    template = context.template.engine.get_template(template_name)
    with context.push(**row):
        return template.render(context)


@register.inclusion_tag("progress/includes/tick_form.html", takes_context=True)
def tick_form(context, scope=""):
    """The one form a page's ticks submit: CSRF token, the page's `scope` and where a tick without
    JavaScript returns to (`tick_next`, else this page); for a learner, the page's one status menu."""
    request = context.get("request")
    user = getattr(request, "user", None)
    return {
        "signed_in": bool(user and user.is_authenticated),
        "menu_choices": STATUS_MENU_CHOICES,
        "scope": scope,
        "next": context.get("tick_next") or (request.get_full_path() if request else ""),
        "csrf_token": context.get("csrf_token"),
    }


@register.filter
def own_path_tick_scope(path):
    """The tick scope of an own path's page (its owner's or its published one): the page's
    view lives in apps.paths, below the scope's owner."""
    return TickScope.of_own_path(path)


@register.simple_tag(takes_context=True)
def progress_bar(context, bar, oob=False, compact=False):
    """Renders nothing when `bar` is None (anonymous visitors, sections with no entries).
    In shared HTML it is a hole, filled with the learner's tally."""
    if not bar:  # None, or "" from a variable that did not resolve
        return ""
    holes, compact = context.get(HOLES), compact or bar.compact
    return (
        bar_hole(holes, bar, compact=compact)
        if holes is not None
        else bar_html(bar, compact=compact, oob=oob)
    )


@register.filter
def section_progress_bar(section, section_tallies):
    """The bar of a guide section, from the page's `section_tallies` (None if absent)."""
    tally = (section_tallies or {}).get(section.id)
    return section_bar(section, tally) if tally and tally.total else None


@register.filter
def path_progress_bar(path_view):
    return path_bar(path_view)


@register.filter
def step_progress_bar(step_view):
    return step_bar(step_view)


register.filter("heatmap_cells", heatmap_cells)
register.filter("heatmap_labels", heatmap_labels)


@register.filter
def heatmap_width(year):
    """The heatmap's width: a 14-pixel column per week, and its day labels."""
    return ((len(year.days) + 6) // 7) * 14 + HEATMAP_LEFT


@register.simple_tag
def heatmap_offset():
    """Where the cells start, past the labels: an SVG transform."""
    return f"translate({HEATMAP_LEFT} {HEATMAP_TOP})"
