"""apps/core/health.py and /healthz: a setting the site cannot work with makes the health check
fail (503), naming the setting and its fix — the cache it is told to use, the host it serves,
the database — and the mail server is probed as EMAIL_URL names it."""

import logging
import time

import pytest

from apps.core import health
from config.log_filters import OncePerKind
from tests.smtp_servers import accept_all, closed_port, hung_server, scripted_server


@pytest.fixture(autouse=True)
def _log_every_kind_afresh():
    """The once-a-minute filter is per process: each test starts with nothing logged yet."""
    for name in ("syllabus.health", "django.request"):
        for log_filter in logging.getLogger(name).filters:
            if isinstance(log_filter, OncePerKind):
                log_filter.forget()


def _redis_at(port):
    return {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{port}/0",
        }
    }


@pytest.mark.django_db
def test_an_unreachable_cache_makes_the_site_unhealthy_and_names_cache_url(client, settings):
    settings.CACHES = _redis_at(closed_port())

    response = client.get("/healthz")

    assert response.status_code == 503
    body = response.json()
    assert (body["status"], body["database"], body["cache"]) == ("error", "ok", "error")
    assert "CACHE_URL" in body["problems"][0]
    assert "COMPOSE_PROFILES=cache" in body["problems"][0]


@pytest.mark.django_db
def test_a_missing_cache_table_makes_the_site_unhealthy_and_says_createcachetable(client, settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "no_such_cache_table",
        }
    }

    response = client.get("/healthz")

    assert response.status_code == 503
    assert "createcachetable" in response.json()["problems"][0]
    assert "CACHE_URL" in response.json()["problems"][0]


@pytest.mark.django_db
def test_a_site_url_host_missing_from_allowed_hosts_makes_the_site_unhealthy(client, settings):
    settings.SITE_URL = "https://syllabus.example.com"
    settings.ALLOWED_HOSTS = ["testserver", "localhost"]

    response = client.get("/healthz")

    assert response.status_code == 503
    body = response.json()
    assert body["host"] == "error"
    assert "SITE_URL's host 'syllabus.example.com' is not in ALLOWED_HOSTS" in body["problems"][0]
    assert "add syllabus.example.com to ALLOWED_HOSTS" in body["problems"][0]


@pytest.mark.django_db
@pytest.mark.parametrize("allowed", [["syllabus.example.com"], [".example.com"], ["*"]])
def test_the_host_is_healthy_when_allowed_hosts_matches_it(client, settings, allowed):
    settings.SITE_URL = "https://syllabus.example.com"
    settings.ALLOWED_HOSTS = ["testserver", *allowed]

    assert client.get("/healthz").status_code == 200


@pytest.mark.django_db
def test_an_unhealthy_probe_is_logged_once_a_minute_not_per_request(client, settings, caplog):
    settings.CACHES = _redis_at(closed_port())

    for _ in range(5):
        assert client.get("/healthz").status_code == 503

    lines = [r for r in caplog.records if r.name in ("syllabus.health", "django.request")]
    assert len(lines) == 1, [r.getMessage() for r in lines]
    assert "CACHE_URL" in lines[0].getMessage()
    assert lines[0].exc_info is None


def test_the_mail_server_probe_passes_when_it_answers(settings):
    with scripted_server(accept_all) as port:
        _smtp(settings, port)
        assert health.mail_problem() is None


def test_a_refused_mail_server_is_a_problem_naming_email_url(settings):
    _smtp(settings, closed_port())

    problem = health.mail_problem()

    assert problem is not None
    assert f"The mail server EMAIL_URL names (127.0.0.1:{settings.EMAIL_PORT})" in problem.message
    assert "fix EMAIL_URL" in problem.message


def test_a_mail_server_that_never_answers_is_a_problem_within_the_timeout(settings):
    with hung_server() as port:
        _smtp(settings, port)
        started = time.monotonic()
        problem = health.mail_problem()
        elapsed = time.monotonic() - started

    assert problem is not None
    assert "did not answer in time" in problem.message
    assert elapsed < 2.5


def test_console_mail_has_no_server_to_probe(settings):
    settings.EMAIL_DELIVERY_BACKEND = "apps.core.mail.ConsoleBackend"

    assert health.mail_problem() is None


def _smtp(settings, port):
    settings.EMAIL_DELIVERY_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = port
    settings.EMAIL_USE_SSL = False
    settings.EMAIL_TIMEOUT = 1


@pytest.mark.django_db
def test_concurrent_cache_probes_do_not_fail_each_other(monkeypatch):
    """Two health checks at once (a load balancer, a benchmark's clients) each probe the cache
    and write the same value when it is missing: the other's write is no reason for a 503."""
    from django.core.cache import cache

    cache.delete(health.PROBE_KEY)  # the first probe after an eviction writes
    real_set, nested = cache.set, []

    def set_then_probe_again(key, value, timeout=None):
        real_set(key, value, timeout)
        if not nested:  # another request's probe runs between this one's set and get
            nested.append("running")
            nested[0] = health.cache_problem()

    monkeypatch.setattr(cache, "set", set_then_probe_again)
    assert health.cache_problem() is None and nested == [None]


@pytest.mark.django_db
def test_a_warm_cache_probe_is_one_read(monkeypatch):
    """The floor of the benchmark and every load balancer's check: once the probe's value is in
    the cache, a probe reads it and writes nothing (one query with the database cache)."""
    from django.core.cache import cache

    assert health.cache_problem() is None  # writes the probe's value if missing
    calls = []
    monkeypatch.setattr(cache, "set", lambda *args, **kwargs: calls.append("set"))
    real_get = cache.get
    monkeypatch.setattr(cache, "get", lambda *a, **k: calls.append("get") or real_get(*a, **k))
    assert health.cache_problem() is None
    assert calls == ["get"]


@pytest.mark.django_db
def test_a_cache_that_keeps_nothing_is_a_problem(monkeypatch):
    from django.core.cache import cache

    cache.delete(health.PROBE_KEY)
    monkeypatch.setattr(cache, "set", lambda *args, **kwargs: None)
    problem = health.cache_problem()
    assert problem is not None and problem.error == "the cache did not keep a value"
