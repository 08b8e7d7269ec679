"""`make benchmark` (`python -m benchmarks`): production gunicorn on PostgreSQL at a realistic
volume, measured page by page against the /healthz floor, in three scenarios: quiet, churn (a
curator saving in the admin every 2 s) and growth (the catalog grown about ×5 from real lists).
How to read it: docs/BENCHMARKS.md.

The database named by --database-url (else DATABASE_URL, else syllabus_bench on the local
server) is DROPPED and recreated, and so is its `_grown` copy. Only 127.0.0.1 is ever contacted.
"""

import argparse
import math
import os
import secrets
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
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
    request of it or of its floor (every one finished in the warm-up or answered an error): a page
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


# The scenarios, in the order they run: growth last, on its own copy of the database.
SCENARIOS = ("quiet", "churn", "growth")
# churn: a page's p95 with a curator saving every CHURN_INTERVAL s, within this many of its quiet p95.
CHURN_GUARD = 2.0
CHURN_INTERVAL = 2.0
# growth: the catalog grown to about this many times its published resources.
GROWTH_FACTOR = 5.0
# The account `ensure_admin` makes (a superuser: the curator of the churn scenario).
ADMIN_EMAIL = "hash-donor@example.org"


def scenarios_chosen(text: str) -> list[str]:
    """The scenarios named in `--scenarios` (comma-separated), in the order they run; churn is
    compared with quiet, so it needs quiet too."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in SCENARIOS]
    if unknown or not names:
        raise CommandError(
            f"--scenarios takes a comma-separated list of {', '.join(SCENARIOS)}; got {text!r}."
        )
    if "churn" in names and "quiet" not in names:
        raise CommandError("churn is compared with quiet: pass --scenarios quiet,churn.")
    return [name for name in SCENARIOS if name in names]


def p95_ratio(p95: float, quiet_p95: float | None) -> float:
    """A page's p95 under churn over its quiet p95; nan when either is missing or not a number."""
    if quiet_p95 is None or math.isnan(p95) or math.isnan(quiet_p95) or quiet_p95 <= 0:
        return math.nan
    return p95 / quiet_p95


def churn_misses(p95: float, quiet_p95: float | None, errors: int, saves: int) -> list[str]:
    """Why an endpoint fails the churn guard (p95 within CHURN_GUARD× its quiet p95); empty when
    "ok". Missing data fails: a page unmeasured under churn (every answer an error) or in quiet,
    and a run with no curator save."""
    misses = []
    ratio = p95_ratio(p95, quiet_p95)
    if math.isnan(p95):
        misses.append("no measured requests")
    elif math.isnan(ratio):
        misses.append("no quiet p95 to compare")
    elif ratio > CHURN_GUARD:
        misses.append(f"p95 > {CHURN_GUARD:g}× quiet")
    if errors:
        misses.append(f"{errors} errors")
    if not saves:
        misses.append("no curator save while measured")
    return misses


@dataclass
class PageResult:
    endpoint: bench.Endpoint
    measurement: bench.Measurement
    ratio: float  # the median of its per-round p50 ratios to the floor
    weight: bench.Weight | None
    queries: str


@dataclass
class ScenarioResult:
    name: str
    pages: list[PageResult]  # the floor first
    rss: dict[int, float]  # each gunicorn worker's resident MiB after the run
    notes: list[str] = field(default_factory=list)
    saves: int = 0  # churn: the curator's saves while measured

    def page(self, name: str) -> PageResult | None:
        return next((page for page in self.pages if page.endpoint.name == name), None)


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
            help="Seconds per endpoint, over all rounds, at the start of its runs: requests finished within them are not measured.",
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
            "--scenarios",
            default=",".join(SCENARIOS),
            help="Comma-separated, run in this order whatever the order given: quiet (learners "
            "only), churn (a curator saving every 2 s; needs quiet), growth (the catalog grown "
            "about ×5 from real lists, on a copy of the database). Default: all three.",
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
        scenarios = scenarios_chosen(options.get("scenarios") or ",".join(SCENARIOS))
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
            donor = ADMIN_EMAIL
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
        results = {}
        for name in scenarios:
            self.say(f"\nScenario {name}:")
            if name == "quiet":
                results[name] = self._scenario(name, base_dir, env, catalog, sessions, options)
            elif name == "churn":
                results[name] = self._churn(base_dir, env, catalog, sessions, options)
            else:
                results[name] = self._growth(url, base_dir, env, sessions, options)
        for name, result in results.items():
            self.say(f"\n### {name}\n")
            for note in result.notes:
                self.say(note)
            self.say(f"gunicorn workers' RSS after the run: {bench.rss_text(result.rss)}\n")
            self.say(self._table(result, results.get("quiet")))
        self.say(f"\nTotal {time.monotonic() - started:.0f} s.")

    def _scenario(
        self, name, base_dir, env, catalog, sessions, options, *, during=None, weigh=True
    ) -> ScenarioResult:
        """One scenario on a gunicorn of its own (fresh workers, so each one's memory is its
        own): warmed, measured in rounds (with `during` started after the warm-up and stopped
        after the last round), the workers' RSS read, stopped."""
        env = env | {"PORT": str(bench.free_port())}
        with tempfile.TemporaryDirectory(prefix="syllabus-bench-") as tmp:
            server = bench.Server(base_dir, env, Path(tmp) / "gunicorn.log")
            try:
                server.wait_healthy()
                pages = self._measure(
                    server, catalog, sessions, options, base_dir, env, during=during, weigh=weigh
                )
                rss = bench.worker_rss(server)
            finally:
                server.stop()
        return ScenarioResult(name, pages, rss)

    def _churn(self, base_dir, env, catalog, sessions, options) -> ScenarioResult:
        """quiet's pages with a curator saving the guide's first resource's title in the admin
        every CHURN_INTERVAL seconds, through the same gunicorn."""
        curator_session = bench.sessions_create(base_dir, env, 1, email_ending=ADMIN_EMAIL)
        if not curator_session:
            raise CommandError(f"No {ADMIN_EMAIL} account to curate with (run without --reuse).")
        title = catalog.curated_title.removesuffix(" (revised)")
        writers = []

        def writer(port):
            writers.append(
                bench.CuratorWriter(
                    port=port,
                    visitor=bench.Visitor(cookies={bench.SESSION_COOKIE: curator_session[0]}),
                    change_path=catalog.curated_change_path,
                    field="title",
                    values=(title, f"{title} (revised)"),
                    interval=CHURN_INTERVAL,
                )
            )
            return writers[-1]

        result = self._scenario(
            "churn", base_dir, env, catalog, sessions, options, during=writer, weigh=False
        )
        saves = writers[0].saves if writers else []
        result.saves = len(saves)
        seconds = writers[0].seconds if writers else 0.0
        result.notes.append(
            f"Curator saves of {catalog.curated_change_path} (its title), aimed at one every "
            f"{CHURN_INTERVAL:g} s while measured: {len(saves)} in {seconds:.0f} s"
            + (
                f" (one every {seconds / len(saves):.1f} s), median {statistics.median(saves) * 1000:.0f} ms each (GET + POST)"
                if saves
                else ""
            )
            + f"; failed: {len(writers[0].failures) if writers else 0}"
            + (f" (first: {writers[0].failures[0]})" if writers and writers[0].failures else "")
            + "."
        )
        return result

    def _growth(self, url, base_dir, env, sessions, options) -> ScenarioResult:
        """The pages on a copy of the benchmark database whose catalog grew about GROWTH_FACTOR×
        from the real-list fixtures, imported and published as a curator would."""
        grown_url = bench.grown_database_url(url)
        self.say(f"  copying {url} to {grown_url} …")
        bench.database_copy(url=url, to_url=grown_url)
        grown_env = env | {"DATABASE_URL": grown_url}
        growth = bench.catalog_grow(base_dir, grown_env, factor=GROWTH_FACTOR)
        with bench.connect(grown_url) as conn:
            conn.execute("VACUUM ANALYZE")
        catalog = bench.catalog_pick(url=grown_url)
        result = self._scenario("growth", base_dir, grown_env, catalog, sessions, options)
        before, after = growth.before, growth.after
        result.notes.append(
            f"Catalog grown ×{growth.factor:.1f} from {len(growth.imported)} real lists "
            f"(tests/catalog/reallists/, imported and published): "
            + ", ".join(
                f"{before[k]:,} → {after[k]:,} {k}" for k in ("guides", "resources", "topics")
            )
            + "."
        )
        for file, why in growth.skipped:
            result.notes.append(f"Skipped {file}: {why}")
        return result

    def _measure(
        self, server, catalog, sessions, options, base_dir, env, *, during=None, weigh=True
    ) -> list[PageResult]:
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
            bench.Endpoint("home (anonymous)", "/", weigh=weigh),
            bench.Endpoint("dashboard", "/dashboard/", signed_in=True, weigh=weigh),
            bench.Endpoint(
                f"guide ({catalog.guide_entries} entries)",
                catalog.guide_path,
                signed_in=True,
                weigh=weigh,
            ),
            bench.Endpoint("path", catalog.path_path, signed_in=True, weigh=weigh),
            bench.Endpoint(
                "search",
                catalog.search_path,
                signed_in=True,
                weigh=weigh,
                path_for=bench.rotation(
                    [bench.search_path(query) for query in bench.SEARCH_QUERIES], len(visitors)
                ),
            ),
            bench.Endpoint("resource", catalog.resource_path, signed_in=True, weigh=weigh),
            bench.Endpoint("topic", catalog.topic_path, signed_in=True, weigh=weigh),
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
        queries = (
            bench.query_counts(
                base_dir,
                env,
                [(e.name, e.path, e.signed_in) for e in endpoints if e.method == "GET"],
            )
            if weigh
            else {}
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
        background = during(port) if during else None
        if background:
            background.start()
        try:
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
        finally:
            if background:
                background.stop()
        for connection in connections:
            connection.close()
        results = []
        for endpoint in endpoints:
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
            results.append(
                PageResult(
                    endpoint,
                    bench.Measurement.merged(runs[endpoint.name]),
                    ratio,
                    weight,
                    str(queries.get(endpoint.name, "–")),
                )
            )
        return results

    def _table(self, result: ScenarioResult, quiet: ScenarioResult | None) -> str:
        """The scenario's table: quiet and growth against their guards; churn's p95 against
        quiet's, side by side."""
        rows = []
        for page in result.pages:
            measurement = page.measurement
            p50, p95 = measurement.percentile(50), measurement.percentile(95)
            row = [
                page.endpoint.name,
                f"{measurement.rps:.0f}",
                f"{p50:.1f}",
                f"{p95:.1f}",
                ratio_text(page.ratio),
            ]
            if result.name == "churn":
                baseline = quiet.page(page.endpoint.name) if quiet else None
                quiet_p95 = baseline.measurement.percentile(95) if baseline else None
                misses = churn_misses(p95, quiet_p95, measurement.errors, result.saves)
                ratio = p95_ratio(p95, quiet_p95)
                row += [
                    "–" if quiet_p95 is None else f"{quiet_p95:.1f}",
                    "nan×" if math.isnan(ratio) else f"{ratio:.1f}×",
                    ", ".join(misses) or "ok",
                ]
            else:
                weight = page.weight
                misses = guard_misses(
                    page.endpoint.name,
                    page.ratio,
                    weight.total_kb if weight else None,
                    measurement.errors,
                )
                row += [
                    page.queries,
                    f"{weight.html_kb:.1f} + {weight.assets_kb:.1f} = {weight.total_kb:.1f}"
                    if weight
                    else "–",
                    ", ".join(misses) or "ok",
                ]
            rows.append(row)
        header = ["endpoint", "req/s", "p50 ms", "p95 ms", "p50 / floor"]
        if result.name == "churn":
            header += ["quiet p95 ms", "p95 / quiet p95", f"guard (p95 ≤ {CHURN_GUARD:g}× quiet)"]
        else:
            header += [
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
