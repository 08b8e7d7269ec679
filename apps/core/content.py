"""Caching what every learner sees alike, safely: content versions kept by the database, and a
per-process memo keyed by them.

Catalog and path pages are mostly the same for everyone (the guide's sections and entries) with a
thin per-learner layer on top (ticks, bars). The shared part is built once per worker and reused
until what it is built from changes. "Changes" is decided by the database itself: a trigger on
every table the pages are built from sets that table's row of `core_contentversion` to a new
random token in the same transaction as the write (admin, bulk `update()`, merges, imports, raw
SQL alike); migrations install it (`ContentTriggers`, per table since core/0004). Some columns
have a token of their own (`APART`: a guide's title is shown on many pages, its other columns
decide what is visible): changing only them moves `<table>.<column>`, not `<table>`.

A request reads every token at once (one query of a dozen rows) when a part first asks. Each
memoized part names the tokens it is built from (`memoized(..., tables=...)`; all of them when it
does not say) and is reused while those are unchanged: a path's change does not rebuild a guide.
A token is random, never a counter, so a rolled-back or flushed database cannot bring an old one
back; a table without a token row is never cached.

Concurrent requests for the same part under the same tokens build it once: the others wait for
that build (`BUILD_WAIT` at most, then build themselves). The memo is bounded in bytes
(`MEMO_BYTES`), each entry measured when stored (`value_nbytes`).

Every part is kept per language (the active one when it is asked for): rendered HTML holds the
interface's words, and data may hold translated labels. A reader of one language never gets a
part built in another; a part nobody reads in a language is never built in it.
"""

import sys
import threading
import uuid
import weakref
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from contextvars import ContextVar
from dataclasses import fields, is_dataclass
from functools import cache
from importlib import import_module

from django.apps import apps
from django.core.exceptions import ValidationError
from django.db import migrations, router
from django.http import Http404
from django.utils.translation import get_language

from apps.core.models import ContentVersion

# Tables learner pages are built from: every model of these apps (and their many-to-many tables)
# except per-learner ones. Anything added to these apps is covered without touching this list
# (its trigger comes with a migration: tests/core/test_content.py fails until it does).
# The one owner of "which apps are content": the Curators' permissions are derived from it.
CONTENT_APPS = ("catalog", "paths")
LEARNER_MODELS = {
    ("paths", "pathfollow"),
    ("paths", "ownpath"),
    ("paths", "ownstep"),
    ("paths", "ownstepitem"),
}
# Columns with a token of their own, `<table>.<column>`: an update that changes only these does
# not move the table's token. A guide's title shows on guide, topic, search and resource pages,
# its description on guide pages and cards, neither on a path's steps (which show its slug and,
# through visibility, depend on its other columns); `updated_at` changes with every save.
APART = {"catalog_guide": ("title", "description", "updated_at")}
# Bytes of rendered HTML and built data kept per worker by the shared memo: the largest guide's
# parts are about 2 MB, a topic's at catalog x6 about 18 MB; 64 MB keeps every guide, topic and path
# of today's catalog with room for filters, and bounds a worker's growth (issue: RSS doubled when
# the cap counted entries). The resource and search memos have their own, smaller caps (shared.py).
MEMO_BYTES = 64 * 2**20
BUILD_WAIT = 10.0  # seconds a request waits for another's build of the same part before its own

_TRIGGER = "syllabus_content_version"


def content_tables(*app_labels: str) -> list[str]:
    """The content tables (of `app_labels`, else of every content app)."""
    tables = set()
    for label in app_labels or CONTENT_APPS:
        for model in apps.get_app_config(label).get_models(include_auto_created=True):
            if (model._meta.app_label, model._meta.model_name) not in LEARNER_MODELS:
                tables.add(model._meta.db_table)
    return sorted(tables)


@cache
def content_token_names(*app_labels: str) -> tuple[str, ...]:
    """Every token a part may be built from (of `app_labels`' tables, else all): each content
    table's, and each APART column's."""
    names = []
    for table in content_tables(*app_labels):
        names.append(table)
        names.extend(f"{table}.{column}" for column in APART.get(table, ()))
    return tuple(names)


def table_tokens(*tables: str) -> tuple[str, ...]:
    """The token names of `tables` (db_table names): each table's, and its APART columns'. A
    memoized part built from a table's rows as whole objects names these; one built only from
    what the table decides (which rows learners see) names the table alone."""
    return tuple(
        name
        for table in tables
        for name in (table, *(f"{table}.{c}" for c in APART.get(table, ())))
    )


def _bump_sql_sqlite(name: str) -> str:
    # An UPDATE, then an INSERT for a missing row: an outer INSERT OR IGNORE (bulk_create, m2m
    # add) imposes its conflict rule on a trigger's INSERTs.
    return (
        f"UPDATE core_contentversion SET token = lower(hex(randomblob(16))) WHERE name = '{name}'; "
        "INSERT OR IGNORE INTO core_contentversion (name, token) "
        f"VALUES ('{name}', lower(hex(randomblob(16))));"
    )


def _bump_sql_postgresql(name: str) -> str:
    return (
        "INSERT INTO core_contentversion (name, token) "
        f"VALUES ('{name}', gen_random_uuid()::text) "
        "ON CONFLICT (name) DO UPDATE SET token = EXCLUDED.token"
    )


def content_triggers_sql(
    vendor: str, tables, *, function: bool, apart=None, columns=None
) -> tuple[list[str], list[str]]:
    """The SQL that watches `tables` (forwards) and stops watching them (backwards), for `vendor`.

    Each table's trigger moves its own token. For a table in `apart` ({table: columns}), an
    update moves `<table>.<column>` for each of those columns it changes, and `<table>` only when
    it changes another column (SQLite needs the table's `columns` to say which).

    Idempotent both ways, so it also runs on a database that already has the triggers. Forwards
    ends with a fresh token for each table; backwards removes them (no token: nothing built from
    that table is served from the memo, so unwatched writes cannot leave stale pages). `function`:
    also create (and, backwards, drop) PostgreSQL's trigger function.
    """
    apart, columns = apart or {}, columns or {}
    names = [
        name
        for table in tables
        for name in (table, *(f"{table}.{c}" for c in apart.get(table, ())))
    ]
    forwards, backwards = [], []
    if vendor == "postgresql":
        if function:
            forwards.append(
                f"""CREATE OR REPLACE FUNCTION {_TRIGGER}_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO core_contentversion (name, token)
  VALUES (COALESCE(TG_ARGV[0], TG_TABLE_NAME), gen_random_uuid()::text)
  ON CONFLICT (name) DO UPDATE SET token = EXCLUDED.token;
  RETURN NULL;
END $$"""
            )
        for table in tables:
            split = apart.get(table, ())
            forwards.append(f'DROP TRIGGER IF EXISTS {_TRIGGER} ON "{table}"')
            events = (
                "INSERT OR DELETE OR TRUNCATE"
                if split
                else "INSERT OR UPDATE OR DELETE OR TRUNCATE"
            )
            forwards.append(
                f'CREATE TRIGGER {_TRIGGER} AFTER {events} ON "{table}" '
                f"FOR EACH STATEMENT EXECUTE FUNCTION {_TRIGGER}_bump()"
            )
            backwards.append(f'DROP TRIGGER IF EXISTS {_TRIGGER} ON "{table}"')
            if split:
                rest = " ".join(f"- '{column}'" for column in split)
                forwards.append(f'DROP TRIGGER IF EXISTS {_TRIGGER}_update ON "{table}"')
                forwards.append(
                    f'CREATE TRIGGER {_TRIGGER}_update AFTER UPDATE ON "{table}" FOR EACH ROW '
                    f"WHEN ((to_jsonb(OLD) {rest}) IS DISTINCT FROM (to_jsonb(NEW) {rest})) "
                    f"EXECUTE FUNCTION {_TRIGGER}_bump()"
                )
                backwards.append(f'DROP TRIGGER IF EXISTS {_TRIGGER}_update ON "{table}"')
                for column in split:
                    name = f"{_TRIGGER}_{column}"
                    forwards.append(f'DROP TRIGGER IF EXISTS {name} ON "{table}"')
                    forwards.append(
                        f'CREATE TRIGGER {name} AFTER UPDATE ON "{table}" FOR EACH ROW '
                        f'WHEN (OLD."{column}" IS DISTINCT FROM NEW."{column}") '
                        f"EXECUTE FUNCTION {_TRIGGER}_bump('{table}.{column}')"
                    )
                    backwards.append(f'DROP TRIGGER IF EXISTS {name} ON "{table}"')
        if function:
            backwards.append(f"DROP FUNCTION IF EXISTS {_TRIGGER}_bump()")
        forwards.extend(_bump_sql_postgresql(name) for name in names)
    elif vendor == "sqlite":  # no statement triggers, no CREATE OR REPLACE: drop, then one per row
        for table in tables:
            split = apart.get(table, ())
            triggers = [(event, "", table) for event in ("INSERT", "UPDATE", "DELETE")]
            if split:
                others = [c for c in columns[table] if c not in split]
                triggers[1] = (
                    "UPDATE",
                    " WHEN " + " OR ".join(f'OLD."{c}" IS NOT NEW."{c}"' for c in others),
                    table,
                )
                triggers += [
                    ("UPDATE", f' WHEN OLD."{c}" IS NOT NEW."{c}"', f"{table}.{c}") for c in split
                ]
            for event, when, name in triggers:
                trigger = f"{_TRIGGER}_{table}_{event.lower()}" + name.removeprefix(table).replace(
                    ".", "_"
                )
                forwards.append(f'DROP TRIGGER IF EXISTS "{trigger}"')
                forwards.append(
                    f'CREATE TRIGGER "{trigger}" AFTER {event} ON "{table}"{when} '
                    f"BEGIN {_bump_sql_sqlite(name)} END"
                )
                backwards.append(f'DROP TRIGGER IF EXISTS "{trigger}"')
        for name in names:
            forwards.extend(_bump_sql_sqlite(name).split("; "))
    else:  # no triggers: no token, so nothing is ever served from the memo
        return [], []
    quoted = ", ".join(f"'{name}'" for name in names)
    backwards.append(f"DELETE FROM core_contentversion WHERE name IN ({quoted})")
    return forwards, backwards


class ContentTriggers(migrations.RunSQL):
    """A migration operation that puts the content-version trigger on `tables` (its SQL shows in
    `sqlmigrate`), each table moving its own token (and its APART columns theirs). A migration
    that adds a content table, or rebuilds one (SQLite remakes a table to alter a column, which
    drops its triggers), ends with `ContentTriggers(["the_table"])` and depends on
    `("core", "0004_content_tokens_per_table")`; tests/core/test_content.py fails while a content
    table is unwatched after `migrate`."""

    def __init__(self, tables, *, function=False):
        self.tables, self.function = tuple(tables), function
        super().__init__(sql="", reverse_sql="", elidable=False)

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        self._content_sql(app_label, schema_editor, to_state, forwards=True)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        self._content_sql(app_label, schema_editor, from_state, forwards=False)

    def _content_sql(self, app_label, schema_editor, state, *, forwards):
        if not router.allow_migrate(schema_editor.connection.alias, app_label, **self.hints):
            return
        if _single_token(state):  # a migration written before core/0004, run before it
            legacy = import_module("apps.core.migrations.0003_content_triggers")
            sql = legacy.legacy_triggers_sql(
                schema_editor.connection.vendor, self.tables, function=self.function
            )
        else:
            columns = {
                model._meta.db_table: [field.column for field in model._meta.local_concrete_fields]
                for model in state.apps.get_models()
                if model._meta.db_table in APART
            }
            sql = content_triggers_sql(
                schema_editor.connection.vendor,
                self.tables,
                function=self.function,
                apart=APART,
                columns=columns,
            )
        self._run_sql(schema_editor, sql[0] if forwards else sql[1])

    def describe(self):
        return f"Content-version triggers on {', '.join(self.tables)}"


class ContentTriggersBothWays(ContentTriggers):
    """`ContentTriggers` that also watches `tables` when its migration is reversed. The first
    operation of a migration whose reverse makes SQLite remake a table (removing a column it
    added in place): reversed, it runs last and puts back the triggers the remake dropped."""

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        self._content_sql(app_label, schema_editor, to_state, forwards=True)

    def describe(self):
        return f"Content-version triggers on {', '.join(self.tables)}, kept when reversed"


def _single_token(state) -> bool:
    try:
        model = state.apps.get_model("core", "ContentVersion")
    except LookupError:
        return False
    return not any(field.name == "name" for field in model._meta.fields)


def tokens_restore(using: str = "default") -> list[str]:
    """Give each watched table (and APART column) without a token row a fresh one; returns their
    names. After `flush` (post_migrate, apps.core.apps) the rows are gone while the triggers stay:
    without this a table nobody writes to would keep every part built from it out of the memo.
    A fresh random token is always safe for a watched table; an unwatched one gets none."""
    from django.db import connections

    connection = connections[using]
    with connection.cursor() as cursor:
        table = ContentVersion._meta.db_table
        if table not in connection.introspection.table_names(cursor) or "name" not in {
            column.name for column in connection.introspection.get_table_description(cursor, table)
        }:
            return []  # migrated back before core/0004: the single token of core/0003
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT c.relname, t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
                "WHERE t.tgname LIKE %s",
                [f"{_TRIGGER}%"],
            )
            triggers = {(table, name) for table, name in cursor.fetchall()}

            def watched(table, column=None):
                name = _TRIGGER if column is None else f"{_TRIGGER}_{column}"
                return (table, name) in triggers
        elif connection.vendor == "sqlite":
            cursor.execute(
                "SELECT tbl_name, name FROM sqlite_master WHERE type = 'trigger' AND name LIKE %s",
                [f"{_TRIGGER}%"],
            )
            triggers = {(table, name) for table, name in cursor.fetchall()}

            def watched(table, column=None):
                suffix = "insert" if column is None else f"update_{column}"
                return (table, f"{_TRIGGER}_{table}_{suffix}") in triggers
        else:
            return []
    have = set(ContentVersion.objects.using(using).values_list("name", flat=True))
    missing = []
    for table in content_tables():
        for column in (None, *APART.get(table, ())):
            name = table if column is None else f"{table}.{column}"
            if name not in have and watched(table, column):
                missing.append(name)
    ContentVersion.objects.using(using).bulk_create(
        [ContentVersion(name=name, token=uuid.uuid4().hex) for name in missing],
        ignore_conflicts=True,
    )
    return missing


_UNREAD = object()
_request_tokens: ContextVar = ContextVar("content_tokens", default=None)


def content_tokens() -> dict[str, str]:
    """{token name: token} of every content table (and APART column) that has one; a part built
    from a name missing here is never cached. Read once per request, when first asked (see
    ContentVersionMiddleware); outside a request, read every time."""
    holder = _request_tokens.get()
    if holder is not None and holder[0] is not _UNREAD:
        return holder[0]
    tokens = dict(ContentVersion.objects.values_list("name", "token"))
    if holder is not None:
        holder[0] = tokens
    return tokens


class ContentVersionMiddleware:
    """Lets a request read the content tokens once, however many memoized parts its page shows.

    So a request that writes content must not read the memo afterwards (none does: curators
    write in the admin, learners' pages only read); its writes would be cached under the tokens
    it read before them.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        reset = _request_tokens.set([_UNREAD])
        try:
            return self.get_response(request)
        finally:
            _request_tokens.reset(reset)


def value_nbytes(value, depth: int = 2) -> int:
    """About how many bytes `value` holds: its own `nbytes` when it has one (Overlay), a string's
    exact size, a dataclass's fields', and for a container its size plus an estimate from its
    first items (a memo entry is measured once, when stored: this must stay cheap)."""
    nbytes = getattr(value, "nbytes", None)
    if isinstance(nbytes, int):
        return nbytes
    size = sys.getsizeof(value)
    if isinstance(value, str | bytes) or depth == 0:
        return size
    if is_dataclass(value) and not isinstance(value, type):
        return size + sum(value_nbytes(getattr(value, f.name), depth - 1) for f in fields(value))
    if isinstance(value, Mapping):
        items = list(value.items())
    elif isinstance(value, list | tuple | set | frozenset):
        items = list(value)
    elif hasattr(value, "__dict__"):  # a model instance and its field values
        return size + value_nbytes(vars(value), depth - 1)
    else:
        return size
    if not items:
        return size
    sample = items[:16]
    return size + len(items) * sum(value_nbytes(item, depth - 1) for item in sample) // len(sample)


class _Build:
    """One build of a part in progress: others asking for it wait on `done`."""

    def __init__(self):
        self.done = threading.Event()
        self.value = self.failed = None


class ContentMemo:
    """Values built from content, kept per worker while the tokens they were built from stay the
    same; at most `max_bytes` of them, the least recently used dropped first.

    Values must be treated as read-only by callers: they are shared by every request (and
    thread) of this worker.
    """

    instances: "weakref.WeakSet[ContentMemo]" = weakref.WeakSet()

    def __init__(self, max_bytes: int = MEMO_BYTES):
        ContentMemo.instances.add(self)
        self.max_bytes = max_bytes
        self.nbytes = 0
        self._values: OrderedDict = OrderedDict()  # key -> (version, value, nbytes)
        self._building: dict = {}  # (key, version) -> _Build
        self._lock = threading.Lock()

    def get(
        self, tokens: Mapping[str, str] | None, key, build, tables: Iterable[str] | None = None
    ):
        """The value of `key` built from `tables` (token names; every content token when None)
        under `tokens`: from the memo when it was built under the same tokens of those tables,
        else from `build()`, once however many threads ask at the same time; per language."""
        key = (get_language(), key)
        version = self._version(tokens, tables)
        if version is None:
            return build()
        with self._lock:
            held = self._values.get(key)
            if held is not None and held[0] == version:
                self._values.move_to_end(key)
                return held[1]
            running = self._building.get((key, version))
            if running is None:
                running = self._building[(key, version)] = _Build()
                mine = True
            else:
                mine = False
        if not mine:
            if running.done.wait(BUILD_WAIT) and running.failed is None:
                return running.value
            return build()  # the other build failed or is stuck: nothing hangs on it
        try:
            value = build()  # outside the lock: a slow build must not hold up other parts
        except BaseException as error:
            running.failed = error
            raise
        else:
            running.value = value
            self._store(key, version, value)
        finally:
            with self._lock:
                self._building.pop((key, version), None)
            running.done.set()
        return value

    @staticmethod
    def _version(tokens, tables):
        if not tokens:
            return None
        names = content_token_names() if tables is None else tables
        try:
            return tuple(tokens[name] for name in names)
        except KeyError:  # a table without a token: its writes are not watched
            return None

    def _store(self, key, version, value):
        nbytes = value_nbytes(value)
        with self._lock:
            old = self._values.pop(key, None)
            if old is not None:
                self.nbytes -= old[2]
            if nbytes > self.max_bytes:
                return  # served, not kept: it would push out everything else
            self._values[key] = (version, value, nbytes)
            self.nbytes += nbytes
            while self.nbytes > self.max_bytes:
                _, (_, _, dropped) = self._values.popitem(last=False)
                self.nbytes -= dropped

    def clear(self) -> None:
        with self._lock:
            self._values, self.nbytes = OrderedDict(), 0


def memos_clear() -> None:
    """Forget every memo of this process (after migrate, or an edited template in development)."""
    for instance in list(ContentMemo.instances):
        instance.clear()


memo = ContentMemo()


def memoized(key, build, tables: Iterable[str] | None = None):
    """`build()` once per worker while the tokens of `tables` (token names, see
    content_token_names; all of them when None) stay the same (every time when one is missing)."""
    return memo.get(content_tokens(), key, build, tables)


def published_get(model, **lookup):
    """The published `model` object whose one `lookup` field matches, or Http404: a page's slug or
    uuid lookup without a query (all published objects, memoized per version of the model's
    table). Shared, so read-only."""
    [(field, value)] = lookup.items()
    by_value = memoized(
        ("published", model._meta.label, field),
        lambda: {getattr(obj, field): obj for obj in model.objects.published()},
        table_tokens(model._meta.db_table),
    )
    try:
        return by_value[model._meta.get_field(field).to_python(value)]
    except (KeyError, ValidationError):
        raise Http404(f"No {model._meta.object_name} matches the given query.") from None
