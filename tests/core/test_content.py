"""The content version and the per-worker memo (apps.core.content): the database moves the
token on every write to what learner pages are built from, however the write is made, and
nothing built under an old token is served after it."""

from io import StringIO

import pytest
import sqlparse
from django.db import connection

from apps.catalog.models import Entry, Resource, Section, Topic
from apps.core.content import _TRIGGER, ContentMemo, content_tables, content_token, memoized
from apps.paths.models import LearningPath, PathFollow, PathStep, StepResource
from apps.progress.models import Status
from apps.progress.services import progress_set_status
from tests.factories import EntryFactory, ResourceFactory, TopicFactory, UserFactory

pytestmark = pytest.mark.django_db


def moves_token(write) -> bool:
    before = content_token()
    write()
    return content_token() != before


def test_every_catalog_and_path_table_is_watched_and_learner_tables_are_not():
    tables = set(content_tables())
    for model in (
        Entry,
        Resource,
        Section,
        Topic,
        LearningPath,
        PathStep,
        StepResource,
        Resource.topics.through,
    ):
        assert model._meta.db_table in tables
    assert PathFollow._meta.db_table not in tables
    assert not any(table.startswith(("progress_", "auth_", "django_session")) for table in tables)


def test_inserts_updates_deletes_and_bulk_writes_all_move_the_token():
    entry = EntryFactory()
    resource, topic = entry.resource, TopicFactory()
    assert moves_token(lambda: ResourceFactory())
    assert moves_token(
        lambda: Resource.objects.filter(pk=resource.pk).update(title="Renamed in bulk")
    )
    assert moves_token(lambda: resource.topics.add(topic))  # the many-to-many table
    assert moves_token(
        lambda: Section.objects.filter(pk=entry.section_id).update(is_published=False)
    )
    assert moves_token(lambda: Entry.objects.filter(pk=entry.pk).delete())
    with connection.cursor() as cursor:  # not even the ORM
        assert moves_token(
            lambda: cursor.execute(
                "UPDATE catalog_topic SET title = 'Raw' WHERE id = %s", [topic.pk]
            )
        )


def test_a_learners_progress_does_not_move_the_token():
    resource, user = ResourceFactory(), UserFactory()
    assert not moves_token(
        lambda: progress_set_status(user=user, resource=resource, status=Status.DONE)
    )


def test_memo_builds_once_per_token_and_again_after_a_write():
    builds = []
    memo = ContentMemo()

    def build():
        builds.append(1)
        return len(builds)

    assert memo.get(content_token(), "key", build) == 1
    assert memo.get(content_token(), "key", build) == 1
    ResourceFactory()
    assert memo.get(content_token(), "key", build) == 2
    assert memo.get(None, "key", build) == 3  # no version known: never served from the memo
    assert memo.get(None, "key", build) == 4


def test_memo_keeps_at_most_its_size_dropping_the_least_recently_used():
    memo, token = ContentMemo(size=2), content_token()
    memo.get(token, "a", lambda: "a1")
    memo.get(token, "b", lambda: "b1")
    memo.get(token, "a", lambda: "a2")  # a is now the most recent
    memo.get(token, "c", lambda: "c1")
    assert memo.get(token, "a", lambda: "a3") == "a1"
    assert memo.get(token, "b", lambda: "b2") == "b2"  # b was dropped


def test_memoized_uses_the_shared_memo():
    assert memoized("test-key", lambda: ["built"]) is memoized("test-key", lambda: ["other"])


def watched_tables() -> set[str]:
    """The tables that have the content-version trigger in the database (every event, on SQLite)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT tgrelid::regclass::text FROM pg_trigger WHERE tgname = %s", [_TRIGGER]
            )
            return {table.strip('"') for (table,) in cursor.fetchall()}
        cursor.execute(
            "SELECT tbl_name FROM sqlite_master WHERE type = 'trigger' AND name LIKE %s "
            "GROUP BY tbl_name HAVING count(*) = 3",
            [f"{_TRIGGER}_%"],
        )
        return {table for (table,) in cursor.fetchall()}


def test_after_migrate_every_content_table_has_the_trigger_and_no_other_table_does():
    """A content table added, or rebuilt on SQLite, by a later migration without its
    ContentTriggers operation fails here."""
    assert watched_tables() == set(content_tables())


def sqlmigrate(*args) -> list[str]:
    from django.core.management import call_command

    out = StringIO()
    call_command("sqlmigrate", "core", "0003", *args, stdout=out)
    statements = (
        sqlparse.format(s, strip_comments=True).strip() for s in sqlparse.split(out.getvalue())
    )
    return [s.removesuffix(";") for s in statements if s and s not in ("BEGIN;", "COMMIT;")]


@pytest.mark.django_db(transaction=True)  # SQLite's schema editor refuses to run in a transaction
def test_sqlmigrate_shows_the_trigger_and_running_it_again_or_backwards_is_safe():
    """The migration's SQL is what sqlmigrate prints; forwards again is harmless (databases
    that had the trigger from the old post_migrate hook); backwards unwatches and drops the token
    (no token: no memo), forwards brings both back."""
    forwards, backwards = sqlmigrate(), sqlmigrate("--backwards")
    assert any("TRIGGER" in line and '"catalog_topic"' in line for line in forwards)
    topic = TopicFactory()
    with connection.cursor() as cursor:
        for statement in backwards:
            cursor.execute(statement)
        assert watched_tables() == set() and content_token() is None
        Topic.objects.filter(pk=topic.pk).update(title="Unseen")
        assert content_token() is None
        for statement in forwards + forwards:
            cursor.execute(statement)
    assert watched_tables() == set(content_tables())
    assert moves_token(lambda: Topic.objects.filter(pk=topic.pk).update(title="Seen"))


def test_editing_a_template_in_development_forgets_the_rendered_pages():
    from pathlib import Path

    from django.utils.autoreload import file_changed

    memoized("page", lambda: "old")
    file_changed.send(sender=None, file_path=Path("templates/catalog/includes/entry_row.html"))
    assert memoized("page", lambda: "new") == "new"
    file_changed.send(
        sender=None, file_path=Path("apps/catalog/views.py")
    )  # code: the server restarts anyway
    assert memoized("page", lambda: "newer") == "new"


def test_the_middleware_reads_the_token_once_per_request(client, django_assert_num_queries):
    client.get("/topics/")  # builds this worker's memo of the topic list
    for _ in range(2):
        with django_assert_num_queries(1):  # the token, and nothing else
            assert client.get("/topics/").status_code == 200


def test_a_signed_in_page_is_cached_under_the_token_of_its_request(client):
    topic = TopicFactory(title="Before the rename")
    client.force_login(UserFactory())
    assert "Before the rename" in client.get("/topics/").content.decode()
    Topic.objects.filter(pk=topic.pk).update(title="After the rename")
    html = client.get("/topics/").content.decode()
    assert "After the rename" in html and "Before the rename" not in html
