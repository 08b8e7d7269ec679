"""Caching what every learner sees alike, safely: a content version kept by the database, and a
per-process memo keyed by it.

Catalog and path pages are mostly the same for everyone (the guide's sections and entries) with a
thin per-learner layer on top (ticks, bars). The shared part is built once per worker and reused
until the content changes. "Changes" is decided by the database itself: a trigger on every table
the pages are built from sets `core_contentversion.token` to a new random value in the same
transaction as the write (admin, bulk `update()`, merges, imports, raw SQL alike); migrations
install it (`ContentTriggers`, first in core/0003). A request reads
the token first (one indexed single-row query) and uses only memo entries built under it; a
token is random, never a counter, so a rolled-back or flushed database cannot bring an old one back.
"""

import threading
import weakref
from collections import OrderedDict
from contextvars import ContextVar

from django.apps import apps
from django.core.exceptions import ValidationError
from django.db import migrations, router
from django.http import Http404

from apps.core.models import ContentVersion

# Tables learner pages are built from: every model of these apps (and their many-to-many tables)
# except per-learner ones. Anything added to these apps is covered without touching this list
# (its trigger comes with a migration: tests/core/test_content.py fails until it does).
# The one owner of "which apps are content": the Curators' permissions are derived from it.
CONTENT_APPS = ("catalog", "paths")
LEARNER_MODELS = {("paths", "pathfollow")}
MEMO_SIZE = 512  # entries per worker: every guide/topic/path/search with a handful of filter sets

_TRIGGER = "syllabus_content_version"


def content_tables() -> list[str]:
    tables = set()
    for label in CONTENT_APPS:
        for model in apps.get_app_config(label).get_models(include_auto_created=True):
            if (model._meta.app_label, model._meta.model_name) not in LEARNER_MODELS:
                tables.add(model._meta.db_table)
    return sorted(tables)


def content_triggers_sql(vendor: str, tables, *, function: bool) -> tuple[list[str], list[str]]:
    """The SQL that watches `tables` (forwards) and stops watching them (backwards), for `vendor`.

    Idempotent both ways, so it also runs on a database that already has the triggers. Forwards
    ends with a fresh token; backwards removes the token (no token: nothing is served from the
    memo, so unwatched writes cannot leave stale pages). `function`: also create (and, backwards,
    drop) PostgreSQL's trigger function; only the migration that first installs it does.
    """
    forwards, backwards = [], []
    if vendor == "postgresql":
        if function:
            forwards.append(
                f"""CREATE OR REPLACE FUNCTION {_TRIGGER}_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO core_contentversion (id, token) VALUES (1, gen_random_uuid()::text)
  ON CONFLICT (id) DO UPDATE SET token = EXCLUDED.token;
  RETURN NULL;
END $$"""
            )
        for table in tables:
            forwards.append(
                f'CREATE OR REPLACE TRIGGER {_TRIGGER} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "{table}" '
                f"FOR EACH STATEMENT EXECUTE FUNCTION {_TRIGGER}_bump()"
            )
            backwards.append(f'DROP TRIGGER IF EXISTS {_TRIGGER} ON "{table}"')
        if function:
            backwards.append(f"DROP FUNCTION IF EXISTS {_TRIGGER}_bump()")
        forwards.append(
            "INSERT INTO core_contentversion (id, token) VALUES (1, gen_random_uuid()::text) "
            "ON CONFLICT (id) DO UPDATE SET token = EXCLUDED.token"
        )
    elif vendor == "sqlite":  # no statement triggers, no CREATE OR REPLACE: drop, then one per row
        # An UPDATE, then an INSERT for a missing row: an outer INSERT OR IGNORE (bulk_create,
        # m2m add) imposes its conflict rule on a trigger's INSERTs.
        bump = (
            "UPDATE core_contentversion SET token = lower(hex(randomblob(16))) WHERE id = 1; "
            "INSERT OR IGNORE INTO core_contentversion (id, token) VALUES (1, lower(hex(randomblob(16))));"
        )
        for table in tables:
            for event in ("INSERT", "UPDATE", "DELETE"):
                name = f"{_TRIGGER}_{table}_{event.lower()}"
                forwards.append(f'DROP TRIGGER IF EXISTS "{name}"')
                forwards.append(
                    f'CREATE TRIGGER "{name}" AFTER {event} ON "{table}" BEGIN {bump} END'
                )
                backwards.append(f'DROP TRIGGER IF EXISTS "{name}"')
        forwards.extend(bump.split("; "))
    else:  # no triggers: no token, so nothing is ever served from the memo
        return [], []
    backwards.append("DELETE FROM core_contentversion")
    return forwards, backwards


class ContentTriggers(migrations.RunSQL):
    """A migration operation that puts the content-version trigger on `tables` (its SQL shows in
    `sqlmigrate`). A migration that adds a content table, or rebuilds one (SQLite remakes a
    table to alter a column, which drops its triggers), ends with
    `ContentTriggers(["the_table"])` and depends on `("core", "0003_content_triggers")`;
    tests/core/test_content.py fails while a content table is unwatched after `migrate`."""

    def __init__(self, tables, *, function=False):
        self.tables, self.function = tuple(tables), function
        super().__init__(sql="", reverse_sql="", elidable=False)

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        self._content_sql(app_label, schema_editor, forwards=True)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        self._content_sql(app_label, schema_editor, forwards=False)

    def _content_sql(self, app_label, schema_editor, *, forwards):
        if router.allow_migrate(schema_editor.connection.alias, app_label, **self.hints):
            sql = content_triggers_sql(
                schema_editor.connection.vendor, self.tables, function=self.function
            )
            self._run_sql(schema_editor, sql[0] if forwards else sql[1])

    def describe(self):
        return f"Content-version trigger on {', '.join(self.tables)}"


_UNREAD = object()
_request_token: ContextVar = ContextVar("content_token", default=None)


def content_token() -> str | None:
    """The current content version, or None (no row: never cache). Read once per request, when
    first asked (see ContentVersionMiddleware); outside a request, read every time."""
    holder = _request_token.get()
    if holder is not None and holder[0] is not _UNREAD:
        return holder[0]
    token = _token_read()
    if holder is not None:
        holder[0] = token
    return token


def _token_read() -> str | None:
    return ContentVersion.objects.filter(id=1).values_list("token", flat=True).first()


class ContentVersionMiddleware:
    """Lets a request read the content token once, however many memoized parts its page shows.

    So a request that writes content must not read the memo afterwards (none does: curators
    write in the admin, learners' pages only read); its writes would be cached under the token
    it read before them.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        reset = _request_token.set([_UNREAD])
        try:
            return self.get_response(request)
        finally:
            _request_token.reset(reset)


class ContentMemo:
    """Values built from content, kept per worker while the content token stays the same.

    Values must be treated as read-only by callers: they are shared by every request (and
    thread) of this worker.
    """

    instances: "weakref.WeakSet[ContentMemo]" = weakref.WeakSet()

    def __init__(self, size: int = MEMO_SIZE):
        ContentMemo.instances.add(self)
        self._size = size
        self._token = None
        self._values: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, token: str | None, key, build):
        if token is None:
            return build()
        with self._lock:
            if token != self._token:
                self._token, self._values = token, OrderedDict()
            elif key in self._values:
                self._values.move_to_end(key)
                return self._values[key]
        value = build()  # outside the lock: a slow build must not hold up other pages
        with self._lock:
            if token == self._token:
                self._values[key] = value
                while len(self._values) > self._size:
                    self._values.popitem(last=False)
        return value

    def clear(self) -> None:
        with self._lock:
            self._token, self._values = None, OrderedDict()


def memos_clear() -> None:
    """Forget every memo of this process (after migrate, or an edited template in development)."""
    for instance in list(ContentMemo.instances):
        instance.clear()


memo = ContentMemo()


def memoized(key, build):
    """`build()` once per content version and worker (every time when there is no version)."""
    return memo.get(content_token(), key, build)


def published_get(model, **lookup):
    """The published `model` object whose one `lookup` field matches, or Http404: a page's slug or
    uuid lookup without a query (all published objects, memoized). Shared, so read-only."""
    [(field, value)] = lookup.items()
    by_value = memoized(
        ("published", model._meta.label, field),
        lambda: {getattr(obj, field): obj for obj in model.objects.published()},
    )
    try:
        return by_value[model._meta.get_field(field).to_python(value)]
    except (KeyError, ValidationError):
        raise Http404(f"No {model._meta.object_name} matches the given query.") from None
