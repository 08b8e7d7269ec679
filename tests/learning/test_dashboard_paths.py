"""The dashboard's "Paths you follow": the curated paths a learner follows and their own paths
(which they follow by owning them), each with its bar, next up and pace, refreshed by a tick on
the dashboard exactly as a reload shows them."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from apps.learning.views import DASHBOARD_OWN_PATHS
from apps.paths import services as path_services
from apps.paths.models import OwnPath, PathFollow
from apps.progress.models import Status
from apps.progress.services import progress_set_status
from tests.conftest import page_queries

pytestmark = pytest.mark.django_db

DASHBOARD = "/dashboard/"


@pytest.fixture(autouse=True)
def _dashboard_url():
    assert reverse("learning:dashboard") == DASHBOARD


def _tick(resource):
    return reverse("learning:progress-set", args=[resource.uuid])


def element(html: str, dom_id: str) -> str:
    """The element with `dom_id` (none of ours nests its own tag), without an out-of-band mark."""
    found = re.search(rf'<(\w+) id="{re.escape(dom_id)}"', html)
    assert found, f"no #{dom_id}"
    end = html.index(f"</{found.group(1)}>", found.start())
    return html[found.start() : end].replace(' hx-swap-oob="true"', "")


def paths_section(html: str) -> str:
    return html.split('id="paths-heading"')[1].split("</section>")[0]


@pytest.fixture
def own_path(learner, catalog):
    """Ada's own path, made a week ago: one step of two resources, three hours a week."""
    path = path_services.own_path_create(user=learner, title="My attention plan")
    step = path_services.own_step_add(path=path, title="Reading", effort_hours=4)
    for resource in (catalog["resources"][4], catalog["resources"][5]):
        path_services.own_item_add(path=path, resource=resource, step=step)
    OwnPath.objects.filter(pk=path.pk).update(
        created_at=timezone.now() - timedelta(days=7), hours_per_week=3
    )
    return OwnPath.objects.get(pk=path.pk)


@pytest.fixture
def following(learner, learning_path):
    """Ada follows the curated path, since two weeks ago (before she made her own)."""
    follow = PathFollow.objects.create(user=learner, path=learning_path, hours_per_week=2)
    PathFollow.objects.filter(pk=follow.pk).update(followed_at=timezone.now() - timedelta(days=14))
    return follow


def test_own_paths_are_listed_beside_followed_curated_paths_with_bar_next_up_and_pace(
    client, learner, catalog, learning_path, following, own_path
):
    progress_set_status(user=learner, resource=catalog["resources"][4], status=Status.DONE)
    client.force_login(learner)
    section = paths_section(client.get(DASHBOARD).content.decode())
    # Oldest start first: the curated path followed two weeks ago, then the own path made a week ago.
    assert section.index(learning_path.title) < section.index(own_path.title)
    assert (
        f'<h3><a href="{own_path.get_absolute_url()}">My attention plan</a> '
        '<span class="muted">· your path</span></h3>' in section
    )
    assert (
        f'<h3><a href="{learning_path.get_absolute_url()}">Kernel development</a></h3>' in section
    )
    bar = element(section, f"bar-path-{own_path.uuid}")
    assert 'class="bar bar--compact"' in bar and "1/2" in bar
    assert catalog["resources"][5].title in element(section, f"next-up-{own_path.uuid}")
    assert "At 3 h/week: finish around" in element(section, f"pace-{own_path.uuid}")
    assert "At 2 h/week" in element(section, f"pace-{learning_path.uuid}")


def test_the_page_agrees_with_the_own_paths_page(client, learner, catalog, own_path):
    """The bar, next up and pace are the own path page's own (one selector for both)."""
    progress_set_status(user=learner, resource=catalog["resources"][4], status=Status.DONE)
    client.force_login(learner)
    section = paths_section(client.get(DASHBOARD).content.decode())
    page = client.get(own_path.get_absolute_url()).content.decode()
    for dom_id in (f"next-up-{own_path.uuid}", f"pace-{own_path.uuid}"):
        assert element(section, dom_id) == element(page, dom_id)
    assert "1/2" in element(page, f"bar-path-{own_path.uuid}")


def test_the_newest_own_paths_are_shown_up_to_the_limit_and_the_rest_linked(
    client, learner, catalog
):
    client.force_login(learner)
    made = []
    for n in range(DASHBOARD_OWN_PATHS + 2):
        path = path_services.own_path_create(user=learner, title=f"Plan number {n}")
        OwnPath.objects.filter(pk=path.pk).update(created_at=timezone.now() - timedelta(days=9 - n))
        made.append(path)
    section = paths_section(client.get(DASHBOARD).content.decode())
    shown = [path.title for path in made if f">{path.title}</a>" in section]
    # The newest five, oldest of them first.
    assert shown == [path.title for path in made[2:]]
    assert section.index("Plan number 2") < section.index("Plan number 6")
    assert (
        f'<a href="{reverse("paths:own-list")}">All your own paths ({DASHBOARD_OWN_PATHS + 2})</a>'
        in section
    )
    OwnPath.objects.filter(pk__in=[made[0].pk, made[1].pk]).delete()
    assert "All your own paths" not in paths_section(client.get(DASHBOARD).content.decode())


def test_another_learners_own_paths_are_not_on_my_dashboard(
    client, learner, other_learner, catalog
):
    theirs = path_services.own_path_create(user=other_learner, title="Eve's secret plan")
    path_services.own_item_add(path=theirs, resource=catalog["resources"][0])
    client.force_login(learner)
    html = client.get(DASHBOARD).content.decode()
    assert "Eve's secret plan" not in html and str(theirs.uuid) not in html
    assert "You follow no path yet." in html


@pytest.mark.parametrize("kind", ["curated", "own"])
def test_a_dashboard_tick_refreshes_a_followed_paths_bar_next_up_and_pace_as_a_reload_shows(
    client, learner, catalog, learning_path, following, own_path, kind
):
    path = learning_path if kind == "curated" else own_path
    ticked = catalog["resources"][0] if kind == "curated" else catalog["resources"][4]
    ids = [f"bar-path-{path.uuid}", f"next-up-{path.uuid}", f"pace-{path.uuid}"]
    client.force_login(learner)
    before = client.get(DASHBOARD).content.decode()
    response = client.post(
        _tick(ticked), {"status": "done", "scope": "dashboard"}, HTTP_HX_REQUEST="true"
    )
    fragment = response.content.decode()
    reload = client.get(DASHBOARD).content.decode()
    for dom_id in ids:
        assert element(fragment, dom_id) == element(reload, dom_id)
    # And the tick changed them: the bar counts it, next up moved past it.
    assert element(before, ids[0]) != element(reload, ids[0])
    assert ticked.title in element(before, ids[1]) and ticked.title not in element(reload, ids[1])
    assert f'id="{ids[0]}" class="bar bar--compact" hx-swap-oob="true"' in fragment


def test_a_dashboard_tick_without_javascript_comes_back_to_the_refreshed_paths(
    client, learner, catalog, own_path
):
    client.force_login(learner)
    response = client.post(
        _tick(catalog["resources"][4]),
        {"status": "done", "scope": "dashboard", "next": DASHBOARD},
    )
    assert response.status_code == 302 and response["Location"].startswith(DASHBOARD)
    section = paths_section(client.get(response["Location"]).content.decode())
    assert "1/2" in element(section, f"bar-path-{own_path.uuid}")
    assert catalog["resources"][5].title in element(section, f"next-up-{own_path.uuid}")


def test_the_dashboards_query_count_does_not_grow_with_own_paths(
    client, learner, catalog, learning_path, following, own_path
):
    client.force_login(learner)
    one = page_queries(client, DASHBOARD)
    for n in range(DASHBOARD_OWN_PATHS + 3):
        path = path_services.own_path_create(user=learner, title=f"More {n}")
        step = path_services.own_step_add(path=path, title="S")
        for resource in catalog["resources"][:3]:
            path_services.own_item_add(path=path, resource=resource, step=step)
    many = page_queries(client, DASHBOARD)
    # Warm: the dashboard's eight with no own path (tests/learning/test_views.py), and the own
    # paths' steps and items (two queries for all of them); the memo's cold reads alike.
    assert many == one and one[1] == 3 + 6 + 2


def test_a_dashboard_ticks_query_count_does_not_grow_with_own_paths(
    client, learner, catalog, own_path
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(learner)

    def tick_queries():
        resource = catalog["resources"][4]
        headers = {"HX-Request": "true"}
        client.post(_tick(resource), {"status": "done", "scope": "dashboard"}, headers=headers)
        with CaptureQueriesContext(connection) as queries:
            client.post(
                _tick(resource), {"status": "undone", "scope": "dashboard"}, headers=headers
            )
        return len(queries)

    one = tick_queries()
    for n in range(DASHBOARD_OWN_PATHS + 3):
        path = path_services.own_path_create(user=learner, title=f"More {n}")
        path_services.own_item_add(path=path, resource=catalog["resources"][n % 4])
    assert tick_queries() == one
