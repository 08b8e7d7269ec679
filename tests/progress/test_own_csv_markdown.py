"""A learner's own resources in the CSV and Markdown exports: rows marked as their own, with their
own title, kind and author, read back by the importers to the same state; a row whose link is a
catalog resource joins the catalog resource's progress (one row per link); bad rows reported."""

import csv
import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.progress.exports import CSV_COLUMNS, progress_csv, progress_markdown
from apps.progress.imports import ProgressImportError, import_apply, import_plan
from apps.progress.models import OwnResource, Progress, Status
from apps.progress.services import own_resource_save, progress_set_status
from tests.factories import EntryFactory, UserFactory

pytestmark = pytest.mark.django_db

# A title no format may spoil: brackets, a comment's end, a formula, a line break, CJK.
AWKWARD = "=cmd [1] --> <b> 注意力\u2028机制"


@pytest.fixture
def own(learner):
    paper = own_resource_save(
        user=learner,
        url="https://example.org/paper",
        title=AWKWARD,
        kind="paper",
        author="-Me, @them",
        note="=my note",
        status=Status.DONE,
    ).own
    video = own_resource_save(
        user=learner, url="https://example.org/talk?x=(1)", title="A talk", kind="video"
    ).own
    progress_set_status(user=learner, resource=video.resource, status=Status.IN_PROGRESS)
    bare = own_resource_save(user=learner, url="https://example.org/bare", title="Bare").own
    return paper, video, bare


def _own_state(user, *, dates=True):
    rows = {row.resource_id: row for row in Progress.objects.filter(user=user)}
    return sorted(
        (
            own.resource.url,
            own.title,
            own.kind,
            own.author,
            *(
                (
                    rows[own.resource_id].status,
                    rows[own.resource_id].note,
                    *(
                        (rows[own.resource_id].started_at, rows[own.resource_id].completed_at)
                        if dates
                        else ()
                    ),
                )
                if own.resource_id in rows
                else ()
            ),
        )
        for own in OwnResource.objects.filter(user=user).select_related("resource")
    )


def test_the_csv_marks_own_rows_with_their_own_title_kind_and_author(learner, own):
    rows = list(csv.DictReader(io.StringIO(progress_csv(learner))))
    mine = [row for row in rows if row["own"] == "own"]
    assert [row["title"] for row in mine] == ["Bare", "A talk", "'" + AWKWARD]
    assert mine[2]["kind"] == "paper" and mine[2]["author"] == "'-Me, @them"
    assert mine[2]["status"] == "done" and mine[2]["note"] == "'=my note"
    assert mine[0]["status"] == "not_started"
    assert list(rows[0]) == CSV_COLUMNS


def test_the_csv_imports_back_to_the_same_own_resources(learner, own):
    fresh = UserFactory()
    plan = import_plan(user=fresh, content=progress_csv(learner))
    assert len(plan.own) == 3 and not plan.unmatched
    import_apply(user=fresh, plan=plan)
    assert _own_state(fresh) == _own_state(learner)
    # and once more: nothing to change, no second row
    again = import_plan(user=fresh, content=progress_csv(learner))
    assert not again.anything_to_apply and again.unchanged == 3
    assert OwnResource.objects.filter(user=fresh).count() == 3


def test_the_markdown_lists_own_resources_and_imports_them_back(learner, own):
    markdown = progress_markdown(learner)
    section = markdown.split("# Your own resources", 1)[1]
    lines = [line for line in section.splitlines() if line.startswith("- [")]
    assert len(lines) == 3 and lines[2].startswith("- [x] [=cmd \\[1\\] --> <b> 注意力 机制]")
    fresh = UserFactory()
    plan = import_plan(user=fresh, content=markdown)
    assert len(plan.own) == 3 and not plan.unmatched
    import_apply(user=fresh, plan=plan)
    # Markdown carries done or not done, no notes: the talk in progress comes back saved
    assert _own_state(fresh, dates=False) == [
        ("https://example.org/bare", "Bare", "article", ""),
        ("https://example.org/paper", AWKWARD, "paper", "-Me, @them", "done", ""),
        ("https://example.org/talk?x=(1)", "A talk", "video", ""),
    ]


def test_an_unticked_own_line_never_takes_back_what_the_learner_did(learner, own):
    markdown = progress_markdown(learner)  # the talk: "[ ]", in progress
    import_apply(user=learner, plan=import_plan(user=learner, content=markdown))
    assert Progress.objects.get(user=learner, resource=own[1].resource).status == "in_progress"
    assert not import_plan(user=learner, content=markdown).anything_to_apply


@pytest.mark.parametrize("fmt", ["csv", "md"])
def test_an_own_row_whose_link_is_in_the_catalog_joins_its_progress(learner, own, fmt):
    exported = progress_csv(learner) if fmt == "csv" else progress_markdown(learner)
    fresh = UserFactory()
    listed = own[0].resource
    EntryFactory(resource=listed)  # curators listed the link meanwhile
    import_apply(user=fresh, plan=import_plan(user=fresh, content=exported))
    assert Progress.objects.filter(user=fresh, resource=listed).count() == 1
    assert Progress.objects.get(user=fresh, resource=listed).status == Status.DONE
    assert not OwnResource.objects.filter(user=fresh, resource=listed).exists()


def _csv(*rows):
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    writer.writerows(rows)
    return out.getvalue()


ANY = "00000000-0000-0000-0000-000000000001"


@pytest.mark.parametrize(
    ("row", "reason"),
    [
        ([ANY, "T\x00", "https://e.org/a", "paper", "done", "", "", "", "", "own"], "title"),
        ([ANY, "T", "https://e.org/a", "poem", "done", "", "", "", "", "own"], "unknown kind"),
        ([ANY, "T", "javascript:alert(1)", "", "done", "", "", "", "", "own"], "http(s) link"),
        ([ANY, "T", "https://e.org/a", "", "finished", "", "", "", "", "own"], "unknown status"),
        ([ANY, "T", "https://e.org/a", "", "done", "", "", "", "x" * 301, "own"], "author"),
        ([ANY, "T", "https://e.org/a", "", "done", "", "", "no\x00te", "", "own"], "NUL"),
    ],
)
def test_a_bad_own_row_is_reported_and_nothing_is_saved(learner, row, reason):
    plan = import_plan(user=learner, content=_csv(row))
    assert not plan.own and len(plan.unmatched) == 1
    assert plan.unmatched[0][0] == 2 and reason in plan.unmatched[0][2]
    import_apply(user=learner, plan=plan)
    assert not OwnResource.objects.exists() and not Progress.objects.exists()


def test_a_broken_own_marker_is_reported(learner):
    markdown = (
        "- [x] [A](https://e.org/a) <!-- syllabus-own:{not json} -->\n"
        '- [x] [B](https://e.org/b) <!-- syllabus-own:["a list"] -->\n'
        '- [x] [C](https://e.org/c) <!-- syllabus-own:{"url": "ftp://e.org/c"} -->\n'
        "- [x] " + "x" * 5000 + " syllabus-own:\n"
    )
    plan = import_plan(user=learner, content=markdown)
    assert [number for number, _text, _reason in plan.unmatched] == [1, 2, 3, 4]
    assert not plan.own


def test_an_empty_csv_or_header_only_is_a_message_not_a_crash(learner):
    with pytest.raises(ProgressImportError):
        import_plan(user=learner, content="resource,")
    plan = import_plan(user=learner, content=_csv())
    assert not plan.anything_to_apply


@pytest.mark.parametrize("fmt", ["csv", "md", "json"])
def test_the_export_reads_a_fixed_number_of_queries_however_many_own_resources(
    learner, learner_client, fmt
):
    url = reverse("progress:export", args=[fmt])

    def queries():
        with CaptureQueriesContext(connection) as captured:
            assert learner_client.get(url).status_code == 200
        return len(captured)

    def save(start, n):
        for index in range(start, start + n):
            own_resource_save(
                user=learner, url=f"https://example.org/n/{index}", title=f"N{index}", status="done"
            )

    save(0, 1)
    queries()  # warm: a new link moves the content version, read once
    one = queries()
    save(1, 20)
    queries()
    assert queries() == one
