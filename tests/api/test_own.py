"""The own-resources router (`/api/v1/me/resources`): CRUD with a token, the one write path,
a catalog link not saved twice, and every refused case (another learner, a revoked token, a
visitor)."""

import pytest
from django.test import Client

from apps.api.models import ApiToken
from apps.api.services import token_revoke
from apps.progress import services
from apps.progress.models import OwnResource, Progress, Suggestion
from tests.api.conftest import bearer
from tests.factories import listed_resource

pytestmark = pytest.mark.django_db
OWN = "/api/v1/me/resources"
URL = "https://example.org/posts/kv-cache-explained"


def _create(api, **data):
    return api.post(OWN, {"url": URL, **data}, content_type="application/json")


def test_create_list_read_change_delete(api, learner):
    created = _create(api, title="KV cache", kind="article", note="good", status="in_progress")
    assert created.status_code == 201, created.content
    body = created.json()
    assert (body["title"], body["status"], body["note"]) == ("KV cache", "in_progress", "good")
    assert body["started_at"] and body["catalog"] is None
    pk = body["id"]
    assert _create(api, title="again").status_code == 200  # had it: updated, not twice
    assert OwnResource.objects.count() == 1
    listed = api.get(OWN).json()
    assert listed["count"] == 1 and listed["items"][0]["title"] == "again"
    assert api.get(OWN, {"q": "kv-cache"}).json()["count"] == 1
    assert api.get(OWN, {"q": "nothing like it"}).json()["count"] == 0
    changed = api.patch(
        f"{OWN}/{pk}", {"status": "done", "kind": "video"}, content_type="application/json"
    )
    assert changed.status_code == 200
    assert (changed.json()["status"], changed.json()["kind"]) == ("done", "video")
    assert learner.activities.filter(status="done").exists()  # the tick's write
    suggested = api.post(f"{OWN}/{pk}/suggest")
    assert suggested.json()["suggestion"] == Suggestion.PENDING
    assert api.delete(f"{OWN}/{pk}").status_code == 204
    assert not OwnResource.objects.exists() and not Progress.objects.exists()


def test_bad_input_changes_nothing(api, learner):
    assert _create(api, url="javascript:alert(1)").status_code == 422
    assert _create(api, kind="poem").status_code == 422
    assert not OwnResource.objects.exists()
    pk = _create(api, title="Kept").json()["id"]
    blank = api.patch(f"{OWN}/{pk}", {"title": "  "}, content_type="application/json")
    assert blank.status_code == 422
    assert OwnResource.objects.get().title == "Kept"


def test_a_catalog_link_is_refused_with_its_uuid(api, learner):
    resource = listed_resource(url=URL)
    response = _create(api, note="x")
    assert response.status_code == 409 and str(resource.uuid) in response.json()["detail"]
    assert not OwnResource.objects.exists() and not Progress.objects.exists()


def test_another_learners_token_reaches_nothing(other_token, learner):
    own = services.own_resource_save(user=learner, url=URL, title="Ada's").own
    eve = Client()
    eve.defaults.update(bearer(other_token))
    assert eve.get(OWN).json()["count"] == 0
    assert eve.get(f"{OWN}/{own.pk}").status_code == 404
    assert (
        eve.patch(
            f"{OWN}/{own.pk}", {"title": "Eve's"}, content_type="application/json"
        ).status_code
        == 404
    )
    assert eve.delete(f"{OWN}/{own.pk}").status_code == 404
    assert eve.post(f"{OWN}/{own.pk}/suggest").status_code == 404
    own.refresh_from_db()
    assert own.title == "Ada's" and own.suggestion == ""


def test_a_revoked_token_and_a_visitor_are_refused(api, learner):
    token_revoke(user=learner, uuid=ApiToken.objects.get(user=learner).uuid)
    assert api.get(OWN).status_code == 401
    assert _create(api).status_code == 401
    assert Client().get(OWN).status_code == 401
    assert Client().post(OWN, {"url": URL}, content_type="application/json").status_code == 401
    assert not OwnResource.objects.exists()


def test_the_list_runs_the_same_queries_whatever_its_length(api, learner):
    services.own_resource_save(user=learner, url="https://example.org/0")
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    api.get(OWN)
    with CaptureQueriesContext(connection) as one:
        api.get(OWN)
    for n in range(1, 20):
        services.own_resource_save(user=learner, url=f"https://example.org/{n}")
    api.get(OWN)  # a new link is a write to the catalog's table: the memo is rebuilt once
    with CaptureQueriesContext(connection) as many:
        api.get(OWN)
    assert len(many) == len(one)


@pytest.mark.parametrize("pk", [0, -1, 2**63, 10**30])
def test_an_id_no_row_can_have_is_a_404(api, pk):
    assert api.get(f"{OWN}/{pk}").status_code == 404
    assert api.post(f"{OWN}/{pk}/suggest").status_code == 404
