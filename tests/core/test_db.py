"""apps.core.db: several reads, one round trip on PostgreSQL, the same results everywhere."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.core.db import Read, aware, read_all, read_one
from tests.conftest import batch
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def user():
    return UserFactory(email="ada@example.com")


def test_each_read_gets_its_own_rows_and_parameters_in_order(user):
    with CaptureQueriesContext(connection) as queries:
        numbers, email, nothing, parsed = read_all(
            Read("SELECT %s + 1 UNION ALL SELECT %s", [1, 5]),
            Read("SELECT email FROM auth_user WHERE id = %s", [user.pk]),
            Read("SELECT id FROM auth_user WHERE id = %s", [-1]),
            Read("SELECT %s, %s", ["a", "b"], lambda rows: "".join(rows[0])),
        )
    assert numbers == [(2,), (5,)]
    assert email == [(user.email,)]
    assert nothing == []
    assert parsed == "ab"
    assert len(queries) == batch(4)


def test_a_statement_without_rows_reads_as_empty(user):
    written, after = read_all(
        Read("UPDATE auth_user SET first_name = %s WHERE id = %s", ["Grace", user.pk]),
        Read("SELECT first_name FROM auth_user WHERE id = %s", [user.pk], lambda rows: rows[0][0]),
    )
    assert written == [] and after == "Grace"  # a later statement sees an earlier one's write


def test_one_read_is_one_query(user):
    with CaptureQueriesContext(connection) as queries:
        assert read_one(Read("SELECT id FROM auth_user WHERE id = %s", [user.pk], len)) == 1
    assert len(queries) == 1


def test_a_failing_statement_raises():
    with pytest.raises(Exception, match="no_such_table"):
        read_all(Read("SELECT 1"), Read("SELECT 1 FROM no_such_table"))


def test_aware_gives_utc_to_naive_datetimes_and_keeps_the_rest():
    from datetime import UTC, datetime

    naive = datetime(2026, 1, 2, 3, 4)
    assert aware(naive) == naive.replace(tzinfo=UTC)
    assert aware(naive.replace(tzinfo=UTC)) is not None and aware(None) is None
