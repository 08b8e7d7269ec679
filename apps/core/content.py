"""Caching what every learner sees alike, safely: a content version kept by the database, and a
per-process memo keyed by it.

Catalog and path pages are mostly the same for everyone (the guide's sections and entries) with a
thin per-learner layer on top (ticks, bars). The shared part is built once per worker and reused
until the content changes. "Changes" is decided by the database itself: a trigger on every table
the pages are built from sets `core_contentversion.token` to a new random value in the same
transaction as the write (admin, bulk `update()`, merges, imports, raw SQL alike). A request reads
the token first (one indexed single-row query) and uses only memo entries built under it; a
token is random, never a counter, so a rolled-back or flushed database cannot bring an old one back.
"""

import secrets
import threading
import weakref
from collections import OrderedDict
from contextvars import ContextVar

from django.apps import apps
from django.core.exceptions import ValidationError
from django.db import connections
from django.http import Http404

from apps.core.models import ContentVersion

# Tables learner pages are built from: every model of these apps (and their many-to-many tables)
# except per-learner ones. Anything added to these apps is covered without touching this list.
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


def content_triggers_install(*, using=None) -> None:
    """Create (or re-create) the triggers; idempotent, run after every migrate and flush."""
    conn = connections[using or "default"]
    with conn.cursor() as cursor:
        if conn.vendor == "postgresql":
            cursor.execute(
                f"""CREATE OR REPLACE FUNCTION {_TRIGGER}_bump() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                  INSERT INTO core_contentversion (id, token) VALUES (1, gen_random_uuid()::text)
                  ON CONFLICT (id) DO UPDATE SET token = EXCLUDED.token;
                  RETURN NULL;
                END $$"""
            )
            for table in content_tables():
                cursor.execute(
                    f'CREATE OR REPLACE TRIGGER {_TRIGGER} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "{table}" '
                    f"FOR EACH STATEMENT EXECUTE FUNCTION {_TRIGGER}_bump()"
                )
        elif (
            conn.vendor == "sqlite"
        ):  # no statement triggers, no CREATE OR REPLACE: drop, then one per row
            for table in content_tables():
                for event in ("INSERT", "UPDATE", "DELETE"):
                    name = f"{_TRIGGER}_{table}_{event.lower()}"
                    cursor.execute(f'DROP TRIGGER IF EXISTS "{name}"')
                    cursor.execute(
                        f'CREATE TRIGGER "{name}" AFTER {event} ON "{table}" BEGIN '
                        # An UPDATE, then an INSERT for a missing row: an outer INSERT OR IGNORE
                        # (bulk_create, m2m add) imposes its conflict rule on a trigger's INSERTs.
                        "UPDATE core_contentversion SET token = lower(hex(randomblob(16))) WHERE id = 1; "
                        "INSERT OR IGNORE INTO core_contentversion (id, token) VALUES (1, lower(hex(randomblob(16)))); "
                        "END"
                    )
        else:  # no triggers: no token, so nothing is ever served from the memo
            return
        cursor.execute("DELETE FROM core_contentversion")  # a fresh token after migrate/flush
        cursor.execute(
            "INSERT INTO core_contentversion (id, token) VALUES (1, %s)", [_random_token()]
        )


def _random_token() -> str:
    return secrets.token_hex(16)


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
