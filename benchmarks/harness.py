"""The pieces of `manage.py benchmark`: a PostgreSQL database at a realistic volume, a production
gunicorn on 127.0.0.1, a bounded keep-alive load generator and the pages' weight as served (gzipped).

Everything here talks to PostgreSQL with psycopg directly (not the ORM): the command runs with
the developer's own settings (often SQLite), while the benchmark database belongs to the
gunicorn it starts. Django is only run, as the production server would run it, in subprocesses.
"""

from __future__ import annotations

import gzip
import http.client
import os
import re
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from html import parser as html_parser
from pathlib import Path
from urllib.parse import urlencode, urlsplit, urlunsplit

import psycopg
from psycopg import sql

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/syllabus_bench"
POSTGRES_SCHEMES = {"postgres", "postgresql", "pgsql", "postgis"}
BENCH_EMAIL_DOMAIN = "bench.example.com"
HOST = "127.0.0.1"


class BenchmarkError(Exception):
    """Anything that stops the benchmark; the command turns it into a CommandError."""


def benchmark_database_url(url: str | None) -> str:
    """The PostgreSQL URL to benchmark against; anything else (SQLite above all) is refused."""
    url = url or DEFAULT_DATABASE_URL
    scheme = urlsplit(url).scheme.lower()
    if scheme not in POSTGRES_SCHEMES:
        raise BenchmarkError(
            f"The benchmark needs PostgreSQL, the production database; got a {scheme or 'non-URL'!r} database "
            f"({url!r}). SQLite's single writer would measure SQLite, not Syllabus. Pass --database-url "
            f"postgres://… or leave DATABASE_URL unset to use {DEFAULT_DATABASE_URL}."
        )
    name = urlsplit(url).path.lstrip("/")
    if not name or name == "postgres":
        raise BenchmarkError(
            f"Name the benchmark's own database in the URL (it is dropped and recreated): {url!r}"
        )
    return url


def _libpq_url(url: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(scheme="postgresql"))


def database_recreate(*, url: str) -> None:
    """Drop and create the benchmark database, from the server's maintenance database."""
    parts = urlsplit(_libpq_url(url))
    name = parts.path.lstrip("/")
    maintenance = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(maintenance, autocommit=True) as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def connect(url: str) -> psycopg.Connection:
    return psycopg.connect(_libpq_url(url), autocommit=True)


# --- Volume ---------------------------------------------------------------------------------

# Weighted towards done: most rows of an active learner are finished things. NOT_STARTED rows
# exist only to hold a note (see progress.models), so they get one.
_PROGRESS_SQL = """
INSERT INTO progress_progress (user_id, resource_id, status, note, started_at, completed_at, created_at, updated_at)
SELECT user_id, resource_id, status,
       CASE WHEN status = 'not_started' THEN 'Come back to this after the basics.' ELSE '' END,
       CASE WHEN status <> 'not_started' THEN at - interval '3 days' END,
       CASE WHEN status = 'done' THEN at END,
       at - interval '3 days', at
FROM (
    SELECT user_id, resource_id, at,
           CASE WHEN s < 0.65 THEN 'done' WHEN s < 0.85 THEN 'in_progress'
                WHEN s < 0.95 THEN 'skipped' ELSE 'not_started' END AS status
    FROM (
        SELECT u.id AS user_id, r.id AS resource_id, random() AS pick, random() AS s,
               now() - random() * interval '365 days' AS at
        FROM auth_user u CROSS JOIN catalog_resource r
        WHERE u.email LIKE %(pattern)s AND r.is_published
        OFFSET 0  -- keeps each random() evaluated once per row
    ) drawn
    WHERE pick < %(share)s
) picked
-- Rows in random order across learners, as real use leaves them (one learner's ticks are days
-- apart, between everyone else's): the heap and the indexes are not clustered by learner.
ORDER BY random()
"""

# One status change per row that has one, plus the start of every finished one: the history
# (the admin's list, the data export) reads these; the heatmap reads the rows' own dates.
_ACTIVITY_SQL = """
INSERT INTO progress_activity (user_id, resource_id, status, occurred_at)
SELECT p.user_id, p.resource_id, p.status, p.updated_at
FROM progress_progress p JOIN auth_user u ON u.id = p.user_id
WHERE u.email LIKE %(pattern)s AND p.status <> 'not_started'
UNION ALL
SELECT p.user_id, p.resource_id, 'in_progress', p.started_at
FROM progress_progress p JOIN auth_user u ON u.id = p.user_id
WHERE u.email LIKE %(pattern)s AND p.status = 'done'
"""


# Learners follow paths: one or two each, drawn among the published ones, half of them with a
# weekly pace. The dashboard shows each followed path's bar, next-up and pace; the path page its
# "following" state.
_FOLLOW_SQL = """
INSERT INTO paths_pathfollow (user_id, path_id, followed_at, hours_per_week, done_minutes_at_follow)
SELECT u.id, p.id, u.date_joined + random() * (now() - u.date_joined),
       CASE WHEN random() < 0.5 THEN 2 + floor(random() * 9)::int END, 0
FROM auth_user u
CROSS JOIN LATERAL (
    SELECT id FROM paths_learningpath WHERE is_published ORDER BY random() LIMIT 1 + u.id %% 2
) p
WHERE u.email LIKE %(pattern)s
"""


@dataclass
class Volume:
    users: int
    progress: int
    activities: int
    follows: int
    seconds: float


def volume_load(*, url: str, users: int, resources_per_user: int, password_hash: str) -> Volume:
    """Benchmark users, their Progress and Activity rows, inserted set-wise by PostgreSQL itself."""
    started = time.monotonic()
    pattern = f"%@{BENCH_EMAIL_DOMAIN}"
    with connect(url) as conn:
        # Rows are consistent by construction; skipping the per-row FK triggers makes the load
        # several times faster (needs a superuser, as the local `postgres` role is).
        conn.execute("SET session_replication_role = replica")
        conn.execute("SET synchronous_commit = off")
        published = conn.execute(
            "SELECT count(*) FROM catalog_resource WHERE is_published"
        ).fetchone()[0]
        if not published:
            raise BenchmarkError("The catalog is empty: `manage.py seed` loaded nothing.")
        share = min(1.0, resources_per_user / published)
        conn.execute(
            """
            INSERT INTO auth_user (password, is_superuser, username, first_name, last_name, email,
                                   is_staff, is_active, date_joined)
            SELECT %(hash)s, false, 'bench' || g, '', '', 'bench' || g || %(domain)s, false, true,
                   now() - random() * interval '400 days'
            FROM generate_series(1, %(users)s) g
            """,
            {"hash": password_hash, "domain": f"@{BENCH_EMAIL_DOMAIN}", "users": users},
        )
        conn.execute(
            """INSERT INTO account_emailaddress (user_id, email, verified, "primary")
               SELECT id, email, true, true FROM auth_user WHERE email LIKE %(pattern)s""",
            {"pattern": pattern},
        )
        progress = conn.execute(_PROGRESS_SQL, {"pattern": pattern, "share": share}).rowcount
        activities = conn.execute(_ACTIVITY_SQL, {"pattern": pattern}).rowcount
        follows = conn.execute(_FOLLOW_SQL, {"pattern": pattern}).rowcount
        conn.execute("SET session_replication_role = DEFAULT")
        # Fresh statistics, as autovacuum would have by the time real traffic arrives.
        conn.execute("VACUUM ANALYZE")
    return Volume(
        users=users,
        progress=progress,
        activities=activities,
        follows=follows,
        seconds=time.monotonic() - started,
    )


# What learners search the seeded catalog for, each matching a few to a few dozen resources. The
# search endpoint rotates through them: one repeated query would measure only a remembered answer.
SEARCH_QUERIES = (
    "attention",
    "kv cache",
    "quantization",
    "speculative decoding",
    "vllm",
    "cuda",
    "fp8",
    "paged attention",
    "mixture of experts",
    "tensor parallelism",
    "triton",
    "distillation",
    "rope",
    "lora",
    "continuous batching",
    "prefix caching",
    "gguf",
    "pruning",
    "long context",
    "throughput",
    "sglang",
    "tensorrt",
    "flashattention",
    "gpu",
)


def search_path(query: str) -> str:
    return "/search/?" + urlencode({"q": query})


def rotation(items: Sequence[str], threads: int) -> Callable[[int, int], str]:
    """A path per request (thread index, request number): the threads take turns through
    `items`, so every item is requested once before any is requested again."""

    def pick(index: int, number: int) -> str:
        return items[(number * threads + index) % len(items)]

    return pick


@dataclass
class Catalog:
    """The URLs the benchmark requests, chosen from the seeded catalog."""

    guide_path: str
    guide_uuid: str
    guide_entries: int
    path_path: str
    resource_path: str
    topic_path: str
    search_path: str
    tick_resources: list[str]
    # The resource a curator edits in the churn scenario: the guide's first, as (admin change
    # page, its title).
    curated_change_path: str = ""
    curated_title: str = ""


def catalog_pick(*, url: str) -> Catalog:
    with connect(url) as conn:
        guide_id, slug, guide_uuid, entries = conn.execute(
            """SELECT g.id, g.slug, g.uuid::text, count(e.id) FROM catalog_guide g
               JOIN catalog_section s ON s.guide_id = g.id JOIN catalog_entry e ON e.section_id = s.id
               WHERE g.is_published GROUP BY g.id ORDER BY count(e.id) DESC LIMIT 1"""
        ).fetchone()
        path_slug = conn.execute(
            """SELECT p.slug FROM paths_learningpath p JOIN paths_pathstep st ON st.path_id = p.id
               JOIN paths_stepresource sr ON sr.step_id = st.id
               WHERE p.is_published GROUP BY p.id ORDER BY count(sr.id) DESC LIMIT 1"""
        ).fetchone()[0]
        tick_resources = [
            row[0]
            for row in conn.execute(
                """SELECT r.uuid::text FROM catalog_entry e JOIN catalog_section s ON s.id = e.section_id
                   JOIN catalog_resource r ON r.id = e.resource_id
                   WHERE s.guide_id = %s AND r.is_published ORDER BY s.position, e.position""",
                [guide_id],
            )
        ]
        curated_id, curated_title = conn.execute(
            "SELECT id, title FROM catalog_resource WHERE uuid = %s", [tick_resources[0]]
        ).fetchone()
        topic_slug = conn.execute(
            """SELECT t.slug FROM catalog_topic t JOIN catalog_resource_topics rt ON rt.topic_id = t.id
               GROUP BY t.id ORDER BY count(*) DESC LIMIT 1"""
        ).fetchone()[0]
    return Catalog(
        guide_path=f"/guides/{slug}/",
        guide_uuid=guide_uuid,
        guide_entries=entries,
        path_path=f"/paths/{path_slug}/",
        resource_path=f"/resources/{tick_resources[0]}/",
        topic_path=f"/topics/{topic_slug}/",
        search_path=search_path(SEARCH_QUERIES[0]),
        tick_resources=tick_resources,
        curated_change_path=f"/admin/catalog/resource/{curated_id}/change/",
        curated_title=curated_title,
    )


# --- The server -----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def production_env(*, url: str, port: int, workers: int) -> dict[str, str]:
    """The production configuration .ci/prod-check serves, on the benchmark database."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"SECRET_KEY_FILE", "DJANGO_SETTINGS_MODULE"}
    }
    env |= {
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": HOST,
        "SITE_URL": f"https://{HOST}",
        # SECURE_SSL_REDIRECT stays on; every request says it came through a TLS proxy.
        "SECURE_PROXY_SSL_HEADER": "true",
        "DATABASE_URL": url,
        "PORT": str(port),
        "WEB_CONCURRENCY": str(workers),
        # No recycling while measuring: a recycled worker's connections reconnect to the other one
        # (see balanced_connections). In production it recycles every 10,000 requests.
        "GUNICORN_MAX_REQUESTS": "0",
        "LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
    }
    return env


def manage(base_dir: Path, env: dict, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=base_dir, env=env, capture_output=True, text=True
    )
    if done.returncode:
        raise BenchmarkError(
            f"manage.py {' '.join(args)} failed:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"
        )
    return done.stdout


# Runs inside Django (manage.py shell) so the sessions are made by Django's own code with the
# server's SECRET_KEY: the benchmark signs users in without the login form's password hashing.
_SESSIONS_SCRIPT = """
from importlib import import_module
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
SessionStore = import_module(settings.SESSION_ENGINE).SessionStore
users = get_user_model().objects.filter(email__endswith="{email_ending}").order_by("?")[:{count}]
for user in users:
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    print("SESSION", session.session_key)
"""


def sessions_create(
    base_dir: Path, env: dict, count: int, *, email_ending: str = f"@{BENCH_EMAIL_DOMAIN}"
) -> list[str]:
    """Session keys of `count` benchmark users (or of the users whose email ends so)."""
    out = manage(
        base_dir,
        env,
        "shell",
        "-c",
        _SESSIONS_SCRIPT.format(email_ending=email_ending, count=count),
    )
    return [line.split()[1] for line in out.splitlines() if line.startswith("SESSION ")]


class Server:
    """gunicorn -c config/gunicorn.py on 127.0.0.1, logging to a file, stopped with SIGTERM."""

    def __init__(self, base_dir: Path, env: dict, log_path: Path):
        self.port = int(env["PORT"])
        self.log = open(log_path, "wb")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "--config",
                "config/gunicorn.py",
                "--bind",
                f"{HOST}:{self.port}",
            ],
            cwd=base_dir,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )

    def _log_tail(self) -> str:
        # The log sits in a temporary directory removed with the server: quote its end.
        self.log.flush()
        return Path(self.log.name).read_text(errors="replace")[-2000:]

    def wait_healthy(self, timeout: float = 90) -> None:
        # Generous: three scenarios start a server each, on a machine that may be busy.
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise BenchmarkError(
                    f"gunicorn exited with {self.process.returncode}:\n{self._log_tail()}"
                )
            try:
                status, _, _ = request_once(self.port, "GET", "/healthz")
                if status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.3)
        raise BenchmarkError(
            f"gunicorn did not answer /healthz within {timeout:.0f} s:\n{self._log_tail()}"
        )

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


# --- HTTP -----------------------------------------------------------------------------------


def base_headers(port: int) -> dict[str, str]:
    # As a TLS-terminating proxy would forward it; Origin satisfies CSRF's HTTPS origin check.
    return {
        "Host": f"{HOST}:{port}",
        "X-Forwarded-Proto": "https",
        "Origin": f"https://{HOST}:{port}",
    }


def http_connection(port: int) -> http.client.HTTPConnection:
    return http.client.HTTPConnection(HOST, port, timeout=30)


def balanced_connections(
    server: Server, count: int, workers: int, attempts: int = 100
) -> list[http.client.HTTPConnection]:
    """`count` keep-alive connections spread evenly over the gunicorn workers.

    Which worker accepts a connection is chance, and a lopsided draw (all four on one worker one
    time in eight) serializes its requests on one interpreter lock: it moved a page's latency,
    and its ratio to the floor, as much as the code did. So a worker holding more than its share
    gives one connection up for a new one until the draw is even (Linux: read from /proc)."""
    connections = [_opened(server.port) for _ in range(count)]
    share = -(-count // workers)
    for _ in range(attempts):
        holders = _workers_of(server, connections)
        crowded = next(
            (i for i, pid in enumerate(holders) if pid is None or holders.count(pid) > share), None
        )
        if crowded is None:
            return connections
        connections[crowded].close()
        connections[crowded] = _opened(server.port)
    raise BenchmarkError(f"could not spread {count} connections over {workers} gunicorn workers")


def _opened(port: int) -> http.client.HTTPConnection:
    """A connection a worker has accepted (it answered a request on it)."""
    conn = http_connection(port)
    conn.request("GET", "/healthz", headers=base_headers(port))
    conn.getresponse().read()
    return conn


def _workers_of(server: Server, connections: list[http.client.HTTPConnection]) -> list[int | None]:
    """The pid of the worker holding the server end of each connection."""
    pid_of_inode = {}
    for pid in _children(server.process.pid):
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                link = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if link.startswith("socket:["):
                pid_of_inode[link[len("socket:[") : -1]] = pid
    inode_of_client_port = {}
    with open("/proc/net/tcp") as table:
        for line in table.readlines()[1:]:
            fields = line.split()
            local_port, remote_port = (
                int(address.rsplit(":", 1)[1], 16) for address in fields[1:3]
            )
            if local_port == server.port:
                inode_of_client_port[remote_port] = fields[9]
    return [
        pid_of_inode.get(inode_of_client_port.get(conn.sock.getsockname()[1]))
        for conn in connections
    ]


def _children(parent: int) -> list[int]:
    children = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    ppid = int(stat.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            if ppid == parent:
                children.append(int(entry))
    return children


def request_once(
    port: int, method: str, path: str, headers: dict | None = None, body: str | None = None
):
    conn = http_connection(port)
    try:
        conn.request(method, path, body=body, headers={**base_headers(port), **(headers or {})})
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


def _cookie(headers: dict, name: str) -> str | None:
    for key, value in headers.items():
        if key.lower() == "set-cookie" and value.startswith(f"{name}="):
            return value.split(";", 1)[0].split("=", 1)[1]
    return None


@dataclass
class Endpoint:
    name: str
    path: str
    method: str = "GET"
    signed_in: bool = False
    # A POST body per request: (thread index, request number) -> urlencoded body.
    body: Callable[[int, int], str] | None = None
    weigh: bool = False
    # A path per request, the same way (search rotates its queries); else always `path`.
    path_for: Callable[[int, int], str] | None = None

    def request_path(self, index: int, number: int) -> str:
        return self.path_for(index, number) if self.path_for else self.path

    def headers(self, port: int, visitor: Visitor) -> dict[str, str]:
        headers = {**base_headers(port), **visitor.headers()}
        if self.method == "POST":
            headers |= {
                "HX-Request": "true",
                "X-CSRFToken": visitor.csrf_token or "",
                "Content-Type": "application/x-www-form-urlencoded",
            }
        return headers


@dataclass
class Measurement:
    name: str
    requests: int
    errors: int
    seconds: float
    latencies: list[float] = field(repr=False)

    @classmethod
    def merged(cls, runs: list[Measurement]) -> Measurement:
        """Several runs of one endpoint as one: their requests, errors, seconds and latencies."""
        return cls(
            runs[0].name,
            sum(run.requests for run in runs),
            sum(run.errors for run in runs),
            sum(run.seconds for run in runs),
            [latency for run in runs for latency in run.latencies],
        )

    @property
    def rps(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    def percentile(self, q: float) -> float:
        if not self.latencies:
            return float("nan")
        if len(self.latencies) == 1:
            return self.latencies[0] * 1000
        return statistics.quantiles(self.latencies, n=100, method="inclusive")[int(q) - 1] * 1000


@dataclass
class Visitor:
    """One load thread's identity: a session cookie and, for writes, a CSRF cookie + token."""

    cookies: dict[str, str] = field(default_factory=dict)
    csrf_token: str | None = None

    def headers(self) -> dict[str, str]:
        if not self.cookies:
            return {}
        return {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}


# The cookies' names under the production settings the server runs with (config/settings.py
# names them `__Host-…` when DEBUG is off and cookies are secure).
SESSION_COOKIE = "__Host-sessionid"
CSRF_COOKIE = "__Host-csrftoken"


def visitor_for(port: int, session_key: str, csrf_page: str) -> Visitor:
    """A signed-in visitor with the CSRF cookie and token a page gives it, as a browser has them."""
    visitor = Visitor(cookies={SESSION_COOKIE: session_key})
    status, headers, body = request_once(port, "GET", csrf_page, visitor.headers())
    if status != 200:
        raise BenchmarkError(f"GET {csrf_page} as a signed-in benchmark user answered {status}")
    token = _cookie(headers, CSRF_COOKIE)
    match = re.search(rb'"X-CSRFToken": "([^"]+)"', body)
    if not token or not match:
        raise BenchmarkError(f"{csrf_page} set no CSRF cookie or token; cannot benchmark writes")
    visitor.cookies[CSRF_COOKIE] = token
    visitor.csrf_token = match.group(1).decode()
    return visitor


def warm_workers(
    *,
    port: int,
    endpoints: list[Endpoint],
    visitors: Callable[[Endpoint], list[Visitor]],
    connections: list[http.client.HTTPConnection],
    requests_each: int = 2,
) -> int:
    """Every endpoint requested `requests_each` times on every connection, unmeasured, before
    round 1. The connections are spread over all the workers (`balanced_connections`), so each
    worker has imported, compiled and built what the pages need before its first measured
    request: otherwise round 1 measures whichever worker happens to be cold. Two requests each,
    so a tick toggles back (done, then not started) as it does under load. Anything but a 2xx
    answer stops the benchmark. Returns the number of requests made."""
    made = 0
    for index in range(len(connections)):
        for endpoint in endpoints:
            visitor = visitors(endpoint)[index]
            headers = endpoint.headers(port, visitor)
            for number in range(requests_each):
                body = endpoint.body(index, number) if endpoint.body else None
                path = endpoint.request_path(index, number)
                connections[index], status = _answered(
                    port, connections[index], endpoint.method, path, body, headers
                )
                made += 1
                if not 200 <= status < 300:
                    raise BenchmarkError(
                        f"warming up: {endpoint.method} {path} answered {status} on connection {index}"
                    )
    return made


def _answered(port, conn, method, path, body, headers):
    """(the connection, the answer's status), reconnecting once if the server closed it."""
    try:
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
    except (http.client.HTTPException, OSError):
        conn.close()
        conn = http_connection(port)
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
    response.read()
    return conn, response.status


def load_run(
    *,
    port: int,
    endpoint: Endpoint,
    visitors: list[Visitor],
    connections: list[http.client.HTTPConnection],
    duration: float,
    max_requests: int,
    warmup: float,
) -> Measurement:
    """Each visitor is one thread on one keep-alive connection (the index-th of `connections`,
    replaced there if the server closes it), requesting as fast as answered until `duration`
    seconds or `max_requests` in all, after `warmup` seconds whose finished requests are not
    measured. Non-2xx answers count as errors.

    The caller keeps the connections from run to run, spread evenly over the workers
    (`balanced_connections`), so the floor and every page are served alike."""
    latencies: list[float] = []
    errors = 0
    count = 0
    lock = threading.Lock()
    start_gate = threading.Barrier(len(visitors) + 1)
    timing = {}

    def worker(index: int, visitor: Visitor):
        nonlocal errors, count
        headers = endpoint.headers(port, visitor)
        conn = connections[index]
        number = 0
        start_gate.wait()
        warm_until = timing["start"] + warmup
        while True:
            now = time.perf_counter()
            if now >= timing["end"]:
                break
            with lock:
                if count >= max_requests:
                    break
            body = endpoint.body(index, number) if endpoint.body else None
            path = endpoint.request_path(index, number)
            number += 1
            began = time.perf_counter()
            try:
                conn.request(endpoint.method, path, body=body, headers=headers)
                response = conn.getresponse()
                response.read()
                status = response.status
            except (http.client.HTTPException, OSError):
                # The server closed the keep-alive connection (a worker stopped): reconnect.
                conn.close()
                conn = connections[index] = http_connection(port)
                continue
            ended = time.perf_counter()
            elapsed = ended - began
            # Only a request that finished within the warm-up goes unmeasured: one that began
            # there and outlasted it (a page rebuilt after a curator's save) is a learner's wait.
            if ended < warm_until:
                continue
            with lock:
                count += 1
                if 200 <= status < 300:
                    latencies.append(elapsed)
                else:
                    errors += 1

    threads = [
        threading.Thread(target=worker, args=(i, v), daemon=True) for i, v in enumerate(visitors)
    ]
    for thread in threads:
        thread.start()
    timing["start"] = time.perf_counter()
    timing["end"] = timing["start"] + warmup + duration
    start_gate.wait()
    for thread in threads:
        thread.join()
    measured = min(time.perf_counter(), timing["end"]) - (timing["start"] + warmup)
    return Measurement(endpoint.name, count, errors, max(measured, 1e-9), latencies)


# --- Weight ---------------------------------------------------------------------------------

_ASSET_RE = re.compile(
    rb'<(?:link[^>]+rel="stylesheet"[^>]*href|script[^>]*src)="(/static/[^"]+\.(?:css|js))"'
)


@dataclass
class Weight:
    html_kb: float
    assets_kb: float
    assets: list[str]

    @property
    def total_kb(self) -> float:
        return self.html_kb + self.assets_kb


def page_weight(port: int, path: str, visitor: Visitor | None) -> Weight:
    """The page as served to a browser asking with Accept-Encoding: gzip: its HTML's bytes on the
    wire (the app compresses its pages; a page sent uncompressed weighs all its bytes), plus each
    linked CSS/JS file as whitenoise serves it the same way."""
    asking = {"Accept-Encoding": "gzip"}
    status, headers, html = request_once(
        port, "GET", path, {**(visitor.headers() if visitor else {}), **asking}
    )
    if status != 200:
        raise BenchmarkError(f"GET {path} answered {status}")
    html_bytes = len(html)
    if _gzipped(headers):
        html = gzip.decompress(html)
    assets = sorted({m.decode() for m in _ASSET_RE.findall(html)})
    asset_bytes = 0
    for asset in assets:
        status, _, body = request_once(port, "GET", asset, asking)
        if status != 200:
            raise BenchmarkError(f"GET {asset} answered {status}")
        asset_bytes += len(body)
    return Weight(html_bytes / 1024, asset_bytes / 1024, assets)


def _gzipped(headers: dict) -> bool:
    return any(k.lower() == "content-encoding" and "gzip" in v for k, v in headers.items())


def markdown_table(rows: list[list[str]], header: list[str]) -> str:
    lines = [
        "| " + " | ".join(header) + " |",
        "|" + "|".join(" --- " if i == 0 else " ---: " for i in range(len(header))) + "|",
    ]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


# Counts each page's SQL queries the way the server makes them (one request, as a bench user),
# so a slow page in the table comes with its likely reason.
_QUERIES_SCRIPT = """
import json
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
paths = json.loads({paths!r})
user = get_user_model().objects.filter(email__endswith="@{domain}").first()
for name, path, signed_in in paths:
    client = Client(HTTP_HOST="127.0.0.1", headers={{"X-Forwarded-Proto": "https"}})
    if signed_in:
        client.force_login(user)
    counts = []
    for _ in range(2):  # the first request builds this process's memo (apps.core.content)
        with CaptureQueriesContext(connection) as queries:
            status = client.get(path).status_code
        counts.append(len(queries))
    print("QUERIES", json.dumps([name, status, "{{}} / {{}}".format(*counts)]))
"""


def query_counts(base_dir: Path, env: dict, pages: list[tuple[str, str, bool]]) -> dict[str, int]:
    import json

    script = _QUERIES_SCRIPT.format(paths=json.dumps(pages), domain=BENCH_EMAIL_DOMAIN)
    out = manage(base_dir, env, "shell", "-c", script)
    counts = {}
    for line in out.splitlines():
        if line.startswith("QUERIES "):
            name, _, count = json.loads(line.removeprefix("QUERIES "))
            counts[name] = count
    return counts


# --- Memory -----------------------------------------------------------------------------------


def vm_rss_mib(status_text: str) -> float:
    """A process's resident memory in MiB, from its /proc/<pid>/status text (`VmRSS:  123456 kB`)."""
    match = re.search(r"^VmRSS:\s+(\d+)\s+kB\s*$", status_text, re.MULTILINE)
    if not match:
        raise BenchmarkError("no VmRSS line in /proc/<pid>/status")
    return int(match.group(1)) / 1024


def worker_rss(server: Server) -> dict[int, float]:
    """The resident memory (MiB) of each gunicorn worker, by pid (Linux: read from /proc)."""
    rss = {}
    for pid in sorted(_children(server.process.pid)):
        try:
            with open(f"/proc/{pid}/status") as status:
                rss[pid] = vm_rss_mib(status.read())
        except OSError:
            continue
    return rss


def rss_text(rss: dict[int, float]) -> str:
    if not rss:
        return "no worker found"
    return ", ".join(f"{mib:.0f} MiB (pid {pid})" for pid, mib in rss.items())


# --- Churn: a curator saving in the admin while learners read ---------------------------------


class _FormReader(html_parser.HTMLParser):
    """The fields each `<form>` of a page submits, as a browser would send them when its submit
    button is pressed: named inputs (checkboxes and radios only when checked; no file, button or
    disabled ones), each select's chosen options, each textarea's text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms: list[list[tuple[str, str]]] = []
        self._form: list[tuple[str, str]] | None = None
        self._select: dict | None = None
        self._option: dict | None = None
        self._textarea: dict | None = None

    def handle_starttag(self, tag, attrs):
        attributes = {name: value if value is not None else "" for name, value in attrs}
        if tag == "form":
            self._form = []
            self.forms.append(self._form)
            return
        if self._form is None or "disabled" in attributes:
            return
        name = attributes.get("name")
        if tag == "input" and name:
            kind = attributes.get("type", "text").lower()
            if kind in {"submit", "button", "image", "file", "reset"}:
                return
            if kind in {"checkbox", "radio"}:
                if "checked" in attributes:
                    self._form.append((name, attributes.get("value", "on")))
                return
            self._form.append((name, attributes.get("value", "")))
        elif tag == "select" and name:
            self._select = {"name": name, "multiple": "multiple" in attributes, "options": []}
        elif tag == "option" and self._select is not None:
            self._option = {
                "value": attributes.get("value"),
                "text": "",
                "selected": "selected" in attributes,
            }
            self._select["options"].append(self._option)
        elif tag == "textarea" and name:
            self._textarea = {"name": name, "text": ""}

    def handle_data(self, data):
        if self._option is not None:
            self._option["text"] += data
        elif self._textarea is not None:
            self._textarea["text"] += data

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        elif tag == "option":
            self._option = None
        elif tag == "select" and self._select is not None:
            options = self._select["options"]
            chosen = [option for option in options if option["selected"]]
            if not chosen and options and not self._select["multiple"]:
                chosen = options[:1]  # a single select sends its first option when none is selected
            for option in chosen:
                value = option["value"] if option["value"] is not None else option["text"].strip()
                if self._form is not None:
                    self._form.append((self._select["name"], value))
            self._select = self._option = None
        elif tag == "textarea" and self._textarea is not None:
            if self._form is not None:
                # The HTML parser keeps the newline a browser drops right after <textarea>.
                self._form.append(
                    (self._textarea["name"], self._textarea["text"].removeprefix("\n"))
                )
            self._textarea = None


def form_fields(html: str, *, holding: str) -> list[tuple[str, str]]:
    """The (name, value) pairs a browser would submit from the page's form that has a field named
    `holding` (the admin's change form, not the logout form in its header)."""
    reader = _FormReader()
    reader.feed(html)
    reader.close()
    for fields in reader.forms:
        if any(name == holding for name, _ in fields):
            return fields
    raise BenchmarkError(f"no form with a {holding!r} field on the page")


def _set_cookies(headers: list[tuple[str, str]], cookies: dict[str, str]) -> None:
    for key, value in headers:
        if key.lower() == "set-cookie":
            name, _, rest = value.partition("=")
            cookies[name] = rest.split(";", 1)[0]


class CuratorWriter:
    """A signed-in curator saving one admin change form every `interval` seconds, in a thread:
    GET the form, change `field` (alternately to each of `values`), POST it back with the other
    fields as the page holds them and the "Save" button, as a curator's browser does. A save is a
    redirect (302); anything else is a failure, recorded in `failures`. `stop()` saves once more
    if needed so the field ends with its first value (the benchmark database keeps its catalog)."""

    def __init__(
        self,
        *,
        port: int,
        visitor: Visitor,
        change_path: str,
        field: str,
        values: tuple[str, str],
        interval: float = 2.0,
    ):
        self.port = port
        self.visitor = visitor
        self.change_path = change_path
        self.field = field
        self.values = values
        self.interval = interval
        self.saves: list[float] = []  # seconds each save took (GET + POST)
        self.failures: list[str] = []
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def _request(self, method: str, body: str | None = None):
        headers = {**base_headers(self.port), **self.visitor.headers()}
        if body is not None:
            headers |= {
                "Content-Type": "application/x-www-form-urlencoded",
                "Referer": f"https://{HOST}:{self.port}{self.change_path}",
            }
        conn = http_connection(self.port)
        try:
            conn.request(method, self.change_path, body=body, headers=headers)
            response = conn.getresponse()
            _set_cookies(response.getheaders(), self.visitor.cookies)
            return response.status, response.read().decode("utf-8", "replace")
        finally:
            conn.close()

    def save(self, value: str) -> None:
        """One save of the form with `field` set to `value`; a failure raises BenchmarkError."""
        status, html = self._request("GET")
        if status != 200:
            raise BenchmarkError(f"GET {self.change_path} as the curator answered {status}")
        fields = [
            (name, value if name == self.field else current)
            for name, current in form_fields(html, holding=self.field)
        ]
        status, html = self._request("POST", urlencode([*fields, ("_save", "Save")]))
        if status != 302:
            errors = re.findall(r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', html, re.DOTALL)
            detail = "; ".join(re.sub(r"<[^>]+>", " ", e).strip() for e in errors)[:300]
            raise BenchmarkError(
                f"saving {self.change_path} answered {status}" + (f": {detail}" if detail else "")
            )

    def _loop(self) -> None:
        next_at = time.monotonic()
        while not self._stopping.wait(max(0.0, next_at - time.monotonic())):
            # A save that outlasts the interval is followed by the next at once, never by a burst.
            next_at = max(next_at + self.interval, time.monotonic())
            began = time.monotonic()
            try:
                self.save(self.values[(len(self.saves) + 1) % 2])
            except (BenchmarkError, OSError, http.client.HTTPException) as exc:
                self.failures.append(str(exc))
            else:
                self.saves.append(time.monotonic() - began)

    @property
    def seconds(self) -> float:
        """How long the writer ran (saves that outlast `interval` make it save less often)."""
        return self._stopped_at - self._started_at

    def start(self) -> None:
        self._started_at = self._stopped_at = time.monotonic()
        self._stopping.clear()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        self._stopped_at = time.monotonic()
        if len(self.saves) % 2:
            try:
                self.save(self.values[0])
            except (BenchmarkError, OSError, http.client.HTTPException) as exc:
                self.failures.append(f"saving the first value back: {exc}")


# --- Growth: the catalog grown from real reading lists ----------------------------------------

REAL_LISTS_DIR = Path(
    "tests/catalog/reallists"
)  # under the repository; SOURCES.md says where each is from
GROWN_SLUG_PREFIX = "grown-"


def grown_database_url(url: str) -> str:
    """The growth scenario's database: a copy of the benchmark database beside it, so growing the
    catalog leaves the benchmark database (and `--reuse`) as it was."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=parts.path.rstrip("/") + "_grown"))


def database_copy(*, url: str, to_url: str) -> None:
    """Drop `to_url`'s database and create it as a copy of `url`'s (CREATE DATABASE … TEMPLATE:
    a file copy, no one may be connected to the original)."""
    source = urlsplit(_libpq_url(url)).path.lstrip("/")
    parts = urlsplit(_libpq_url(to_url))
    target = parts.path.lstrip("/")
    maintenance = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(maintenance, autocommit=True) as conn:
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", [source]
        )
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(target))
        )
        conn.execute(
            sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
                sql.Identifier(target), sql.Identifier(source)
            )
        )


def real_lists(base_dir: Path) -> list[Path]:
    return sorted(
        path for path in (base_dir / REAL_LISTS_DIR).glob("*.md") if path.name != "SOURCES.md"
    )


# Runs inside Django: each list through the importer's own plan and apply (what `import_guide`
# and the admin's import call), then published the way the admin's "Publish" action does.
_GROW_SCRIPT = """
import json
from pathlib import Path
from apps.catalog.importer import CatalogImportError, apply_import, plan_import
from apps.catalog.models import Guide, Resource, Topic
from apps.curation.services import objects_set_published

def size():
    return {{"guides": Guide.objects.published().count(),
             "resources": Resource.objects.published().count(),
             "topics": Topic.objects.published().count()}}

before = size()
target = before["resources"] * {factor}
print("SIZE", json.dumps(before))
for name in json.loads({lists!r}):
    if Resource.objects.published().count() >= target:
        break
    path = Path(name)
    slug = "{prefix}" + path.stem
    if Guide.objects.filter(slug=slug).exists():
        continue
    try:
        try:
            plan = plan_import(path.read_bytes(), guide_slug=slug, source_name=path.name)
        except CatalogImportError:
            # A list without a title of its own: the curator names it, as the admin asks.
            title = path.stem.replace("-", " ").capitalize()
            plan = plan_import(path.read_bytes(), guide_slug=slug, title=title, source_name=path.name)
        result = apply_import(plan)
    except CatalogImportError as error:
        print("SKIPPED", json.dumps([path.name, str(error)]))
        continue
    objects_set_published(queryset=Guide.objects.filter(pk=result.guide.pk), published=True)
    print("IMPORTED", json.dumps([path.name, result.counts_text()]))
print("SIZE", json.dumps(size()))
"""


@dataclass
class Growth:
    before: dict[str, int]
    after: dict[str, int]
    imported: list[tuple[str, str]]  # (file, what was written)
    skipped: list[tuple[str, str]]  # (file, why)

    @property
    def factor(self) -> float:
        return self.after["resources"] / self.before["resources"] if self.before["resources"] else 0


def catalog_grow(base_dir: Path, env: dict, *, factor: float) -> Growth:
    """Import the real-list fixtures, in name order, as new published guides until the published
    resources are `factor` times as many as before (or every list is in)."""
    import json

    lists = json.dumps([str(path) for path in real_lists(base_dir)])
    script = _GROW_SCRIPT.format(factor=factor, lists=lists, prefix=GROWN_SLUG_PREFIX)
    out = manage(base_dir, env, "shell", "-c", script)
    sizes, imported, skipped = [], [], []
    for line in out.splitlines():
        kind, _, payload = line.partition(" ")
        if kind == "SIZE":
            sizes.append(json.loads(payload))
        elif kind == "IMPORTED":
            imported.append(tuple(json.loads(payload)))
        elif kind == "SKIPPED":
            skipped.append(tuple(json.loads(payload)))
    if len(sizes) != 2:
        raise BenchmarkError(f"growing the catalog printed no sizes:\n{out[-2000:]}")
    return Growth(sizes[0], sizes[1], imported, skipped)
