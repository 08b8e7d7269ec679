"""`make benchmark` refuses anything but PostgreSQL (the benchmark itself is never run here)."""

import io
import math

import pytest

from benchmarks import harness
from benchmarks.__main__ import Command, CommandError, guard_misses, page_ratio, ratio_text
from benchmarks.harness import Endpoint, Measurement, Visitor


def call_command(name, **options):
    assert name == "benchmark"
    Command().handle(database_url=options.get("database_url"), concurrency=4, users=10)


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
    # Round 2's requests all fell in the warm-up: its p50 (and ratio) is nan, the page unmeasured.
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
    Command(stdout=io.StringIO())._measure(server, catalog, ["k1", "k2"], options, None, {})
    assert calls[0][0] == "warm"
    assert calls[0][1] == 2  # every connection
    assert set(calls[0][2]) == {name for kind, name in calls[1:]}  # every endpoint measured
