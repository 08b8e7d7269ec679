"""A learner's own resources in the JSON export, and back through the import: the same state
(titles, kinds, statuses, notes, dates), never a second row for one link, bad items reported."""

import json

import pytest

from apps.progress import services
from apps.progress.exports import progress_json
from apps.progress.imports import import_apply, import_plan
from apps.progress.models import OwnResource, Progress
from tests.factories import EntryFactory, UserFactory

pytestmark = pytest.mark.django_db


def _state(user):
    return sorted(
        (
            r.resource.url,
            *(lambda o: (o.title, o.kind, o.author))(
                OwnResource.objects.get(user=user, resource=r.resource)
            ),
            r.status,
            r.note,
            r.started_at,
            r.completed_at,
        )
        for r in Progress.objects.filter(user=user, resource__saved_by__user=user)
    )


@pytest.fixture
def saved(learner):
    a = services.own_resource_save(
        user=learner, url="https://example.org/a", title="A", kind="paper", author="Me", note="n1"
    ).own
    b = services.own_resource_save(user=learner, url="https://example.org/b", title="B").own
    services.progress_set_status(user=learner, resource=a.resource, status="done")
    services.progress_set_status(user=learner, resource=b.resource, status="in_progress")
    return a, b


def test_an_export_imports_back_to_the_same_state(learner, saved):
    exported = json.dumps(progress_json(learner))
    assert {item["title"] for item in json.loads(exported)["own_resources"]} == {"A", "B"}
    before = _state(learner)
    # into a fresh account: the same own resources, statuses, notes and dates
    fresh = UserFactory()
    plan = import_plan(user=fresh, content=exported)
    assert len(plan.own) == 2 and not plan.unmatched
    import_apply(user=fresh, plan=plan)
    after = _state(fresh)
    assert [row[1:] for row in after] == [row[1:] for row in before]
    # and into the same account: nothing to change, no second row
    again = import_plan(user=learner, content=exported)
    assert not again.own and again.unchanged == 2
    assert OwnResource.objects.filter(user=learner).count() == 2


def test_an_imported_link_that_is_in_the_catalog_joins_it(learner, saved):
    exported = json.dumps(progress_json(learner))
    fresh = UserFactory()
    resource = saved[1].resource  # curators listed the link meanwhile
    EntryFactory(resource=resource)
    import_apply(user=fresh, plan=import_plan(user=fresh, content=exported))
    assert Progress.objects.get(user=fresh, resource=resource).status == "in_progress"
    assert Progress.objects.filter(user=fresh).count() == 2  # one row per link
    assert not OwnResource.objects.filter(user=fresh, resource=resource).exists()


def test_bad_own_items_are_reported_and_nothing_of_them_saved(learner):
    content = json.dumps(
        {
            "format": "syllabus-progress",
            "progress": [],
            "own_resources": [
                {"url": "javascript:alert(1)", "status": "done"},
                {"url": "https://example.org/x", "status": "finished"},
                {"url": "https://example.org/y", "status": "done", "kind": "poem"},
                "not an object",
            ],
        }
    )
    plan = import_plan(user=learner, content=content)
    assert len(plan.unmatched) == 4 and not plan.own
    import_apply(user=learner, plan=plan)
    assert not OwnResource.objects.exists()


def test_the_import_page_previews_own_resources(learner_client, learner, saved):
    exported = json.dumps(progress_json(learner))
    OwnResource.objects.all().delete()
    Progress.objects.all().delete()
    from django.urls import reverse

    page = learner_client.post(reverse("progress:import"), {"text": exported})
    assert "2 of your own resources will be saved" in page.text
    learner_client.post(reverse("progress:import"), {"text": exported, "confirm": "1"})
    assert OwnResource.objects.filter(user=learner).count() == 2
