# Two commands for a newcomer:  `make run`  and  `make test`.
# Everything else here is what those two need: a Python >= 3.12, uv, and a synced .venv.

SHELL := /bin/bash
PORT ?= 8000
UV_VERSION := 0.13.8
export UV_PYTHON_DOWNLOADS := never
export UV_PROJECT_ENVIRONMENT := .venv
# Trust the system's certificate store (as pip does), not only uv's bundled roots: on networks
# whose TLS goes through a local CA, uv fails to download anything otherwise.
export UV_SYSTEM_CERTS ?= true

# The first interpreter >= 3.12 on PATH or under pyenv (pyenv shims that point at an
# older global version fail the version check and are skipped).
PYTHON ?= $(shell for p in python3.13 python3.12 python3 $$HOME/.pyenv/versions/3.13*/bin/python3 $$HOME/.pyenv/versions/3.12*/bin/python3 /usr/local/bin/python3.13 /usr/bin/python3.13 /usr/bin/python3.12; do \
	command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null && { command -v $$p; break; }; done)
UV := .tools/bin/uv
MANAGE := .venv/bin/python manage.py
# django-upgrade's target: the Django minor version pyproject.toml pins.
DJANGO_TARGET := $(shell sed -n 's/^ *"django==\([0-9]*\.[0-9]*\).*/\1/p' pyproject.toml)

.PHONY: run test setup lock benchmark lint screenshots clean

$(UV):
	@test -n "$(PYTHON)" || { echo "Syllabus needs Python >= 3.12: install it (e.g. pyenv install 3.13) and retry." >&2; exit 1; }
	$(PYTHON) -m venv .tools
	.tools/bin/pip install --quiet --disable-pip-version-check uv==$(UV_VERSION)

setup: $(UV)
	$(UV) sync --locked --python "$(PYTHON)"

## Set up, migrate, seed the catalog (idempotent), run the jobs worker and serve on http://127.0.0.1:$(PORT)/
run: export DEBUG ?= true
run: setup
	$(MANAGE) migrate --no-input
	$(MANAGE) createcachetable
	$(MANAGE) seed
	@# The worker (jobs and the schedule) in the background, stopped with the server: Ctrl-C, an
	@# error or the end of runserver all end it (a TERM: it finishes the job it is running).
	$(MANAGE) worker & worker=$$!; \
	trap 'kill -TERM $$worker 2>/dev/null; wait $$worker 2>/dev/null' EXIT INT TERM; \
	$(MANAGE) runserver 127.0.0.1:$(PORT)

# One pytest-xdist worker per core, each with its own test database (…_gw0, …_gw1).
# PYTEST_WORKERS=0 runs the suite in one process (as a debugger wants).
PYTEST_WORKERS ?= auto

## Set up and run the whole test suite on every core (SQLite unless DATABASE_URL is set)
test: setup
	.venv/bin/pytest -n $(PYTEST_WORKERS) $(PYTEST_ARGS)

## Production gunicorn on PostgreSQL at 10,000 users, page by page: quiet, churn, growth (DROPS syllabus_bench and syllabus_bench_grown; see docs/BENCHMARKS.md)
benchmark: setup
	.venv/bin/python -m benchmarks $(BENCHMARK_ARGS)

## Lint, format check, import layers, templates, Django upgrades and types, as CI runs them
lint: setup
	.venv/bin/ruff check
	.venv/bin/ruff format --check
	.venv/bin/lint-imports
	.venv/bin/djlint templates --lint
	git ls-files -z -- '*.py' | xargs -0 .venv/bin/django-upgrade --target-version $(DJANGO_TARGET) --check
	.venv/bin/mypy

## Re-resolve dependencies into uv.lock after editing pyproject.toml
lock: $(UV)
	$(UV) lock --python "$(PYTHON)"

clean:
	rm -rf .venv .tools
