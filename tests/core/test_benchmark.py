"""`manage.py benchmark` refuses anything but PostgreSQL (the benchmark itself is never run here)."""

import pytest
from django.core.management import CommandError, call_command


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
