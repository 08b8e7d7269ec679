"""The own-paths router with a learner's own resources: added by their id or uuid, shown to their
owner alone; another learner's refused, as are a revoked token and a visitor."""

import pytest
from django.test import Client

from apps.api.models import ApiToken
from apps.api.services import token_revoke
from apps.paths.models import OwnStepItem
from apps.progress import services as progress_services
from tests.api.conftest import bearer

pytestmark = pytest.mark.django_db

BASE = "/api/v1/me/paths"


def _post(client, url, data):
    return client.post(url, data, content_type="application/json")


@pytest.fixture
def mine(learner):
    return progress_services.own_resource_save(
        user=learner, url="https://example.org/ada/warps", title="Warps, my way", kind="video"
    ).own


@pytest.fixture
def theirs(other_learner):
    return progress_services.own_resource_save(
        user=other_learner, url="https://example.org/eve/notes", title="Notes of Eve"
    ).own


def test_an_own_resource_is_added_by_its_id_or_uuid_and_named_as_the_owner_named_it(
    api, learner, catalog, mine
):
    uuid = _post(api, BASE, {"title": "Mine"}).json()["uuid"]
    _post(api, f"{BASE}/{uuid}/items", {"resource": str(catalog["resources"][0].uuid)})
    added = _post(api, f"{BASE}/{uuid}/items", {"own_resource": mine.pk})
    assert added.status_code == 201, added.content
    again = _post(api, f"{BASE}/{uuid}/items", {"resource": str(mine.resource.uuid)})
    assert again.status_code == 201  # once per step: nothing more
    detail = api.get(f"{BASE}/{uuid}").json()
    assert detail["resource_count"] == 2
    [catalog_item, own_item] = detail["steps"][0]["items"]
    assert catalog_item["own_resource"] is None
    assert own_item["own_resource"] == mine.pk
    assert own_item["resource"]["title"] == "Warps, my way"
    assert own_item["resource"]["kind"] == "video"
    assert own_item["resource"]["page"] == f"/my/resources/#own-{mine.pk}"
    assert detail["next_up"] == str(catalog["resources"][0].uuid)


def test_another_learners_own_resource_and_bad_input_are_refused(
    api, learner, catalog, mine, theirs
):
    uuid = _post(api, BASE, {"title": "Mine"}).json()["uuid"]
    by_id = _post(api, f"{BASE}/{uuid}/items", {"own_resource": theirs.pk})
    assert by_id.status_code == 404 and "no own resource" in by_id.json()["detail"]
    by_uuid = _post(api, f"{BASE}/{uuid}/items", {"resource": str(theirs.resource.uuid)})
    assert by_uuid.status_code == 404
    assert "one of your own can be added" in by_uuid.json()["detail"]
    assert "Notes of Eve" not in by_uuid.content.decode()
    both = {"resource": str(mine.resource.uuid), "own_resource": mine.pk}
    for bad in ({}, both):
        response = _post(api, f"{BASE}/{uuid}/items", bad)
        assert response.status_code == 422 and "Nothing was changed" in response.json()["detail"]
    assert not OwnStepItem.objects.exists()


def test_another_learner_a_revoked_token_and_a_visitor_never_reach_them(
    api, learner, other_token, catalog, mine
):
    uuid = _post(api, BASE, {"title": "Mine"}).json()["uuid"]
    _post(api, f"{BASE}/{uuid}/items", {"own_resource": mine.pk})
    eve = Client()
    eve.defaults.update(bearer(other_token))
    assert eve.get(f"{BASE}/{uuid}").status_code == 404
    assert _post(eve, f"{BASE}/{uuid}/items", {"own_resource": mine.pk}).status_code == 404
    assert Client().get(f"{BASE}/{uuid}").status_code == 401
    assert _post(Client(), f"{BASE}/{uuid}/items", {"own_resource": mine.pk}).status_code == 401
    token_revoke(user=learner, uuid=ApiToken.objects.get(user=learner).uuid)
    assert api.get(f"{BASE}/{uuid}").status_code == 401
    assert OwnStepItem.objects.count() == 1


def test_progress_is_read_and_set_on_an_own_resource_by_its_owner_alone(
    api, other_token, mine, theirs
):
    url = f"/api/v1/me/progress/{mine.resource.uuid}"
    changed = api.patch(url, {"status": "done"}, content_type="application/json")
    assert changed.status_code == 200, changed.content
    assert changed.json()["status"] == "done"
    assert changed.json()["resource"]["title"] == "Warps, my way"
    assert api.get(url).json()["status"] == "done"
    # Another learner's own resource, through this token and through theirs: no such resource.
    assert api.get(f"/api/v1/me/progress/{theirs.resource.uuid}").status_code == 404
    refused = api.patch(
        f"/api/v1/me/progress/{theirs.resource.uuid}",
        {"status": "done"},
        content_type="application/json",
    )
    assert refused.status_code == 404
    eve = Client(**bearer(other_token))
    assert eve.get(url).status_code == 404
    assert eve.patch(url, {"status": "skipped"}, content_type="application/json").status_code == 404
    assert api.get(url).json()["status"] == "done"
    assert Client().get(url).status_code == 401
