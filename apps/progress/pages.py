"""The dashboard's HTML: its learner-free part rendered once per content version (see
apps.catalog.pages), and its learner's parts filled into shapes of its templates' partials (see
apps.core.html.slots_html): a dashboard renders only its layout through the template engine."""

from datetime import timedelta
from functools import lru_cache

from django.contrib.humanize.templatetags.humanize import naturaltime
from django.template.defaultfilters import pluralize
from django.utils.dateformat import format as date_format
from django.utils.html import format_html
from django.utils.safestring import SafeString

from apps.core.content import memoized
from apps.core.html import as_ascii, slots_html
from apps.paths.pages import next_up_html
from apps.progress.bars import guide_bar, path_bar, section_bar
from apps.progress.overlay import Overlay, overlay_render
from apps.progress.selectors import Tally, dashboard_guides, guide_structure
from apps.progress.widgets import bar_html, tick_html

DASHBOARD = "progress/dashboard.html"
HEATMAP = "progress/includes/heatmap.html"


def guide_bars() -> Overlay:
    """A bar per published guide and per top-level section, as holes."""
    return memoized("dashboard-guide-bars", _guide_bars_build)


def _guide_bars_build():
    holding = guide_structure().section_resources  # sections with nothing in them get no bar
    rows = [
        {
            "guide": guide,
            "bar": guide_bar(guide, Tally(total=1)),
            "sections": [section_bar(section, Tally(total=1)) for section in guide.top_sections if section.id in holding],
        }
        for guide in dashboard_guides()
    ]
    return overlay_render("progress/includes/guide_bars.html", {"guide_rows": rows})


def continue_rows(entries, *, statuses) -> SafeString:
    """A row per entry of `selectors.continue_in_guide`: its tick, its link and its section."""
    return _joined(
        slots_html(
            f"{DASHBOARD}#continue-row",
            tick=tick_html(resource=entry.resource, slot=str(entry.uuid), status=statuses.get(entry.resource_id, ""), signed_in=True),
            link=model_link(entry.resource),
            section=str(entry.section),
        )
        for entry in entries
    )


def latest_rows(rows, *, partial: str) -> SafeString:
    """A row per `selectors.ProgressRow`: its link and how long ago (`partial`: which row)."""
    return _joined(
        slots_html(f"{DASHBOARD}#{partial}", link=model_link(row.resource), since=naturaltime(row.since)) for row in rows
    )


def followed_path_rows(views) -> SafeString:
    """A row per followed path's `PathView`: its link, bar, next up and pace."""
    return _joined(
        slots_html(
            f"{DASHBOARD}#followed-path",
            link=model_link(view.path),
            bar=bar_html(path_bar(view), compact=True),
            next_up=next_up_html(view),
            pace=_pace(view.pace) if view.pace else "",
        )
        for view in views
    )


def _pace(pace) -> SafeString:
    return slots_html(
        f"{DASHBOARD}#pace",
        hours=pace.hours_per_week,
        finish=_day(pace.expected_finish),
        ahead="ahead" if pace.ahead else "behind",
        gap=pace.gap_hours,
    )


def heatmap(year) -> SafeString:
    """The activity heatmap of a `selectors.ActivityYear`, with its summary."""
    busiest = slots_html(f"{HEATMAP}#busiest", day=_day(year.busiest[0]), count=year.busiest[1]) if year.busiest else ""
    return slots_html(
        HEATMAP,
        width=((len(year.days) + 6) // 7) * 14,
        changes=_counted(year.total, "change"),
        days=_counted(year.active_days, "day"),
        active_days=_counted(year.active_days, "active day"),
        busiest=busiest,
        cells=heatmap_cells(year.days),
    )


def _counted(number: int, noun: str) -> str:
    return f"{number} {noun}{pluralize(number)}"


def _day(day) -> str:
    return date_format(day, "j M Y")


def _joined(rows) -> SafeString:
    return SafeString("".join(rows))


def model_link(obj) -> SafeString:
    """`<a href="…">title</a>` of a published resource or path, made once per content version:
    the dashboard's rows are mostly these links."""
    links = memoized("dashboard-links", dict)  # filled as rows ask; one link's HTML is a pure value
    key = (type(obj), obj.id)
    html = links.get(key)
    if html is None:
        html = links[key] = as_ascii(format_html('<a href="{}">{}</a>', obj.get_absolute_url(), obj.title))
    return html


_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def heatmap_cells(days) -> SafeString:
    """The cells of a GitHub-style heatmap, one column per week (Sunday on top), level 0–4.
    Built as one string: 371 cells through the template engine cost more than the page's queries.
    Each cell's fixed markup (place, date) is made once per day the heatmap starts on."""
    if not days:
        return SafeString("")
    peak = max(max(count for _, count in days), 1)
    frame = _heatmap_frame(days[0][0], len(days))
    return SafeString(
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
