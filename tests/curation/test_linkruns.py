"""Link-check runs: the background job, its progress and results in the admin, one run per scope,
stale runs, retries, and the rule that no request handler fetches. Against servers started here
on 127.0.0.1 only."""

import threading
import time
from collections import Counter
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from io import StringIO
from urllib.parse import urlsplit

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Permission
from django.core.management import CommandError, call_command
from django.core.signals import request_finished, request_started
from django.tasks import task_backends
from django.urls import reverse
from django.utils import timezone

from apps.catalog.models import LinkStatus, Resource
from apps.core import fetch as fetch_module
from apps.curation import linkruns
from apps.curation.models import LinkCheckResult, LinkCheckRun, RunState
from apps.curation.tasks import check_all_links, check_links
from tests.factories import ResourceFactory, UserFactory

SLOW_SECONDS = 2.0
HTML = "text/html; charset=utf-8"


class Handler(BaseHTTPRequestHandler):
    hits: Counter = Counter()

    def log_message(self, *args):
        pass

    def _answer(self, code, *, location=None, body=b"", content_type=HTML):
        self.send_response(code)
        if location:
            self.send_header("Location", location)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command == "GET":
            self.wfile.write(body)

    def _route(self):
        path = self.path.split("?")[0]
        Handler.hits[(self.command, path)] += 1
        try:
            if path.startswith("/ok"):
                return self._answer(200, body=b"<title>Fine</title>")
            if path == "/titled":
                return self._answer(
                    200, body=b"<html><head><title>Attention Is All You Need</title></head></html>"
                )
            if path == "/old-home":
                return self._answer(301, location="/new-home")
            if path == "/new-home":
                return self._answer(200, body=b"<title>New home</title>")
            if path == "/junk-page":  # an HTML page of random bytes: answered, nothing to read
                return self._answer(200, body=bytes(range(256)) * 64)
            if path == "/not-http":  # no HTTP at all
                self.wfile.write(b"\x00\xff\xfe garbage \r\n\r\n")
                return None
            if path == "/slow":
                time.sleep(SLOW_SECONDS)
                return self._answer(200)
            return self._answer(404, body=b"<title>Not found</title>")
        except (BrokenPipeError, ConnectionResetError):
            return None

    do_HEAD = _route
    do_GET = _route


@pytest.fixture(scope="module")
def server():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(autouse=True)
def quick_checker(monkeypatch, allow_loopback):
    """The job's checker with deadlines a test can wait for."""
    monkeypatch.setattr(linkruns, "JOB_CHECKER", {"timeout": 0.4, "retries": 1, "budget": 1.0})
    Handler.hits.clear()


@pytest.fixture
def dummy_backend(settings):
    """A task backend that keeps what is enqueued, as a real queue does, instead of running it
    at once (the ImmediateBackend): the jobs run when ``run_jobs`` says."""
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}
    backend = task_backends["default"]
    backend.clear()
    yield backend
    backend.clear()


def run_jobs(backend):
    for result in list(backend.results):
        result.task.call(*result.args, **result.kwargs)
    backend.clear()


def run_page(run):
    return reverse("admin:curation_linkcheckrun_change", args=[run.pk])


START = reverse("admin:curation_linkcheckrun_start")
RUNS = reverse("admin:curation_linkcheckrun_changelist")
RESOURCES = reverse("admin:catalog_resource_changelist")


@pytest.fixture
def catalog(db, server):
    return {
        "titled": ResourceFactory(url=f"{server}/titled", title="127.0.0.1/titled"),
        "missing": ResourceFactory(url=f"{server}/missing", title="A missing page"),
        "moved": ResourceFactory(url=f"{server}/old-home", title="A moved page"),
        "junk": ResourceFactory(url=f"{server}/junk-page", title="127.0.0.1/junk-page"),
        "not_http": ResourceFactory(url=f"{server}/not-http", title="Not HTTP"),
        "slow": ResourceFactory(url=f"{server}/slow", title="A slow page"),
        "concept": ResourceFactory(url=None, title="A concept"),
    }


def fresh(resource):
    return Resource.objects.get(pk=resource.pk)


# --- The job ------------------------------------------------------------------------------------
def test_a_whole_catalog_run_records_titles_404s_moves_junk_and_slow_servers(catalog, server):
    before = fresh(catalog["titled"]).updated_at
    run = linkruns.linkcheck_start(enqueue=False)
    assert (run.state, run.total, run.scope_label) == (RunState.QUEUED, 6, "whole catalog")
    started = time.monotonic()
    check_links.call(run.pk)
    assert time.monotonic() - started < SLOW_SECONDS * 2  # the deadline, not the server, ended it

    titled, missing, moved, junk, not_http, slow, concept = map(fresh, catalog.values())
    assert (titled.link_status, titled.suggested_title) == (
        LinkStatus.OK,
        "Attention Is All You Need",
    )
    assert titled.title == "127.0.0.1/titled" and titled.updated_at == before
    assert (missing.link_status, missing.link_status_code, missing.link_error) == (
        LinkStatus.BROKEN,
        404,
        "HTTP 404",
    )
    assert (moved.link_status, moved.link_status_code, moved.link_final_url) == (
        LinkStatus.REDIRECTED,
        301,
        f"{server}/new-home",
    )
    assert (junk.link_status, junk.suggested_title) == (LinkStatus.OK, "")
    for unreachable in (not_http, slow):
        assert (unreachable.link_status, unreachable.link_error) == (
            LinkStatus.ERROR,
            "Could not fetch the URL.",
        )
    assert concept.link_status == LinkStatus.UNCHECKED

    run = linkruns.runs_with_counts().get(pk=run.pk)
    assert (run.state, run.checked, run.broken, run.moved, run.suggested) == (
        RunState.DONE,
        6,
        3,
        1,
        1,
    )
    assert run.started_at and run.finished_at and not run.error


def test_progress_is_recorded_as_each_url_is_checked_and_the_page_shows_it(catalog, curator_client):
    run = linkruns.linkcheck_start(enqueue=False)
    seen = []

    def progress(done, total, url, result):
        page = curator_client.get(run_page(run)).content.decode()
        seen.append((done, total, linkruns.runs_with_counts().get(pk=run.pk).checked))
        if done == 3:
            assert "3 of 6 links checked" in page and 'http-equiv="refresh"' in page
            assert "Running" in page

    linkruns.linkcheck_run_execute(run_id=run.pk, workers=1, progress=progress)
    assert seen == [(n, 6, n) for n in range(1, 7)]
    page = curator_client.get(run_page(run)).content.decode()
    assert "6 of 6 links checked" in page and 'http-equiv="refresh"' not in page
    assert "3 broken or unreachable" in page and "Done" in page


def test_a_retry_resumes_where_the_failed_attempt_stopped_and_counts_nothing_twice(catalog):
    run = linkruns.linkcheck_start(enqueue=False)

    def fail_after_two(done, total, url, result):
        if done == 2:
            raise OSError("the database went away")

    with pytest.raises(RuntimeError, match="the database went away"):
        linkruns.linkcheck_run_execute(run_id=run.pk, workers=1, progress=fail_after_two)
    run.refresh_from_db()
    assert run.state == RunState.FAILED and "the database went away" in run.error
    first_two = list(run.results.order_by("resource_id").values_list("resource_id", flat=True))
    assert len(first_two) == 2
    # what was recorded is on the resources too: nothing half-written
    assert all(Resource.objects.get(pk=pk).link_status != LinkStatus.UNCHECKED for pk in first_two)
    hits_before = Counter(Handler.hits)

    check_links.call(run.pk)  # the backend's retry
    run = linkruns.runs_with_counts().get(pk=run.pk)
    assert (run.state, run.checked, run.error) == (RunState.DONE, 6, "")
    assert LinkCheckResult.objects.filter(run=run).count() == 6
    for pk in first_two:  # not checked again
        path = urlsplit(Resource.objects.get(pk=pk).url).path
        assert Handler.hits[("HEAD", path)] == hits_before[("HEAD", path)]

    hits_done = Counter(Handler.hits)
    check_links.call(run.pk)  # a retry of a finished run does nothing
    assert Handler.hits == hits_done and LinkCheckResult.objects.filter(run=run).count() == 6


def test_a_run_a_live_job_is_running_is_not_run_twice_and_a_deleted_one_not_at_all(catalog):
    run = linkruns.linkcheck_start(enqueue=False)
    LinkCheckRun.objects.filter(pk=run.pk).update(state=RunState.RUNNING)  # heartbeat: now
    assert check_links.call(run.pk) == {"run": run.pk, "state": RunState.RUNNING}
    assert not Handler.hits and not run.results.exists()
    LinkCheckRun.objects.filter(pk=run.pk).delete()
    assert check_links.call(run.pk) == {"run": run.pk, "state": "deleted"}


def test_a_failed_run_a_newer_run_replaced_is_not_resumed(catalog):
    failed = linkruns.linkcheck_start(enqueue=False)
    LinkCheckRun.objects.filter(pk=failed.pk).update(state=RunState.FAILED, error="It broke.")
    linkruns.linkcheck_start(enqueue=False)
    assert check_links.call(failed.pk)["state"] == RunState.FAILED
    assert not Handler.hits


def test_a_result_older_than_the_resources_last_check_does_not_overwrite_it(catalog):
    run = linkruns.linkcheck_start(resources=Resource.objects.filter(pk=catalog["missing"].pk))
    check_links.call(run.pk)
    later = timezone.now() + timedelta(minutes=1)
    Resource.objects.filter(pk=catalog["missing"].pk).update(
        link_status=LinkStatus.OK, link_checked_at=later
    )
    linkruns._apply(run)
    assert fresh(catalog["missing"]).link_status == LinkStatus.OK


def test_a_stale_run_is_shown_so_and_a_new_run_replaces_it(catalog, curator_client):
    stale = linkruns.linkcheck_start(enqueue=False)
    LinkCheckRun.objects.filter(pk=stale.pk).update(
        state=RunState.RUNNING, heartbeat_at=timezone.now() - timedelta(minutes=11)
    )
    page = curator_client.get(run_page(stale)).content.decode()
    assert "Stale" in page and "the worker running this check" in page
    assert 'http-equiv="refresh"' not in page
    assert "Stale" in curator_client.get(RUNS).content.decode()

    response = curator_client.post(START, {"titles": "poor"})
    new = LinkCheckRun.objects.exclude(pk=stale.pk).get()
    assert response.status_code == 302 and response["Location"] == run_page(new)
    stale.refresh_from_db()
    assert stale.state == RunState.INTERRUPTED and "worker stopped" in stale.error
    check_links.call(stale.pk)  # its job, if it ever comes back, does nothing
    assert not Handler.hits and not stale.results.exists()


def test_a_queued_run_no_worker_picks_up_says_so(catalog, curator_client):
    run = linkruns.linkcheck_start(enqueue=False)
    LinkCheckRun.objects.filter(pk=run.pk).update(heartbeat_at=timezone.now() - timedelta(hours=1))
    page = curator_client.get(run_page(run)).content.decode()
    assert "Waiting for a worker" in page and "no worker is running" in page


# --- Starting runs --------------------------------------------------------------------------------
def test_one_whole_catalog_run_at_a_time(catalog, curator_client, curator):
    first = curator_client.post(START, {"titles": "poor"}, follow=True)
    run = LinkCheckRun.objects.get()
    assert run.started_by == curator and run.state == RunState.QUEUED
    assert "Link check #" in first.content.decode()
    second = curator_client.post(START, {"titles": "all"}, follow=True)
    assert LinkCheckRun.objects.count() == 1
    assert second.redirect_chain[-1][0] == run_page(run)
    assert "already queued" in second.content.decode()
    assert "already queued" in curator_client.get(START).content.decode()
    with pytest.raises(CommandError, match="already queued"):
        call_command("check_links", stdout=StringIO())


def test_one_run_at_a_time_per_selection(catalog):
    one = Resource.objects.filter(pk__in=[catalog["titled"].pk, catalog["missing"].pk])
    linkruns.linkcheck_start(resources=one, enqueue=False)
    with pytest.raises(linkruns.LinkCheckRunning, match="2 selected resources"):
        linkruns.linkcheck_start(resources=one.order_by("-pk"), enqueue=False)
    linkruns.linkcheck_start(resources=one.filter(pk=catalog["titled"].pk), enqueue=False)
    linkruns.linkcheck_start(enqueue=False)  # the whole catalog is another scope
    assert LinkCheckRun.objects.filter(state=RunState.QUEUED).count() == 3


def test_the_admin_action_checks_any_number_of_selected_resources(
    server, curator_client, django_capture_on_commit_callbacks
):
    resources = [ResourceFactory(url=f"{server}/ok{n}") for n in range(40)]  # the old cap was 30
    with django_capture_on_commit_callbacks(execute=True):
        response = curator_client.post(
            RESOURCES, {"action": "check_links", "_selected_action": [r.pk for r in resources]}
        )
    run = linkruns.runs_with_counts().get()
    assert response.status_code == 302 and response["Location"] == run_page(run)
    assert (run.state, run.total, run.checked, run.task_id != "") == (RunState.DONE, 40, 40, True)
    assert Resource.objects.filter(link_status=LinkStatus.OK).count() == 40


def test_check_link_from_the_resource_change_page_starts_a_run(catalog, curator_client):
    url = reverse("admin:catalog_resource_change", args=[catalog["moved"].pk])
    response = curator_client.post(
        url, {"CHANGE_FORM-action": "check_links", "_selected_action": catalog["moved"].pk}
    )
    run = LinkCheckRun.objects.get()
    assert response["Location"] == run_page(run) and run.resource_ids == [catalog["moved"].pk]


def test_nothing_to_check_says_so(db, curator_client):
    concept = ResourceFactory(url=None)
    response = curator_client.post(
        RESOURCES, {"action": "check_links", "_selected_action": [concept.pk]}, follow=True
    )
    assert "none of these resources has a URL" in response.content.decode()
    assert not LinkCheckRun.objects.exists()


def test_the_start_form_refuses_bad_input_and_starts_nothing(catalog, curator_client):
    response = curator_client.post(START, {"titles": "some", "only_stale_days": "-1"})
    assert response.status_code == 200 and response.context["form"].errors.keys() == {
        "titles",
        "only_stale_days",
    }
    assert not LinkCheckRun.objects.exists()


def test_only_stale_links_are_checked_when_asked(catalog, curator_client):
    Resource.objects.exclude(pk=catalog["missing"].pk).update(link_checked_at=timezone.now())
    curator_client.post(START, {"titles": "none", "only_stale_days": "7"})
    run = LinkCheckRun.objects.get()
    assert (run.resource_ids, run.only_stale_days, run.titles) == (
        [catalog["missing"].pk],
        7,
        "none",
    )


# --- Results --------------------------------------------------------------------------------------
@pytest.fixture
def finished_run(catalog):
    run = linkruns.linkcheck_start(enqueue=False)
    check_links.call(run.pk)
    return run


def test_the_run_page_lists_broken_and_moved_links_and_title_suggestions(
    finished_run, catalog, curator_client, server
):
    response = curator_client.get(run_page(finished_run))
    page = response.content.decode()
    assert [r.resource for r in response.context["broken"]] == [
        catalog["missing"],
        catalog["slow"],
        catalog["not_http"],
    ]
    assert "HTTP 404" in page and "Could not fetch the URL." in page
    assert [r.resource for r in response.context["moved"]] == [catalog["moved"]]
    assert f"{server}/new-home" in page
    assert [r.resource for r in response.context["suggestions"]] == [catalog["titled"]]
    assert "Attention Is All You Need" in page


def test_title_suggestions_are_accepted_or_dismissed_from_the_run_page(
    finished_run, catalog, curator_client, server
):
    other = ResourceFactory(title="x.y", suggested_title="Not from this run")
    response = curator_client.post(
        run_page(finished_run),
        {"action": "accept_suggested_titles", "resource": [catalog["titled"].pk, other.pk]},
    )
    assert response.status_code == 302 and response["Location"] == run_page(finished_run)
    titled = fresh(catalog["titled"])
    assert (titled.title, titled.suggested_title) == ("Attention Is All You Need", "")
    assert fresh(other).title == "x.y"  # not one of the run's resources
    assert LogEntry.objects.get(object_id=str(titled.pk)).change_message == (
        "Title: “127.0.0.1/titled” → “Attention Is All You Need” (suggested)."
    )
    page = curator_client.get(run_page(finished_run))
    assert page.context["suggestions"] == []

    Resource.objects.filter(pk=titled.pk).update(title="t", suggested_title="Suggested")
    LinkCheckResult.objects.filter(resource=titled).update(suggested_title="Suggested")
    curator_client.post(
        run_page(finished_run), {"action": "dismiss_suggested_titles", "resource": [titled.pk]}
    )
    assert (fresh(titled).title, fresh(titled).suggested_title) == ("t", "")


def test_an_unknown_action_on_the_run_page_is_refused(finished_run, catalog, curator_client):
    response = curator_client.post(
        run_page(finished_run), {"action": "delete_selected", "resource": [catalog["titled"].pk]}
    )
    assert response.status_code == 403 and Resource.objects.filter(pk=catalog["titled"].pk)


def test_the_list_of_runs_shows_progress_and_counts_in_fixed_queries(catalog, curator_client):
    run = linkruns.linkcheck_start(enqueue=False)
    check_links.call(run.pk)
    page = curator_client.get(RUNS).content.decode()
    assert "6 / 6" in page and "whole catalog" in page

    def queries(url):
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as captured:
            assert curator_client.get(url).status_code == 200
        return len(captured)

    few, few_page = queries(RUNS), queries(run_page(run))
    for n in range(4):
        more = linkruns.linkcheck_start(
            resources=Resource.objects.filter(pk=catalog["missing"].pk), enqueue=False
        )
        check_links.call(more.pk)
        extra = ResourceFactory(url=f"http://127.0.0.1:1/gone{n}")
        LinkCheckResult.objects.create(
            run=run, resource=extra, url=extra.url, status=LinkStatus.BROKEN, error="HTTP 404"
        )
    assert queries(RUNS) == few
    assert queries(run_page(run)) == few_page


# --- Who may -------------------------------------------------------------------------------------
@pytest.fixture
def staff_without_permission(db):
    user = UserFactory(username="stan", email="stan@example.com", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="view_resource"))
    return user


def new_urls(run):
    return [
        ("get", RUNS),
        ("get", START),
        ("post", START),
        ("get", run_page(run)),
        ("post", run_page(run)),
    ]


@pytest.mark.parametrize("who", ["visitor", "learner"])
def test_the_new_admin_urls_refuse_learners_and_visitors(
    who, finished_run, client, learner, catalog
):
    if who == "learner":
        client.force_login(learner)
    data = {
        "titles": "poor",
        "action": "accept_suggested_titles",
        "resource": [catalog["titled"].pk],
    }
    for method, url in new_urls(finished_run):
        response = getattr(client, method)(url, data if method == "post" else None)
        assert response.status_code == 302 and "/login/" in response["Location"], url
    assert LinkCheckRun.objects.count() == 1
    assert fresh(catalog["titled"]).title == "127.0.0.1/titled"


def test_the_new_admin_urls_refuse_staff_who_may_not_change_resources(
    finished_run, client, staff_without_permission, catalog
):
    client.force_login(staff_without_permission)
    data = {
        "titles": "poor",
        "action": "accept_suggested_titles",
        "resource": [catalog["titled"].pk],
    }
    for method, url in new_urls(finished_run):
        response = getattr(client, method)(url, data if method == "post" else None)
        assert response.status_code == 403, url
    assert LinkCheckRun.objects.count() == 1
    assert fresh(catalog["titled"]).title == "127.0.0.1/titled"
    assert "Check all links" not in client.get(RESOURCES).content.decode()


def test_curators_find_link_checks_from_the_resource_list_and_the_index(curator_client, db):
    assert "Check all links…" in curator_client.get(RESOURCES).content.decode()
    assert RUNS in curator_client.get(reverse("admin:index")).content.decode()


# --- No request handler fetches -------------------------------------------------------------------
@pytest.fixture
def fetches_in_requests(monkeypatch):
    """Every fetch the guarded fetcher makes, marked with whether a request was being handled."""
    in_request, calls = threading.local(), []
    real = fetch_module._request

    def started(**kwargs):
        in_request.on = True

    def finished(**kwargs):
        in_request.on = False

    def watched(url, *args, **kwargs):
        calls.append((url, getattr(in_request, "on", False)))
        return real(url, *args, **kwargs)

    monkeypatch.setattr(fetch_module, "_request", watched)
    request_started.connect(started)
    request_finished.connect(finished)
    yield calls
    request_started.disconnect(started)
    request_finished.disconnect(finished)


def test_no_link_check_view_fetches_the_jobs_do(
    catalog,
    curator_client,
    dummy_backend,
    fetches_in_requests,
    django_capture_on_commit_callbacks,
):
    resource = catalog["titled"]
    with django_capture_on_commit_callbacks(execute=True):
        curator_client.post(RESOURCES, {"action": "check_links", "_selected_action": [resource.pk]})
        curator_client.post(
            reverse("admin:catalog_resource_change", args=[catalog["moved"].pk]),
            {"CHANGE_FORM-action": "check_links", "_selected_action": catalog["moved"].pk},
        )
        curator_client.post(START, {"titles": "all"})
        for run in LinkCheckRun.objects.all():
            curator_client.get(run_page(run))
        curator_client.get(RUNS)
    assert len(dummy_backend.results) == 3  # enqueued, not run
    assert fetches_in_requests == []

    run_jobs(dummy_backend)
    assert fetches_in_requests and not any(during for _, during in fetches_in_requests)
    assert LinkCheckRun.objects.filter(state=RunState.DONE).count() == 3
    assert fresh(resource).suggested_title == "Attention Is All You Need"


# --- Command and schedule ---------------------------------------------------------------------------
def test_the_command_runs_the_same_job_and_prints_progress(catalog):
    out = StringIO()
    call_command("check_links", "--workers", "2", "--timeout", "0.4", stdout=out)
    run = linkruns.runs_with_counts().get()
    output = out.getvalue()
    assert (run.state, run.checked) == (RunState.DONE, 6)
    assert f"Link check #{run.pk}: checking 6 resource URLs with 2 workers" in output
    assert "[6/6]" in output and "Broken: 1" in output and "Unreachable: 2" in output
    assert "1 title suggestions waiting" in output


def test_the_command_enqueues_for_a_worker(
    catalog, dummy_backend, django_capture_on_commit_callbacks
):
    out = StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("check_links", "--enqueue", "--titles", "none", stdout=out)
    run = LinkCheckRun.objects.get()
    assert f"Link check #{run.pk} queued: 6 URLs" in out.getvalue()
    assert [r.args for r in dummy_backend.results] == [[run.pk]] and not Handler.hits
    run_jobs(dummy_backend)
    run.refresh_from_db()
    assert run.state == RunState.DONE


def test_the_scheduled_check_starts_one_run_and_not_a_second(
    catalog, dummy_backend, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        first = check_all_links.call()
        second = check_all_links.call()
    assert first["started"] and not second["started"] and first["run"] == second["run"]
    assert [r.task.name for r in dummy_backend.results] == ["check_links"]
