"""The content tokens and the per-worker memo (apps.core.content): the database moves a table's
token on every write to it, however the write is made, and no part built from it under an old
token is served after it; a part is built once however many threads ask, and the memo keeps at
most its bytes."""

import threading
import time
from io import StringIO

import pytest
import sqlparse
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django.utils import translation

from apps.catalog.models import Entry, Guide, Resource, Section, Topic
from apps.core import content
from apps.core.content import (
    _TRIGGER,
    APART,
    ContentMemo,
    content_tables,
    content_token_names,
    content_tokens,
    content_triggers_sql,
    memoized,
    value_nbytes,
)
from apps.paths.models import LearningPath, PathFollow, PathStep, StepResource
from apps.progress.models import Status
from apps.progress.services import progress_set_status
from tests.factories import EntryFactory, ResourceFactory, TopicFactory, UserFactory

pytestmark = pytest.mark.django_db


def moved(write) -> set[str]:
    """The names of the tokens `write` moved."""
    before = content_tokens()
    write()
    after = content_tokens()
    assert set(after) == set(before) == set(content_token_names())
    return {name for name in after if after[name] != before[name]}


def moves_token(write) -> bool:
    return bool(moved(write))


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


def test_inserts_updates_deletes_and_bulk_writes_each_move_their_tables_token():
    entry = EntryFactory()
    resource, topic = entry.resource, TopicFactory()
    assert moved(lambda: ResourceFactory()) == {"catalog_resource"}
    assert moved(
        lambda: Resource.objects.filter(pk=resource.pk).update(title="Renamed in bulk")
    ) == {"catalog_resource"}
    assert moved(lambda: resource.topics.add(topic)) == {"catalog_resource_topics"}
    assert moved(
        lambda: Section.objects.filter(pk=entry.section_id).update(is_published=False)
    ) == {"catalog_section"}
    assert moved(lambda: Entry.objects.filter(pk=entry.pk).delete()) == {"catalog_entry"}
    with connection.cursor() as cursor:  # not even the ORM
        assert moved(
            lambda: cursor.execute(
                "UPDATE catalog_topic SET title = 'Raw' WHERE id = %s", [topic.pk]
            )
        ) == {"catalog_topic"}
    step = PathStep.objects.create(
        path=LearningPath.objects.create(slug="p", title="P"), position=1
    )
    assert moved(lambda: StepResource.objects.create(step=step, resource=resource, position=1)) == {
        "paths_stepresource"
    }


def test_a_guides_title_has_its_own_token_and_its_other_columns_the_guides():
    """Whichever way the write is made (a bulk update of one column, a model save of them all),
    only what changed moves: a title change leaves the parts that do not show titles alone."""
    guide = EntryFactory().section.guide
    assert moved(lambda: Guide.objects.filter(pk=guide.pk).update(title="New title")) == {
        "catalog_guide.title"
    }
    guide.refresh_from_db()
    guide.title = "Newer title"
    assert moved(guide.save) == {"catalog_guide.title", "catalog_guide.updated_at"}
    guide.is_published = False
    assert moved(guide.save) == {"catalog_guide", "catalog_guide.updated_at"}
    assert moved(lambda: Guide.objects.filter(pk=guide.pk).update(title="Newer title")) == set()
    assert "catalog_guide" in moved(lambda: Guide.objects.create(slug="new", title="New"))
    assert "catalog_guide" in moved(lambda: Guide.objects.filter(slug="new").delete())


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

    assert memo.get(content_tokens(), "key", build) == 1
    assert memo.get(content_tokens(), "key", build) == 1
    ResourceFactory()
    assert memo.get(content_tokens(), "key", build) == 2
    assert memo.get(None, "key", build) == 3  # no version known: never served from the memo
    assert memo.get(None, "key", build) == 4


def test_memo_keeps_a_part_per_language():
    """Rendered text holds the interface's words: a part built for one language is never
    served in another, and each language's is kept beside the other's."""
    memo = ContentMemo()

    def build():
        return translation.gettext("Done")

    tokens = content_tokens()
    with translation.override("en"):
        assert memo.get(tokens, "key", build) == "Done"
    with translation.override("zh-hans"):
        assert memo.get(tokens, "key", build) == "已完成"
    with translation.override("en"):
        assert memo.get(tokens, "key", lambda: "rebuilt") == "Done"  # kept, not rebuilt
    with translation.override("zh-hans"):
        assert memo.get(tokens, "key", lambda: "rebuilt") == "已完成"


def test_a_part_is_rebuilt_only_when_a_table_it_is_built_from_changes():
    memo, builds = ContentMemo(), []

    def build():
        builds.append(1)
        return len(builds)

    tables = ["catalog_topic", "catalog_resource"]
    assert memo.get(content_tokens(), "topic", build, tables) == 1
    LearningPath.objects.create(slug="elsewhere", title="Elsewhere")
    EntryFactory.create()  # a section, a guide, an entry and a resource
    assert memo.get(content_tokens(), "topic", build, tables) == 2  # the resource
    TopicFactory.create()
    assert memo.get(content_tokens(), "topic", build, tables) == 3
    LearningPath.objects.update(title="Still elsewhere")
    assert memo.get(content_tokens(), "topic", build, tables) == 3
    assert memo.get(content_tokens(), "topic", build, ["catalog_nothing"]) == 4  # no token: no memo
    assert memo.get(content_tokens(), "topic", build, ["catalog_nothing"]) == 5


def test_a_table_whose_token_is_gone_is_never_served_from_the_memo():
    from apps.core.models import ContentVersion

    memo, tokens = ContentMemo(), content_tokens()
    memo.get(tokens, "topic", lambda: "old", ["catalog_topic"])
    ContentVersion.objects.filter(name="catalog_topic").delete()
    tokens = content_tokens()
    assert memo.get(tokens, "topic", lambda: "new", ["catalog_topic"]) == "new"
    assert memo.get(tokens, "guide", lambda: "g1", ["catalog_guide"]) == "g1"
    assert memo.get(tokens, "guide", lambda: "g2", ["catalog_guide"]) == "g1"


def test_memo_keeps_at_most_its_bytes_dropping_the_least_recently_used():
    kb = "x" * 1000  # about 1 KB each
    memo, tokens = ContentMemo(max_bytes=3 * value_nbytes(kb) + 10), content_tokens()
    memo.get(tokens, "a", lambda: "a" + kb)
    memo.get(tokens, "b", lambda: "b" + kb)
    memo.get(tokens, "c", lambda: "c" + kb)
    memo.get(tokens, "a", lambda: "a2")  # a is now the most recent
    memo.get(tokens, "d", lambda: "d" + kb)
    assert memo.get(tokens, "a", lambda: "a3").startswith("a" + kb)
    assert memo.get(tokens, "b", lambda: "b2") == "b2"  # b was dropped
    assert memo.nbytes <= memo.max_bytes


def test_an_entry_larger_than_the_memo_is_served_but_not_kept():
    memo, tokens = ContentMemo(max_bytes=10_000), content_tokens()
    memo.get(tokens, "small", lambda: "s")
    big = "y" * 20_000
    assert memo.get(tokens, "big", lambda: big) is big
    assert memo.get(tokens, "big", lambda: "rebuilt") == "rebuilt"
    assert memo.get(tokens, "small", lambda: "other") == "s"  # nothing was pushed out for it


def test_an_entry_is_measured_by_what_it_holds():
    from apps.learning.shared import GuideParts, overlay_render

    assert value_nbytes("z" * 10_000) > 10_000
    assert 100_000 < value_nbytes(["z" * 1000] * 100) < 200_000
    entries = [EntryFactory(resource=ResourceFactory(title="t" * 250)) for _ in range(3)]
    overlay = overlay_render(
        "catalog/includes/resource_row.html",
        {"resource": entries[0].resource},
    )
    assert overlay.nbytes > 6 * 250  # each of its tick variants names the title
    parts = GuideParts(total_count=1, heading="h" * 5000, toc="", entries=overlay)
    assert value_nbytes(parts) > 5000 + overlay.nbytes


def test_threads_asking_for_the_same_part_wait_for_one_build():
    memo, tokens, builds = ContentMemo(), content_tokens(), []
    started = threading.Event()

    def slow_build():
        builds.append(1)
        started.set()
        time.sleep(0.3)
        return ["built once"]

    results = []

    def ask():
        results.append(memo.get(tokens, "guide", slow_build, ["catalog_guide"]))

    threads = [threading.Thread(target=ask) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(5)
    assert len(builds) == 1
    assert len(results) == 6 and all(result is results[0] for result in results)


def test_a_waiting_thread_builds_itself_when_the_build_fails_or_takes_too_long(monkeypatch):
    monkeypatch.setattr(content, "BUILD_WAIT", 0.05)
    memo, tokens = ContentMemo(), content_tokens()
    release, inside = threading.Event(), threading.Event()

    def stuck():
        inside.set()
        release.wait(5)
        return "late"

    first = threading.Thread(target=lambda: memo.get(tokens, "k", stuck, ["catalog_guide"]))
    first.start()
    inside.wait(5)
    assert memo.get(tokens, "k", lambda: "own", ["catalog_guide"]) == "own"  # did not hang
    release.set()
    first.join(5)

    def failing():
        inside.set()
        time.sleep(0.02)
        raise RuntimeError("the database went away")

    inside.clear()
    errors = []

    def ask_failing():
        try:
            memo.get(tokens, "f", failing, ["catalog_guide"])
        except RuntimeError as error:
            errors.append(error)

    first = threading.Thread(target=ask_failing)
    first.start()
    inside.wait(5)
    monkeypatch.setattr(content, "BUILD_WAIT", 5)
    assert memo.get(tokens, "f", lambda: "recovered", ["catalog_guide"]) == "recovered"
    first.join(5)
    assert len(errors) == 1


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
            "SELECT tbl_name FROM sqlite_master WHERE type = 'trigger' AND ("
            "name = %s || '_' || tbl_name || '_insert' OR name = %s || '_' || tbl_name || '_update' "
            "OR name = %s || '_' || tbl_name || '_delete') GROUP BY tbl_name HAVING count(*) = 3",
            [_TRIGGER] * 3,
        )
        return {table for (table,) in cursor.fetchall()}


def test_after_migrate_every_content_table_has_the_trigger_and_no_other_table_does():
    """A content table added, or rebuilt on SQLite, by a later migration without its
    ContentTriggers operation fails here."""
    assert watched_tables() == set(content_tables())


def test_a_guides_update_trigger_watches_every_column_but_those_with_a_token_of_their_own():
    """On SQLite the trigger names the columns: a column added to the guide without its
    ContentTriggers operation would change pages without moving a token, and fails here."""
    if connection.vendor != "sqlite":
        pytest.skip("PostgreSQL compares whole rows (to_jsonb), whatever their columns")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = %s",
            [f"{_TRIGGER}_catalog_guide_update"],
        )
        [(sql,)] = cursor.fetchall()
    for field in Guide._meta.local_concrete_fields:
        watched = f'OLD."{field.column}" IS NOT NEW."{field.column}"' in sql
        assert watched == (field.column not in APART["catalog_guide"]), field.column


def sqlmigrate(*args) -> list[str]:
    from django.core.management import call_command

    out = StringIO()
    call_command("sqlmigrate", "core", "0004", *args, stdout=out)
    return statements(out.getvalue())


def statements(sql: str) -> list[str]:
    found = (sqlparse.format(s, strip_comments=True).strip() for s in sqlparse.split(sql))
    return [s.removesuffix(";") for s in found if s and s not in ("BEGIN;", "COMMIT;")]


@pytest.mark.django_db(transaction=True)  # SQLite's schema editor refuses to run in a transaction
def test_sqlmigrate_shows_the_triggers_and_running_them_again_or_backwards_is_safe():
    """The migration's SQL is what sqlmigrate prints; forwards again is harmless; backwards
    unwatches and drops the tokens (no token: no memo), forwards brings both back."""

    def sql(guide_model):
        columns = {"catalog_guide": [f.column for f in guide_model._meta.local_concrete_fields]}
        return (
            [s.removesuffix(";") for s in statements(";\n".join(sql))]
            for sql in content_triggers_sql(
                connection.vendor, content_tables(), function=True, apart=APART, columns=columns
            )
        )

    # What the migration prints names the guide's columns as they were then (SQLite); a later
    # migration that adds one ends with its own ContentTriggers(["catalog_guide"]).
    then = MigrationLoader(connection).project_state(("core", "0004_content_tokens_per_table"))
    migrated, _ = sql(then.apps.get_model("catalog", "Guide"))
    forwards, backwards = sql(Guide)
    printed = sqlmigrate()
    assert any("TRIGGER" in line and '"catalog_topic"' in line for line in printed)
    assert all(statement in printed for statement in migrated if "TRIGGER" in statement)
    topic = TopicFactory()
    with connection.cursor() as cursor:
        for statement in backwards:
            cursor.execute(statement)
        assert watched_tables() == set() and content_tokens() == {}
        Topic.objects.filter(pk=topic.pk).update(title="Unseen")
        assert content_tokens() == {}
        for statement in forwards + forwards:
            cursor.execute(statement)
    assert watched_tables() == set(content_tables())
    assert moved(lambda: Topic.objects.filter(pk=topic.pk).update(title="Seen")) == {
        "catalog_topic"
    }


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


def test_the_middleware_reads_the_tokens_once_per_request(client, django_assert_num_queries):
    client.get("/topics/")  # builds this worker's memo of the topic list
    for _ in range(2):
        with django_assert_num_queries(1):  # the tokens, and nothing else
            assert client.get("/topics/").status_code == 200


def test_a_signed_in_page_is_cached_under_the_token_of_its_request(client):
    topic = TopicFactory(title="Before the rename")
    client.force_login(UserFactory())
    assert "Before the rename" in client.get("/topics/").content.decode()
    Topic.objects.filter(pk=topic.pk).update(title="After the rename")
    html = client.get("/topics/").content.decode()
    assert "After the rename" in html and "Before the rename" not in html


def test_after_a_flush_every_watched_table_gets_its_token_back_and_no_unwatched_one():
    from apps.core.content import tokens_restore
    from apps.core.models import ContentVersion

    ContentVersion.objects.all().delete()  # what `flush` leaves: triggers, no rows
    assert sorted(tokens_restore()) == sorted(content_token_names())
    assert set(content_tokens()) == set(content_token_names()) and tokens_restore() == []
    with connection.cursor() as cursor:
        _, backwards = content_triggers_sql(
            connection.vendor, ["catalog_topic"], function=False, apart=APART, columns={}
        )
        for statement in backwards:
            cursor.execute(statement)
    assert tokens_restore() == [] and "catalog_topic" not in content_tokens()
