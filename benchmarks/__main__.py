"""`make benchmark` (`python -m benchmarks`): production gunicorn on PostgreSQL at a realistic
volume, measured page by page against the /healthz floor. How to read it: docs/BENCHMARKS.md.

The database named by --database-url (else DATABASE_URL, else syllabus_bench on the local
server) is DROPPED and recreated. Only 127.0.0.1 is ever contacted.
"""

import argparse
import math
import os
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

from benchmarks import harness as bench

BASE_DIR = Path(__file__).resolve().parent.parent
# Guards (docs/BENCHMARKS.md): a page's p50 within this many floor p50s (by the endpoint name's
# first word), and this many KB as served (gzipped) at most. Loose on purpose: they catch a lost memo
# (the guide without it was 50x), not a fraction of a millisecond.
GUARDS = {
    "home": 3.5,
    "guide": 3.5,
    "topic": 3.5,
    "search": 3.5,
    "resource": 3.5,
    "path": 4.0,
    "tick": 5.0,
    "dashboard": 6.0,
}
TARGET_KB = 100.0


class CommandError(Exception):
    pass


def page_ratio(ratios: list[float]) -> float:
    """The median of an endpoint's per-round ratios to the floor; nan when any round measured no
    request of it or of its floor (every one fell in the warm-up or answered an error): a page
    unmeasured in a round is not known to be within its guard."""
    if not ratios or any(math.isnan(ratio) for ratio in ratios):
        return math.nan
    return statistics.median(ratios)


def ratio_text(ratio: float) -> str:
    return "nan× (no measured requests)" if math.isnan(ratio) else f"{ratio:.1f}×"


def guard_misses(name: str, ratio: float, total_kb: float | None, errors: int) -> list[str]:
    """Why an endpoint fails its guard; empty when it is "ok". nan (nothing measured) fails."""
    misses = []
    guard = GUARDS.get(name.split(" ")[0])
    if math.isnan(ratio):
        misses.append("no measured requests in a round")
    elif guard and ratio > guard:
        misses.append(f"> {guard:g}× floor")
    if total_kb is not None and total_kb > TARGET_KB:
        misses.append(f"> {TARGET_KB:g} KB")
    if errors:
        misses.append(f"{errors} errors")
    return misses


class Command:
    help = (
        "Load a realistic volume into a PostgreSQL benchmark database and measure the main pages."
    )

    def __init__(self, stdout=None):
        self.stdout = stdout or sys.stdout

    def add_arguments(self, parser):
        parser.add_argument(
            "--database-url",
            help=f"PostgreSQL URL, dropped and recreated (default: DATABASE_URL, else {bench.DEFAULT_DATABASE_URL})",
        )
        parser.add_argument("--users", type=int, default=10_000)
        parser.add_argument("--resources-per-user", type=int, default=450)
        parser.add_argument(
            "--duration",
            type=float,
            default=8.0,
            help="Seconds measured per endpoint, over all rounds.",
        )
        parser.add_argument(
            "--warmup",
            type=float,
            default=1.0,
            help="Unmeasured seconds per endpoint, over all rounds.",
        )
        parser.add_argument(
            "--rounds",
            type=int,
            default=4,
            help="Rounds of floor-then-every-endpoint; each ratio is the median of its per-round ratios to that round's floor.",
        )
        parser.add_argument(
            "--concurrency", type=int, default=4, help="Load threads (keep-alive connections)."
        )
        parser.add_argument("--max-requests", type=int, default=5_000, help="Cap per endpoint.")
        parser.add_argument(
            "--workers", type=int, default=2, help="gunicorn worker processes (WEB_CONCURRENCY)."
        )
        parser.add_argument(
            "--reuse",
            action="store_true",
            help="Keep an already loaded benchmark database (skip recreate, seed, load; only migrate).",
        )

    def handle(self, *args, **options):
        try:
            self._run(options)
        except bench.BenchmarkError as exc:
            raise CommandError(str(exc)) from None

    def say(self, message):
        self.stdout.write(message + "\n")
        self.stdout.flush()

    def _run(self, options):
        url = bench.benchmark_database_url(
            options["database_url"] or os.environ.get("DATABASE_URL")
        )
        if options["concurrency"] < 1 or options["users"] < options["concurrency"]:
            raise CommandError("--concurrency must be at least 1 and at most --users.")
        base_dir = BASE_DIR
        started = time.monotonic()
        port = bench.free_port()
        env = bench.production_env(url=url, port=port, workers=options["workers"])
        password = secrets.token_urlsafe(12)

        if not options["reuse"]:
            self.say(f"Recreating {url} …")
            bench.database_recreate(url=url)
            bench.manage(base_dir, env, "migrate", "--no-input")
            bench.manage(base_dir, env, "createcachetable")
            bench.manage(base_dir, env, "seed")
            # One real account made by the app's own code; its hash is copied to every benchmark
            # user, so any of them can sign in through the form with this password.
            donor = "hash-donor@example.org"
            bench.manage(
                base_dir,
                env | {"DJANGO_ADMIN_EMAIL": donor, "DJANGO_ADMIN_PASSWORD": password},
                "ensure_admin",
            )
            with bench.connect(url) as conn:
                password_hash = conn.execute(
                    "SELECT password FROM auth_user WHERE email = %s", [donor]
                ).fetchone()[0]
            self.say(
                f"Loading {options['users']:,} users × ~{options['resources_per_user']} progress rows …"
            )
            volume = bench.volume_load(
                url=url,
                users=options["users"],
                resources_per_user=options["resources_per_user"],
                password_hash=password_hash,
            )
            self.say(
                f"  {volume.users:,} users, {volume.progress:,} Progress rows, {volume.activities:,} Activity rows "
                f"in {volume.seconds:.0f} s (benchmark users' password: {password})"
            )
        else:  # a database loaded by an older version: bring its schema (and triggers) up to date
            bench.manage(base_dir, env, "migrate", "--no-input")
        bench.manage(
            base_dir,
            {**env, "SECRET_KEY": "collectstatic-only-not-a-secret"},
            "collectstatic",
            "--no-input",
            "-v",
            "0",
        )
        catalog = bench.catalog_pick(url=url)
        sessions = bench.sessions_create(base_dir, env, options["concurrency"])

        with tempfile.TemporaryDirectory(prefix="syllabus-bench-") as tmp:
            server = bench.Server(base_dir, env, Path(tmp) / "gunicorn.log")
            try:
                server.wait_healthy()
                table = self._measure(server, catalog, sessions, options, base_dir, env)
            finally:
                server.stop()
        self.say("")
        self.say(table)
        self.say(f"\nTotal {time.monotonic() - started:.0f} s.")

    def _measure(self, server, catalog, sessions, options, base_dir, env):
        port = server.port
        visitors = [bench.visitor_for(port, key, catalog.guide_path) for key in sessions]
        anonymous = [bench.Visitor() for _ in sessions]
        guide_scope = f"guide:{catalog.guide_uuid}"

        def tick_body(index, number):
            # Each thread's user toggles the guide's first resource: done, not started, done …
            resource = catalog.tick_resources[0]
            status = "done" if number % 2 == 0 else "not_started"
            return bench.urlencode({"status": status, "scope": guide_scope, "slot": resource})

        endpoints = [
            bench.Endpoint("floor: /healthz", "/healthz"),
            bench.Endpoint("home (anonymous)", "/", weigh=True),
            bench.Endpoint("dashboard", "/dashboard/", signed_in=True, weigh=True),
            bench.Endpoint(
                f"guide ({catalog.guide_entries} entries)",
                catalog.guide_path,
                signed_in=True,
                weigh=True,
            ),
            bench.Endpoint("path", catalog.path_path, signed_in=True, weigh=True),
            bench.Endpoint(
                "search",
                catalog.search_path,
                signed_in=True,
                weigh=True,
                path_for=bench.rotation(
                    [bench.search_path(query) for query in bench.SEARCH_QUERIES], len(visitors)
                ),
            ),
            bench.Endpoint("resource", catalog.resource_path, signed_in=True, weigh=True),
            bench.Endpoint("topic", catalog.topic_path, signed_in=True, weigh=True),
        ]
        # Every thread is a different user, so the writes hit different rows and never contend.
        endpoints.append(
            bench.Endpoint(
                "tick (POST, htmx)",
                f"/progress/{catalog.tick_resources[0]}/",
                method="POST",
                signed_in=True,
                body=tick_body,
            )
        )
        queries = bench.query_counts(
            base_dir, env, [(e.name, e.path, e.signed_in) for e in endpoints if e.method == "GET"]
        )
        # Rounds, each every endpoint right after a run of the floor: a ratio compares an endpoint
        # with the floor measured a moment before it, so a shared machine's drifting load moves both alike.
        rounds = max(options["rounds"], 1)
        floor, pages = endpoints[0], endpoints[1:]
        runs = {endpoint.name: [] for endpoint in endpoints}
        ratios = {
            page.name: [] for page in pages
        }  # each run's p50 over the floor run's just before it

        def measured(endpoint):
            return bench.load_run(
                port=port,
                endpoint=endpoint,
                visitors=visitors if endpoint.signed_in else anonymous,
                connections=connections,
                duration=options["duration"] / rounds,
                max_requests=max(options["max_requests"] // rounds, 1),
                warmup=options["warmup"] / rounds,
            )

        # Kept across runs, spread evenly over the workers (see balanced_connections).
        connections = bench.balanced_connections(server, len(visitors), options["workers"])
        bench.warm_workers(
            port=port,
            endpoints=endpoints,
            visitors=lambda endpoint: visitors if endpoint.signed_in else anonymous,
            connections=connections,
        )
        for number in range(1, rounds + 1):
            for page in pages:
                runs[floor.name].append(measured(floor))
                runs[page.name].append(measured(page))
                ratios[page.name].append(
                    runs[page.name][-1].percentile(50) / runs[floor.name][-1].percentile(50)
                )
            self.say(
                f"  round {number}/{rounds}: "
                + ", ".join(
                    f"{page.name.split(' ')[0]} {ratio_text(ratios[page.name][-1])}"
                    for page in pages
                )
                + " (p50 / the floor's just before)"
            )
        for connection in connections:
            connection.close()
        rows = []
        for endpoint in endpoints:
            measurement = bench.Measurement.merged(runs[endpoint.name])
            p50, p95 = measurement.percentile(50), measurement.percentile(95)
            ratio = page_ratio(
                ratios[endpoint.name]
                if endpoint is not floor
                else [1.0 if run.latencies else math.nan for run in runs[floor.name]]
            )
            weight = (
                bench.page_weight(port, endpoint.path, visitors[0] if endpoint.signed_in else None)
                if endpoint.weigh
                else None
            )
            misses = guard_misses(
                endpoint.name, ratio, weight.total_kb if weight else None, measurement.errors
            )
            rows.append(
                [
                    endpoint.name,
                    f"{measurement.rps:.0f}",
                    f"{p50:.1f}",
                    f"{p95:.1f}",
                    ratio_text(ratio),
                    str(queries.get(endpoint.name, "–")),
                    f"{weight.html_kb:.1f} + {weight.assets_kb:.1f} = {weight.total_kb:.1f}"
                    if weight
                    else "–",
                    ", ".join(misses) or "ok",
                ]
            )
        header = [
            "endpoint",
            "req/s",
            "p50 ms",
            "p95 ms",
            "p50 / floor",
            "SQL queries (first / later)",
            "KB as served, gzip (HTML + CSS/JS)",
            "guard",
        ]
        return bench.markdown_table(rows, header)


def main(argv=None) -> int:
    command = Command()
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=Command.help)
    command.add_arguments(parser)
    options = vars(parser.parse_args(argv))
    try:
        command.handle(**options)
    except CommandError as exc:
        print(f"benchmark: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
