"""Guides that keep up with their sources: the schedule, pending syncs, mail, failing sources and
who may see them (sources served by the test's own server on 127.0.0.1)."""

import threading
import time
from contextlib import contextmanager
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.contrib.auth.models import Permission
from django.core import mail
from django.tasks import TaskResultStatus
from django.tasks.signals import task_finished
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from apps.catalog.importer import apply_import, plan_import
from apps.catalog.models import Entry, Guide, SyncSchedule
from apps.curation import syncs, tasks
from apps.curation.models import FetchOutcome, PendingSync, SourceStatus, SyncState
from tests.catalog.test_sync import VERSION_1, VERSION_2
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@contextmanager
def source(body: bytes):
    """A source the test controls: ``served`` holds the body, status, delay (seconds), a
    ``Location`` to redirect to, and counts the requests."""
    served = {"body": body, "status": 200, "delay": 0.0, "location": "", "hits": 0}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            served["hits"] += 1
            if served["delay"]:
                time.sleep(served["delay"])
            self.send_response(served["status"])
            if served["location"]:
                self.send_header("Location", served["location"])
            self.send_header("Content-Type", "text/markdown; charset=utf-8")
            self.end_headers()
            self.wfile.write(served["body"])

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield served, f"http://127.0.0.1:{server.server_address[1]}/README.md"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def served_source(allow_loopback):
    with source(VERSION_1.encode()) as served_and_url:
        yield served_and_url


@pytest.fixture
def guide(served_source):
    _, url = served_source
    apply_import(plan_import(VERSION_1, guide_slug="serving", title="Serving", source_url=url))
    Guide.objects.filter(slug="serving").update(sync_schedule=SyncSchedule.DAILY)
    return Guide.objects.get(slug="serving")


def layout(guide):
    return sorted(
        Entry.objects.filter(section__guide=guide).values_list(
            "pk", "section_id", "position", "resource_id", "note"
        )
    )


def run_schedule(capture) -> int:
    """The periodic job, with the jobs it enqueues run as its transaction commits."""
    with capture(execute=True):
        result = tasks.refetch_due_guides.enqueue()
    assert result.status == TaskResultStatus.SUCCESSFUL, result.errors
    return result.return_value


def a_day_later(guide):
    SourceStatus.objects.filter(guide=guide).update(
        queued_at=timezone.now() - timedelta(days=1, minutes=1)
    )


def review_url(pending):
    return reverse("admin:curation_pendingsync_change", args=[pending.pk])


# --- The schedule ------------------------------------------------------------------------------
def test_the_schedule_does_nothing_when_no_guide_is_due(
    served_source, django_capture_on_commit_callbacks
):
    served, url = served_source
    apply_import(plan_import(VERSION_1, guide_slug="off", title="Off", source_url=url))
    assert run_schedule(django_capture_on_commit_callbacks) == 0  # its schedule is off
    assert served["hits"] == 0
    assert not SourceStatus.objects.exists() and not PendingSync.objects.exists()


def test_a_list_that_changes_between_two_fetches_waits_for_review_and_mails_the_curators(
    guide, served_source, curator, superuser, learner, settings, django_capture_on_commit_callbacks
):
    served, url = served_source
    before = layout(guide)
    # First fetch: the same list as imported, nothing to review and nobody told.
    assert run_schedule(django_capture_on_commit_callbacks) == 1
    status = SourceStatus.objects.get(guide=guide)
    assert status.outcome == FetchOutcome.UNCHANGED and status.fetched_at is not None
    assert not PendingSync.objects.exists() and mail.outbox == []
    # Not due again until its interval has passed.
    assert run_schedule(django_capture_on_commit_callbacks) == 0
    assert served["hits"] == 1

    served["body"] = VERSION_2.encode()
    a_day_later(guide)
    assert run_schedule(django_capture_on_commit_callbacks) == 1
    pending = PendingSync.objects.get()
    assert pending.state == SyncState.PENDING and pending.scheduled
    assert pending.text == VERSION_2 and pending.summary.startswith("1 added, 0 removed, 1 moved")
    assert layout(guide) == before  # never applied unseen
    [message] = mail.outbox
    assert sorted(message.to) == [curator.email, superuser.email]  # not the learner
    assert "“Serving” changed at its source" in message.subject
    assert settings.SITE_URL + review_url(pending) in message.body
    assert "+ TensorRT-LLM (in Engines)" in message.body

    # The same text again: nothing new, nobody mailed twice.
    a_day_later(guide)
    assert run_schedule(django_capture_on_commit_callbacks) == 1
    assert PendingSync.objects.count() == 1 and len(mail.outbox) == 1
    assert SourceStatus.objects.get(guide=guide).outcome == FetchOutcome.UNCHANGED


def test_a_newer_change_supersedes_the_one_waiting(
    guide, served_source, django_capture_on_commit_callbacks
):
    served, _ = served_source
    served["body"] = VERSION_2.encode()
    run_schedule(django_capture_on_commit_callbacks)
    served["body"] = VERSION_2.replace("TensorRT-LLM", "TRT-LLM").encode()
    a_day_later(guide)
    run_schedule(django_capture_on_commit_callbacks)
    first, second = PendingSync.objects.order_by("pk")
    assert (first.state, second.state) == (SyncState.SUPERSEDED, SyncState.PENDING)


def test_a_weekly_guide_waits_a_week(guide, django_capture_on_commit_callbacks):
    Guide.objects.filter(pk=guide.pk).update(sync_schedule=SyncSchedule.WEEKLY)
    run_schedule(django_capture_on_commit_callbacks)
    a_day_later(guide)
    assert run_schedule(django_capture_on_commit_callbacks) == 0
    SourceStatus.objects.filter(guide=guide).update(queued_at=timezone.now() - timedelta(days=7))
    assert run_schedule(django_capture_on_commit_callbacks) == 1


def test_a_schedule_needs_a_source_url(guide):
    from django.core.exceptions import ValidationError

    guide.source_url = ""
    with pytest.raises(ValidationError, match="Only a guide with a source URL"):
        guide.full_clean()


# --- Sources that fail --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("served_as", "message"),
    [
        ({"delay": 2.5}, "no usable answer (none at all, or none within 1 seconds)"),
        ({"status": 500, "body": b"Internal error"}, "it answered HTTP 500"),
        ({"status": 404, "body": b"Not found"}, "it answered HTTP 404"),
        ({"status": 302, "location": "/README.md"}, "a redirect loop at"),
        ({"status": 301, "location": "http://10.0.0.1/README.md"}, "no usable answer"),
        ({"body": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"}, "binary file, not a markdown"),
        ({"body": "caf\xe9 [x](https://x.example)".encode("latin-1")}, "is not UTF-8 text"),
        ({"body": b"<html><body><p>Nothing to read here</p></body></html>"}, "No reading-list"),
    ],
    ids=["slow", "broken", "gone", "redirect-loop", "redirect-private", "binary", "latin1", "junk"],
)
def test_a_failing_source_is_a_clear_job_error_and_nothing_is_written(
    guide, served_source, settings, curator, django_capture_on_commit_callbacks, served_as, message
):
    settings.FETCH_DEADLINE = 1
    served, _ = served_source
    served.update(served_as)
    before = layout(guide)
    with django_capture_on_commit_callbacks() as callbacks:
        tasks.refetch_due_guides.enqueue()
    [enqueue_refetch] = callbacks
    jobs = []

    def finished(sender, task_result, **kwargs):
        jobs.append(task_result)

    task_finished.connect(finished)
    try:
        enqueue_refetch()
    finally:
        task_finished.disconnect(finished)
    [job] = jobs
    assert job.status == TaskResultStatus.FAILED
    assert job.errors[0].exception_class_path == "apps.curation.syncs.SourceFetchError"
    assert message in job.errors[0].traceback
    status = SourceStatus.objects.get(guide=guide)
    assert status.outcome == FetchOutcome.FAILED and message in status.error
    assert status.text_hash == ""  # nothing of the answer kept
    assert not PendingSync.objects.exists() and mail.outbox == []
    assert layout(guide) == before
    # The error is visible in the admin: the guide's page and the list of fetches.
    client = Client()
    client.force_login(curator)
    change = client.get(reverse("admin:catalog_guide_change", args=[guide.pk]))
    assert "failed: " in change.content.decode()
    listed = client.get(reverse("admin:curation_sourcestatus_changelist"))
    assert message.split(" at")[0] in listed.content.decode().replace("&#x27;", "'")


def test_a_source_that_redirects_to_a_list_is_read(guide, served_source, allow_loopback):
    served, url = served_source
    with source(VERSION_2.encode()) as (_, moved_to):
        served.update(status=301, location=moved_to)
        assert syncs.guide_refetch(guide_id=guide.pk) == FetchOutcome.CHANGED
    assert PendingSync.objects.get().text == VERSION_2


def test_a_retried_job_writes_nothing_twice(
    guide, served_source, django_capture_on_commit_callbacks
):
    served, _ = served_source
    served["body"] = VERSION_2.encode()
    with django_capture_on_commit_callbacks(execute=True):
        syncs.guide_refetch(guide_id=guide.pk)
    SourceStatus.objects.filter(guide=guide).update(text_hash="")  # as if the first run died late
    with django_capture_on_commit_callbacks(execute=True):
        assert syncs.guide_refetch(guide_id=guide.pk) == FetchOutcome.CHANGED
    assert PendingSync.objects.count() == 1 and len(mail.outbox) <= 1


# --- Review, apply, dismiss ----------------------------------------------------------------------
@pytest.fixture
def pending(guide, served_source, django_capture_on_commit_callbacks):
    served, _ = served_source
    served["body"] = VERSION_2.encode()
    run_schedule(django_capture_on_commit_callbacks)
    return PendingSync.objects.get(state=SyncState.PENDING)


def test_a_curator_sees_a_guides_last_fetch(curator_client, pending):
    status = SourceStatus.objects.get(guide=pending.guide)
    page = curator_client.get(reverse("admin:curation_sourcestatus_change", args=[status.pk]))
    assert page.status_code == 200 and "Changed" in page.content.decode()
    assert 'name="_save"' not in page.content.decode()  # read-only


def test_curators_see_every_pending_sync_in_one_place(curator_client, pending):
    index = curator_client.get(reverse("admin:index")).content.decode()
    assert reverse("admin:curation_pendingsync_changelist") in index
    listed = curator_client.get(reverse("admin:curation_pendingsync_changelist"))
    html = listed.content.decode()
    assert f'href="{review_url(pending)}"' in html and "1 added, 0 removed, 1 moved" in html
    assert "the schedule" in html


def test_the_pending_list_does_not_grow_its_queries_with_its_rows(
    curator_client, pending, django_assert_max_num_queries
):
    url = reverse("admin:curation_pendingsync_changelist")
    curator_client.get(url)
    with django_assert_max_num_queries(12) as few:
        curator_client.get(url)
    for number in range(5):
        apply_import(
            plan_import(
                VERSION_1,
                guide_slug=f"g{number}",
                title=f"G{number}",
                source_url=pending.source_url,
            )
        )
        PendingSync.objects.create(
            guide=Guide.objects.get(slug=f"g{number}"),
            source_url=pending.source_url,
            state=SyncState.PENDING,
            summary="1 added",
        )
    with django_assert_max_num_queries(len(few.captured_queries)):
        assert curator_client.get(url).content.decode().count("1 added") == 6


def test_apply_from_the_review_page(curator_client, curator, pending, guide):
    page = curator_client.get(review_url(pending))
    assert page.status_code == 200 and "TensorRT-LLM" in page.content.decode()
    response = curator_client.post(
        review_url(pending), {"seen": page.context["seen"], "apply": "Apply"}
    )
    assert response["Location"] == reverse("admin:catalog_guide_change", args=[guide.pk])
    assert Entry.objects.filter(section__guide=guide, resource__title="TensorRT-LLM").exists()
    pending.refresh_from_db()
    assert pending.state == SyncState.APPLIED and pending.decided_by == curator
    again = curator_client.post(
        review_url(pending), {"seen": page.context["seen"], "apply": "Apply"}, follow=True
    )
    assert "no longer waiting for review" in again.content.decode()


def test_apply_is_refused_when_the_guide_changed_since_the_review(curator_client, pending, guide):
    seen = curator_client.get(review_url(pending)).context["seen"]
    Entry.objects.filter(section__guide=guide, resource__title="vLLM").delete()  # a curator's edit
    before = layout(guide)
    response = curator_client.post(
        review_url(pending), {"seen": seen, "apply": "Apply"}, follow=True
    )
    assert "Nothing was changed: The guide changed since you reviewed this sync" in (
        response.content.decode()
    )
    assert layout(guide) == before
    pending.refresh_from_db()
    assert pending.state == SyncState.PENDING
    page = curator_client.get(review_url(pending)).content.decode()
    assert "the guide has changed since the fetch" in page


def test_dismiss_changes_nothing_and_leaves_the_open_list(curator_client, pending, guide):
    before = layout(guide)
    response = curator_client.post(review_url(pending), {"dismiss": "Dismiss"})
    assert response["Location"] == reverse("admin:curation_pendingsync_changelist")
    pending.refresh_from_db()
    assert pending.state == SyncState.DISMISSED and layout(guide) == before
    listed = curator_client.get(reverse("admin:curation_pendingsync_changelist"))
    assert review_url(pending) not in listed.content.decode()
    everything = curator_client.get(reverse("admin:curation_pendingsync_changelist") + "?state=all")
    assert review_url(pending) in everything.content.decode()


def test_a_failed_fetch_can_be_fetched_again(
    curator_client, guide, served_source, django_capture_on_commit_callbacks
):
    served, url = served_source
    served["status"] = 500
    with django_capture_on_commit_callbacks(execute=True):
        curator_client.post(
            reverse("admin:catalog_guide_sync", args=[guide.pk]), {"source_url": url}
        )
    failed = PendingSync.objects.get()
    assert failed.state == SyncState.FAILED and "HTTP 500" in failed.error
    served.update(status=200, body=VERSION_2.encode())
    with django_capture_on_commit_callbacks(execute=True):
        response = curator_client.post(review_url(failed), {"refetch": "Fetch again"})
    retry = PendingSync.objects.latest("pk")
    assert response["Location"] == review_url(retry)
    assert retry.state == SyncState.PENDING
    failed.refresh_from_db()
    assert failed.state == SyncState.DISMISSED


# --- Who is refused ------------------------------------------------------------------------------
def new_urls(pending):
    return [
        reverse("admin:curation_pendingsync_changelist"),
        review_url(pending),
        reverse("admin:curation_sourcestatus_changelist"),
        reverse(
            "admin:curation_sourcestatus_change",
            args=[SourceStatus.objects.get(guide=pending.guide).pk],
        ),
    ]


def test_a_learner_and_a_visitor_are_sent_to_the_admin_login(
    learner_client, visitor, pending, guide
):
    before = layout(guide)
    for client in (learner_client, visitor):
        for url in new_urls(pending):
            response = client.get(url)
            assert response.status_code == 302 and "/admin/login/" in response["Location"]
        response = client.post(review_url(pending), {"apply": "Apply", "seen": "x"})
        assert response.status_code == 302 and "/admin/login/" in response["Location"]
    pending.refresh_from_db()
    assert pending.state == SyncState.PENDING and layout(guide) == before


def test_a_curator_without_the_sync_permissions_is_refused(client, curator, pending, guide):
    curator.groups.clear()
    curator.user_permissions.add(
        *Permission.objects.filter(
            content_type__app_label="catalog", codename__in=["view_guide", "change_guide"]
        )
    )
    client.force_login(curator)
    before = layout(guide)
    assert client.get(review_url(pending)).status_code == 403
    assert client.post(review_url(pending), {"dismiss": "Dismiss"}).status_code == 403
    assert client.get(reverse("admin:curation_pendingsync_changelist")).status_code == 403
    for url in new_urls(pending):
        assert client.get(url).status_code == 403, url
    index = client.get(reverse("admin:index")).content.decode()
    assert reverse("admin:curation_pendingsync_changelist") not in index
    pending.refresh_from_db()
    assert pending.state == SyncState.PENDING and layout(guide) == before
    assert syncs.sync_recipients() == []  # nor is mailed


def test_staff_without_permissions_gets_no_mail(pending):
    UserFactory(username="staff", email="staff@example.com", is_staff=True)
    assert "staff@example.com" not in syncs.sync_recipients()


def test_a_missing_pending_sync_is_404(curator_client):
    assert curator_client.get("/admin/curation/pendingsync/999999/change/").status_code == 404
    assert curator_client.get("/admin/curation/pendingsync/x/change/").status_code == 404
