"""The import preview: what it shows before anything is written."""

import json
import re
from html import unescape

import pytest
from django.urls import reverse

from apps.progress.exports import JSON_FORMAT
from apps.progress.imports import import_plan
from apps.progress.models import Progress, Status
from apps.progress.services import progress_set_status


def _json(*items):
    return json.dumps({"format": JSON_FORMAT, "version": 1, "progress": list(items)})


def _preview(client, text):
    response = client.post(reverse("progress:import"), {"text": text})
    assert response.status_code == 200
    return response.content.decode()


def _cells(html):
    """The preview table's body cells, in order, with tags stripped."""
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<td>(.*?)</td>", body)]


def test_preview_shows_the_status_labels(client, learner, catalog):
    first, second = catalog["resources"][:2]
    progress_set_status(user=learner, resource=first, status=Status.IN_PROGRESS)
    client.force_login(learner)
    html = _preview(
        client,
        _json(
            {"resource": str(first.uuid), "status": Status.DONE},
            {"resource": str(second.uuid), "status": Status.SKIPPED},
        ),
    )
    assert _cells(html) == [
        first.title,
        "In progress",
        "Done",
        second.title,
        "Not started",
        "Skipped",
    ]
    assert "Notstarted" not in html and "Inprogress" not in html
    assert Progress.objects.get(user=learner).status == Status.IN_PROGRESS, (
        "a preview writes nothing"
    )


def test_markdown_preview_shows_the_status_labels(client, learner, catalog):
    resource = catalog["resources"][0]
    client.force_login(learner)
    html = _preview(client, f"- [x] [{resource.title}]({resource.url})\n")
    assert _cells(html) == [resource.title, "Not started", "Done"]


def test_planned_changes_carry_their_labels(learner, catalog):
    resource = catalog["resources"][0]
    progress_set_status(user=learner, resource=resource, status=Status.IN_PROGRESS)
    plan = import_plan(
        user=learner,
        content=_json({"resource": str(resource.uuid), "status": "not_started", "note": "later"}),
    )
    [change] = plan.changes
    assert (change.current_label, change.new_label) == ("In progress", "Not started")


def test_json_preview_lists_resources_by_title_whatever_the_file_order(client, learner, catalog):
    resources = sorted(catalog["resources"][:3], key=lambda resource: resource.title, reverse=True)
    client.force_login(learner)
    html = _preview(
        client, _json(*({"resource": str(r.uuid), "status": "done"} for r in resources))
    )
    assert _cells(html)[::3] == sorted(r.title for r in resources)


def test_json_unmatched_items_are_numbered_by_their_place_in_the_file(client, learner, catalog):
    client.force_login(learner)
    html = _preview(
        client,
        _json(
            {"resource": str(catalog["resources"][0].uuid), "status": "done"},
            {"resource": "00000000-0000-0000-0000-000000000000", "status": "done", "title": "Gone"},
            {"resource": "not-a-uuid", "status": "done"},
        ),
    )
    assert "Item 2: <q>Gone</q> — no published resource has this uuid" in unescape(html)
    assert "Item 3:" in html and "malformed resource uuid" in html
    assert html.index("Item 2:") < html.index("Item 3:")


def test_rejected_json_items_are_quoted_in_words_not_as_raw_data(client, learner, catalog):
    client.force_login(learner)
    html = unescape(
        _preview(
            client,
            _json(
                {"resource": str(catalog["resources"][0].uuid), "status": "done"},
                {"resource": "not-a-uuid", "status": "done"},
                {"status": "finished", "resource": str(catalog["resources"][1].uuid)},
                {"note": "no resource here"},
                ["a", "list"],
                42,
            ),
        )
    )
    assert "Item 2: <q>not-a-uuid</q> — missing or malformed resource uuid" in html
    assert "unknown status “finished”" in html
    assert "Item 4: <q>an item with no title, URL or resource</q>" in html
    assert "Item 5: <q>a list, where an item (an object) belongs</q>" in html
    assert "Item 6: <q>a number, where an item (an object) belongs</q>" in html
    assert "{'" not in html and "['a'" not in html  # no Python reprs


def _assert_a_way_forward(html):
    assert "Apply" not in html
    assert f'href="{reverse("progress:import")}"' in html and "Import another file" in html
    assert f'href="{reverse("learning:dashboard")}"' in html


def test_a_file_that_is_already_applied_says_there_is_nothing_to_change(client, learner, catalog):
    resource = catalog["resources"][0]
    progress_set_status(user=learner, resource=resource, status=Status.DONE)
    client.force_login(learner)
    for text in (
        _json({"resource": str(resource.uuid), "status": "done"}),
        f"- [x] [{resource.title}]({resource.url})\n",
    ):
        html = _preview(client, text)
        assert "0 resources will change · 1 already as in the file" in unescape(html)
        assert "Nothing to change: your progress already matches this file." in html
        _assert_a_way_forward(html)


def test_a_file_matching_nothing_says_so_rather_than_that_it_matches(client, learner, catalog):
    client.force_login(learner)
    html = _preview(client, "- [x] [Unknown](https://nowhere.example/x)\n")
    assert "Nothing to change: nothing in this file matched a resource." in html
    assert "already matches" not in html
    _assert_a_way_forward(html)


def test_a_preview_with_changes_has_no_nothing_to_change_message(client, learner, catalog):
    resource = catalog["resources"][0]
    client.force_login(learner)
    html = _preview(client, f"- [x] [{resource.title}]({resource.url})\n")
    assert "Nothing to change" not in html and "Apply 1 change" in html


@pytest.mark.parametrize("with_plan", [False, True])
def test_the_import_page_says_what_each_format_carries(client, learner, catalog, with_plan):
    client.force_login(learner)
    resource = catalog["resources"][0]
    if with_plan:
        html = _preview(client, f"- [x] [{resource.title}]({resource.url})\n")
    else:
        html = client.get(reverse("progress:import")).content.decode()
    assert "JSON or CSV export keeps everything — statuses, notes and dates" in unescape(html)
    assert "Markdown checklist carries only done or not done" in html


def test_a_bare_link_in_bold_is_read_without_its_marks(learner, catalog):
    # Where a URL in prose ends is the catalog importer's rule (trim_bare_url): "**" is not part
    # of it, any more than the sentence's full stop is.
    resource = catalog["resources"][0]
    plan = import_plan(user=learner, content=f"- [x] **{resource.url}**.\n")
    assert [change.resource for change in plan.changes] == [resource]
    assert plan.unmatched == []
