"""`make benchmark` refuses anything but PostgreSQL (the benchmark itself is never run here)."""

import pytest

from benchmarks.__main__ import Command, CommandError
from benchmarks.harness import Measurement


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
