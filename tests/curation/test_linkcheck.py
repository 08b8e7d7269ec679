"""The link checker, against a local HTTP server only: nothing here leaves 127.0.0.1."""

import socket
import threading
import time
from collections import Counter
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from io import StringIO

import pytest
from django.contrib.admin.models import LogEntry
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from apps.catalog.importer.urls import title_looks_poor
from apps.catalog.models import LinkStatus, Resource
from apps.curation.linkcheck import TITLE_BYTES, LinkChecker, page_title, tidy_title
from apps.curation.linkruns import linkcheck_run_execute, linkcheck_start
from tests.factories import ResourceFactory

SLOW_SECONDS = 1.5
TIMEOUT = 0.3
PAUSE = 0.2


HTML = "text/html; charset=utf-8"
PAGES = {  # path → (Content-Type, body) for the title suggestions
    "/og": (
        HTML,
        b'<html><head><title>Plain title</title><meta property="og:title" '
        b'content="Shared title &amp; more"></head><body></body></html>',
    ),
    "/titled": (
        HTML,
        b"<!doctype html><html><head><title>\n  Attention &amp; Memory:\n\t KV&nbsp;cache "
        b"&#8212; explained  </title></head></html>",
    ),
    "/latin1": (
        "text/html; charset=iso-8859-1",
        "<title>Caf\u00e9 notes</title>".encode("iso-8859-1"),
    ),
    "/plain": ("text/plain", b"<title>Not a web page</title>"),
    "/untitled": (HTML, b"<html><head></head><body><h1>No title here</h1></body></html>"),
    # the title comes after the bytes the checker reads: no suggestion, and no 2 MB read
    "/huge": (HTML, b"<html><head>" + b" " * (2 * 1024 * 1024) + b"<title>Too late</title>"),
}


class Handler(BaseHTTPRequestHandler):
    hits: Counter = Counter()
    lock = threading.Lock()
    in_flight = 0
    peak = 0  # most /pause requests served at the same time

    def log_message(self, *args):  # keep test output clean
        pass

    def _answer(self, code, location=None, body=b"", content_type=None):
        self.send_response(code)
        if location:
            self.send_header("Location", location)
        if content_type:
            self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command == "GET":
            self.wfile.write(body)

    def _route(self):
        path = self.path.split("?")[0]
        Handler.hits[(self.command, path)] += 1
        try:
            if path == "/ok":
                return self._answer(200, body=b"hello")
            if path == "/moved":
                return self._answer(301, "/ok")
            if path == "/moved-to-missing":
                return self._answer(302, "/missing")
            if path == "/missing":
                return self._answer(404)
            if path == "/loop":
                return self._answer(302, "/loop2")
            if path == "/loop2":
                return self._answer(302, "/loop")
            if path == "/no-head":
                return self._answer(405 if self.command == "HEAD" else 200)
            if path == "/flaky":
                return self._answer(503 if Handler.hits[("HEAD", "/flaky")] == 1 else 200)
            if path == "/down":
                return self._answer(500)
            if path == "/slow":
                time.sleep(SLOW_SECONDS)
                return self._answer(200)
            if path in PAGES:
                content_type, body = PAGES[path]
                return self._answer(200, body=body, content_type=content_type)
            if path == "/pause":
                with Handler.lock:
                    Handler.in_flight += 1
                    Handler.peak = max(Handler.peak, Handler.in_flight)
                time.sleep(PAUSE)
                with Handler.lock:
                    Handler.in_flight -= 1
                return self._answer(200)
            return self._answer(404)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the checker gave up waiting, as it should

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
def fresh_hits():
    Handler.hits.clear()


@pytest.fixture
def checker(allow_loopback):
    return LinkChecker(timeout=TIMEOUT, retries=1, backoff=0.01)


# --- One URL -----------------------------------------------------------------------------------
def test_200_is_ok(server, checker):
    result = checker.check(f"{server}/ok")
    assert (result.status, result.status_code, result.final_url, result.error) == (
        LinkStatus.OK,
        200,
        "",
        "",
    )
    assert Handler.hits == {("HEAD", "/ok"): 1}


def test_301_is_redirected_with_the_target_recorded(server, checker):
    result = checker.check(f"{server}/moved")
    assert (result.status, result.status_code, result.final_url) == (
        LinkStatus.REDIRECTED,
        301,
        f"{server}/ok",
    )


def test_404_is_broken_after_a_get_to_be_sure(server, checker):
    result = checker.check(f"{server}/missing")
    assert (result.status, result.status_code, result.error) == (LinkStatus.BROKEN, 404, "HTTP 404")
    assert Handler.hits == {("HEAD", "/missing"): 1, ("GET", "/missing"): 1}


def test_a_redirect_to_a_404_is_broken_and_says_where(server, checker):
    result = checker.check(f"{server}/moved-to-missing")
    assert (result.status, result.status_code, result.final_url) == (
        LinkStatus.BROKEN,
        404,
        f"{server}/missing",
    )


def test_a_server_that_refuses_head_is_asked_with_get(server, checker):
    assert checker.check(f"{server}/no-head").status == LinkStatus.OK


def test_timeout_is_an_error_after_retrying(server, checker):
    started = time.monotonic()
    result = checker.check(f"{server}/slow")
    elapsed = time.monotonic() - started
    assert result.status == LinkStatus.ERROR and result.status_code is None
    assert result.error == "Could not fetch the URL."  # no timing detail: see test_fetch
    assert Handler.hits[("HEAD", "/slow")] == 2  # one retry
    assert elapsed < SLOW_SECONDS * 2  # it did not wait for the server


def test_a_budget_caps_the_time_spent_on_one_url(server, allow_loopback):
    checker = LinkChecker(timeout=SLOW_SECONDS * 2, retries=3, backoff=0.01, budget=0.5)
    started = time.monotonic()
    result = checker.check(f"{server}/slow")
    assert time.monotonic() - started < SLOW_SECONDS
    assert (result.status, result.error) == (LinkStatus.ERROR, "Could not fetch the URL.")


def test_5xx_is_retried_with_backoff(server, allow_loopback):
    sleeps = []
    checker = LinkChecker(timeout=TIMEOUT, retries=2, backoff=0.5, sleep=sleeps.append)
    assert checker.check(f"{server}/flaky").status == LinkStatus.OK
    assert sleeps == [0.5]
    result = checker.check(f"{server}/down")
    assert (result.status, result.status_code) == (LinkStatus.BROKEN, 500)
    assert sleeps == [0.5, 0.5, 1.0]


def test_a_redirect_loop_is_an_error(server, checker):
    result = checker.check(f"{server}/loop")
    assert result.status == LinkStatus.ERROR and "loop" in result.error


def test_a_refused_connection_is_an_error(checker):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    result = checker.check(f"http://127.0.0.1:{port}/")
    assert (result.status, result.error) == (LinkStatus.ERROR, "Could not fetch the URL.")


def test_private_addresses_are_refused_unless_allowed(server):
    result = LinkChecker(timeout=TIMEOUT).check(f"{server}/ok")
    assert (result.status, result.error) == (LinkStatus.ERROR, "Could not fetch the URL.")
    assert not Handler.hits


def test_only_http_urls_are_checked(checker):
    assert checker.check("ftp://127.0.0.1/file").status == LinkStatus.ERROR


def test_urls_are_checked_concurrently(server, checker):
    urls = [f"{server}/pause?n={n}" for n in range(4)]
    Handler.peak = 0
    results = checker.check_many([*urls, urls[0]], workers=4)
    assert Handler.peak > 1  # requests overlapped: one after the other would never exceed 1
    assert set(results) == set(urls) and all(r.status == LinkStatus.OK for r in results.values())


# --- Resources, command, admin action ------------------------------------------------------------
def resources_check_links(*, resources, checker, titles="poor") -> Counter:
    """A link-check run of ``resources``, executed here (tests/curation/test_linkruns.py tests
    the runs themselves): the Counter of its results' statuses."""
    run = linkcheck_start(resources=resources, titles=titles, enqueue=False)
    linkcheck_run_execute(run_id=run.pk, checker=checker)
    return Counter(run.results.values_list("status", flat=True))


@pytest.mark.django_db
def test_results_are_recorded_on_the_resources(server, checker):
    ok = ResourceFactory(url=f"{server}/ok")
    moved = ResourceFactory(url=f"{server}/moved")
    missing = ResourceFactory(url=f"{server}/missing")
    no_url = ResourceFactory(url=None)
    before = Resource.objects.get(pk=ok.pk).updated_at
    counts = resources_check_links(resources=Resource.objects.all(), checker=checker)
    assert counts == Counter({LinkStatus.OK: 1, LinkStatus.REDIRECTED: 1, LinkStatus.BROKEN: 1})
    ok, moved, missing, no_url = (
        Resource.objects.get(pk=r.pk) for r in (ok, moved, missing, no_url)
    )
    assert (ok.link_status, ok.link_status_code, ok.link_checked_at is not None) == (
        LinkStatus.OK,
        200,
        True,
    )
    assert (moved.link_status, moved.link_final_url) == (LinkStatus.REDIRECTED, f"{server}/ok")
    assert (missing.link_status, missing.link_status_code, missing.link_error) == (
        LinkStatus.BROKEN,
        404,
        "HTTP 404",
    )
    assert no_url.link_status == LinkStatus.UNCHECKED and no_url.link_checked_at is None
    assert ok.updated_at == before  # a check is not an edit


@pytest.mark.django_db
def test_command_checks_only_stale_links(server, allow_loopback):
    fresh = ResourceFactory(
        url=f"{server}/missing", link_status=LinkStatus.OK, link_checked_at=timezone.now()
    )
    stale = ResourceFactory(
        url=f"{server}/missing?stale", link_checked_at=timezone.now() - timedelta(days=10)
    )
    never = ResourceFactory(url=f"{server}/slow")
    out = StringIO()
    call_command(
        "check_links",
        "--only-stale",
        "7",
        "--workers",
        "2",
        "--timeout",
        str(TIMEOUT),
        "--retries",
        "0",
        stdout=out,
    )
    fresh.refresh_from_db(), stale.refresh_from_db(), never.refresh_from_db()
    assert fresh.link_status == LinkStatus.OK
    assert stale.link_status == LinkStatus.BROKEN
    assert never.link_status == LinkStatus.ERROR
    output = out.getvalue()
    assert (
        "checking 2 resource URLs with 2 workers" in output
        and "Broken: 1" in output
        and "Unreachable: 1" in output
    )
    # progress as each URL finishes, not silence until the end
    assert sorted(
        line.split("] ")[0].strip() for line in output.splitlines() if line.strip().startswith("[")
    ) == ["[1/2", "[2/2"]
    assert f"broken {server}/missing?stale" in output


@pytest.mark.django_db
def test_command_rejects_bad_options():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError):
        call_command("check_links", "--workers", "0")


@pytest.mark.django_db
def test_admin_action_checks_selected_links_in_a_run(
    server, allow_loopback, curator_client, django_capture_on_commit_callbacks
):
    ok, missing = ResourceFactory(url=f"{server}/ok"), ResourceFactory(url=f"{server}/missing")
    with django_capture_on_commit_callbacks(execute=True):  # the job, run at once here
        response = curator_client.post(
            reverse("admin:catalog_resource_changelist"),
            {"action": "check_links", "_selected_action": [ok.pk, missing.pk]},
        )
    assert response.status_code == 302 and "/linkcheckrun/" in response["Location"]
    assert Resource.objects.get(pk=missing.pk).link_status == LinkStatus.BROKEN
    assert not LogEntry.objects.exists()  # a check is not an edit: the run is its record
    broken = curator_client.get(reverse("admin:catalog_resource_changelist"), {"link": "attention"})
    assert list(broken.context["cl"].result_list) == [Resource.objects.get(pk=missing.pk)]


# --- Title suggestions -------------------------------------------------------------------------
def test_a_pages_og_title_is_preferred_to_its_title(server, checker):
    result = checker.check(f"{server}/og", read_title=True)
    assert (result.status, result.page_title) == (LinkStatus.OK, "Shared title & more")
    assert Handler.hits == {("HEAD", "/og"): 1, ("GET", "/og"): 1}


def test_a_title_is_unescaped_and_its_whitespace_collapsed(server, checker):
    assert (
        checker.check(f"{server}/titled", read_title=True).page_title
        == "Attention & Memory: KV cache — explained"
    )
    assert checker.check(f"{server}/latin1", read_title=True).page_title == "Café notes"


def test_no_title_from_a_page_that_is_not_html_has_none_or_is_too_long(server, checker):
    for path in ("/plain", "/untitled", "/huge"):
        result = checker.check(f"{server}{path}", read_title=True)
        assert (result.status, result.page_title) == (LinkStatus.OK, ""), path
    assert len(PAGES["/huge"][1]) > 20 * TITLE_BYTES


def test_no_page_is_fetched_for_a_title_unless_asked(server, checker):
    assert checker.check(f"{server}/og").page_title == ""
    assert Handler.hits == {("HEAD", "/og"): 1}


def test_a_broken_link_has_no_title(server, checker):
    assert checker.check(f"{server}/missing", read_title=True).page_title == ""


@pytest.mark.parametrize(
    ("title", "url", "tidy"),
    [
        ("The Rise of vLLM - YouTube", "https://www.youtube.com/watch?v=x", "The Rise of vLLM"),
        (
            "Mastering LLM Techniques | NVIDIA Technical Blog",
            "https://developer.nvidia.com/blog/x",
            "Mastering LLM Techniques",
        ),
        (
            "GitHub - srush/GPU-Puzzles: Solve puzzles. Learn CUDA.",
            "https://github.com/srush/GPU-Puzzles",
            "srush/GPU-Puzzles: Solve puzzles. Learn CUDA.",
        ),
        ("vLLM - Easy, fast LLM serving", "https://vllm.ai/", "vLLM - Easy, fast LLM serving"),
        (
            "Prefill - Decode - Disaggregation",
            "https://example.com/p",
            "Prefill - Decode - Disaggregation",
        ),
        ("YouTube", "https://www.youtube.com/watch?v=x", "YouTube"),
    ],
)
def test_a_site_name_is_trimmed_from_a_title_and_nothing_else(title, url, tidy):
    assert tidy_title(title, url) == tidy


def test_page_title_reads_html_with_a_parser():
    assert page_title('<meta name="og:title" content="  A\n B ">') == "A B"
    assert page_title("<title>One</title><title>Two</title>") == "One"
    assert page_title("<p>&lt;title&gt;not a title&lt;/title&gt;</p>") == ""
    assert page_title("<!-- <title>commented out</title> --><title>Real</title>") == "Real"


def test_which_titles_look_poor():
    url = "https://www.youtube.com/watch?v=abc"
    assert title_looks_poor("YouTube video abc", url)
    assert title_looks_poor("distill.pub", "https://distill.pub/")
    assert title_looks_poor(url, url)
    assert not title_looks_poor("The Rise of vLLM", url)
    assert not title_looks_poor("mml", None)


@pytest.mark.django_db
def test_suggestions_are_stored_for_poor_titles_or_all(server, checker):
    poor = ResourceFactory(url=f"{server}/og", title=f"{server}/og")
    good = ResourceFactory(url=f"{server}/titled", title="A good title")
    same = ResourceFactory(url=f"{server}/latin1", title="127.0.0.1")
    kept = ResourceFactory(url=f"{server}/untitled", title="x.y", suggested_title="Earlier")
    resources_check_links(resources=Resource.objects.all(), checker=checker)
    poor, good, same, kept = (Resource.objects.get(pk=r.pk) for r in (poor, good, same, kept))
    assert poor.suggested_title == "Shared title & more" and poor.title == f"{server}/og"
    assert good.suggested_title == ""  # a good title is not second-guessed by default
    assert ("GET", "/titled") not in Handler.hits
    assert same.suggested_title == "Café notes"
    assert kept.suggested_title == "Earlier"  # no title found: the earlier suggestion stays

    resources_check_links(resources=Resource.objects.all(), checker=checker, titles="all")
    good.refresh_from_db()
    assert good.suggested_title == "Attention & Memory: KV cache — explained"
    Resource.objects.filter(pk=good.pk).update(title="attention &  memory: kv cache — explained")
    resources_check_links(
        resources=Resource.objects.filter(pk=good.pk), checker=checker, titles="all"
    )
    good.refresh_from_db()
    assert good.suggested_title == ""  # the page says what the title says: nothing to suggest


@pytest.mark.django_db
def test_command_suggests_titles_and_says_so(server, allow_loopback):
    resource = ResourceFactory(url=f"{server}/og", title="127.0.0.1/og")
    out = StringIO()
    call_command("check_links", "--timeout", str(TIMEOUT), stdout=out)
    resource.refresh_from_db()
    assert resource.suggested_title == "Shared title & more"
    assert "[1/1] ok" in out.getvalue() and "1 title suggestions waiting" in out.getvalue()
    Resource.objects.filter(pk=resource.pk).update(suggested_title="")
    call_command("check_links", "--titles", "none", stdout=StringIO())
    resource.refresh_from_db()
    assert resource.suggested_title == ""


@pytest.fixture
def suggested(db):
    return [
        ResourceFactory(title="YouTube video abc", suggested_title="The Rise of vLLM"),
        ResourceFactory(title="distill.pub", suggested_title="Distill — Latest articles"),
        ResourceFactory(title="Fine as it is"),
    ]


def test_the_changelist_shows_and_filters_title_suggestions(curator_client, suggested):
    url = reverse("admin:catalog_resource_changelist")
    page = curator_client.get(url, {"suggestion": "yes"})
    assert {r.pk for r in page.context["cl"].result_list} == {suggested[0].pk, suggested[1].pk}
    assert "The Rise of vLLM" in page.content.decode()
    assert "Has one" in page.content.decode()
    assert page.context["cl"].list_display[1:3] == ["title", "title_suggestion"]
    assert "title_suggestion" not in curator_client.get(url).context["cl"].list_display
    none = curator_client.get(url, {"suggestion": "no"})
    assert [r.pk for r in none.context["cl"].result_list] == [suggested[2].pk]


def test_accepting_suggested_titles_renames_logs_and_clears(curator_client, suggested):
    response = curator_client.post(
        reverse("admin:catalog_resource_changelist"),
        {"action": "accept_suggested_titles", "_selected_action": [r.pk for r in suggested]},
    )
    assert response.status_code == 302
    first, second, third = (Resource.objects.get(pk=r.pk) for r in suggested)
    assert (first.title, first.suggested_title) == ("The Rise of vLLM", "")
    assert (second.title, second.suggested_title) == ("Distill — Latest articles", "")
    assert third.title == "Fine as it is"
    assert (
        LogEntry.objects.get(object_id=str(first.pk)).change_message
        == "Title: “YouTube video abc” → “The Rise of vLLM” (suggested)."
    )
    assert not LogEntry.objects.filter(object_id=str(third.pk)).exists()


def test_dismissing_suggested_titles_keeps_the_titles(curator_client, suggested):
    curator_client.post(
        reverse("admin:catalog_resource_changelist"),
        {"action": "dismiss_suggested_titles", "_selected_action": [suggested[0].pk]},
    )
    first, second = (Resource.objects.get(pk=r.pk) for r in suggested[:2])
    assert (first.title, first.suggested_title) == ("YouTube video abc", "")
    assert second.suggested_title == "Distill — Latest articles"
    assert LogEntry.objects.get(object_id=str(first.pk)).change_message == (
        "Dismissed the title suggestion."
    )


def test_accepting_titles_is_refused_without_change_permission(client, curator, suggested):
    from django.contrib.auth.models import Permission

    curator.groups.clear()
    curator.user_permissions.add(Permission.objects.get(codename="view_resource"))
    client.force_login(curator)
    url = reverse("admin:catalog_resource_changelist")
    assert "accept_suggested_titles" not in client.get(url).content.decode()
    client.post(url, {"action": "accept_suggested_titles", "_selected_action": [suggested[0].pk]})
    first = Resource.objects.get(pk=suggested[0].pk)
    assert (first.title, first.suggested_title) == ("YouTube video abc", "The Rise of vLLM")
    assert not LogEntry.objects.exists()


def test_accepting_titles_is_refused_to_a_learner(learner_client, suggested):
    response = learner_client.post(
        reverse("admin:catalog_resource_changelist"),
        {"action": "accept_suggested_titles", "_selected_action": [suggested[0].pk]},
    )
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert Resource.objects.get(pk=suggested[0].pk).title == "YouTube video abc"
