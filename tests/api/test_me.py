"""The learner's own data through the API (`/api/v1/me/…`): read and set through the tick's
one write path (apps.progress.services), with a token or the browser's session and CSRF, and
every person who must be refused refused."""

import json
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from apps.api.models import ApiToken
from apps.api.services import token_revoke
from apps.core.content import memos_clear
from apps.progress import exports
from apps.progress.models import Activity, Progress, Status
from apps.progress.selectors import activity_year
from apps.progress.services import progress_set_note, progress_set_status
from tests.api.conftest import bearer

pytestmark = pytest.mark.django_db

V1 = "/api/v1"


def patch(client, uuid, body, **extra):
    return client.patch(
        f"{V1}/me/progress/{uuid}", json.dumps(body), content_type="application/json", **extra
    )


def rows(user):
    return list(
        Progress.objects.filter(user=user)
        .values_list("resource_id", "status", "note")
        .order_by("resource_id")
    )


def test_me_names_the_learner_and_the_token_and_no_cache_keeps_it(api):
    response = api.get(f"{V1}/me")
    assert response.json() == {"email": "ada@example.com", "token": "laptop script"}
    assert "no-store" in response["Cache-Control"]  # personal, as every signed-in page


def test_setting_a_status_is_the_ticks_write_with_its_activity_and_streak(api, learner, catalog):
    shared = catalog["shared"]
    response = patch(api, shared.uuid, {"status": "in_progress"})
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "in_progress" and body["started_at"] and not body["completed_at"]
    assert body["resource"]["uuid"] == str(shared.uuid)
    started = Progress.objects.get(user=learner, resource=shared).started_at

    body = patch(api, shared.uuid, {"status": "done"}).json()
    assert body["status"] == "done" and body["completed_at"]
    # The same state again changes nothing and logs nothing (retries are harmless).
    patch(api, shared.uuid, {"status": "done"})
    assert list(
        Activity.objects.filter(user=learner).order_by("id").values_list("status", flat=True)
    ) == [
        "in_progress",
        "done",
    ]
    assert activity_year(user=learner).current_streak == 1
    # The tick's "not done": started before it was done, so back to in progress, its start kept.
    body = patch(api, shared.uuid, {"status": "undone"}).json()
    assert body["status"] == "in_progress"
    assert Progress.objects.get(user=learner, resource=shared).started_at == started


def test_a_note_alone_a_status_with_a_note_and_an_empty_note_removing_the_row(
    api, learner, catalog
):
    resource = catalog["resources"][0]
    body = patch(api, resource.uuid, {"note": "  Read twice.  "}).json()
    assert (body["status"], body["note"]) == ("not_started", "Read twice.")
    body = patch(api, resource.uuid, {"status": "skipped", "note": "Not for me"}).json()
    assert (body["status"], body["note"]) == ("skipped", "Not for me")
    patch(api, resource.uuid, {"status": "not_started", "note": ""})
    assert not Progress.objects.filter(user=learner).exists()  # nothing left to keep
    body = api.get(f"{V1}/me/progress/{resource.uuid}").json()
    assert (body["status"], body["note"], body["updated_at"]) == ("not_started", "", None)


def test_reading_statuses_and_notes_all_and_one(api, learner, catalog):
    first, second, shared = catalog["resources"][0], catalog["resources"][1], catalog["shared"]
    progress_set_status(user=learner, resource=first, status=Status.DONE)
    progress_set_status(user=learner, resource=second, status=Status.IN_PROGRESS)
    progress_set_note(user=learner, resource=shared, note="Attention is all you need, again.")
    listed = api.get(f"{V1}/me/progress").json()
    assert listed["count"] == 3
    # Most recently changed first.
    assert [row["resource"]["title"] for row in listed["items"]] == [
        "Shared resource",
        "alpha 0.1",
        "alpha 0.0",
    ]
    done = api.get(f"{V1}/me/progress", {"status": "done"}).json()["items"]
    assert [row["resource"]["title"] for row in done] == ["alpha 0.0"]
    one = api.get(f"{V1}/me/progress/{second.uuid}").json()
    assert one["status"] == "in_progress" and one["started_at"]

    notes = api.get(f"{V1}/me/notes").json()
    assert [(n["resource"]["title"], n["note"]) for n in notes["items"]] == [
        ("Shared resource", "Attention is all you need, again.")
    ]
    # The notes page's search: words of the note, in any spelling it forgives.
    assert api.get(f"{V1}/me/notes", {"q": "attention"}).json()["count"] == 1
    assert api.get(f"{V1}/me/notes", {"q": "kernels"}).json()["count"] == 0


def test_a_row_on_a_hidden_resource_is_kept_but_not_listed(api, learner, catalog):
    resource = catalog["resources"][0]
    progress_set_status(user=learner, resource=resource, status=Status.DONE)
    resource.is_published = False
    resource.save()
    assert api.get(f"{V1}/me/progress").json()["count"] == 0
    assert api.get(f"{V1}/me/progress/{resource.uuid}").status_code == 404
    assert Progress.objects.filter(user=learner, resource=resource).exists()


def test_the_export_is_the_sites_own_document(api, learner, catalog):
    progress_set_status(user=learner, resource=catalog["shared"], status=Status.DONE)
    progress_set_note(user=learner, resource=catalog["resources"][0], note="=1+1")
    as_json = api.get(f"{V1}/me/export").json()
    expected = exports.progress_json(learner)
    assert {k: v for k, v in as_json.items() if k != "exported_at"} == {
        k: v for k, v in expected.items() if k != "exported_at"
    }
    csv = api.get(f"{V1}/me/export", {"format": "csv"})
    assert csv["Content-Type"] == "text/csv; charset=utf-8"
    assert csv.content.decode() == exports.progress_csv(learner)
    markdown = api.get(f"{V1}/me/export", {"format": "md"})
    assert markdown.content.decode() == exports.progress_markdown(learner)
    bad = api.get(f"{V1}/me/export", {"format": "xlsx"})
    assert (
        bad.status_code == 422 and bad.json()["detail"] == "Unknown format “xlsx”: json, csv or md."
    )


def test_the_export_with_own_resources_is_the_sites_own_bytes(
    api, learner, learner_client, catalog
):
    from apps.progress.services import own_resource_save

    own_resource_save(
        user=learner,
        url="https://example.org/mine",
        title="=Mine [draft] -->",
        kind="paper",
        author="@me",
        note="private",
        status=Status.DONE,
    )
    for fmt, own_mark in (("csv", b",own\r\n"), ("md", b"<!-- syllabus-own:")):
        site = learner_client.get(reverse("progress:export", args=[fmt]))
        mine = api.get(f"{V1}/me/export", {"format": fmt})
        assert mine.content == site.content and own_mark in site.content
    site = learner_client.get(reverse("progress:export", args=["json"])).json()
    mine = api.get(f"{V1}/me/export").json()
    assert (
        mine["own_resources"] == site["own_resources"]
        and mine["own_resources"][0]["author"] == "@me"
    )
    assert {k: v for k, v in mine.items() if k != "exported_at"} == {
        k: v for k, v in site.items() if k != "exported_at"
    }


# --- Refused ---------------------------------------------------------------------------------
ME_READS = ["/me", "/me/progress", "/me/notes", "/me/export"]


@pytest.mark.parametrize("url", ME_READS)
def test_a_visitor_is_refused_with_what_to_do(visitor, url):
    response = visitor.get(V1 + url)
    assert response.status_code == 401
    assert "Authorization: Bearer" in response.json()["detail"]
    assert response["WWW-Authenticate"].startswith("Bearer")


def test_a_visitor_cannot_read_or_set_a_status(visitor, catalog):
    shared = catalog["shared"]
    assert visitor.get(f"{V1}/me/progress/{shared.uuid}").status_code == 401
    assert patch(visitor, shared.uuid, {"status": "done"}).status_code == 401
    assert not Progress.objects.exists()


@pytest.mark.parametrize(
    "header",
    [
        "Bearer syl_notatoken",
        "Bearer ",
        "Bearer " + "syl_" + "x" * 5000,
        "Token syl_whatever",
        "Basic YWRhOnNlY3JldA==",
    ],
)
def test_a_wrong_token_is_refused_and_changes_nothing(visitor, catalog, learner, header):
    response = patch(visitor, catalog["shared"].uuid, {"status": "done"}, HTTP_AUTHORIZATION=header)
    assert response.status_code == 401
    assert visitor.get(f"{V1}/me", HTTP_AUTHORIZATION=header).status_code == 401
    assert not Progress.objects.exists()


def test_a_revoked_token_is_refused_at_once(api, learner, catalog):
    assert api.get(f"{V1}/me").status_code == 200
    token_revoke(user=learner, uuid=ApiToken.objects.get(user=learner).uuid)
    response = patch(api, catalog["shared"].uuid, {"status": "done"})
    assert response.status_code == 401 and "revoked" in response.json()["detail"]
    assert api.get(f"{V1}/me/progress").status_code == 401
    assert not Progress.objects.exists()


def test_a_deactivated_accounts_token_is_refused(api, learner):
    learner.is_active = False
    learner.save()
    assert api.get(f"{V1}/me").status_code == 401


def test_a_wrong_token_never_falls_back_to_the_browsers_session(client, learner, catalog):
    client.force_login(learner)
    assert client.get(f"{V1}/me").status_code == 200
    assert client.get(f"{V1}/me", **bearer("syl_revoked")).status_code == 401


def test_another_learners_token_reaches_only_their_own_data(
    api, learner, other_learner, other_token, catalog
):
    shared = catalog["shared"]
    progress_set_status(user=learner, resource=shared, status=Status.DONE)
    progress_set_note(user=learner, resource=shared, note="Ada's private note")
    eve = Client(**bearer(other_token))
    assert eve.get(f"{V1}/me").json()["email"] == "eve@example.com"
    assert eve.get(f"{V1}/me/progress").json() == {"items": [], "count": 0}
    assert eve.get(f"{V1}/me/notes").json() == {"items": [], "count": 0}
    assert eve.get(f"{V1}/me/export").json()["progress"] == []
    one = eve.get(f"{V1}/me/progress/{shared.uuid}").json()
    assert (one["status"], one["note"]) == ("not_started", "")
    # Eve's write is Eve's: Ada's row is untouched.
    patch(eve, shared.uuid, {"status": "skipped", "note": "Eve's"})
    assert rows(learner) == [(shared.id, "done", "Ada's private note")]
    assert rows(other_learner) == [(shared.id, "skipped", "Eve's")]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"status": "finished"}, "status"),
        ({"status": None, "note": None}, "Send a status, a note or both; nothing was changed."),
        ({}, "Send a status, a note or both; nothing was changed."),
        ({"note": "x" * 10_001}, "note"),
        ({"note": 5}, "note"),
    ],
)
def test_bad_input_is_refused_with_a_message_and_changes_nothing(
    api, learner, catalog, body, message
):
    shared = catalog["shared"]
    progress_set_status(user=learner, resource=shared, status=Status.IN_PROGRESS, note="Mine")
    before = rows(learner)
    response = patch(api, shared.uuid, body)
    assert response.status_code == 422
    detail = response.json()["detail"]
    if isinstance(detail, str):
        assert detail == message
    else:  # ninja's own: which field, and why
        assert detail[0]["loc"][-1] == message and detail[0]["msg"]
    assert rows(learner) == before


def test_a_body_that_is_not_json_is_refused(api, catalog):
    response = api.patch(
        f"{V1}/me/progress/{catalog['shared'].uuid}", "status=done", content_type="text/plain"
    )
    assert response.status_code in (400, 422)
    assert not Progress.objects.exists()


@pytest.mark.parametrize(
    "key", ["hidden", "unlisted", "not-a-uuid", "00000000-0000-0000-0000-000000000000"]
)
def test_a_resource_learners_may_not_see_is_not_found_and_not_written(api, catalog, key):
    from apps.catalog.models import Resource

    hidden = catalog["resources"][0]
    hidden.is_published = False
    hidden.save()
    unlisted = Resource.objects.create(title="Unlisted", url="https://example.com/unlisted")
    uuid = {"hidden": hidden.uuid, "unlisted": unlisted.uuid}.get(key, key)
    assert api.get(f"{V1}/me/progress/{uuid}").status_code == 404
    assert patch(api, uuid, {"status": "done"}).status_code == 404
    assert not Progress.objects.exists()


# --- The browser: session and CSRF ------------------------------------------------------------
def test_the_browser_reads_with_its_session_and_writes_with_the_csrf_token(learner, catalog):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(learner)
    assert browser.get(f"{V1}/me").json() == {"email": "ada@example.com", "token": None}
    shared = catalog["shared"]
    refused = patch(browser, shared.uuid, {"status": "done"})
    assert refused.status_code == 403 and "CSRF" in refused.json()["detail"]
    assert not Progress.objects.exists()
    browser.get("/account/")  # any page sets the CSRF cookie
    csrf = browser.cookies["csrftoken"].value
    response = patch(browser, shared.uuid, {"status": "done"}, HTTP_X_CSRFTOKEN=csrf)
    assert response.status_code == 200
    assert rows(learner) == [(shared.id, "done", "")]


def test_a_token_needs_no_csrf_token(learner, catalog, token):
    script = Client(enforce_csrf_checks=True, **bearer(token))
    assert patch(script, catalog["shared"].uuid, {"status": "done"}).status_code == 200


# --- Last used, rate limit, queries ----------------------------------------------------------
def test_last_used_is_written_at_most_once_a_minute(api, learner, token):
    stored = ApiToken.objects.get(user=learner)
    assert stored.last_used_at is None
    api.get(f"{V1}/me")
    first = ApiToken.objects.get(pk=stored.pk).last_used_at
    assert first is not None
    with CaptureQueriesContext(connection) as queries:
        api.get(f"{V1}/me")
    assert ApiToken.objects.get(pk=stored.pk).last_used_at == first
    assert not [q for q in queries if q["sql"].startswith("UPDATE")]
    ApiToken.objects.filter(pk=stored.pk).update(last_used_at=first - timedelta(seconds=61))
    api.get(f"{V1}/me")
    assert ApiToken.objects.get(pk=stored.pk).last_used_at > first


def test_past_the_rate_limit_a_429_says_how_long_to_wait(api, settings, visitor, other_token):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "api": "3/m/user,2/m/ip"}
    for _ in range(3):
        assert api.get(f"{V1}/me").status_code == 200
    refused = api.get(f"{V1}/me")
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    # A visitor counts per address, apart from the learner.
    assert [visitor.get(f"{V1}/guides").status_code for _ in range(3)] == [200, 200, 429]
    # Another learner has their own count.
    assert Client(**bearer(other_token)).get(f"{V1}/me").status_code == 200


def _warm(client, url):
    memos_clear()
    for _ in range(2):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
    return len(queries)


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("/me/progress", 4),  # token, content token (visible resources), count, page
        ("/me/notes", 3),  # token, content token, the learner's noted rows
    ],
)
def test_the_learners_lists_run_a_fixed_number_of_queries(api, learner, catalog, url, expected):
    def record(resources):
        for resource in resources:
            progress_set_status(user=learner, resource=resource, status=Status.DONE)
            progress_set_note(user=learner, resource=resource, note="noted")

    record(catalog["resources"][:2])
    api.get(f"{V1}/me")  # the token's last use noted
    before = _warm(api, V1 + url)
    record(catalog["resources"][2:] + catalog["other_resources"])
    after = _warm(api, V1 + url)
    assert before == after == expected


def test_time_stamps_are_the_learners_own(api, learner, catalog):
    """Dates come back as ISO 8601 with their offset, as the export writes them."""
    progress_set_status(
        user=learner,
        resource=catalog["shared"],
        status=Status.DONE,
        completed_at=timezone.now() - timedelta(days=2),
    )
    body = api.get(f"{V1}/me/progress/{catalog['shared'].uuid}").json()
    assert body["completed_at"].endswith(("Z", "+00:00"))


def test_a_curators_token_is_no_admin(curator):
    """A token opens the API only: the admin still asks its own sign-in."""
    from apps.api.services import token_create

    _, secret = token_create(user=curator, name="curating script")
    script = Client(**bearer(secret))
    assert script.get(f"{V1}/me").json()["email"] == "cora@example.com"
    response = script.get("/admin/")
    assert response.status_code == 302 and "login" in response["Location"]


def test_refused_requests_count_against_the_address(visitor, settings, learner):
    """Guessing tokens costs as much as reading: each 401 counts per address, then 429."""
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "api": "100/m/user,3/m/ip"}
    codes = [visitor.get(f"{V1}/me", **bearer(f"syl_guess{n}")).status_code for n in range(4)]
    assert codes == [401, 401, 401, 429]
    refused = visitor.get(f"{V1}/me")
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1


def test_superusers_see_tokens_in_the_admin_without_their_secret(client, superuser, curator, token):
    stored = ApiToken.objects.get()
    client.force_login(superuser)
    html = client.get("/admin/api/apitoken/").content.decode()
    assert "laptop script" in html and stored.prefix in html and stored.digest not in html
    assert client.get("/admin/api/apitoken/add/").status_code == 403
    client.force_login(curator)
    assert client.get("/admin/api/apitoken/").status_code == 403
