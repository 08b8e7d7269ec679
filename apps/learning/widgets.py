"""The tick, the progress bar and the heatmap, and which of them a tick's response refreshes.

A tick's form names its page's scope (a `TickScope`, apps.learning.scope); `bars_for_scope`
asks that kind of page's refresh (`TICK_REFRESHES`) for exactly the bars it holds for the ticked
resource, each with a stable DOM id so htmx swaps it in place.

The tick is a template (progress/includes/tick.html); shared parts stamp it from a stencil
(apps.learning.stencils.TickStencil). The bar, drawn dozens of times per page
and per request, is `bar_html` below: its markup lives here, tested in tests/learning.
"""

from dataclasses import dataclass
from datetime import timedelta
from functools import lru_cache

from django.http import Http404
from django.template.loader import render_to_string
from django.utils.formats import date_format
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext, pgettext, pgettext_lazy

from apps.catalog.models import Guide, Topic
from apps.catalog.selectors import (
    PLACED,
    TOPICS,
    guide_entries,
    guide_structure,
    guides_with_top_sections,
    visible_resources,
    visible_tree,
)
from apps.core.content import memoized, published_get
from apps.learning.scope import TickScope
from apps.paths.selectors import own_path_scope, path_scope
from apps.progress.models import Status
from apps.progress.selectors import Tally, guide_tallies, overall_tally, tallies_of

TICK_TEMPLATE = "progress/includes/tick.html"
NEXT_UP_TEMPLATE = "paths/includes/next_up.html"


@dataclass
class Bar:
    dom_id: str
    label: str
    tally: Tally
    compact: bool = (
        False  # a bar among others (sections, steps, the dashboard's guides): no percentage
    )


def bar_html(bar: Bar, *, compact=False, oob=False) -> SafeString:
    """A progress bar: a <progress> with its numbers, and a compact one without the percentage.
    An f-string with its two texts escaped: format_html's escaping of every number made the
    dashboard's 75 bars cost 4 ms."""
    tally, compact = bar.tally, compact or bar.compact
    done, countable, percent = tally.done, tally.countable, tally.percent
    classes = (
        "bar" + (" bar--compact" if compact else "") + (" bar--complete" if tally.complete else "")
    )
    swap = ' hx-swap-oob="true"' if oob else ""
    label = escape(
        gettext("%(label)s: %(done)s of %(total)s done")
        % {"label": bar.label, "done": done, "total": countable}
    )
    return SafeString(
        f'<div id="{escape(bar.dom_id)}" class="{classes}"{swap}>\n'
        f'<progress max="{tally.progress_max}" value="{done}" aria-label="{label}">'
        f"{percent}%</progress>\n"
        f'<span class="bar-text">{done}/{countable}{"" if compact else f" · {percent}%"}</span>\n</div>'
    )


def tick_html(
    *, resource, slot, status, signed_in, oob=False, menu=True, menu_open=False
) -> SafeString:
    """The checkbox of `resource` in `status` ("" or a Status value), and for a learner its status
    menu (open when the learner just used it); see TICK_TEMPLATE."""
    status = Status.shown(status)
    context = {
        "resource": resource,
        "slot": slot,
        "status": status,
        "status_label": Status(status).label if status else "",
        "signed_in": signed_in,
        "oob": oob,
        "menu": menu and signed_in,
        "menu_open": menu_open,
    }
    return mark_safe(render_to_string(TICK_TEMPLATE, context))


# Every status: (as pages and ticks spell it, as a form posts it, label).
STATUS_CHOICES = tuple((Status.shown(status), status.value, status.label) for status in Status)

# The statuses a row's menu sets (done is its checkbox): (as the tick shows it, as the form
# posts it, label).
STATUS_MENU_CHOICES = tuple(
    (Status.shown(status), status.value, status.label)
    for status in (Status.IN_PROGRESS, Status.SKIPPED, Status.NOT_STARTED)
)


def note_mark_html(resource) -> SafeString:
    """The marker on a row whose resource the learner has a note on: a link to the note."""
    hint = escape(gettext("You have a note on this"))
    label = escape(gettext("Your note on %(title)s") % {"title": resource.title})
    return SafeString(
        f'<a class="note-mark" href="{escape(resource.get_absolute_url())}#my-progress-title" '
        f'title="{hint}">✎<span class="visually-hidden">{label}</span></a>'
    )


def next_up_html(view, *, oob=False) -> SafeString:
    """The "next up" line of a paths.selectors.PathView (or "path complete")."""
    return mark_safe(render_to_string(NEXT_UP_TEMPLATE, {"view": view, "oob": oob}))


def guide_bar(guide, tally, *, compact=False):
    return Bar(f"bar-guide-{guide.uuid}", guide.title, tally, compact)


def section_bar(section, tally):
    return Bar(f"bar-section-{section.uuid}", str(section), tally, compact=True)


def topic_bar(topic, tally):
    return Bar(f"bar-topic-{topic.slug}", topic.title, tally)


def overall_bar(tally):
    return Bar("bar-overall", gettext("All guides"), tally)


def step_bar(step_view):
    return Bar(
        f"bar-step-{step_view.step.uuid}", step_view.step.title, step_view.tally, compact=True
    )


def path_bar(path_view):
    return Bar(f"bar-path-{path_view.path.uuid}", path_view.path.title, path_view.tally)


def topic_tally(*, topic, statuses):
    """Over what the topic page lists: the topic's visible resources."""
    resource_ids = memoized(
        ("topic-resources", topic.id),
        lambda: frozenset(visible_resources().filter(topics=topic).values_list("id", flat=True)),
        TOPICS,
    )
    return Tally.of(resource_ids, statuses)


def dashboard_bar_slots() -> list[tuple]:
    """(dom id, label, resource ids) of every dashboard bar, in page order: each guide's, then its
    visible top-level sections' that hold anything; per content version."""

    def build():
        structure = guide_structure()
        slots = []
        for guide in guides_with_top_sections():
            slots.append(
                (
                    f"bar-guide-{guide.uuid}",
                    guide.title,
                    structure.guide_resources.get(guide.id, frozenset()),
                )
            )
            for section in guide.top_sections:
                if section.id in structure.section_resources:
                    slots.append(
                        (
                            f"bar-section-{section.uuid}",
                            str(section),
                            structure.section_resources[section.id],
                        )
                    )
        return slots

    return memoized("dashboard-bar-slots", build, PLACED)


def dashboard_tallies(*, statuses) -> dict[str, Tally]:
    """{dom id: tally} of every dashboard bar."""
    return tallies_of(((dom_id, ids) for dom_id, _, ids in dashboard_bar_slots()), statuses)


def guide_card_tallies(*, statuses) -> dict[str, Tally]:
    """{dom id: tally} of the guides page's bar per guide."""
    guides = guide_structure().guide_resources
    return tallies_of(
        (
            (f"bar-guide-{guide.uuid}", guides.get(guide.id, frozenset()))
            for guide in guides_with_top_sections()
        ),
        statuses,
    )


def _path_refresh(*, user, key, resource, statuses, scope=path_scope):
    found = scope(user=user, path_uuid=key, resource=resource, statuses=statuses)
    if found is None:
        return [], [], None
    view, steps, slots = found
    return [path_bar(view)] + [step_bar(step) for step in steps], slots, view


def _own_path_refresh(*, user, key, resource, statuses):
    """An own path's page: the same bars, next up and pace as a curated path's."""
    return _path_refresh(
        user=user, key=key, resource=resource, statuses=statuses, scope=own_path_scope
    )


def _guide_refresh(*, user, key, resource, statuses):
    guide = published_get(Guide, uuid=key)
    tallies = guide_tallies(guide=guide, statuses=statuses, holding=resource.id)
    sections = visible_tree().visible
    held = sorted(tallies.sections.items(), key=lambda item: sections[item[0]].position)
    bars = [guide_bar(guide, tallies.tally)] + [
        section_bar(sections[pk], tally) for pk, tally in held
    ]
    entries = [
        str(entry.uuid) for entry in guide_entries(guide=guide) if entry.resource_id == resource.id
    ]
    return bars, entries, None


def _topic_refresh(*, user, key, resource, statuses):
    topic = published_get(Topic, slug=key)
    return [topic_bar(topic, topic_tally(topic=topic, statuses=statuses))], [], None


def _dashboard_refresh(*, user, key, resource, statuses):
    tallies = dashboard_tallies(statuses=statuses)
    bars = [
        Bar(dom_id, label, tallies[dom_id], compact=True)
        for dom_id, label, _ in dashboard_bar_slots()
    ]
    return [overall_bar(overall_tally(statuses=statuses)), *bars], [], None


# Each kind of page with bars owns its refresh; a kind not listed (the resource page, the
# notebook, a search) has no bars a tick changes.
TICK_REFRESHES = {
    "path": _path_refresh,
    "own": _own_path_refresh,
    "guide": _guide_refresh,
    "topic": _topic_refresh,
    "dashboard": _dashboard_refresh,
}


def bars_for_scope(*, user, scope: TickScope, resource, statuses):
    """(bars, other_slots, path_view): bars to refresh, the ids of the resource's other ticks
    on that page, and on a path page the path (its "next up" is refreshed too), for the
    learner's `statuses` as read right after the tick. A page that is gone refreshes nothing."""
    refresh = TICK_REFRESHES.get(scope.kind)
    if refresh is None:
        return [], [], None
    try:
        return refresh(user=user, key=scope.key, resource=resource, statuses=statuses)
    except Http404:
        return [], [], None


# Spelled out for makemessages, which reads only literal strings.
_WEEKDAYS = (
    pgettext_lazy("heatmap weekday", "Mon"),
    pgettext_lazy("heatmap weekday", "Tue"),
    pgettext_lazy("heatmap weekday", "Wed"),
    pgettext_lazy("heatmap weekday", "Thu"),
    pgettext_lazy("heatmap weekday", "Fri"),
    pgettext_lazy("heatmap weekday", "Sat"),
    pgettext_lazy("heatmap weekday", "Sun"),
)
_MONTHS = (
    pgettext_lazy("heatmap month", "Jan"),
    pgettext_lazy("heatmap month", "Feb"),
    pgettext_lazy("heatmap month", "Mar"),
    pgettext_lazy("heatmap month", "Apr"),
    pgettext_lazy("heatmap month", "May"),
    pgettext_lazy("heatmap month", "Jun"),
    pgettext_lazy("heatmap month", "Jul"),
    pgettext_lazy("heatmap month", "Aug"),
    pgettext_lazy("heatmap month", "Sep"),
    pgettext_lazy("heatmap month", "Oct"),
    pgettext_lazy("heatmap month", "Nov"),
    pgettext_lazy("heatmap month", "Dec"),
)


def heatmap_cells(days) -> SafeString:
    """The cells of a GitHub-style heatmap, one column per week (Sunday on top), level 0–4.
    Built as one string: 371 cells through the template engine cost more than the page's queries.
    Each cell's fixed markup (place, date) is made once per day the heatmap starts on."""
    if not days:
        return SafeString("")
    peak = max(max(count for _, count in days), 1)
    frame = _heatmap_frame(days[0][0], len(days), get_language())
    return SafeString(
        "".join(
            f'{before}{0 if count == 0 else min(4, 1 + (3 * count) // peak)}"><title>{title}{count}{after}'
            for (before, title, after), (_, count) in zip(frame, days, strict=True)
        )
    )


HEATMAP_LEFT, HEATMAP_TOP = 30, 16  # room for the day labels on the left and the months on top


def heatmap_labels(days) -> SafeString:
    """The heatmap's month names above the week a month starts in, and Mon / Wed / Fri on the left."""
    if not days:
        return SafeString("")
    start = days[0][0]
    labels = [
        f'<text class="hm-label" x="0" y="{HEATMAP_TOP + row * 14 + 9}">{_WEEKDAYS[(start.weekday() + row) % 7]}</text>'
        for row in range(7)
        if (start.weekday() + row) % 7 in (0, 2, 4)  # Mon, Wed, Fri
    ]
    last_x = -99
    for index in range(len(days)):
        day = start + timedelta(days=index)
        x = HEATMAP_LEFT + (index // 7) * 14
        if day.day == 1 and x - last_x >= 28:  # a month's name needs two columns
            labels.append(f'<text class="hm-label" x="{x}" y="10">{_MONTHS[day.month - 1]}</text>')
            last_x = x
    return SafeString("".join(labels))


@lru_cache(maxsize=8)
def _heatmap_frame(start, length: int, language: str) -> tuple[tuple[str, str], ...]:
    """Per cell, the markup before its level and after its count, in `language` (the active one:
    a cache key, so each language has its own)."""
    # A cell's title is "3 on Mon 2 Mar 2026": the count is the cell's own, the rest its day's.
    title = gettext("%(count)s on %(day)s")
    day_format = pgettext("heatmap day (Django date format)", "D j M Y")
    frame = []
    for index in range(length):
        day = start + timedelta(days=index)
        before_count, _, after_count = (
            escape(title.replace("%(day)s", date_format(day, day_format)))
            .replace("%(count)s", "\x00")
            .partition("\x00")
        )
        frame.append(
            (
                f'<rect x="{(index // 7) * 14}" y="{(index % 7) * 14}" width="11" height="11" rx="2" class="hm hm-',
                before_count,
                after_count + "</title></rect>",
            )
        )
    return tuple(frame)
