"""A learner's progress as files (apps.progress.views): export and import."""

import json

import pytest
from django.urls import reverse

from apps.progress.models import Progress, Status
from apps.progress.services import progress_set_status

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "name,args",
    [("learning:dashboard", []), ("progress:export", ["json"]), ("progress:import", [])],
)
def test_personal_pages_require_sign_in(client, name, args):
    response = client.get(reverse(name, args=args))
    assert response.status_code == 302 and response["Location"].startswith(reverse("account_login"))


def test_unknown_export_format_is_a_404(client, learner):
    client.force_login(learner)
    assert client.get("/progress/export.exe").status_code == 404


def test_json_export_import_round_trip_reproduces_progress(client, learner, other_learner, catalog):
    resources = catalog["resources"]
    progress_set_status(user=learner, resource=resources[0], status=Status.DONE, note="great")
    progress_set_status(user=learner, resource=resources[1], status=Status.IN_PROGRESS)
    progress_set_status(user=learner, resource=resources[2], status=Status.SKIPPED)
    client.force_login(learner)
    payload = client.get(reverse("progress:export", args=["json"])).content.decode()

    client.force_login(other_learner)
    preview = client.post(reverse("progress:import"), {"text": payload})
    assert "3 resources will change" in preview.content.decode()
    assert not Progress.objects.filter(user=other_learner).exists()  # preview writes nothing
    client.post(reverse("progress:import"), {"text": payload, "confirm": "1"})
    mine = {
        (r.resource_id, r.status, r.note, r.started_at, r.completed_at)
        for r in Progress.objects.filter(user=learner)
    }
    theirs = {
        (r.resource_id, r.status, r.note, r.started_at, r.completed_at)
        for r in Progress.objects.filter(user=other_learner)
    }
    assert mine == theirs


def test_markdown_export_import_round_trip(client, learner, other_learner, catalog):
    progress_set_status(user=learner, resource=catalog["resources"][0], status=Status.DONE)
    progress_set_status(user=learner, resource=catalog["shared"], status=Status.DONE)
    client.force_login(learner)
    markdown = client.get(reverse("progress:export", args=["md"])).content.decode()
    assert f"- [x] [{catalog['resources'][0].title}]({catalog['resources'][0].url})" in markdown
    assert f"- [ ] [{catalog['resources'][1].title}]" in markdown

    client.force_login(other_learner)
    client.post(reverse("progress:import"), {"text": markdown, "confirm": "1"})
    assert set(
        Progress.objects.filter(user=other_learner, status=Status.DONE).values_list(
            "resource_id", flat=True
        )
    ) == {
        catalog["resources"][0].id,
        catalog["shared"].id,
    }


def test_markdown_import_reports_lines_that_match_nothing(client, learner, catalog):
    client.force_login(learner)
    text = "- [x] [Unknown](https://nowhere.example/x)\n- [x] Some concept nobody listed\n- [ ] not ticked\n"
    html = client.post(reverse("progress:import"), {"text": text}).content.decode()
    assert "2 lines matched nothing" in html and "Line 1" in html and "Line 2" in html
    assert not Progress.objects.exists()


@pytest.mark.parametrize(
    "text,message",
    [
        ("{not json", "not valid JSON"),
        (json.dumps({"format": "other"}), "not a Syllabus progress export"),
        ("just some prose", "No checklist lines"),
        ("", "Choose a file or paste"),
    ],
)
def test_bad_imports_get_a_clear_message_and_write_nothing(client, learner, catalog, text, message):
    client.force_login(learner)
    html = client.post(reverse("progress:import"), {"text": text, "confirm": "1"}).content.decode()
    assert message in html
    assert not Progress.objects.exists()


def test_json_items_with_bad_fields_are_reported_not_imported(client, learner, catalog):
    client.force_login(learner)
    good = str(catalog["resources"][0].uuid)
    items = [
        {"resource": good, "status": "done", "completed_at": "2026-13-45T00:00:00"},
        {"resource": "not-a-uuid", "status": "done"},
        {"resource": good, "status": "finished"},
        {"resource": "00000000-0000-0000-0000-000000000000", "status": "done"},
    ]
    text = json.dumps({"format": "syllabus-progress", "version": 1, "progress": items})
    html = client.post(reverse("progress:import"), {"text": text, "confirm": "1"}).content.decode()
    assert "completed_at is not an ISO date-time" in html and "malformed resource uuid" in html
    assert "unknown status" in html and "no published resource has this uuid" in html
    assert not Progress.objects.exists()


# --- A note typed on the resource page is saved with a status click, never lost ----------------
