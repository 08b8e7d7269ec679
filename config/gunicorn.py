"""Gunicorn settings for the container image and .ci/prod-check (`gunicorn -c config/gunicorn.py`).

Run as a script (`python config/gunicorn.py`) it is the image's HEALTHCHECK: a GET of
/healthz on the port gunicorn binds, which really queries the database. Keeping the probe
here keeps it next to the port and host it has to match.

Gunicorn validates every value below itself, so a junk WEB_CONCURRENCY stops it at start-up
with the setting's name in the error.
"""

import os
import sys

PORT = os.environ.get("PORT", "8000")

wsgi_app = "config.wsgi:application"
bind = [f"0.0.0.0:{PORT}"]

# Processes × threads = requests served at once. Threads are cheap for an I/O-bound Django
# app; each one may hold a DB connection (DB_CONN_MAX_AGE), so mind PostgreSQL's limit.
workers = os.environ.get("WEB_CONCURRENCY", "2")
threads = os.environ.get("GUNICORN_THREADS", "4")
worker_class = "gthread"

# Load the app once in the master: a settings error (no SECRET_KEY, a bad boolean) stops the
# server with one clear traceback instead of every worker crash-looping.
preload_app = True

timeout = 30
# SIGTERM (docker stop) lets in-flight requests finish; compose's stop_grace_period is longer.
graceful_timeout = 25
keepalive = 5
# Recycle workers now and then, so a slow leak never takes the site down; not often, since a new
# worker rebuilds its memo of the shared page parts (apps.core.content) on its first requests.
max_requests = os.environ.get("GUNICORN_MAX_REQUESTS", "10000")
max_requests_jitter = 1000

# The heartbeat file on tmpfs: the container's disk may be slow or read-only.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
# No gunicornc control socket: nobody manages workers by hand inside the container, and the
# non-root user's home is not writable.
control_socket_disable = True

# Everything to stdout/stderr for `docker compose logs`, at Django's LOG_LEVEL.
accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms "%(a)s"'
proc_name = "syllabus"

# The container HEALTHCHECK below asks every 30 s; its answers would be most of a quiet site's log.
HEALTHCHECK_AGENT = "syllabus-healthcheck"


def _access_logger():
    from gunicorn.glogging import Logger

    class AccessLogger(Logger):
        """gunicorn's logger, minus the access lines of our own health probe when it passes."""

        def access(self, resp, req, environ, request_time):
            agent = next((value for name, value in req.headers if name == "USER-AGENT"), "")
            if agent == HEALTHCHECK_AGENT and str(resp.status).startswith("200"):
                return
            super().access(resp, req, environ, request_time)

    return AccessLogger


if __name__ != "__main__":  # as gunicorn's config; the health probe below needs none of this
    logger_class = _access_logger()


def on_starting(server):
    """At start-up, log the version and what the system checks say (e.g. mail that goes nowhere).

    Before the port is opened (unlike when_ready): while the checks run, a proxy's connection is
    refused and tried on another replica at once, instead of waiting in the listen queue."""
    import threading

    from django.conf import settings
    from django.core import checks

    commit = os.environ.get("SYLLABUS_COMMIT", "unknown")  # the image's build arg GIT_COMMIT
    # At WARNING, so LOG_LEVEL=WARNING still shows which version runs.
    server.log.warning("Syllabus %s (commit %s)", settings.SYLLABUS_VERSION, commit)
    for message in checks.run_checks():
        server.log.warning("%s", message)
    # In a thread: a mail server that never answers must not hold the start for EMAIL_TIMEOUT
    # seconds. (The cache is /healthz's to probe, in the workers.)
    threading.Thread(target=_log_mail_problem, args=(server.log,), daemon=True).start()
    _warm_up(server)


def _log_mail_problem(log):
    from apps.core.health import mail_problem

    problem = mail_problem()
    if problem:
        log.error("%s", problem.message)


def _warm_up(server):
    """One anonymous GET / through the app in the master, before the port opens: the workers it
    forks start with the URLconf loaded, the templates compiled and the shared page parts built,
    so a new replica's first requests (bin/upgrade sends them at once) are not held for seconds.
    Never fatal: a failure is logged and the server starts cold."""
    from wsgiref.util import setup_testing_defaults

    from django.db import connections

    environ = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": "/",
        "HTTP_HOST": _probe_host(),
        "HTTP_X_FORWARDED_PROTO": "https",
        "HTTP_USER_AGENT": HEALTHCHECK_AGENT,
        "wsgi.url_scheme": "https",
    }
    setup_testing_defaults(environ)
    outcome = []
    try:
        body = server.app.wsgi()(
            environ, lambda status, headers, exc_info=None: outcome.append(status)
        )
        for _ in body:
            pass
        getattr(body, "close", lambda: None)()
        server.log.debug("Warm-up GET / -> %s", outcome[0] if outcome else "?")
    except Exception as error:  # a cold start is slower, never broken
        server.log.warning("Warm-up GET / failed (%s); workers start cold", error)
    finally:
        connections.close_all()  # no database connection may be shared with the forked workers


def _probe_host() -> str:
    """A Host header Django accepts: the first concrete ALLOWED_HOSTS entry."""
    for entry in os.environ.get("ALLOWED_HOSTS", "").split(","):
        host = entry.strip().lstrip("*").lstrip(".")
        if host:
            return host
    return "localhost"


def healthcheck() -> int:
    """0 when /healthz answers 200 {"status": "ok"}; 1, with the reason on stderr, otherwise."""
    import json
    import urllib.error
    import urllib.request

    class _NoRedirect(urllib.request.HTTPRedirectHandler):
        # A redirect here is a misconfiguration to report, never a place to go (it names the Host).
        def redirect_request(self, *args, **kwargs):
            return None

    opener = urllib.request.build_opener(_NoRedirect)
    request = urllib.request.Request(
        f"http://127.0.0.1:{PORT}/healthz",
        headers={"Host": _probe_host(), "User-Agent": HEALTHCHECK_AGENT},
    )
    try:
        with opener.open(request, timeout=5) as response:
            body = json.load(response)
    except (urllib.error.URLError, OSError, ValueError) as exc:
        print(f"healthcheck: {exc}", file=sys.stderr)
        return 1
    if body.get("status") != "ok":
        print(f"healthcheck: {body}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(healthcheck())
