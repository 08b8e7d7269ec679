"""The own-paths router (`/api/v1/me/paths`): CRUD with a token, and who is refused."""

import pytest
from django.test import Client

from apps.api.services import token_revoke
from apps.paths.models import OwnPath, OwnStepItem
from apps.progress.models import Status
from apps.progress.services import progress_set_status
from tests.api.conftest import bearer

pytestmark = pytest.mark.django_db

BASE = "/api/v1/me/paths"


def _post(client, url, data, **extra):
    return client.post(url, data, content_type="application/json", **extra)


def test_crud_with_a_token(api, learner, catalog):
    r = catalog["resources"]
    made = _post(api, BASE, {"title": "API path", "notes": "mine"})
    assert made.status_code == 201, made.content
    uuid = made.json()["uuid"]
    step = _post(api, f"{BASE}/{uuid}/steps", {"title": "One", "effort_hours": 2}).json()
    step_uuid = step["steps"][0]["uuid"]
    for resource in r[:2]:
        added = _post(
            api, f"{BASE}/{uuid}/items", {"resource": str(resource.uuid), "step": step_uuid}
        )
        assert added.status_code == 201
    progress_set_status(user=learner, resource=r[0], status=Status.DONE)
    detail = api.get(f"{BASE}/{uuid}").json()
    assert detail["resource_count"] == 2 and detail["done"] == 1
    assert detail["next_up"] == str(r[1].uuid)
    assert [item["status"] for item in detail["steps"][0]["items"]] == ["done", "not_started"]
    assert detail["steps"][0]["hours"] == 2.0

    patched = api.patch(
        f"{BASE}/{uuid}", {"slug": "api-path", "published": True}, content_type="application/json"
    )
    assert patched.status_code == 200 and patched.json()["published"] is True
    assert patched.json()["notes"] == "mine"  # unsent fields are kept
    listed = api.get(BASE).json()
    assert listed["count"] == 1 and listed["items"][0]["slug"] == "api-path"

    item_uuid = detail["steps"][0]["items"][0]["uuid"]
    assert api.delete(f"{BASE}/{uuid}/items/{item_uuid}").status_code == 204
    assert OwnStepItem.objects.filter(step__path__uuid=uuid).count() == 1
    assert api.delete(f"{BASE}/{uuid}/steps/{step_uuid}").status_code == 204
    assert api.delete(f"{BASE}/{uuid}").status_code == 204
    assert not OwnPath.objects.exists()


def test_bad_input_is_a_422_that_changes_nothing(api, learner, catalog):
    uuid = _post(api, BASE, {"title": "P"}).json()["uuid"]
    response = api.patch(f"{BASE}/{uuid}", {"published": True}, content_type="application/json")
    assert response.status_code == 422 and "Nothing was changed" in response.json()["detail"]
    assert not OwnPath.objects.get(uuid=uuid).published
    assert _post(api, BASE, {"title": "  "}).status_code == 422
    hidden = catalog["resources"][0]
    hidden.is_published = False
    hidden.save()
    assert _post(api, f"{BASE}/{uuid}/items", {"resource": str(hidden.uuid)}).status_code == 404
    assert OwnPath.objects.count() == 1 and not OwnStepItem.objects.exists()


def test_another_learner_a_revoked_token_and_a_visitor_are_refused(
    api, learner, other_token, token, catalog
):
    uuid = _post(api, BASE, {"title": "Ada's"}).json()["uuid"]
    step_uuid = _post(api, f"{BASE}/{uuid}/steps", {"title": "S"}).json()["steps"][0]["uuid"]
    eve = Client()
    eve.defaults.update(bearer(other_token))
    assert eve.get(BASE).json()["count"] == 0
    assert eve.get(f"{BASE}/{uuid}").status_code == 404
    assert (
        eve.patch(f"{BASE}/{uuid}", {"title": "Eve's"}, content_type="application/json").status_code
        == 404
    )
    assert eve.delete(f"{BASE}/{uuid}").status_code == 404
    assert eve.delete(f"{BASE}/{uuid}/steps/{step_uuid}").status_code == 404
    item = {"resource": str(catalog["resources"][0].uuid)}
    assert _post(eve, f"{BASE}/{uuid}/items", item).status_code == 404
    assert _post(eve, f"{BASE}/{uuid}/steps", {"title": "x"}).status_code == 404

    visitor = Client()
    assert visitor.get(BASE).status_code == 401
    assert visitor.get(f"{BASE}/{uuid}").status_code == 401
    assert _post(visitor, BASE, {"title": "x"}).status_code == 401

    from apps.api.models import ApiToken

    token_revoke(user=learner, uuid=ApiToken.objects.get(user=learner).uuid)
    assert api.get(f"{BASE}/{uuid}").status_code == 401
    path = OwnPath.objects.get(uuid=uuid)
    assert path.title == "Ada's" and path.steps.count() == 1 and OwnPath.objects.count() == 1
