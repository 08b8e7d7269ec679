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
    }


@register.inclusion_tag("progress/includes/bar.html")
def progress_bar(bar, oob=False, compact=False):
    return {"bar": bar, "oob": oob, "compact": compact}


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
