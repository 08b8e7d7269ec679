"""What got in a new learner's way on their second day: the guides page, ticks without JavaScript
coming back to their row, the resource page agreeing with itself, the dashboard and a path's pace
after a tick."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from apps.paths.models import PathFollow
from apps.progress.models import Progress, Status
from apps.progress.services import progress_set_status
from tests.conftest import page_queries

pytestmark = pytest.mark.django_db


def tick_url(resource, slot=None):
    url = reverse("learning:progress-set", args=[resource.uuid])
    return f"{url}?slot={slot}" if slot else url


# --- 1. The guides page -------------------------------------------------------------------------
def test_signed_in_the_guides_nav_and_breadcrumb_land_on_guide_cards_with_own_progress(
    client, learner, catalog
):
    guide, other = catalog["guide"], catalog["other_guide"]
    progress_set_status(user=learner, resource=catalog["resources"][0], status=Status.DONE)
    progress_set_status(user=learner, resource=catalog["shared"], status=Status.DONE)
    client.force_login(learner)
    guides_url = reverse("learning:guide-list")
    assert guides_url == "/guides/"
    guide_page = client.get(guide.get_absolute_url()).content.decode()
    assert f'<li><a href="{guides_url}">Guides</a></li>' in guide_page  # the breadcrumb
    assert f'<a href="{guides_url}" aria-current="page">Guides</a>' in guide_page  # the nav
    page = client.get(guides_url).content.decode()
    assert f'<a href="{guides_url}" aria-current="page">Guides</a>' in page
    assert page.count('class="card guide-card"') == 2
    assert (
        f'href="{guide.get_absolute_url()}"' in page
        and f'href="{other.get_absolute_url()}"' in page
    )
    # Alpha: 6 own resources + the shared one, 2 done; Beta: 3 + shared, 1 done.
    assert f'id="bar-guide-{guide.uuid}"' in page and "2/7" in page
    assert f'id="bar-guide-{other.uuid}"' in page and "1/4" in page
    assert "2 of 10 resources done" in page


def test_visitors_get_the_guide_cards_without_bars_and_a_sign_up_link(client, catalog):
    page = client.get(reverse("learning:guide-list")).content.decode()
    assert page.count('class="card guide-card"') == 2 and "bar-guide-" not in page
    assert f'href="{reverse("account_signup")}"' in page
    home = client.get(reverse("learning:home")).content.decode()
    assert f'href="{reverse("account_signup")}">Sign up</a>' in home  # the header
    assert (
        f'href="{reverse("account_signup")}">Create an account to track your progress</a>' in home
    )


def test_guides_page_queries_are_pinned(client, learner, catalog):
    assert page_queries(client, reverse("learning:guide-list"))[1] == 1  # warm: the content token
    client.force_login(learner)
    # warm: session, user, content token, statuses
    assert page_queries(client, reverse("learning:guide-list"))[1] == 4


# --- 2. Without JavaScript a tick comes back to its row ------------------------------------------
def test_a_tick_without_javascript_returns_to_its_rows_anchor_on_every_page(
    client, learner, catalog, learning_path
):
    client.force_login(learner)
    guide, resource = catalog["guide"], catalog["resources"][1]
    entry = resource.entries.get()
    page = client.get(guide.get_absolute_url()).content.decode()
    assert (
        f'formaction="{tick_url(resource, entry.uuid)}"' in page
        and f'id="entry-{entry.uuid}"' in page
    )
    response = client.post(
        tick_url(resource, entry.uuid),
        {"status": "done", "scope": f"guide:{guide.uuid}", "next": guide.get_absolute_url()},
    )
    assert response["Location"] == f"{guide.get_absolute_url()}#entry-{entry.uuid}"

    topic = catalog["topic"]
    response = client.post(
        tick_url(catalog["shared"], catalog["shared"].uuid),
        {"status": "done", "scope": f"topic:{topic.slug}", "next": topic.get_absolute_url()},
    )
    assert response["Location"] == f"{topic.get_absolute_url()}#resource-{catalog['shared'].uuid}"

    item = learning_path.steps.get(position=1).step_resources.get(position=1)
    path_url = learning_path.get_absolute_url()
    page = client.get(path_url).content.decode()
    assert f'id="step-item-{item.uuid}"' in page
    response = client.post(
        tick_url(item.resource, item.uuid),
        {"status": "undone", "scope": f"path:{learning_path.uuid}", "next": path_url},
    )
    assert response["Location"] == f"{path_url}#step-item-{item.uuid}"

    search = reverse("learning:search") + "?q=alpha"
    response = client.post(tick_url(resource, resource.uuid), {"status": "done", "next": search})
    assert response["Location"] == f"{search}#resource-{resource.uuid}"
    # A slot that is not a slug is refused like any bad input: nothing changes.
    response = client.post(tick_url(resource, "<x>"), {"status": "skipped", "next": search})
    assert Progress.objects.get(user=learner, resource=resource).status == Status.DONE


# --- 3. The resource page agrees with itself ----------------------------------------------------
def test_marking_done_on_a_skipped_resource_refreshes_its_status_buttons(client, learner, catalog):
    resource = catalog["resources"][0]
    progress_set_status(user=learner, resource=resource, status=Status.SKIPPED)
    client.force_login(learner)
    page = client.get(resource.get_absolute_url()).content.decode()
    assert (
        '<input type="hidden" name="scope" value="resource">' in page and 'id="my-progress"' in page
    )
    response = client.post(
        tick_url(resource, resource.uuid),
        {"status": "done", "scope": "resource"},
        HTTP_HX_REQUEST="true",
    )
    assert response["HX-Retarget"] == "#my-progress"
    html = response.content.decode()
    assert 'id="my-progress"' in html
    assert 'value="done" class="button button--small button--primary" aria-pressed="true"' in html
    assert 'value="skipped" class="button button--small" aria-pressed="false"' in html
    assert 'aria-checked="true"' in html
    # Without JavaScript the status buttons come back to the block.
    response = client.post(
        tick_url(resource),
        {"status": "skipped", "scope": "resource", "next": resource.get_absolute_url()},
    )
    assert response["Location"] == f"{resource.get_absolute_url()}#my-progress"


def test_unticking_a_resource_that_was_in_progress_puts_it_back_in_progress_with_its_start(
    client, learner, catalog
):
    resource, fresh = catalog["resources"][0], catalog["resources"][1]
    started = timezone.now() - timedelta(days=3)
    progress_set_status(user=learner, resource=resource, status=Status.IN_PROGRESS, at=started)
    client.force_login(learner)
    client.post(tick_url(resource), {"status": "done"}, HTTP_HX_REQUEST="true")
    html = client.post(
        tick_url(resource), {"status": "undone"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    row = Progress.objects.get(user=learner, resource=resource)
    assert (
        row.status == Status.IN_PROGRESS and row.started_at == started and row.completed_at is None
    )
    assert "tick--in_progress" in html and "In progress" in html
    client.post(
        tick_url(resource), {"status": "undone"}, HTTP_HX_REQUEST="true"
    )  # again: no change
    assert Progress.objects.get(user=learner, resource=resource).status == Status.IN_PROGRESS
    # Ticked done straight away, unticking is back to not started (no row kept).
    client.post(tick_url(fresh), {"status": "done"}, HTTP_HX_REQUEST="true")
    html = client.post(
        tick_url(fresh), {"status": "undone"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert (
        not Progress.objects.filter(user=learner, resource=fresh).exists()
        and "tick--not_started" in html
    )
    # The resource page's "Not started" still means not started.
    client.post(tick_url(resource), {"status": "not_started"})
    assert not Progress.objects.filter(user=learner, resource=resource).exists()


def test_a_tick_on_the_dashboard_refreshes_recently_completed_and_in_progress(
    client, learner, catalog
):
    resource, started = catalog["resources"][0], catalog["resources"][1]
    progress_set_status(user=learner, resource=started, status=Status.IN_PROGRESS)
    client.force_login(learner)
    page = client.get(reverse("learning:dashboard")).content.decode()
    assert 'id="dashboard-recent"' in page and "Nothing completed yet." in page
    html = client.post(
        tick_url(resource), {"status": "done", "scope": "dashboard"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    recent = html[html.index('id="dashboard-recent"') :]
    assert resource.title in recent and "Nothing completed yet." not in recent
    html = client.post(
        tick_url(started), {"status": "done", "scope": "dashboard"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    in_progress = html[
        html.index('id="dashboard-in-progress"') : html.index('id="dashboard-recent"')
    ]
    assert started.title not in in_progress


def test_a_paths_pace_starts_on_track_and_a_tick_refreshes_it(
    client, learner, catalog, learning_path
):
    progress_set_status(
        user=learner, resource=catalog["resources"][0], status=Status.DONE
    )  # before following
    client.force_login(learner)
    client.post(
        reverse("paths:path-follow", args=[learning_path.slug]),
        {"action": "follow", "hours_per_week": "2"},
    )
    assert PathFollow.objects.get(user=learner).done_minutes_at_follow > 0
    page = client.get(learning_path.get_absolute_url()).content.decode()
    assert f'id="pace-{learning_path.uuid}"' in page and "on track" in page and "ahead" not in page
    html = client.post(
        tick_url(catalog["shared"]),
        {"status": "done", "scope": f"path:{learning_path.uuid}"},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    pace = html[html.index(f'id="pace-{learning_path.uuid}"') :]
    assert 'hx-swap-oob="true"' in pace[:120] and "ahead by" in pace
    html = client.post(
        tick_url(catalog["shared"]),
        {"status": "done", "scope": "dashboard"},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert f'id="pace-{learning_path.uuid}" class="pace muted" hx-swap-oob="true"' in html


# --- 8. Small things ----------------------------------------------------------------------------
def test_a_guide_description_is_sanitized_markdown(client, catalog):
    guide = catalog["guide"]
    guide.description = (
        "Read:\n\n- **one**\n- two <script>alert(1)</script>\n\n[x](javascript:alert(1))"
    )
    guide.save()
    page = client.get(guide.get_absolute_url()).content.decode()
    assert "<ul>\n<li><strong>one</strong></li>" in page
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert 'href="javascript:' not in page
    cards = client.get(reverse("learning:guide-list")).content.decode()
    assert "Read: one two" in " ".join(cards.split()) and "**" not in cards


def test_importing_one_resource_says_resource(client, learner, catalog):
    client.force_login(learner)
    text = f"- [x] [{catalog['resources'][0].title}]({catalog['resources'][0].url})"
    response = client.post(reverse("progress:import"), {"text": text, "confirm": "1"}, follow=True)
    assert "Imported: 1 resource updated." in response.content.decode()


def test_form_styles_load_on_every_page_with_a_form(client, learner, catalog):
    """The note box and the import form use .form/.field, styled in app.css, which every page loads."""
    from django.contrib.staticfiles import finders

    with open(finders.find("css/app.css"), encoding="utf-8") as css:
        app_css = css.read()
    for rule in (".form {", ".field {", ".field textarea", ".button--small {", ".notice--error {"):
        assert rule in app_css
    client.force_login(learner)
    for url in (catalog["resources"][0].get_absolute_url(), reverse("progress:import")):
        page = client.get(url).content.decode()
        assert 'class="form' in page and "css/app" in page


def test_heatmap_has_month_and_day_labels_and_a_legend(client, learner, catalog):
    progress_set_status(user=learner, resource=catalog["resources"][0], status=Status.DONE)
    client.force_login(learner)
    page = client.get(reverse("learning:dashboard")).content.decode()
    assert 'class="heatmap-scroll"' in page
    assert (
        '<text class="hm-label" x="0"' in page and ">Mon</text>" in page and ">Wed</text>" in page
    )
    months = [
        m
        for m in (
            "Jan",
            "Feb",
            "Mar",
            "Apr",
            "May",
            "Jun",
            "Jul",
            "Aug",
            "Sep",
            "Oct",
            "Nov",
            "Dec",
        )
        if f">{m}</text>" in page
    ]
    assert len(months) >= 11
    assert (
        'class="heatmap-legend"' in page
        and "Less" in page
        and "More" in page
        and 'class="hm hm-4"' in page
    )


def test_query_counts_of_ticks_that_refresh_more_are_pinned(
    client, learner, catalog, learning_path
):
    """A tick's base cost (session, user, token; the write's 6) plus what each scope reads."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(learner)
    resources = catalog["resources"]
    client.post(
        reverse("paths:path-follow", args=[learning_path.slug]),
        {"action": "follow", "hours_per_week": "3"},
    )

    def queries_of(resource, scope, page=""):
        headers = {"HX-Request": "true", "HX-Current-URL": f"http://testserver{page}"}
        client.post(
            tick_url(resource), {"status": "done", "scope": scope}, headers=headers
        )  # the memo
        with CaptureQueriesContext(connection) as queries:
            client.post(tick_url(resource), {"status": "undone", "scope": scope}, headers=headers)
        return len(queries)

    # The write is 5 (savepoint, row locked, deleted, its activity, release: no day count since the
    # heatmap reads the rows' dates). The statuses; the dashboard's rows (one query) and the follows, for its lists and paces;
    # the learner's own paths (none here: no steps read), followed by owning them; its activity
    # days, for the streaks and heatmap a tick may change; its pins, whose bars it refreshes; the
    # learner's "seen up to", for What's new's block a tick may change.
    assert queries_of(resources[0], "dashboard") == 3 + 5 + 1 + 2 + 1 + 1 + 1 + 1
    # The statuses and the learner's follow of the path, for its pace. Its status filter's
    # counts come from the memo and the statuses: no query.
    path_page = f"{learning_path.get_absolute_url()}?status=not_done"
    assert queries_of(resources[1], f"path:{learning_path.uuid}", path_page) == 3 + 5 + 1 + 1
    guide = catalog["guide"]
    guide_page = f"{guide.get_absolute_url()}?status=not_done&tier=1"
    assert queries_of(resources[3], f"guide:{guide.uuid}", guide_page) == 3 + 5 + 1
    # A search's ids are read once per content version (the page itself read them).
    assert queries_of(resources[4], "", "/search/?q=alpha&status=not_done") == 3 + 5 + 1
    # The resource page's block needs the row only, which the write returned.
    assert queries_of(resources[2], "resource") == 3 + 5
