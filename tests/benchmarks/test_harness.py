"""`make benchmark`'s pieces: it refuses anything but PostgreSQL, its guards fail on missing
data, and its churn writer saves through the real admin of a server the test starts on
127.0.0.1 (the benchmark itself is never run here)."""

import io
import math
import os
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

import pytest
from django.contrib.admin.models import LogEntry
from django.core.wsgi import get_wsgi_application
from django.test import Client
from django.urls import reverse

from apps.catalog.models import Guide, Resource
from benchmarks import harness
from benchmarks.__main__ import (
    Command,
    CommandError,
    churn_misses,
    guard_misses,
    p95_ratio,
    page_ratio,
    ratio_text,
    scenarios_chosen,
)
from benchmarks.harness import Endpoint, Measurement, Visitor
from tests.factories import ResourceFactory, ResourceLinkFactory, TopicFactory


def call_command(name, **options):
    assert name == "benchmark"
    Command().handle(
        database_url=options.get("database_url"),
        concurrency=4,
        users=10,
        scenarios=options.get("scenarios", "quiet,churn,growth"),
    )


@pytest.mark.parametrize("url", ["sqlite:///bench.sqlite3", "mysql://root@127.0.0.1/bench"])
def test_benchmark_refuses_a_database_that_is_not_postgresql(url):
    with pytest.raises(CommandError, match="needs PostgreSQL"):
        call_command("benchmark", database_url=url)


def test_benchmark_refuses_sqlite_from_database_url(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "sqlite:////tmp/syllabus.sqlite3")
    with pytest.raises(CommandError, match="SQLite"):
        call_command("benchmark")


def test_benchmark_refuses_the_maintenance_database():
    with pytest.raises(CommandError, match="own database"):
        call_command("benchmark", database_url="postgres://postgres@127.0.0.1:5432/postgres")


def test_rounds_of_one_endpoint_merge_into_one_measurement():
    first = Measurement("guide", requests=3, errors=0, seconds=1.0, latencies=[0.001, 0.002, 0.003])
    second = Measurement("guide", requests=2, errors=1, seconds=0.5, latencies=[0.004])
    merged = Measurement.merged([first, second])
    assert (merged.name, merged.requests, merged.errors, merged.seconds) == ("guide", 5, 1, 1.5)
    assert merged.rps == pytest.approx(5 / 1.5)
    assert merged.percentile(50) == pytest.approx(2.5)  # ms, over every round's latencies


def test_a_page_with_no_measured_requests_in_a_round_fails_its_guard():
    # Round 2's requests all finished in the warm-up: its p50 (and ratio) is nan, the page unmeasured.
    ratio = page_ratio([1.2, Measurement("guide", 0, 0, 1.0, []).percentile(50) / 2.0, 1.4])
    assert math.isnan(ratio)
    assert guard_misses("guide (225 entries)", ratio, total_kb=50.0, errors=0) == [
        "no measured requests in a round"
    ]
    assert ratio_text(ratio) == "nan× (no measured requests)"
    # An endpoint without a ratio guard (the floor) fails on nan too.
    assert guard_misses("floor: /healthz", math.nan, None, 0) != []


def test_a_measured_page_within_its_guard_is_ok_and_over_it_is_not():
    assert page_ratio([1.2, 3.0, 1.4]) == 1.4
    assert guard_misses("guide (225 entries)", 1.4, 50.0, 0) == []
    assert ratio_text(1.4) == "1.4×"
    assert guard_misses("guide (225 entries)", 3.6, 120.0, 2) == [
        "> 3.5× floor",
        "> 100 KB",
        "2 errors",
    ]


def test_search_rotates_its_queries_over_threads_and_requests():
    paths = [harness.search_path(query) for query in harness.SEARCH_QUERIES]
    endpoint = Endpoint("search", paths[0], path_for=harness.rotation(paths, threads=4))
    steps = len(paths) // 4
    requested = [endpoint.request_path(i, n) for n in range(steps) for i in range(4)]
    # Every query once before any again; each thread asks something new each time.
    assert sorted(requested) == sorted(paths)
    assert endpoint.request_path(0, 0) != endpoint.request_path(0, 1)
    assert len(set(harness.SEARCH_QUERIES)) >= 20
    assert Endpoint("guide", "/guides/g/").request_path(3, 7) == "/guides/g/"


def test_progress_rows_are_inserted_in_random_order_across_learners():
    # Not one learner's rows contiguously, as a plain INSERT … SELECT of the cross join leaves them.
    assert harness._PROGRESS_SQL.rstrip().endswith("ORDER BY random()")


class FakeResponse:
    def __init__(self, status):
        self.status = status

    def read(self):
        return b""


class FakeConnection:
    def __init__(self, status=200):
        self.requests = []
        self.status = status

    def request(self, method, path, body=None, headers=None):
        self.requests.append((method, path, body, headers.get("Cookie")))

    def getresponse(self):
        return FakeResponse(self.status)

    def close(self):
        pass


def _endpoints():
    return [
        Endpoint("floor: /healthz", "/healthz"),
        Endpoint("home (anonymous)", "/"),
        Endpoint("guide", "/guides/g/", signed_in=True),
        Endpoint(
            "search",
            "/search/?q=a",
            signed_in=True,
            path_for=harness.rotation(["/search/?q=a", "/search/?q=b", "/search/?q=c"], 2),
        ),
        Endpoint(
            "tick (POST, htmx)",
            "/progress/r/",
            method="POST",
            signed_in=True,
            body=lambda index, number: "status=done" if number % 2 == 0 else "status=not_started",
        ),
    ]


def test_warm_up_requests_every_endpoint_on_every_connection():
    connections = [FakeConnection(), FakeConnection()]
    signed_in = [Visitor({"s": "one"}, "t1"), Visitor({"s": "two"}, "t2")]
    anonymous = [Visitor(), Visitor()]
    made = harness.warm_workers(
        port=8220,
        endpoints=_endpoints(),
        visitors=lambda endpoint: signed_in if endpoint.signed_in else anonymous,
        connections=connections,
    )
    assert made == 2 * 5 * 2
    for index, conn in enumerate(connections):
        paths = {path for _, path, _, _ in conn.requests}
        assert {"/healthz", "/", "/guides/g/", "/progress/r/"} <= paths
        assert any(path.startswith("/search/") for path in paths)
        # Each connection as its own visitor; the tick toggles there and back.
        assert ("GET", "/guides/g/", None, f"s={signed_in[index].cookies['s']}") in conn.requests
        assert [body for method, _, body, _ in conn.requests if method == "POST"] == [
            "status=done",
            "status=not_started",
        ]


def test_warm_up_stops_the_benchmark_on_an_error():
    with pytest.raises(harness.BenchmarkError, match="warming up"):
        harness.warm_workers(
            port=8220,
            endpoints=_endpoints()[:2],
            visitors=lambda endpoint: [Visitor()],
            connections=[FakeConnection(status=500)],
        )


def test_the_workers_are_warmed_before_round_one(monkeypatch):
    calls = []
    monkeypatch.setattr(harness, "visitor_for", lambda port, key, page: Visitor({"s": key}, "t"))
    monkeypatch.setattr(harness, "query_counts", lambda base_dir, env, pages: {})
    monkeypatch.setattr(
        harness,
        "balanced_connections",
        lambda server, count, workers: [FakeConnection() for _ in range(count)],
    )

    def warm(*, port, endpoints, visitors, connections):
        calls.append(("warm", len(connections), [e.name for e in endpoints]))

    def load(*, endpoint, **kwargs):
        calls.append(("load", endpoint.name))
        return Measurement(endpoint.name, 1, 0, 1.0, [0.001])

    monkeypatch.setattr(harness, "warm_workers", warm)
    monkeypatch.setattr(harness, "load_run", load)
    monkeypatch.setattr(harness, "page_weight", lambda port, path, visitor: None)
    catalog = harness.Catalog(
        "/guides/g/", "u", 3, "/paths/p/", "/resources/r/", "/topics/t/", "/search/?q=a", ["r"]
    )
    server = type("FakeServer", (), {"port": 8220})()
    options = {"rounds": 1, "duration": 1.0, "warmup": 0.1, "max_requests": 10, "workers": 2}
    background = []

    class Writer:
        def start(self):
            calls.append(("start", "writer"))

        def stop(self):
            calls.append(("stop", "writer"))

    def during(port):
        background.append(port)
        return Writer()

    pages = Command(stdout=io.StringIO())._measure(
        server, catalog, ["k1", "k2"], options, None, {}, during=during
    )
    # The churn writer saves from after the warm-up to after the last round, on the server's port.
    assert background == [8220]
    assert calls[1] == ("start", "writer") and calls[-1] == ("stop", "writer")
    calls = [calls[0], *calls[2:-1]]
    assert [page.endpoint.name for page in pages][0] == "floor: /healthz"
    # One run of every page per round, each after a run of the floor.
    assert [page.measurement.requests for page in pages] == [len(pages) - 1] + [1] * (
        len(pages) - 1
    )
    assert calls[0][0] == "warm"
    assert calls[0][1] == 2  # every connection
    assert set(calls[0][2]) == {name for kind, name in calls[1:]}  # every endpoint measured


# --- Scenarios and their guards ---------------------------------------------------------------


def test_scenarios_run_in_their_order_and_churn_needs_quiet():
    assert scenarios_chosen("growth, quiet,churn") == ["quiet", "churn", "growth"]
    assert scenarios_chosen("quiet") == ["quiet"]
    assert scenarios_chosen("growth") == ["growth"]
    with pytest.raises(CommandError, match="needs quiet|compared with quiet"):
        scenarios_chosen("churn")
    with pytest.raises(CommandError, match="comma-separated"):
        scenarios_chosen("quiet,storm")
    with pytest.raises(CommandError, match="comma-separated"):
        scenarios_chosen(" , ")


def test_an_unknown_scenario_is_refused_before_anything_is_dropped():
    with pytest.raises(CommandError, match="comma-separated"):
        call_command(
            "benchmark",
            database_url="postgres://postgres@127.0.0.1:5432/bench_never_made",
            scenarios="quiet,storm",
        )


def test_churn_passes_within_twice_the_quiet_p95():
    assert p95_ratio(30.0, quiet_p95=20.0) == pytest.approx(1.5)
    assert churn_misses(30.0, 20.0, errors=0, saves=30) == []
    assert churn_misses(40.0, 20.0, errors=0, saves=30) == []  # exactly 2x is within


def test_churn_fails_over_twice_the_quiet_p95_and_on_errors():
    assert churn_misses(41.0, 20.0, errors=3, saves=30) == ["p95 > 2× quiet", "3 errors"]


def test_churn_fails_when_a_page_measured_nothing_under_churn():
    # Every answer under churn was an error: no p95, not "ok".
    assert math.isnan(p95_ratio(math.nan, 20.0))
    assert churn_misses(math.nan, 20.0, errors=0, saves=30) == ["no measured requests"]


@pytest.mark.parametrize("quiet_p95", [math.nan, None, 0.0])
def test_churn_fails_without_a_quiet_p95_to_compare(quiet_p95):
    assert math.isnan(p95_ratio(30.0, quiet_p95))
    assert churn_misses(30.0, quiet_p95, errors=0, saves=30) == ["no quiet p95 to compare"]


def test_churn_without_a_single_curator_save_fails():
    assert churn_misses(22.0, 20.0, errors=0, saves=0) == ["no curator save while measured"]


# --- Memory per worker ------------------------------------------------------------------------

STATUS = """Name:\tgunicorn
Umask:\t0022
State:\tS (sleeping)
VmPeak:\t  412344 kB
VmSize:\t  398120 kB
VmHWM:\t  215040 kB
VmRSS:\t  106496 kB
RssAnon:\t   81920 kB
Threads:\t5
"""


def test_vmrss_is_read_from_proc_status_in_mib():
    assert harness.vm_rss_mib(STATUS) == 104.0  # VmRSS, not VmHWM or RssAnon
    with pytest.raises(harness.BenchmarkError, match="VmRSS"):
        harness.vm_rss_mib(STATUS.replace("VmRSS", "VmSwap"))
    with open("/proc/self/status") as status:
        assert harness.vm_rss_mib(status.read()) > 1


def test_worker_rss_reads_each_child_of_the_server_process():
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        server = type("FakeServer", (), {"process": type("P", (), {"pid": os.getpid()})()})()
        deadline = time.monotonic() + 10
        while child.pid not in (rss := harness.worker_rss(server)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert 1 < rss[child.pid] < 1024
        assert f"(pid {child.pid})" in harness.rss_text(rss)
    finally:
        child.kill()
        child.wait()
    assert harness.rss_text({}) == "no worker found"


# --- The churn writer -------------------------------------------------------------------------

CHANGE_PAGE = """<html><body>
<form id="logout-form" method="post" action="/admin/logout/">
  <input type="hidden" name="csrfmiddlewaretoken" value="t0"><button type="submit">Log out</button>
</form>
<form method="post" id="resource_form" enctype="multipart/form-data">
  <input type="hidden" name="csrfmiddlewaretoken" value="t1">
  <input type="text" name="title" value="Attention &amp; more" maxlength="300">
  <input type="url" name="url" value="https://example.com/a?x=1&amp;y=2">
  <select name="kind"><option value="">---</option><option value="paper" selected>Paper</option></select>
  <select name="tier"><option value="1">One</option><option value="2">Two</option></select>
  <select name="topics" multiple><option value="3" selected>A</option><option value="4">B</option>
    <option value="5" selected>C</option></select>
  <textarea name="description">
Line one &lt;b&gt;
line two</textarea>
  <input type="checkbox" name="is_published" checked>
  <input type="checkbox" name="links-0-DELETE">
  <input type="radio" name="priority" value="must"><input type="radio" name="priority" value="maybe" checked>
  <input type="number" name="effort_minutes" value="">
  <input type="text" name="frozen" value="x" disabled>
  <input type="file" name="upload">
  <input type="hidden" name="links-TOTAL_FORMS" value="1">
  <input type="submit" value="Save" name="_save">
</form></body></html>"""


def test_form_fields_are_what_a_browser_submits_from_the_form_holding_the_field():
    assert harness.form_fields(CHANGE_PAGE, holding="title") == [
        ("csrfmiddlewaretoken", "t1"),
        ("title", "Attention & more"),
        ("url", "https://example.com/a?x=1&y=2"),
        ("kind", "paper"),
        ("tier", "1"),  # nothing selected: a single select sends its first option
        ("topics", "3"),
        ("topics", "5"),
        ("description", "Line one <b>\nline two"),
        ("is_published", "on"),
        ("priority", "maybe"),
        ("effort_minutes", ""),
        ("links-TOTAL_FORMS", "1"),
    ]
    with pytest.raises(harness.BenchmarkError, match="no form"):
        harness.form_fields(CHANGE_PAGE, holding="nothing")


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture
def admin_server(transactional_db, settings):
    """The project's WSGI application on 127.0.0.1 (a free port), in a thread, behind a
    TLS-terminating proxy as production is (the writer sends X-Forwarded-Proto: https)."""
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    server = make_server(
        "127.0.0.1", 0, get_wsgi_application(), server_class=WSGIServer, handler_class=_QuietHandler
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_port
    server.shutdown()
    server.server_close()


def _signed_in(user, settings):
    client = Client()
    client.force_login(user)
    return Visitor(
        cookies={settings.SESSION_COOKIE_NAME: client.cookies[settings.SESSION_COOKIE_NAME].value}
    )


def _writer(port, visitor, resource, **kwargs):
    return harness.CuratorWriter(
        port=port,
        visitor=visitor,
        change_path=reverse("admin:catalog_resource_change", args=[resource.pk]),
        field="title",
        values=("Attention Is All You Need", "Attention Is All You Need (revised)"),
        **kwargs,
    )


@pytest.fixture
def curated(transactional_db):
    topics = [TopicFactory(), TopicFactory()]
    resource = ResourceFactory(title="Attention Is All You Need", topics=topics)
    ResourceLinkFactory(resource=resource, url="https://example.org/code", label="Code")
    return resource


def test_the_churn_writer_saves_the_admin_form_changing_only_its_field(
    admin_server, curated, superuser, settings
):
    before = {field: getattr(curated, field) for field in ("url", "kind", "author", "description")}
    writer = _writer(admin_server, _signed_in(superuser, settings), curated)
    writer.save("Attention Is All You Need (revised)")
    curated.refresh_from_db()
    assert curated.title == "Attention Is All You Need (revised)"
    assert {field: getattr(curated, field) for field in before} == before
    assert curated.topics.count() == 2
    assert list(curated.links.values_list("url", "label")) == [("https://example.org/code", "Code")]
    # A real admin save: it is in the resource's history, by the curator.
    assert LogEntry.objects.filter(object_id=str(curated.pk), user=superuser).count() == 1


def test_the_churn_writer_saves_every_interval_and_leaves_the_field_as_it_found_it(
    admin_server, curated, superuser, settings
):
    writer = _writer(admin_server, _signed_in(superuser, settings), curated, interval=0.2)
    writer.start()
    deadline = time.monotonic() + 20
    while len(writer.saves) < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    writer.stop()
    assert writer.failures == []
    saves = len(writer.saves)
    assert saves >= 3
    # At most one save per interval (the first at once), none in a burst.
    assert saves <= writer.seconds / 0.2 + 1
    curated.refresh_from_db()
    assert curated.title == "Attention Is All You Need"  # an odd count is saved back once more
    logged = LogEntry.objects.filter(object_id=str(curated.pk)).count()
    assert logged == saves + saves % 2


def test_the_churn_writer_fails_for_someone_who_may_not_curate(
    admin_server, curated, learner, settings
):
    writer = _writer(admin_server, _signed_in(learner, settings), curated)
    with pytest.raises(harness.BenchmarkError, match="answered 302"):
        writer.save("Vandalised")
    curated.refresh_from_db()
    assert curated.title == "Attention Is All You Need"


def test_a_refused_save_is_reported_with_the_form_errors(
    admin_server, curated, superuser, settings
):
    writer = _writer(admin_server, _signed_in(superuser, settings), curated)
    with pytest.raises(harness.BenchmarkError, match="answered 200: .*"):
        writer.save("")  # a title is required: the admin shows the form again
    curated.refresh_from_db()
    assert curated.title == "Attention Is All You Need"


def test_grown_database_sits_beside_the_benchmark_database():
    url = "postgres://postgres@127.0.0.1:5432/syllabus_bench"
    assert (
        harness.grown_database_url(url) == "postgres://postgres@127.0.0.1:5432/syllabus_bench_grown"
    )
    assert urlsplit(harness.benchmark_database_url(harness.grown_database_url(url))).path == (
        "/syllabus_bench_grown"
    )


def test_growth_imports_the_real_lists_but_not_their_index():
    lists = harness.real_lists(harness.Path(__file__).resolve().parents[2])
    assert len(lists) >= 15
    assert all(path.suffix == ".md" and path.name != "SOURCES.md" for path in lists)
    assert lists == sorted(lists)


def test_growth_imports_real_lists_as_published_guides_until_the_catalog_has_grown(db, monkeypatch):
    ResourceFactory.create_batch(10)

    def manage_in_process(base_dir, env, *args):
        assert args[:2] == ("shell", "-c")
        out = io.StringIO()
        monkeypatch.setattr(sys, "stdout", out)
        exec(args[2], {})  # the script manage.py shell would run, in this test's database
        monkeypatch.undo()
        return out.getvalue()

    monkeypatch.setattr(harness, "manage", manage_in_process)
    base_dir = harness.Path(__file__).resolve().parents[2]
    growth = harness.catalog_grow(base_dir, {}, factor=5)
    assert growth.before["resources"] == 10
    assert growth.after["resources"] >= 50
    assert growth.factor == growth.after["resources"] / 10
    # Stopped once grown: the lists are taken in name order, as few as needed.
    names = [name for name, _ in growth.imported]
    assert names == [path.name for path in harness.real_lists(base_dir)][: len(names)]
    assert growth.skipped == []
    guides = Guide.objects.filter(slug__startswith=harness.GROWN_SLUG_PREFIX)
    assert guides.count() == len(names) == growth.after["guides"]
    assert all(guide.is_published for guide in guides)
    assert Resource.objects.published().count() == growth.after["resources"]


class _SlowHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as gunicorn serves the load
    delay = 0.0
    served = 0

    def do_GET(self):
        time.sleep(self.delay)
        type(self).served += 1
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *args):
        pass


@pytest.fixture
def slow_server():
    """A server on 127.0.0.1 answering every GET after `_SlowHandler.delay` seconds."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _SlowHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def _load(server, *, delay, warmup, duration):
    _SlowHandler.delay = delay
    _SlowHandler.served = 0
    port = server.server_port
    connections = [harness.http_connection(port) for _ in range(2)]
    try:
        return harness.load_run(
            port=port,
            endpoint=Endpoint("guide", "/guides/g/"),
            visitors=[Visitor(), Visitor()],
            connections=connections,
            duration=duration,
            max_requests=1000,
            warmup=warmup,
        )
    finally:
        for conn in connections:
            conn.close()


def test_a_request_outlasting_the_run_is_measured_not_dropped(slow_server):
    # Each request takes longer than the whole run (a page stalled by a rebuild): the one each
    # thread began in the warm-up is measured, with its real latency.
    measurement = _load(slow_server, delay=0.5, warmup=0.05, duration=0.2)
    assert measurement.requests == 2 and measurement.errors == 0
    assert all(latency >= 0.5 for latency in measurement.latencies)
    assert measurement.percentile(95) >= 500


def test_requests_finished_within_the_warm_up_are_not_measured(slow_server):
    measurement = _load(slow_server, delay=0.02, warmup=0.3, duration=0.3)
    # Each thread's first requests finished well within the warm-up: served, not measured.
    assert 0 < measurement.requests <= _SlowHandler.served - 2
    assert measurement.errors == 0
