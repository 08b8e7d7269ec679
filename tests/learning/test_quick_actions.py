"""Quick actions (apps.learning.quick): a whole section done or skipped, a guide's or a path's
progress reset with an exact undo, pins on the dashboard."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from apps.catalog.models import Section
from apps.learning.models import Pin
from apps.paths import services as path_services
from apps.progress.models import Activity, Progress, Status
from apps.progress.selectors import activity_year
from apps.progress.services import progress_set_note, progress_set_status

pytestmark = pytest.mark.django_db


def _rows(user):
    return {
        row.resource_id: (row.status, row.started_at, row.completed_at, row.note)
        for row in Progress.objects.filter(user=user)
    }


def _section(catalog, n=0):
    return Section.objects.get(guide=catalog["guide"], title=f"alpha part {n}")


def test_mark_a_whole_section_done_then_skipped(client, learner, catalog):
    client.force_login(learner)
    r = catalog["resources"]
    progress_set_status(user=learner, resource=r[1], status=Status.SKIPPED)
    section = _section(catalog)
    page = catalog["guide"].get_absolute_url()
    response = client.post(
        reverse("learning:section-mark", args=[section.uuid]),
        {"status": "done", "next": page},
    )
    assert response.status_code == 302 and response["Location"] == page
    # Its subsection's three resources and the shared one: done, but what was skipped stays so.
    rows = _rows(learner)
    assert rows[r[0].id][0] == rows[r[2].id][0] == rows[catalog["shared"].id][0] == Status.DONE
    assert rows[r[1].id][0] == Status.SKIPPED
    assert rows[r[0].id][2] is not None  # a completion date, as a tick gives
    assert r[3].id not in rows  # the other section is untouched
    assert Activity.objects.filter(user=learner, status=Status.DONE).count() == 3
    # The page's numbers after: the same whether swapped or reloaded (htmx follows a redirect).
    htmx = client.post(
        reverse("learning:section-mark", args=[_section(catalog, 1).uuid]),
        {"status": "skipped", "next": page},
        headers={"HX-Request": "true"},
    )
    assert htmx.status_code == 200 and htmx["HX-Redirect"] == page
    assert Progress.objects.filter(user=learner, status=Status.SKIPPED).count() == 4


def test_section_mark_refuses_bad_input_and_visitors(client, learner, catalog):
    url = reverse("learning:section-mark", args=[_section(catalog).uuid])
    response = client.post(url, {"status": "done"})
    assert response.status_code == 302 and response["Location"].startswith(reverse("account_login"))
    client.force_login(learner)
    client.post(url, {"status": "in_progress"})
    client.post(url, {"status": "not_started"})
    assert client.get(url).status_code == 405
    hidden = _section(catalog, 1)
    hidden.is_published = False
    hidden.save()
    assert (
        client.post(
            reverse("learning:section-mark", args=[hidden.uuid]), {"status": "done"}
        ).status_code
        == 404
    )
    assert not Progress.objects.exists()


def test_reset_a_guide_and_undo_restores_exactly(client, learner, catalog):
    client.force_login(learner)
    r = catalog["resources"]
    long_ago = timezone.now() - timedelta(days=40)
    progress_set_status(
        user=learner,
        resource=r[0],
        status=Status.DONE,
        started_at=long_ago,
        completed_at=long_ago + timedelta(days=2),
    )
    progress_set_status(user=learner, resource=r[1], status=Status.IN_PROGRESS, note="keep me")
    progress_set_status(user=learner, resource=r[2], status=Status.SKIPPED)
    progress_set_note(user=learner, resource=r[3], note="only a note")
    other = catalog["other_resources"][0]
    progress_set_status(user=learner, resource=other, status=Status.DONE)
    before = _rows(learner)
    heatmap_before = activity_year(user=learner)

    response = client.post(reverse("learning:progress-reset", args=["guide", "alpha"]))
    undo_url = response["Location"]
    assert undo_url.startswith("/progress/undo/")
    after = _rows(learner)
    assert r[0].id not in after and r[2].id not in after
    assert after[r[1].id] == (Status.NOT_STARTED, None, None, "keep me")  # the note kept
    assert after[r[3].id] == before[r[3].id] and after[other.id] == before[other.id]
    page = client.get(undo_url).content.decode()
    assert "3 resources of" in page and "Undo" in page

    client.post(undo_url)
    assert _rows(learner) == before
    assert activity_year(user=learner) == heatmap_before
    # Used once: a second undo changes nothing.
    assert client.post(undo_url)["Location"] == reverse("learning:dashboard")
    assert _rows(learner) == before


def test_reset_a_curated_and_an_own_path_with_htmx(
    client, learner, other_learner, catalog, learning_path
):
    client.force_login(learner)
    r = catalog["resources"]
    progress_set_status(user=learner, resource=r[0], status=Status.DONE)
    progress_set_status(user=learner, resource=r[4], status=Status.DONE)  # not in the path
    response = client.post(
        reverse("learning:progress-reset", args=["path", "kernels"]), headers={"HX-Request": "true"}
    )
    assert response["HX-Redirect"].startswith("/progress/undo/")
    assert set(_rows(learner)) == {r[4].id}
    own = path_services.own_path_create(user=learner, title="Mine")
    path_services.own_item_add(path=own, resource=r[4])
    client.post(reverse("learning:progress-reset", args=["own", own.uuid]))
    assert not _rows(learner)
    # Another learner cannot reset through Ada's own path (nor learn it exists).
    client.force_login(other_learner)
    progress_set_status(user=other_learner, resource=r[4], status=Status.DONE)
    assert (
        client.post(reverse("learning:progress-reset", args=["own", own.uuid])).status_code == 404
    )
    assert _rows(other_learner)
    assert (
        client.post(reverse("learning:progress-reset", args=["guide", "nope"])).status_code == 404
    )
    # A visitor is sent to sign in.
    client.logout()
    assert (
        client.post(reverse("learning:progress-reset", args=["guide", "alpha"])).status_code == 302
    )


def test_undo_is_the_learners_own(client, learner, other_learner, catalog):
    client.force_login(learner)
    progress_set_status(user=learner, resource=catalog["resources"][0], status=Status.DONE)
    undo_url = client.post(reverse("learning:progress-reset", args=["guide", "alpha"]))["Location"]
    client.force_login(other_learner)
    assert client.post(undo_url)["Location"] == reverse("learning:dashboard")
    assert not Progress.objects.filter(user=other_learner).exists()


def test_pins_show_on_the_dashboard_with_their_numbers(
    client, learner, other_learner, catalog, learning_path, django_assert_num_queries
):
    client.force_login(learner)
    r = catalog["resources"]
    progress_set_status(user=learner, resource=r[0], status=Status.DONE)
    own = path_services.own_path_create(user=learner, title="Mine")
    path_services.own_item_add(path=own, resource=r[0])
    path_services.own_item_add(path=own, resource=r[1])
    for kind, key in [("guide", "alpha"), ("path", "kernels"), ("own", own.uuid)]:
        response = client.post(reverse("learning:pin", args=[kind, key]), {"pinned": "1"})
        assert response.status_code == 302
    client.post(reverse("learning:pin", args=["guide", "alpha"]), {"pinned": "1"})  # idempotent
    assert Pin.objects.filter(user=learner).count() == 3
    html = client.get(reverse("learning:dashboard")).content.decode()
    assert 'id="dashboard-pins"' in html and "Kernel development" in html and "Mine" in html
    assert f'id="bar-pin-own-{own.uuid}"' in html
    # Unpin; Eve cannot pin Ada's own path.
    client.post(reverse("learning:pin", args=["guide", "alpha"]), {"pinned": "0"})
    assert not Pin.objects.filter(guide__isnull=False).exists()
    client.force_login(other_learner)
    assert (
        client.post(reverse("learning:pin", args=["own", own.uuid]), {"pinned": "1"}).status_code
        == 404
    )
    assert not Pin.objects.filter(user=other_learner).exists()


def _dashboard_queries(client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.get(reverse("learning:dashboard"))
    with CaptureQueriesContext(connection) as queries:
        client.get(reverse("learning:dashboard"))
    return len(queries)


def test_the_dashboards_pins_cost_the_same_whatever_their_number(
    client, learner, catalog, learning_path
):
    client.force_login(learner)
    own = path_services.own_path_create(user=learner, title="Mine 0")
    path_services.own_item_add(path=own, resource=catalog["resources"][0])
    client.post(reverse("learning:pin", args=["own", own.uuid]), {"pinned": "1"})
    client.post(reverse("learning:pin", args=["guide", "alpha"]), {"pinned": "1"})
    few = _dashboard_queries(client)
    for n in range(1, 4):
        more = path_services.own_path_create(user=learner, title=f"Mine {n}")
        path_services.own_item_add(path=more, resource=catalog["resources"][n])
        client.post(reverse("learning:pin", args=["own", more.uuid]), {"pinned": "1"})
    client.post(reverse("learning:pin", args=["guide", "beta"]), {"pinned": "1"})
    client.post(reverse("learning:pin", args=["path", "kernels"]), {"pinned": "1"})
    assert _dashboard_queries(client) == few


def test_a_tick_on_the_dashboard_refreshes_the_pins_bars_as_a_reload_shows_them(
    client, learner, catalog
):
    import re

    client.force_login(learner)
    r = catalog["resources"]
    own = path_services.own_path_create(user=learner, title="Mine")
    path_services.own_item_add(path=own, resource=r[0])
    path_services.own_item_add(path=own, resource=r[1])
    client.post(reverse("learning:pin", args=["own", own.uuid]), {"pinned": "1"})
    swap = client.post(
        reverse("learning:progress-set", args=[r[0].uuid]),
        {"status": "done", "scope": "dashboard"},
        headers={"HX-Request": "true"},
    ).content.decode()
    bar_id = f"bar-pin-own-{own.uuid}"

    def bar(html):
        match = re.search(rf'<[^>]*id="{bar_id}"[\s\S]*?</progress>', html)
        assert match, html[:2000]
        return re.sub(r'\s*hx-swap-oob="[^"]*"', "", match.group(0))

    reload = client.get(reverse("learning:dashboard")).content.decode()
    assert 'value="1"' in bar(swap) and bar(swap) == bar(reload)
