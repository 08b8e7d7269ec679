"""Several plain-SQL statements in one round trip.

A learner page's reads are small and independent (statuses, latest rows, day counts, follows);
sent one by one, each costs a round trip and the driver's per-query work, more than the database
spends answering it. On PostgreSQL, psycopg's client-side binding (Django's default) sends them as
one message and reads each one's result in turn. Elsewhere (SQLite) they run one after another,
in process, where a "round trip" costs little.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC
from typing import Any

from django.db import connection
from django.utils import timezone


@dataclass(frozen=True)
class Read:
    """A statement, its parameters, and what to make of its rows."""

    sql: str
    params: Sequence = ()
    parse: Callable[[list[tuple]], Any] = list


def read_all(*reads: Read) -> list:
    """Each read's parsed rows, in order, from one round trip where the database allows."""
    return [read.parse(rows) for read, rows in zip(reads, rows_of(*reads), strict=True)]


def read_one(read: Read):
    return read_all(read)[0]


def rows_of(*statements: Read) -> list[list[tuple]]:
    """Each statement's rows (an empty list for one that returns none)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql" and len(statements) > 1:
            cursor.execute(
                ";\n".join(statement.sql for statement in statements),
                [param for statement in statements for param in statement.params],
            )
            results = [_rows(cursor)]
            while cursor.nextset():
                results.append(_rows(cursor))
            return results
        results = []
        for statement in statements:
            cursor.execute(statement.sql, statement.params)
            results.append(_rows(cursor))
        return results


def _rows(cursor) -> list[tuple]:
    return cursor.fetchall() if cursor.description is not None else []


def aware(moment):
    """A datetime read with plain SQL, as the ORM would give it: SQLite's cursors give naive UTC."""
    return timezone.make_aware(moment, UTC) if moment is not None and timezone.is_naive(moment) else moment


def instance_from_row(model, row):
    """A `model` instance from a plain-SQL row of `columns(model)`. For models whose values need
    no conversion but their datetimes (`aware`): booleans and the like would stay as SQLite stores
    them (apps.accounts.sessions applies the ORM's converters to the swappable user model)."""
    instance = model.from_db(connection.alias, columns(model), row)
    for field in model._meta.concrete_fields:
        if field.get_internal_type() == "DateTimeField":
            setattr(instance, field.attname, aware(getattr(instance, field.attname)))
    return instance


def columns(model) -> list[str]:
    """`model`'s concrete columns in field order, as `instance_from_row` takes them."""
    return [field.attname for field in model._meta.concrete_fields]
