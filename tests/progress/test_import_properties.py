"""Properties of the progress import's readers (Markdown checklist, JSON, CSV, dates, the upload
form): whatever text or bytes arrive, the answer is a plan or the import's own error, never
another exception; and what a plan holds is within the rules (dates readable, past, ordered)."""

import json
import string
from datetime import UTC, datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from apps.progress.exports import CSV_COLUMNS, JSON_FORMAT
from apps.progress.forms import ImportForm
from apps.progress.imports import (
    EARLIEST,
    ImportPlan,
    ProgressImportError,
    _inline,
    _read_datetime,
    import_plan,
)
from apps.progress.models import Progress, Status

pytestmark = pytest.mark.django_db

# The pieces hostile checklists are made of, mixed with arbitrary text.
MARKDOWN_PIECES = [
    "- [x] ",
    "- [ ] ",
    "* [X] ",
    "+ [x]\t",
    "[",
    "]",
    "(",
    ")",
    "](",
    "<",
    ">",
    "<http://",
    "http://",
    "https://",
    "https://example.com/alpha/0/0",
    "alpha 0.1",
    "`",
    "*",
    "**",
    "_",
    "~",
    " ",
    "\n",
    "\r\n",
    "\t",
    '"',
    "\x00",
    "\ufeff",
    "\u2028",
    "\udcff",
    "%",
    "#",
    "1. ",
    "> ",
]
markdown = st.lists(st.sampled_from(MARKDOWN_PIECES) | st.text(max_size=8), max_size=60).map(
    "".join
)

DATE_PIECES = [
    "2024",
    "-",
    "01",
    "13",
    "T",
    ":",
    "00",
    "59",
    "60",
    "Z",
    "+",
    "-12:00",
    "-23:00",
    "+14:00",
    "9999",
    "0000",
    ".",
    "123456",
    " ",
    "\x00",
    "1970",
    "2030",
]
dates = st.one_of(
    st.none(),
    st.integers(),
    st.floats(),
    st.booleans(),
    st.text(max_size=40),
    st.lists(st.sampled_from(DATE_PIECES), max_size=12).map("".join),
    st.datetimes(timezones=st.timezones() | st.none()).map(lambda value: value.isoformat()),
)
json_scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=10,
)


@st.composite
def export_items(draw, uuids):
    item = {
        "resource": draw(st.sampled_from(uuids) | json_values | st.uuids().map(str)),
        "status": draw(st.sampled_from(Status.values) | json_values),
        "note": draw(st.none() | st.text(max_size=30) | json_values),
        "started_at": draw(dates),
        "completed_at": draw(dates),
    }
    return draw(st.sampled_from([item, draw(json_values)]))


def _plan_or_own_error(user, content):
    try:
        plan = import_plan(user=user, content=content)
    except ProgressImportError as exc:
        assert str(exc)
        return None
    assert isinstance(plan, ImportPlan)
    now = timezone.now()
    for change in plan.changes:
        assert change.new in Status.values
        for value in (change.started_at, change.completed_at):
            assert value is None or EARLIEST <= value <= now
        if change.started_at and change.completed_at and change.new == Status.DONE:
            assert change.started_at <= change.completed_at
        assert "\x00" not in (change.note or "")
    return plan


@hypothesis_settings(max_examples=150)
@given(content=st.text(max_size=300) | markdown)
def test_any_text_is_a_plan_or_the_imports_own_error(learner, catalog, content):
    _plan_or_own_error(learner, content)


@hypothesis_settings(max_examples=100)
@given(data=st.data())
def test_any_json_export_is_a_plan_or_the_imports_own_error(learner, catalog, data):
    uuids = [str(resource.uuid) for resource in catalog["resources"]]
    items = data.draw(st.lists(export_items(uuids), max_size=6))
    document = data.draw(
        st.sampled_from([{"format": JSON_FORMAT, "version": 1, "progress": items}, items])
    )
    _plan_or_own_error(learner, json.dumps(document))
    assert not Progress.objects.filter(user=learner).exists(), "a plan writes nothing"


@hypothesis_settings(max_examples=100)
@given(data=st.data())
def test_any_csv_export_is_a_plan_or_the_imports_own_error(learner, catalog, data):
    uuids = [str(resource.uuid) for resource in catalog["resources"]]
    cell = (
        st.sampled_from(uuids + Status.values)
        | st.text(max_size=12)
        | dates.map(lambda value: "" if value is None else str(value))
    )
    # "resource" first, as exports write it (that is how the import recognizes a CSV).
    others = data.draw(
        st.permutations(CSV_COLUMNS[1:])
        | st.lists(st.sampled_from(CSV_COLUMNS + ["extra"]), max_size=4)
    )
    header = ["resource", *others]
    rows = data.draw(st.lists(st.lists(cell, max_size=len(header) + 1), max_size=6))

    def quoted(value):
        return '"' + value.replace('"', '""') + '"' if any(c in value for c in ',"\n\r') else value

    raw = data.draw(st.booleans())
    lines = [",".join(header)] + [",".join(row if raw else map(quoted, row)) for row in rows]
    _plan_or_own_error(learner, "\n".join(lines))


@hypothesis_settings(max_examples=150)
@given(value=dates)
def test_a_date_is_read_into_the_allowed_range_or_refused(value):
    now = datetime.now(UTC)
    parsed, problem = _read_datetime(value, now)
    if problem is None:
        assert parsed is None or (parsed.tzinfo is not None and EARLIEST <= parsed <= now)
    else:
        assert parsed is None and isinstance(problem, str)


@hypothesis_settings(max_examples=200)
@given(text=markdown | st.text(max_size=200))
def test_checklist_text_is_read_into_links_and_plain_text(text):
    hrefs, plain = _inline(text)
    assert all(isinstance(href, str) for href in hrefs) and isinstance(plain, str)
    assert not any(mark in plain for mark in "*_`")


@hypothesis_settings(max_examples=100)
@given(
    payload=st.binary(max_size=400)
    | markdown.map(lambda text: text.encode("utf-8", "surrogatepass"))
)
def test_any_uploaded_bytes_are_a_form_error_a_plan_or_the_imports_own_error(
    learner, catalog, payload
):
    form = ImportForm({}, {"file": SimpleUploadedFile("progress.md", payload)})
    if form.is_valid():
        _plan_or_own_error(learner, form.cleaned_data["content"])
    else:
        assert form.errors


@hypothesis_settings(max_examples=60)
@given(text=st.text(alphabet=string.printable + "\x00\u2028\ufeff\udcff", max_size=200))
def test_any_pasted_text_is_a_form_error_a_plan_or_the_imports_own_error(learner, catalog, text):
    form = ImportForm({"text": text})
    if form.is_valid():
        _plan_or_own_error(learner, form.cleaned_data["content"])
    else:
        assert form.errors
