"""`{% tick %}` and `{% progress_bar %}`: the checkbox and the bar, the same markup everywhere."""

from django import template

from apps.progress.models import Status

register = template.Library()


@register.inclusion_tag("progress/includes/tick.html", takes_context=True)
def tick(context, resource, slot, scope="", status=None):
    """A done/not-done checkbox for `resource`. `status` defaults to the page's `statuses` dict."""
    if status is None:
        status = (context.get("statuses") or {}).get(resource.id, "")
    return {
        "request": context.get("request"),
        "user": context.get("user"),
        "csrf_token": context.get("csrf_token"),
        "resource": resource,
        "status": status,
        "status_label": Status(status).label if status else "",
        "slot": slot,
        "scope": scope,
        "oob": context.get("oob", False),
        "next": context.get("tick_next") or (context["request"].get_full_path() if context.get("request") else ""),
    }


@register.inclusion_tag("progress/includes/bar.html")
def progress_bar(bar, oob=False, compact=False):
    """Renders nothing when `bar` is None (anonymous visitors, sections with no entries)."""
    return {"bar": bar, "oob": oob, "compact": compact}


@register.filter
def section_progress_bar(section, section_tallies):
    """The bar of a guide section, from progress_context's `section_tallies` (None if absent)."""
    from apps.progress.bars import section_bar

    tally = (section_tallies or {}).get(section.id)
    return section_bar(section, tally) if tally and tally.total else None


@register.filter
def heatmap_cells(days):
    """Cells of a GitHub-style heatmap: one column per week (Sunday on top), level 0–4."""
    peak = max((count for _, count in days), default=0)
    cells = []
    for index, (day, count) in enumerate(days):
        level = 0 if count == 0 else min(4, 1 + (3 * count) // max(peak, 1))
        cells.append({"day": day, "count": count, "level": level, "x": (index // 7) * 14, "y": (index % 7) * 14})
    return cells


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
