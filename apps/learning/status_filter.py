"""A learner's status filter on a list (guide, topic, path, search): `?status=` hides done rows,
or shows only the ones in progress or skipped, with a count for each choice.

The list's rows are shared HTML (apps.learning.shared); the filter is the learner's, so it is
applied when the rows are filled (`Overlay.fill(show=…)`) and the shared parts stay shared.
Visitors have no statuses: they see no filter, and a `status` in their URL is ignored.
"""

from dataclasses import dataclass, field
from urllib.parse import urlencode

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from apps.catalog.forms import ignored_filter_message
from apps.progress.models import Status

PARAM = "status"
# What a list's rows are called, one and many ("Showing 3 of 12 entries").
ENTRIES = (pgettext_lazy("rows of a list", "entry"), pgettext_lazy("rows of a list", "entries"))
RESOURCES = (
    pgettext_lazy("rows of a list", "resource"),
    pgettext_lazy("rows of a list", "resources"),
)
RESULTS = (pgettext_lazy("rows of a list", "result"), pgettext_lazy("rows of a list", "results"))


@dataclass(frozen=True)
class Choice:
    value: str
    label: str
    shows: frozenset  # the statuses ("" is not started) of the rows it keeps


CHOICES = (
    Choice("not_done", _("Hide done"), frozenset({"", Status.IN_PROGRESS, Status.SKIPPED})),
    Choice("in_progress", _("In progress"), frozenset({Status.IN_PROGRESS})),
    Choice("skipped", _("Skipped"), frozenset({Status.SKIPPED})),
)
_BY_VALUE = {choice.value: choice for choice in CHOICES}


@dataclass(frozen=True)
class StatusFilter:
    choice: Choice | None = None
    errors: list = field(default_factory=list)  # a sentence about an ignored value
    offered: bool = False  # signed in: the filter is shown

    @property
    def show(self):
        """For Overlay.fill: status -> keep the row? None when off."""
        return self.choice.shows.__contains__ if self.choice else None

    def params(self) -> dict:
        """The query-string part that keeps this filter (for links and the no-JS tick's return)."""
        return {PARAM: self.choice.value} if self.choice else {}


def status_filter_from(request) -> StatusFilter:
    return status_filter_of(user=request.user, params=request.GET)


def status_filter_of(*, user, params) -> StatusFilter:
    """The filter `params` (a QueryDict: a request's, or the page a tick came from) ask `user` for."""
    if not user.is_authenticated:
        return StatusFilter()
    value = params.get(PARAM, "")
    if not value:
        return StatusFilter(offered=True)
    choice = _BY_VALUE.get(value)
    if choice is None:
        return StatusFilter(errors=[ignored_filter_message(_("Status"), value)], offered=True)
    return StatusFilter(choice=choice, offered=True)


def status_filter_context(
    status_filter: StatusFilter, row_statuses: list, *, path: str, params: dict, target: str, nouns
) -> dict:
    """What learning/includes/status_filter.html shows: the choices as links (keeping the page's
    other `params`), each with how many of the list's rows (`row_statuses`, the learner's status
    of each) it keeps, and how many are shown; with the sentence about an ignored value
    (`status_filter_errors`) and the query-string part that keeps the filter (`status_params`)."""
    kept = {"status_filter_errors": status_filter.errors, "status_params": status_filter.params()}
    if not status_filter.offered:
        return {"status_filter": None} | kept
    total = len(row_statuses)

    def href(choice):
        query = urlencode({**params, **({PARAM: choice.value} if choice else {})})
        return f"{path}?{query}" if query else path

    options = [
        {
            "label": _("All"),
            "value": "all",  # the chip's id: htmx keeps focus on it across the swap
            "href": href(None),
            "count": total,
            "current": status_filter.choice is None,
        }
    ]
    counts = {}
    for choice in CHOICES:
        counts[choice.value] = sum(1 for status in row_statuses if status in choice.shows)
        options.append(
            {
                "label": choice.label,
                "value": choice.value,
                "href": href(choice),
                "count": counts[choice.value],
                "current": status_filter.choice == choice,
            }
        )
    chosen = status_filter.choice
    return {
        "status_filter": {
            "options": options,
            "target": target,
            "chosen": chosen,
            "shown": counts[chosen.value] if chosen else total,
            "total": total,
            "noun": nouns[0] if total == 1 else nouns[1],
            "clear_href": href(None),
        }
    } | kept
