"""Imports that used to hang a worker or answer 500: each now reads in linear time, is refused
with a clear message or reported per item, and writes nothing it should not."""

import csv
import io
import json
import time
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from apps.progress.exports import JSON_FORMAT, progress_csv
from apps.progress.forms import MAX_IMPORT_BYTES
from apps.progress.imports import ProgressImportError, import_apply, import_plan
from apps.progress.models import Activity, Progress, Status
from apps.progress.selectors import activity_year
from apps.progress.services import progress_set_status

pytestmark = pytest.mark.django_db

# The inputs the security test reproduced (15 KB and 40 KB), and larger ones of the same shapes.
ADVERSARIAL_MARKDOWN = {
    "empty links": "- [x] " + "[](" * 5000,
    "trailing spaces": "- [x] a" + " " * 40000 + "b",
    "empty links, 1 MB": "- [x] " + "[](" * 330_000,
    "brackets, many lines": ("- [x] " + "[" * 3000 + "\n") * 300,
    "empty links, many lines (1 MB)": ("- [x] " + "[](" * 1300 + "\n") * 268,
    "open angle links, many lines (1 MB)": ("- [x] " + "[a](<" * 780 + "\n") * 268,
    "emphasis, many lines (1 MB)": ("- [x] " + "*a_" * 1300 + "\n") * 268,
    "parentheses in a link": "- [x] [a](http://x/" + "(" * 100_000,
    "emphasis": "- [x] " + "*a_" * 100_000,
    "backticks": "- [x] " + "`" * 100_000,
    "bare URL with brackets": "- [x] http://x/" + "()" * 100_000,
}


def _json(*items):
    return json.dumps({"format": JSON_FORMAT, "version": 1, "progress": list(items)})


@pytest.mark.parametrize("name", ADVERSARIAL_MARKDOWN)
def test_adversarial_checklists_are_read_in_bounded_time(learner, catalog, name):
    content = ADVERSARIAL_MARKDOWN[name]
    started = time.perf_counter()
    try:
        plan = import_plan(user=learner, content=content)
    except ProgressImportError:
        plan = None
    elapsed = time.perf_counter() - started
    # Before: the first two took > 30 s (the worker was killed) and several seconds.
    assert elapsed < 5, f"{name}: {elapsed:.2f} s"
    assert plan is None or not plan.changes


def test_the_reported_input_answers_promptly_over_http(client, learner, catalog):
    client.force_login(learner)
    started = time.perf_counter()
    response = client.post(
        reverse("progress:import"), {"text": ADVERSARIAL_MARKDOWN["empty links"]}
    )
    assert response.status_code == 200
    assert time.perf_counter() - started < 5
    assert "matched nothing" in response.content.decode()


def test_links_and_titles_still_match(learner, catalog):
    first, second, third = catalog["resources"][:3]
    content = (
        f"- [x] **[{first.title}]({first.url}?utm_source=x)** - a note (with parentheses)\n"
        f"- [X] see {second.url}.\n"
        f"* [x] `{third.title}`\n"
        "- [ ] [unticked](https://example.com/nowhere)\n"
    )
    plan = import_plan(user=learner, content=content)
    assert {change.resource for change in plan.changes} == {first, second, third}
    assert plan.unmatched == []


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"a":' + "[" * 200_000, "nested too deeply"),
        (
            '{"format": "syllabus-progress", "progress": [{"resource": ' + "9" * 5000 + "}]}",
            "number too long",
        ),
        ("{" * 5 + "not json", "not valid JSON"),
        ("resource,status\n" + '"' + "x" * 200_000, "CSV"),
    ],
)
def test_unreadable_json_and_csv_are_the_imports_own_error(
    client, learner, catalog, content, message
):
    with pytest.raises(ProgressImportError, match=message):
        import_plan(user=learner, content=content)
    client.force_login(learner)
    response = client.post(reverse("progress:import"), {"text": content})
    assert response.status_code == 200 and message in response.content.decode()


def test_a_huge_integer_resource_is_reported_not_a_crash(learner, catalog):
    plan = import_plan(user=learner, content=_json({"resource": 10**200, "status": "done"}))
    assert plan.unmatched[0][2] == "missing or malformed resource uuid"


def _item(resource, **fields):
    return {"resource": str(resource.uuid), "status": "done", **fields}


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"started_at": "9999-12-31T23:59:59-12:00"}, "started_at is out of range"),
        ({"completed_at": "2030-01-01T00:00:00+00:00"}, "completed_at is in the future"),
        (
            {"started_at": "2024-01-01T00:00:00-23:00"},
            "started_at has a time-zone offset no place uses",
        ),
        ({"started_at": "1900-01-01T00:00:00Z"}, "started_at is before 1970"),
        ({"started_at": "2024-13-01T00:00:00Z"}, "started_at is not an ISO date-time"),
        ({"started_at": 20240101}, "started_at is not an ISO date-time"),
        (
            {"started_at": "2024-02-01T00:00:00Z", "completed_at": "2024-01-01T00:00:00Z"},
            "started_at is after completed_at",
        ),
        ({"note": "a\u0000b"}, "note holds a NUL character"),
    ],
)
def test_bad_dates_and_notes_are_refused_per_item(client, learner, catalog, fields, reason):
    resource = catalog["resources"][0]
    client.force_login(learner)
    response = client.post(
        reverse("progress:import"), {"text": _json(_item(resource, **fields)), "confirm": "1"}
    )
    assert response.status_code == 200
    assert reason in response.content.decode()
    assert (
        not Progress.objects.filter(user=learner).exists()
        and not Activity.objects.filter(user=learner).exists()
    )


def test_a_timezone_less_date_over_an_existing_row_is_read_in_the_sites_time_zone(
    client, learner, catalog
):
    resource = catalog["resources"][0]
    progress_set_status(user=learner, resource=resource, status=Status.IN_PROGRESS)
    client.force_login(learner)
    content = _json(
        _item(resource, started_at="2024-03-01T10:00:00", completed_at="2024-03-02T10:00:00")
    )
    response = client.post(reverse("progress:import"), {"text": content, "confirm": "1"})
    assert response.status_code == 302
    row = Progress.objects.get(user=learner, resource=resource)
    assert row.status == Status.DONE
    assert row.started_at == timezone.make_aware(timezone.datetime(2024, 3, 1, 10))


def test_a_negative_offset_within_range_is_kept_as_that_instant(client, learner, catalog):
    resource = catalog["resources"][0]
    client.force_login(learner)
    content = _json(
        _item(
            resource,
            started_at="2024-03-01T23:00:00-11:00",
            completed_at="2024-03-02T23:30:00-11:00",
        )
    )
    assert (
        client.post(reverse("progress:import"), {"text": content, "confirm": "1"}).status_code
        == 302
    )
    row = Progress.objects.get(user=learner, resource=resource)
    assert row.completed_at.isoformat() == "2024-03-03T10:30:00+00:00"
    # Every page that shows the row answers.
    for url in (
        reverse("learning:dashboard"),
        resource.get_absolute_url(),
        reverse("accounts:data-export"),
        *(reverse("progress:export", args=[fmt]) for fmt in ("md", "csv", "json")),
    ):
        assert client.get(url).status_code == 200, url


def test_imported_history_shows_on_its_own_days(client, learner, catalog):
    first, second = catalog["resources"][:2]
    today = timezone.localdate()
    ten_days_ago = timezone.now() - timedelta(days=10)
    nine_days_ago = ten_days_ago + timedelta(days=1)
    plan = import_plan(
        user=learner,
        content=_json(
            _item(
                first, started_at=ten_days_ago.isoformat(), completed_at=ten_days_ago.isoformat()
            ),
            _item(second, status="in_progress", started_at=nine_days_ago.isoformat()),
        ),
    )
    import_apply(user=learner, plan=plan)
    year = activity_year(user=learner)
    days = {day: count for day, count in year.days if count}
    assert days == {timezone.localdate(ten_days_ago): 1, timezone.localdate(nine_days_ago): 1}
    assert today not in days, "imported history is not today's activity"
    assert year.longest_streak == 2 and year.current_streak == 0
    assert dict(year.days)[timezone.localdate(ten_days_ago)] == 1


def test_an_imported_status_without_a_date_is_not_logged_now(learner, catalog):
    resource = catalog["resources"][0]
    import_apply(
        user=learner,
        plan=import_plan(
            user=learner, content=_json({"resource": str(resource.uuid), "status": "skipped"})
        ),
    )
    assert Progress.objects.get(user=learner, resource=resource).status == Status.SKIPPED
    assert not Activity.objects.filter(user=learner).exists()
    assert activity_year(user=learner).total == 0


def test_a_csv_export_comes_back(client, learner, catalog):
    first, second = catalog["resources"][:2]
    progress_set_status(
        user=learner, resource=first, status=Status.DONE, note="=SUM(A1) is a formula, not mine"
    )
    progress_set_status(
        user=learner, resource=second, status=Status.IN_PROGRESS, note="-dash first"
    )
    exported = progress_csv(learner)
    Progress.objects.filter(user=learner).delete()
    client.force_login(learner)
    response = client.post(reverse("progress:import"), {"text": exported, "confirm": "1"})
    assert response.status_code == 302
    rows = {row.resource: row for row in Progress.objects.filter(user=learner)}
    assert (
        rows[first].status == Status.DONE and rows[first].note == "=SUM(A1) is a formula, not mine"
    )
    assert rows[second].note == "-dash first"


def test_the_size_limit_is_the_forms_and_fits_the_confirm_step(client, learner, catalog):
    client.force_login(learner)
    response = client.post(
        reverse("progress:import"), {"text": "- [x] a\n" * (MAX_IMPORT_BYTES // 8 + 1)}
    )
    assert "larger than 1 MB" in response.content.decode()
    resource = catalog["resources"][0]
    # Just under the limit, mostly newlines (each sent back as CRLF): preview, then confirm.
    text = f"- [x] [{resource.title}]({resource.url})" + "\n" * (MAX_IMPORT_BYTES - 200)
    preview = client.post(reverse("progress:import"), {"text": text}).content.decode()
    assert 'enctype="multipart/form-data"' in preview.split("confirm")[0].rsplit("<form", 1)[1]
    response = client.post(
        reverse("progress:import"), {"text": text.replace("\n", "\r\n"), "confirm": "1"}
    )
    assert response.status_code == 302
    assert Progress.objects.get(user=learner).resource == resource


def test_csv_reader_refuses_a_header_without_the_columns(learner, catalog):
    with pytest.raises(ProgressImportError, match="not a Syllabus progress export"):
        import_plan(user=learner, content="resource,title\nx,y\n")
    rows = list(csv.reader(io.StringIO("resource,status\n")))
    assert rows == [["resource", "status"]]
