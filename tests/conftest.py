"""Shared fixtures: the suite's one set of personas, the browser harness and the job queue.

The personas: ``learner`` (Ada), ``other_learner`` (Eve, who must never reach Ada's things),
``curator`` (Cora, staff in the Curators group), ``superuser`` (Root), and ``visitor``, a client
nobody signed in to. ``learner_client`` and ``curator_client`` are pytest-django's ``client``
signed in as one of them. Every persona has the password ``tests.factories.PASSWORD``.

Jobs run at once where they are enqueued (the ImmediateBackend, config/test_settings.py);
``database_queue`` puts them on the real database queue instead, and ``run_jobs()`` runs the
worker over it as production does (``manage.py worker --batch``: every job ready now, then back).
"""

import logging
import os
import shutil
import signal

import pytest
from django.core.management import call_command
from django.test import Client

from tests.factories import PASSWORD, UserFactory

# Playwright's sync API runs an event loop in the test thread; the ORM calls our tests make
# around it are still synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def _chromium_path():
    return (
        os.environ.get("CHROMIUM_PATH")
        or shutil.which("chromium")
        or shutil.which("chromium-browser")
    )


@pytest.fixture(scope="session")
def playwright():
    """Playwright, for Debian's Chromium. Outside CI a missing browser skips; in CI it fails."""
    if not _chromium_path():
        if os.environ.get("CI") == "true":
            pytest.fail(
                "CI=true but no Chromium found: install Debian's `chromium` or set CHROMIUM_PATH."
            )
        pytest.skip("Chromium not installed (apt-get install chromium); browser tests skipped.")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="session")
def browser(playwright):
    browser = playwright.chromium.launch(
        executable_path=_chromium_path(), headless=True, args=CHROMIUM_ARGS
    )
    yield browser
    browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture
def learner(db):
    return UserFactory(username="ada", email="ada@example.com")


@pytest.fixture
def other_learner(db):
    return UserFactory(username="eve", email="eve@example.com")


@pytest.fixture
def curator(db):
    from apps.curation.permissions import sync_curator_permissions

    user = UserFactory(username="cora", email="cora@example.com", is_staff=True)
    user.groups.add(sync_curator_permissions())
    return user


@pytest.fixture
def superuser(db):
    return UserFactory(username="root", email="root@example.com", is_staff=True, is_superuser=True)


@pytest.fixture
def visitor(db):
    """Someone nobody signed in to: a client of its own, beside any signed-in one."""
    return Client()


@pytest.fixture
def password():
    return PASSWORD


@pytest.fixture
def learner_client(client, learner):
    client.force_login(learner)
    return client


@pytest.fixture
def curator_client(client, curator):
    client.force_login(curator)
    return client


@pytest.fixture
def database_queue(settings):
    """Jobs go to django-tasks-db's table, to be run by ``run_jobs``."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": []}}


@pytest.fixture
def run_jobs(database_queue, monkeypatch):
    """``run_jobs()``: the worker runs every job ready now, then returns (``worker --batch``). The
    signal handlers and log levels db_worker sets for itself are put back afterwards, and it keeps
    the test's connection (its transaction holds the test's rows) instead of closing it."""
    from django_tasks_db.management.commands import db_worker

    monkeypatch.setattr(db_worker, "close_old_connections", lambda: None)
    loggers = [logging.getLogger(name) for name in ("django.tasks", "django_tasks_db")]

    def run():
        signals = [signal.SIGINT, signal.SIGTERM, signal.SIGQUIT]
        handlers = [signal.getsignal(number) for number in signals]
        levels = [logger.level for logger in loggers]
        try:
            call_command("worker", batch=True)
        finally:
            for number, handler in zip(signals, handlers, strict=True):
                signal.signal(number, handler)
            for logger, level in zip(loggers, levels, strict=True):
                logger.setLevel(level)

    return run


@pytest.fixture
def allow_loopback(settings):
    """Let the guarded fetcher (apps/core/fetch.py) reach the local servers a test starts on
    127.0.0.1; every other non-public address stays refused."""
    settings.FETCH_ALLOW_LOOPBACK = True


def sign_in(page, live_server, user):
    """Give the browser a signed-in session for `user` (the sign-in form has its own tests)."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])


def tick(page, title):
    """The checkbox of the resource titled `title` on a browser page."""
    return page.get_by_role("checkbox", name=f"Done: {title}")


def page_queries(client, url, data=None) -> tuple[int, int]:
    """(cold, warm): SQL queries of a page's first request after a content change — it builds
    this worker's memo (apps.core.content) — and of the next, which every later request pays."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from apps.core.content import memos_clear

    memos_clear()
    counts = []
    for _ in range(2):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url, data).status_code == 200
        counts.append(len(queries))
    return counts[0], counts[1]


# Hypothesis (the parsers' property tests and the malformed-input test): explicit limits, and in
# CI (CI=true) derandomized, so a run is the same run every time. A deadline per example catches
# a parser that backtracks on a generated input; the large adversarial inputs have their own
# time bounds (tests/progress/test_import_hardening.py).
from hypothesis import HealthCheck  # noqa: E402
from hypothesis import settings as hypothesis_settings  # noqa: E402

_HYPOTHESIS = {
    "deadline": 2000,  # ms per example: generous for a shared 2-core machine, far below a hang
    "suppress_health_check": [HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    "print_blob": True,
}
hypothesis_settings.register_profile("ci", derandomize=True, database=None, **_HYPOTHESIS)
hypothesis_settings.register_profile("dev", **_HYPOTHESIS)
hypothesis_settings.load_profile("ci" if os.environ.get("CI") == "true" else "dev")


@pytest.fixture
def memo_builds(monkeypatch):
    """The keys the content memos (apps.core.content) build from now on, the memos emptied."""
    from apps.core.content import ContentMemo, memos_clear

    built = []
    original = ContentMemo.get

    def get(self, tokens, key, build, tables=None):
        def counted():
            built.append(key)
            return build()

        return original(self, tokens, key, counted, tables)

    monkeypatch.setattr(ContentMemo, "get", get)
    memos_clear()
    return built


def rebuilt_by(memo_builds, key, read, write) -> bool:
    """Whether `write` makes the memo build `key` again when `read` next asks for it (outside a
    request every read reads the content tokens). `read` twice first: built once, then kept."""
    read()
    read()
    assert memo_builds.count(key) == 1, memo_builds
    write()
    read()
    return memo_builds.count(key) == 2
