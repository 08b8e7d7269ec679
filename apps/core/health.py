"""What the site needs to serve a page, each probed as it is configured: the database, the cache
it is told to use (CACHE_URL), the host name it is reached by (SITE_URL in ALLOWED_HOSTS), and
the mail server (EMAIL_URL). One owner for /healthz (apps.core.views), the system checks
(apps.core.checks) and gunicorn's start-up log (config/gunicorn.py).

Each probe returns None when all is well, else a ``Problem`` naming the setting and its fix.
"""

import smtplib
import socket
import ssl
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http.request import validate_host


@dataclass(frozen=True)
class Problem:
    part: str  # "database", "cache", "host", "mail"
    message: str  # names the setting and the fix; no secrets (it is served by /healthz)
    error: str = ""  # the exception's class name, for the log


PROBE_KEY, PROBE_VALUE = "healthz:probe", "ok"
PROBE_TIMEOUT = 24 * 3600  # a day: an evicted or expired probe is written again


def database_problem() -> Problem | None:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:
        return Problem(
            "database",
            "The database cannot be reached: check DATABASE_URL, and that the database is up "
            "(docker compose ps db).",
            exc.__class__.__name__,
        )
    return None


def cache_problem() -> Problem | None:
    """A round trip through the cache every sign-in and rate limit uses: one read of a key that
    holds a fixed value, written (and read back) only when the cache does not have it, so a
    warm probe is one round trip (one query with the database cache) and concurrent probes write
    the same value, never failing each other."""
    try:
        if cache.get(PROBE_KEY) == PROBE_VALUE:
            return None
        cache.set(PROBE_KEY, PROBE_VALUE, PROBE_TIMEOUT)
        answered = cache.get(PROBE_KEY)
    except Exception as exc:
        return Problem("cache", _cache_fix(), exc.__class__.__name__)
    if answered != PROBE_VALUE and not settings.CACHES["default"]["BACKEND"].endswith("DummyCache"):
        return Problem("cache", _cache_fix(), "the cache did not keep a value")
    return None


def _cache_fix() -> str:
    if settings.CACHES["default"]["BACKEND"].endswith("DatabaseCache"):
        return (
            "The cache named by CACHE_URL (a database table) cannot be used: run "
            "`manage.py createcachetable` (compose's migrate service does), or fix CACHE_URL."
        )
    return (
        "The cache named by CACHE_URL cannot be reached: start it (COMPOSE_PROFILES=cache for "
        "the bundled Valkey, CACHE_URL=redis://cache:6379/0), or set CACHE_URL=db://django_cache."
    )


def allowed_hosts() -> list[str]:
    """The hosts Django accepts, as ``HttpRequest.get_host`` computes them."""
    hosts = list(settings.ALLOWED_HOSTS)
    if settings.DEBUG and not hosts:
        hosts = [".localhost", "127.0.0.1", "[::1]"]
    return hosts


def host_problem() -> Problem | None:
    """SITE_URL's host is the one visitors (and links in mails) use: Django must accept it."""
    host = urlsplit(settings.SITE_URL).hostname or ""
    if validate_host(host, allowed_hosts()):
        return None
    return Problem(
        "host",
        f"SITE_URL's host {host!r} is not in ALLOWED_HOSTS, so every visitor who uses it gets "
        f"400 Bad Request: add {host} to ALLOWED_HOSTS (or fix SITE_URL).",
    )


def mail_problem() -> Problem | None:
    """Can the mail server EMAIL_URL names be reached and spoken to (within EMAIL_TIMEOUT)?
    Console and locmem mail have nothing to reach (syllabus.W001 warns about those)."""
    if not settings.EMAIL_DELIVERY_BACKEND.endswith("smtp.EmailBackend"):
        return None
    host, port, timeout = settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT
    try:
        if settings.EMAIL_USE_SSL:
            server: smtplib.SMTP = smtplib.SMTP_SSL(
                host, port, timeout=timeout, context=ssl.create_default_context()
            )
        else:
            server = smtplib.SMTP(host, port, timeout=timeout)
        try:
            server.noop()
        finally:
            server.close()
    except (OSError, smtplib.SMTPException) as exc:
        # smtplib reports a silent server as "Connection unexpectedly closed: timed out".
        timed_out = isinstance(exc, socket.timeout) or "timed out" in str(exc)
        reason = f"it did not answer in time (EMAIL_TIMEOUT={timeout} s)" if timed_out else str(exc)
        return Problem(
            "mail",
            f"The mail server EMAIL_URL names ({host}:{port}) cannot be reached: {reason}. "
            "Sign-up and password-reset mails will not leave; fix EMAIL_URL (host and port) or "
            "the mail server.",
            exc.__class__.__name__,
        )
    return None
