"""Progress at real sizes: the statuses query reads covering indexes only, and the superuser's
admin lists read one page through an index (no total count, no date hierarchy, exact search)."""

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from apps.catalog.models import Resource
from apps.progress import selectors
from apps.progress.models import Activity, Progress, Status

postgresql_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="covering indexes and EXPLAIN are PostgreSQL's"
)


def give_rows(user, n, *, start=0):
    statuses = [Status.IN_PROGRESS, Status.DONE, Status.SKIPPED, Status.NOT_STARTED]
    resources = Resource.objects.bulk_create(
        Resource(title=f"R {start + i}", url=f"https://example.com/{user.pk}/{start + i}")
        for i in range(n)
    )
    now = timezone.now()
    Progress.objects.bulk_create(
        Progress(
            user=user,
            resource=resource,
            status=statuses[i % 4],
            note="a note" if i % 3 == 0 else "",
            completed_at=now if statuses[i % 4] == Status.DONE else None,
        )
        for i, resource in enumerate(resources)
    )
    Activity.objects.bulk_create(
        Activity(user=user, resource=resource, status=Status.DONE, occurred_at=now)
        for resource in resources
    )
    return resources


def test_statuses_and_notes_read_in_one_query(learner, django_assert_num_queries):
    resources = give_rows(learner, 8)
    with django_assert_num_queries(1):
        statuses = selectors.statuses_for(user=learner)
    # not started rows are absent unless noted; noted ones are marked whatever their status
    shown = {0: "in_progress", 1: "done", 2: "skipped", 4: "in_progress", 5: "done", 6: "skipped"}
    assert statuses == {resources[i].pk: status for i, status in shown.items()}
    assert statuses.noted == {resources[0].pk, resources[3].pk, resources[6].pk}


@postgresql_only
def test_statuses_query_is_two_index_only_scans(learner, other_learner):
    give_rows(learner, 12)
    give_rows(other_learner, 12, start=100)
    with CaptureQueriesContext(connection) as queries:
        selectors.statuses_for(user=learner)
    (query,) = queries.captured_queries
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("SET LOCAL enable_bitmapscan = off")
        cursor.execute("EXPLAIN " + query["sql"])
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "Index Only Scan using progress_user_statuses" in plan, plan
    assert "Index Only Scan using progress_user_noted" in plan, plan


@postgresql_only
def test_no_partial_index_is_left_unread(db):
    """The dropped "latest started" index stays dropped; the covering indexes exist as declared."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'progress_progress'"
        )
        indexes = dict(cursor.fetchall())
    assert "progress_latest_started" not in indexes
    assert "INCLUDE (resource_id, status)" in indexes["progress_user_statuses"]
    assert "INCLUDE (resource_id, status)" in indexes["progress_user_noted"]


@pytest.fixture
def admin_client(client, superuser):
    client.force_login(superuser)
    return client


def _learners(n, start=0):
    return [
        User.objects.create_user(f"member{i}", f"member{i}@example.com")
        for i in range(start, start + n)
    ]


@pytest.mark.parametrize("name", ["progress", "activity"])
def test_admin_lists_queries_do_not_grow_with_rows_and_skip_the_full_count(admin_client, name):
    url = reverse(f"admin:progress_{name}_changelist")

    def queries():
        with CaptureQueriesContext(connection) as captured:
            assert admin_client.get(url).status_code == 200
        return [query["sql"] for query in captured.captured_queries]

    (one,) = _learners(1)
    give_rows(one, 2)
    few = queries()
    for learner in _learners(3, start=1):
        give_rows(learner, 6, start=learner.pk * 10)
    many = queries()
    assert len(many) == len(few)
    table = f"progress_{name}"
    counts = [sql for sql in many if "COUNT(*)" in sql and f'FROM "{table}"' in sql]
    # the one count is the filtered result's (the page needs it); no second, unfiltered count
    assert len(counts) <= 1
    # no date hierarchy: no MIN/MAX over every row's date
    assert not [sql for sql in many if "MIN(" in sql or "MAX(" in sql]


@pytest.mark.parametrize("name", ["progress", "activity"])
def test_admin_lists_search_exact_username_email_or_uuid(admin_client, name):
    first, second = _learners(2)
    [mine] = give_rows(first, 1)
    [theirs] = give_rows(second, 1, start=50)
    url = reverse(f"admin:progress_{name}_changelist")

    def found(term):
        response = admin_client.get(url, {"q": term})
        assert response.status_code == 200
        return {row.resource_id for row in response.context["cl"].result_list}

    assert found("member0") == {mine.pk}
    assert found("member1@example.com") == {theirs.pk}
    assert found(str(theirs.uuid)) == {theirs.pk}
    # substrings no longer match: they scanned every row
    assert found("member") == set()
    assert found("R 5") == set()


@pytest.mark.parametrize("name", ["progress", "activity"])
def test_admin_lists_are_ordered_by_an_indexed_column_without_hierarchy_or_filter(name):
    from django.contrib import admin

    model_admin = admin.site._registry[Progress if name == "progress" else Activity]
    assert model_admin.show_full_result_count is False
    assert model_admin.date_hierarchy is None
    assert not model_admin.list_filter
    assert model_admin.ordering in (["-pk"], ["-occurred_at", "-pk"])
