"""Progress on paths through the API (`/api/v1/me/path-progress`, `/me/paths/{uuid}/progress`):
the numbers the site's pages show (compared with them), and everyone who must be refused."""

import re
from datetime import timedelta
from html import unescape

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django.utils.dateformat import format as date_format

from apps.api.models import ApiToken
from apps.api.services import token_revoke
from apps.core.content import memos_clear
from apps.paths import services as path_services
from apps.paths.models import OwnPath, PathFollow
from apps.progress.models import Status
from apps.progress.services import progress_set_status
from tests.api.conftest import bearer

pytestmark = pytest.mark.django_db

V1 = "/api/v1"
LIST = f"{V1}/me/path-progress"


@pytest.fixture
def own_path(learner, catalog):
    """Ada's own path, made ten days ago: two steps, four resources, two hours a week."""
    path = path_services.own_path_create(user=learner, title="My plan")
    first = path_services.own_step_add(path=path, title="Basics", effort_hours=3)
    second = path_services.own_step_add(path=path, title="Further")
    r = catalog["resources"]
    for resource in (r[2], r[4]):
        path_services.own_item_add(path=path, resource=resource, step=first)
    for resource in (r[5], catalog["shared"]):
        path_services.own_item_add(path=path, resource=resource, step=second)
    OwnPath.objects.filter(pk=path.pk).update(
        created_at=timezone.now() - timedelta(days=10), hours_per_week=2
    )
    return OwnPath.objects.get(pk=path.pk)


@pytest.fixture
def follow(learner, learning_path):
    """Ada follows the curated path since three weeks ago, at five hours a week."""
    made = PathFollow.objects.create(user=learner, path=learning_path, hours_per_week=5)
    PathFollow.objects.filter(pk=made.pk).update(followed_at=timezone.now() - timedelta(days=21))
    return made


@pytest.fixture
def ticked(learner, catalog):
    """Done: r0 and r4; skipped: the shared one; r1 in progress."""
    r = catalog["resources"]
    progress_set_status(user=learner, resource=r[0], status=Status.DONE)
    progress_set_status(user=learner, resource=r[4], status=Status.DONE)
    progress_set_status(user=learner, resource=catalog["shared"], status=Status.SKIPPED)
    progress_set_status(user=learner, resource=r[1], status=Status.IN_PROGRESS)


def _element(html, dom_id):
    found = re.search(rf'<(\w+) id="{re.escape(dom_id)}"', html)
    assert found, f"no #{dom_id}"
    return html[found.start() : html.index(f"</{found.group(1)}>", found.start())]


def assert_matches_page(item, page_response):
    """The API's numbers are the page's: its bar, next up and pace as drawn, and its PathView."""
    # The page's own view (the last template holding one: the shared heading's outline is first).
    view = [context["view"] for context in page_response.context if "view" in context][-1]
    html = page_response.content.decode()
    uuid = item["uuid"]
    bar = _element(html, f"bar-path-{uuid}")
    assert f'value="{item["done"]}"' in bar
    assert f"{item['done']}/{item['countable']} · {item['percent']}%" in bar
    assert (item["total"], item["done"], item["skipped"], item["in_progress"]) == (
        view.tally.total,
        view.tally.done,
        view.tally.skipped,
        view.tally.in_progress,
    )
    assert (item["minutes_done"], item["minutes_total"]) == (view.done_minutes, view.minutes)
    next_up = unescape(_element(html, f"next-up-{uuid}"))
    if item["next_up"]:
        step = item["next_up"]["step"]
        assert f">{item['next_up']['title']}</a>" in next_up
        assert f'href="{item["next_up"]["url"] or item["next_up"]["page"]}"' in next_up
        assert f"· Step {step['position']}: {step['title']}" in next_up
    else:
        assert "Next up" not in next_up
    if item["pace"] is None:  # no pace line, or an empty one
        assert f'id="pace-{uuid}"' not in html or "h/week" not in _element(html, f"pace-{uuid}")
        return
    pace = _element(html, f"pace-{uuid}")
    finish = date_format(timezone.datetime.fromisoformat(item["pace"]["projected_finish"]), "j M Y")
    assert (
        f"At {item['pace']['hours_per_week']} h/week: finish around <strong>{finish}</strong>"
        in (pace)
    )
    standing = item["pace"]["standing"]
    if standing == "on_track":
        assert "· on track." in pace
    else:
        assert f"· {standing} by {item['pace']['gap_hours']} h." in pace


def test_the_list_is_the_dashboards_paths_with_the_pages_numbers(
    api, client, learner, catalog, learning_path, follow, own_path, ticked
):
    response = api.get(LIST)
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["count"] == 2
    curated, own = body["items"]  # oldest start first: followed three weeks ago, made ten days ago
    assert (curated["kind"], curated["slug"], curated["followed"]) == ("curated", "kernels", True)
    assert (own["kind"], own["uuid"], own["followed"]) == ("own", str(own_path.uuid), True)
    # The curated path: r0, shared (skipped), r1 (in progress), r3 → 1 of 3 countable.
    assert (curated["total"], curated["done"], curated["skipped"], curated["countable"]) == (
        4,
        1,
        1,
        3,
    )
    assert curated["next_up"]["resource"] == str(catalog["resources"][1].uuid)
    assert curated["next_up"]["step"]["position"] == 1
    assert curated["pace"]["hours_per_week"] == 5 and curated["pace"]["standing"] == "behind"
    # The own path: r2, r4 (done), r5, shared (skipped); next up r2, in its first step.
    assert (own["total"], own["done"], own["skipped"]) == (4, 1, 1)
    assert own["next_up"]["title"] == catalog["resources"][2].title
    assert own["pace"]["hours_per_week"] == 2

    client.force_login(learner)
    assert_matches_page(curated, client.get(learning_path.get_absolute_url()))
    assert_matches_page(own, client.get(own_path.get_absolute_url()))
    # The dashboard lists the same paths, in the same order.
    dashboard = client.get("/dashboard/").content.decode()
    assert dashboard.index(f"bar-path-{curated['uuid']}") < dashboard.index(
        f"bar-path-{own['uuid']}"
    )


def test_one_curated_path_and_one_own_path_agree_with_their_pages(
    api, client, learner, catalog, learning_path, follow, own_path, ticked
):
    client.force_login(learner)
    curated = api.get(f"{LIST}/kernels").json()
    assert curated == api.get(LIST).json()["items"][0]
    assert_matches_page(curated, client.get(learning_path.get_absolute_url()))
    own = api.get(f"{V1}/me/paths/{own_path.uuid}/progress").json()
    assert own == api.get(LIST).json()["items"][1]
    assert_matches_page(own, client.get(own_path.get_absolute_url()))
    # Still equal after more ticks (a finished path has no next up).
    for resource in (catalog["resources"][2], catalog["resources"][5]):
        progress_set_status(user=learner, resource=resource, status=Status.DONE)
    own = api.get(f"{V1}/me/paths/{own_path.uuid}/progress").json()
    assert own["complete"] and own["next_up"] is None and own["percent"] == 100
    assert_matches_page(own, client.get(own_path.get_absolute_url()))


def test_a_curated_path_not_followed_has_progress_but_no_pace(
    api, client, learner, catalog, learning_path, ticked
):
    body = api.get(f"{LIST}/kernels").json()
    assert body["followed"] is False and body["followed_at"] is None and body["pace"] is None
    assert body["done"] == 1
    assert api.get(LIST).json() == {"items": [], "count": 0}
    client.force_login(learner)
    assert_matches_page(body, client.get(learning_path.get_absolute_url()))


def test_an_unpublished_or_unknown_curated_path_is_not_found(api, learning_path):
    learning_path.is_published = False
    learning_path.save()
    assert api.get(f"{LIST}/kernels").status_code == 404
    assert api.get(f"{LIST}/no-such-path").status_code == 404


def test_another_learner_a_revoked_token_and_a_visitor_are_refused(
    api, learner, other_learner, other_token, catalog, learning_path, follow, own_path
):
    eve = Client()
    eve.defaults.update(bearer(other_token))
    assert eve.get(f"{V1}/me/paths/{own_path.uuid}/progress").status_code == 404
    assert eve.get(LIST).json() == {"items": [], "count": 0}  # Ada's follows are hers
    assert eve.get(f"{LIST}/kernels").json()["followed"] is False

    visitor = Client()
    for url in (LIST, f"{LIST}/kernels", f"{V1}/me/paths/{own_path.uuid}/progress"):
        assert visitor.get(url).status_code == 401
    token_revoke(user=learner, uuid=ApiToken.objects.get(user=learner).uuid)
    for url in (LIST, f"{LIST}/kernels", f"{V1}/me/paths/{own_path.uuid}/progress"):
        response = api.get(url)
        assert response.status_code == 401 and "revoked" in response.json()["detail"]


def test_an_unknown_own_path_is_not_found(api, own_path):
    assert api.get(f"{V1}/me/paths/{OwnPath().uuid}/progress").status_code == 404
    assert api.get(f"{V1}/me/paths/not-a-uuid/progress").status_code == 422


def _warm(client, url):
    memos_clear()
    for _ in range(2):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
    return len(queries)


def test_the_lists_queries_do_not_grow_with_paths(api, learner, catalog, follow, own_path, ticked):
    api.get(f"{V1}/me")  # the token's last use noted
    few = _warm(api, LIST)
    for n in range(6):
        path = path_services.own_path_create(user=learner, title=f"More {n}")
        step = path_services.own_step_add(path=path, title="S")
        for resource in catalog["resources"][:4]:
            path_services.own_item_add(path=path, resource=resource, step=step)
    assert api.get(LIST).json()["count"] == 8
    # The token, the content tokens; the learner's statuses, follows and own paths; the own
    # paths' steps and items.
    assert _warm(api, LIST) == few == 2 + 3 + 2


def test_one_paths_queries_are_pinned(api, learner, catalog, follow, own_path, ticked):
    api.get(f"{V1}/me")
    # The token, the content tokens, the learner's statuses and follows; the path from the memo.
    assert _warm(api, f"{LIST}/kernels") == 2 + 2
    # The token, the content tokens, the path (its owner's), its steps and items, the statuses.
    assert _warm(api, f"{V1}/me/paths/{own_path.uuid}/progress") == 2 + 4


def test_an_own_resource_next_up_is_named_as_its_owner_named_it(api, client, learner, catalog):
    """One of the learner's own resources in their path: next up with their title, their list as
    its page and its id; the page and the dashboard show the same."""
    from apps.progress.services import own_resource_save

    saved = own_resource_save(
        user=learner, url="https://example.org/my-notes", title="My kernel notes"
    )
    path = path_services.own_path_create(user=learner, title="With my own")
    path_services.own_item_add(path=path, resource=saved.own.resource)
    path_services.own_item_add(path=path, resource=catalog["resources"][0])
    body = api.get(f"{V1}/me/paths/{path.uuid}/progress").json()
    assert body["total"] == 2 and body["next_up"]["title"] == "My kernel notes"
    assert body["next_up"]["own_resource"] == saved.own.pk
    assert body["next_up"]["page"].endswith(f"#own-{saved.own.pk}")
    assert body["next_up"]["url"] == "https://example.org/my-notes"
    client.force_login(learner)
    assert_matches_page(body, client.get(path.get_absolute_url()))
    dashboard = client.get("/dashboard/").content.decode()
    assert "My kernel notes" in _element(dashboard, f"next-up-{path.uuid}")
    assert "0/2" in _element(dashboard, f"bar-path-{path.uuid}")
