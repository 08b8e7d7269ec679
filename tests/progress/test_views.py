import json
import re
from html import unescape

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from apps.progress.models import Progress, Status
from apps.progress.services import progress_set_note, progress_set_status
from tests.conftest import page_queries
from tests.factories import PASSWORD
from tests.progress.conftest import build_guide

pytestmark = pytest.mark.django_db


def tick_url(resource):
    return reverse("learning:progress-set", args=[resource.uuid])


def test_tick_without_javascript_saves_and_redirects_back(client, learner, catalog):
    client.force_login(learner)
    resource = catalog["resources"][0]
    response = client.post(tick_url(resource), {"status": "done", "next": "/guides/alpha/?tier=1"})
    assert response.status_code == 302 and response["Location"] == "/guides/alpha/?tier=1"
    assert Progress.objects.get(user=learner, resource=resource).status == Status.DONE


def test_tick_refuses_an_offsite_next(client, learner, catalog):
    client.force_login(learner)
    resource = catalog["resources"][0]
    response = client.post(tick_url(resource), {"status": "done", "next": "https://evil.example/"})
    assert response["Location"] == resource.get_absolute_url()


def test_htmx_tick_returns_the_tick_and_every_bar_of_the_guide_page(client, learner, catalog):
    client.force_login(learner)
    guide, shared = catalog["guide"], catalog["shared"]
    entries = list(shared.entries.filter(section__guide=guide).order_by("section__position"))
    assert len(entries) == 2  # the shared resource sits in both sections of this guide
    response = client.post(
        tick_url(shared),
        {"status": "done", "scope": f"guide:{guide.uuid}", "slot": str(entries[0].uuid)},
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert f'id="tick-{entries[0].uuid}"' in html and 'aria-checked="true"' in html
    # The other tick of the same resource on the page is refreshed out of band.
    assert f'id="tick-{entries[1].uuid}" ' in html and html.count('hx-swap-oob="true"') >= 3
    assert f'id="bar-guide-{guide.uuid}"' in html
    for entry in entries:  # compact, as the page shows them
        assert f'id="bar-section-{entry.section.uuid}" class="bar bar--compact"' in html
        assert f'id="bar-section-{entry.section.parent.uuid}" class="bar bar--compact"' in html
    # 1 of the guide's 7 distinct resources is done.
    assert 'value="1"' in html and "1/7 · 14%" in unescape(html)
    assert f'id="bar-guide-{guide.uuid}" class="bar"' in html


def test_htmx_tick_reads_what_its_bars_need_with_its_write(client, learner, catalog):
    """The bars a tick refreshes show the write itself, read in the write's round trip."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(learner)
    guide, resources = catalog["guide"], catalog["resources"]
    scope = f"guide:{guide.uuid}"
    client.post(
        tick_url(resources[1]), {"status": "done", "scope": scope}, HTTP_HX_REQUEST="true"
    )  # builds the memo
    with CaptureQueriesContext(connection) as queries:
        response = client.post(
            tick_url(resources[0]), {"status": "done", "scope": scope}, HTTP_HX_REQUEST="true"
        )
    assert "2/7 · 29%" in unescape(response.content.decode())  # this tick and the earlier one
    # The session, its user, the token; the write in one transaction (savepoint, the row locked,
    # written, its activity, release); then the learner's statuses. (The day's count is gone: the
    # heatmap reads the rows' own dates.)
    assert len(queries) == 3 + 5 + 1


def test_htmx_tick_on_the_dashboard_refreshes_its_guide_and_section_bars_as_shown(
    client, learner, catalog
):
    client.force_login(learner)
    resource, guide = catalog["resources"][0], catalog["guide"]
    page = client.get(reverse("learning:dashboard")).content.decode()
    top = resource.entries.get().section.parent
    for dom_id in (f"bar-guide-{guide.uuid}", f"bar-section-{top.uuid}"):
        assert f'id="{dom_id}" class="bar bar--compact"' in page
    html = client.post(
        tick_url(resource), {"status": "done", "scope": "dashboard"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert 'id="bar-overall" class="bar" hx-swap-oob="true"' in html and "1/10 · 10%" in unescape(
        html
    )
    assert f'id="bar-guide-{guide.uuid}" class="bar bar--compact" hx-swap-oob="true"' in html
    assert f'id="bar-section-{top.uuid}" class="bar bar--compact" hx-swap-oob="true"' in html
    # overall; both guides; every top section; the in-progress and recently completed lists;
    # the sentence counting what is done, and the streaks with the heatmap
    assert html.count('hx-swap-oob="true"') == 1 + 2 + 3 + 2 + 2
    assert 'id="dashboard-overall" hx-swap-oob="true">1 of 10 resources done' in html
    assert 'id="dashboard-activity" hx-swap-oob="true"' in html
    assert "<strong>1</strong> day current streak" in html
    assert 'id="dashboard-recent" hx-swap-oob="true"' in html and resource.title in html


def test_htmx_tick_learns_its_slot_from_the_button_that_sent_it(client, learner, catalog):
    """A page's ticks post its one shared form; htmx names the clicked button (HX-Trigger)."""
    client.force_login(learner)
    guide, shared = catalog["guide"], catalog["shared"]
    first, second = shared.entries.filter(section__guide=guide).order_by("section__position")
    page = client.get(guide.get_absolute_url()).content.decode()
    assert f'id="tick-btn-{second.uuid}"' in page and page.count('<form id="tick-form"') == 1
    response = client.post(
        tick_url(shared),
        {"status": "done", "scope": f"guide:{guide.uuid}"},
        HTTP_HX_REQUEST="true",
        HTTP_HX_TRIGGER=f"tick-btn-{second.uuid}",
    )
    html = response.content.decode()
    assert response.status_code == 200 and html.startswith(f'<span id="tick-{second.uuid}" ')
    assert (
        f'id="tick-btn-{second.uuid}"' in html and f'<span id="tick-{first.uuid}" ' in html
    )  # the other, out of band


@pytest.mark.parametrize("trigger", ["tick-btn-<b>x</b>", "tick-btn-" + "x" * 121])
def test_htmx_tick_with_a_forged_slot_changes_nothing(client, learner, catalog, trigger):
    client.force_login(learner)
    resource = catalog["resources"][0]
    response = client.post(
        tick_url(resource), {"status": "done"}, HTTP_HX_REQUEST="true", HTTP_HX_TRIGGER=trigger
    )
    assert response.status_code == 400 and "<b>" not in response.content.decode()
    assert not Progress.objects.exists()


def test_retried_htmx_tick_converges(client, learner, catalog):
    client.force_login(learner)
    resource = catalog["resources"][1]
    for _ in range(3):
        client.post(tick_url(resource), {"status": "done"}, HTTP_HX_REQUEST="true")
    assert Progress.objects.filter(user=learner, resource=resource, status=Status.DONE).count() == 1
    client.post(tick_url(resource), {"status": "not_started"}, HTTP_HX_REQUEST="true")
    assert not Progress.objects.filter(user=learner, resource=resource).exists()


def test_get_never_changes_anything(client, learner, catalog):
    client.force_login(learner)
    response = client.get(tick_url(catalog["resources"][0]) + "?status=done")
    assert response.status_code == 405
    assert not Progress.objects.exists()


def test_writes_need_the_csrf_token(learner, catalog):
    client = Client(enforce_csrf_checks=True)
    client.force_login(learner)
    response = client.post(tick_url(catalog["resources"][0]), {"status": "done"})
    assert response.status_code == 403
    assert not Progress.objects.exists()


def test_invalid_status_gives_a_message_and_changes_nothing(client, learner, catalog):
    client.force_login(learner)
    response = client.post(tick_url(catalog["resources"][0]), {"status": "toggle"})
    assert response.status_code == 302
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        "That status is not valid; nothing was changed."
    ]
    assert not Progress.objects.exists()
    response = client.post(
        tick_url(catalog["resources"][0]), {"status": "toggle"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 400 and response["Content-Type"].startswith(
        "text/plain"
    )  # shown by shortcuts.js
    assert response.content.decode() == "That status is not valid; nothing was changed."


def test_a_tick_lands_on_the_row_as_it_is_when_written(client, learner, catalog):
    """No read first: a note another request added after this page was shown survives a
    "not started" that, on the row as the page knew it, would have removed the row."""
    client.force_login(learner)
    resource = catalog["resources"][0]
    progress_set_status(user=learner, resource=resource, status=Status.DONE)
    progress_set_note(user=learner, resource=resource, note="keep me")  # another tab, in between
    response = client.post(tick_url(resource), {"status": "not_started"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    row = Progress.objects.get(user=learner, resource=resource)
    assert (row.status, row.note, row.started_at, row.completed_at) == (
        Status.NOT_STARTED,
        "keep me",
        None,
        None,
    )


def test_unknown_or_unpublished_resource_is_a_404(client, learner, catalog):
    client.force_login(learner)
    resource = catalog["resources"][0]
    resource.is_published = False
    resource.save()
    assert client.post(tick_url(resource), {"status": "done"}).status_code == 404
    assert (
        client.post(
            "/progress/00000000-0000-0000-0000-000000000000/", {"status": "done"}
        ).status_code
        == 404
    )


def test_anonymous_tick_asks_to_sign_in_then_applies_it(client, learner, catalog):
    resource = catalog["resources"][2]
    response = client.post(tick_url(resource), {"status": "done", "next": "/guides/alpha/"})
    assert response.status_code == 302
    assert (
        response["Location"].startswith(reverse("account_login"))
        and "next=/guides/alpha/" in response["Location"]
    )
    assert not Progress.objects.exists()
    htmx = client.post(
        tick_url(resource), {"status": "done", "next": "/guides/alpha/"}, HTTP_HX_REQUEST="true"
    )
    assert htmx["HX-Redirect"].startswith(reverse("account_login"))

    login = client.post(
        reverse("account_login") + "?next=/guides/alpha/",
        {"login": learner.email, "password": PASSWORD},
    )
    assert login.status_code == 302 and login["Location"] == "/guides/alpha/"
    assert Progress.objects.get(user=learner, resource=resource).status == Status.DONE


def test_resource_page_shows_the_learners_own_row_in_a_constant_query_count(
    client, learner, other_learner, catalog
):
    resource = catalog["resources"][0]
    progress_set_status(user=learner, resource=resource, status=Status.DONE, note="my private note")
    progress_set_status(
        user=other_learner, resource=resource, status=Status.SKIPPED, note="not mine"
    )
    client.force_login(learner)
    html = client.get(resource.get_absolute_url()).content.decode()
    assert "my private note" in html and "not mine" not in html
    assert 'aria-pressed="true">Done</button>' in html and 'aria-checked="true"' in html
    # Warm: the session, its user, the token, and the learner's row.
    assert page_queries(client, resource.get_absolute_url())[1] == 4
    client.force_login(other_learner)
    assert (
        'aria-pressed="true">Skipped</button>'
        in client.get(resource.get_absolute_url()).content.decode()
    )


def test_one_user_cannot_change_or_see_another_users_progress(
    client, learner, other_learner, catalog
):
    resource = catalog["resources"][0]
    progress_set_status(user=learner, resource=resource, status=Status.DONE, note="my private note")
    client.force_login(other_learner)
    client.post(tick_url(resource), {"status": "not_started"})
    client.post(reverse("learning:progress-note", args=[resource.uuid]), {"note": "eve was here"})
    mine = Progress.objects.get(user=learner, resource=resource)
    assert (mine.status, mine.note) == (Status.DONE, "my private note")
    for fmt in ("json", "csv", "md"):
        body = client.get(reverse("progress:export", args=[fmt])).content.decode()
        assert "my private note" not in body
    exported = client.get(reverse("progress:export", args=["json"])).json()["progress"]
    assert [(item["status"], item["note"]) for item in exported] == [
        ("not_started", "eve was here")
    ]
    assert "[x]" not in client.get(reverse("progress:export", args=["md"])).content.decode()


@pytest.mark.parametrize(
    "name,args",
    [("learning:dashboard", []), ("progress:export", ["json"]), ("progress:import", [])],
)
def test_personal_pages_require_sign_in(client, name, args):
    response = client.get(reverse(name, args=args))
    assert response.status_code == 302 and response["Location"].startswith(reverse("account_login"))


def test_unknown_export_format_is_a_404(client, learner):
    client.force_login(learner)
    assert client.get("/progress/export.exe").status_code == 404


def test_dashboard_shows_overall_and_guide_progress(client, learner, catalog):
    progress_set_status(user=learner, resource=catalog["shared"], status=Status.DONE)
    progress_set_status(user=learner, resource=catalog["resources"][0], status=Status.DONE)
    client.force_login(learner)
    html = client.get(reverse("learning:dashboard")).content.decode()
    # 10 distinct resources in all (6 + 3 + the shared one); 2 done.
    assert "2 of 10 resources done" in html
    assert f'id="bar-guide-{catalog["guide"].uuid}"' in html and "2/7" in html
    assert f'id="bar-guide-{catalog["other_guide"].uuid}"' in html and "1/4" in html
    assert "current streak" in html and "<svg" in html


def test_dashboard_lists_next_up_in_progress_and_recently_completed(client, learner, catalog):
    """The lists' rows are filled into shapes of the page's partials: each row shows its own
    resource, status and time, and a title is escaped."""
    first, second, third, fourth = catalog["resources"][:4]
    first.title = "Tokens <b>& friends</b>"
    first.save()
    progress_set_status(user=learner, resource=first, status=Status.IN_PROGRESS)
    progress_set_status(user=learner, resource=second, status=Status.DONE)
    progress_set_status(
        user=learner, resource=fourth, status=Status.DONE
    )  # the latest change: alpha
    client.force_login(learner)
    html = client.get(reverse("learning:dashboard")).content.decode()

    next_up = html.split('id="continue-heading"')[1].split("<h3>In progress</h3>")[0]
    assert "Next in <a" in next_up and ">Alpha</a>" in next_up
    titles = [resource.title for resource in (first, third)]  # alpha's unfinished, in order
    assert [
        unescape(title)
        for title in re.findall(r'class="tick-box"[^>]*aria-label="Done: ([^"]*)"', next_up)
    ][:2] == titles
    assert (
        "tick tick--in_progress" in next_up and "Tokens &lt;b&gt;&amp; friends&lt;/b&gt;" in next_up
    )
    assert "· alpha part 0 tier 1</span>" in next_up and second.title not in next_up

    in_progress = html.split("<h3>In progress</h3>")[1].split("</ul>")[0]
    assert (
        f'<a href="{first.get_absolute_url()}">Tokens &lt;b&gt;&amp; friends&lt;/b&gt;</a>'
        in in_progress
    )
    assert "· started now</span>" in in_progress and second.title not in in_progress
    recent = html.split('id="recent-heading"')[1].split("</section>")[0]
    assert re.findall(r'<li><a href="([^"]*)">', recent) == [
        fourth.get_absolute_url(),
        second.get_absolute_url(),
    ]
    assert recent.count("· now</span>") == 2


def test_dashboard_heatmap_sums_up_the_learners_year(client, learner, catalog):
    for resource in catalog["resources"][:2]:
        progress_set_status(user=learner, resource=resource, status=Status.DONE)
    client.force_login(learner)
    html = client.get(reverse("learning:dashboard")).content.decode()
    figure = html.split('<figure class="heatmap">')[1].split("</figure>")[0]
    today = timezone.localdate()
    assert '<desc id="heatmap-desc">2 things started or finished on 1 day.</desc>' in figure
    assert (
        f"2 things started or finished on 1 active day in the last year; busiest day {today.day} {today:%b %Y} (2).</span>"
        in figure
    )
    weeks_back = today.weekday() + 1 + 52 * 7  # from a Sunday, 53 columns
    assert (
        figure.count("<rect ") == weeks_back + 1 + 5 and 'class="hm hm-4"><title>2 on ' in figure
    )  # and the legend's 5


def test_dashboard_lists_say_so_when_empty(client, learner, catalog):
    client.force_login(learner)
    html = client.get(reverse("learning:dashboard")).content.decode()
    assert "Tick something in a guide" in html and "Nothing completed yet." in html
    assert "<h3>In progress</h3>" not in html and 'class="mini-row"' not in html


def test_dashboard_links_follow_a_renamed_resource(client, learner, catalog):
    client.force_login(learner)
    started, finished = catalog["resources"][:2]
    progress_set_status(user=learner, resource=started, status=Status.IN_PROGRESS)
    progress_set_status(user=learner, resource=finished, status=Status.DONE)
    assert (
        f'<a href="{started.get_absolute_url()}">{started.title}</a>'
        in client.get(reverse("learning:dashboard")).content.decode()
    )
    started.title, finished.title = "Attention \u2014 revisited", "Zur\u00fcck & weiter"
    started.save()
    finished.save()
    html = client.get(reverse("learning:dashboard")).content.decode()
    assert f'<a href="{started.get_absolute_url()}">Attention \u2014 revisited</a>' in html
    assert f'<a href="{finished.get_absolute_url()}">Zur\u00fcck &amp; weiter</a>' in html


def test_dashboard_query_count_does_not_grow_with_rows(client, learner, catalog):
    client.force_login(learner)
    for resource in catalog["resources"][:2]:
        progress_set_status(user=learner, resource=resource, status=Status.DONE)
    small = page_queries(client, reverse("learning:dashboard"))
    build_guide("gamma", n_sections=4, per_section=10)
    for resource in catalog["resources"][2:] + catalog["other_resources"]:
        progress_set_status(user=learner, resource=resource, status=Status.DONE)
    # Warm: the session, its user, the token, then the learner's rows (statuses, latest started
    # and done, latest changed), their activity days and followed paths.
    assert page_queries(client, reverse("learning:dashboard")) == small == (small[0], 3 + 3)


def test_json_export_import_round_trip_reproduces_progress(client, learner, other_learner, catalog):
    resources = catalog["resources"]
    progress_set_status(user=learner, resource=resources[0], status=Status.DONE, note="great")
    progress_set_status(user=learner, resource=resources[1], status=Status.IN_PROGRESS)
    progress_set_status(user=learner, resource=resources[2], status=Status.SKIPPED)
    client.force_login(learner)
    payload = client.get(reverse("progress:export", args=["json"])).content.decode()

    client.force_login(other_learner)
    preview = client.post(reverse("progress:import"), {"text": payload})
    assert "3 resources will change" in preview.content.decode()
    assert not Progress.objects.filter(user=other_learner).exists()  # preview writes nothing
    client.post(reverse("progress:import"), {"text": payload, "confirm": "1"})
    mine = {
        (r.resource_id, r.status, r.note, r.started_at, r.completed_at)
        for r in Progress.objects.filter(user=learner)
    }
    theirs = {
        (r.resource_id, r.status, r.note, r.started_at, r.completed_at)
        for r in Progress.objects.filter(user=other_learner)
    }
    assert mine == theirs


def test_markdown_export_import_round_trip(client, learner, other_learner, catalog):
    progress_set_status(user=learner, resource=catalog["resources"][0], status=Status.DONE)
    progress_set_status(user=learner, resource=catalog["shared"], status=Status.DONE)
    client.force_login(learner)
    markdown = client.get(reverse("progress:export", args=["md"])).content.decode()
    assert f"- [x] [{catalog['resources'][0].title}]({catalog['resources'][0].url})" in markdown
    assert f"- [ ] [{catalog['resources'][1].title}]" in markdown

    client.force_login(other_learner)
    client.post(reverse("progress:import"), {"text": markdown, "confirm": "1"})
    assert set(
        Progress.objects.filter(user=other_learner, status=Status.DONE).values_list(
            "resource_id", flat=True
        )
    ) == {
        catalog["resources"][0].id,
        catalog["shared"].id,
    }


def test_markdown_import_reports_lines_that_match_nothing(client, learner, catalog):
    client.force_login(learner)
    text = "- [x] [Unknown](https://nowhere.example/x)\n- [x] Some concept nobody listed\n- [ ] not ticked\n"
    html = client.post(reverse("progress:import"), {"text": text}).content.decode()
    assert "2 lines matched nothing" in html and "Line 1" in html and "Line 2" in html
    assert not Progress.objects.exists()


@pytest.mark.parametrize(
    "text,message",
    [
        ("{not json", "not valid JSON"),
        (json.dumps({"format": "other"}), "not a Syllabus progress export"),
        ("just some prose", "No checklist lines"),
        ("", "Choose a file or paste"),
    ],
)
def test_bad_imports_get_a_clear_message_and_write_nothing(client, learner, catalog, text, message):
    client.force_login(learner)
    html = client.post(reverse("progress:import"), {"text": text, "confirm": "1"}).content.decode()
    assert message in html
    assert not Progress.objects.exists()


def test_json_items_with_bad_fields_are_reported_not_imported(client, learner, catalog):
    client.force_login(learner)
    good = str(catalog["resources"][0].uuid)
    items = [
        {"resource": good, "status": "done", "completed_at": "2026-13-45T00:00:00"},
        {"resource": "not-a-uuid", "status": "done"},
        {"resource": good, "status": "finished"},
        {"resource": "00000000-0000-0000-0000-000000000000", "status": "done"},
    ]
    text = json.dumps({"format": "syllabus-progress", "version": 1, "progress": items})
    html = client.post(reverse("progress:import"), {"text": text, "confirm": "1"}).content.decode()
    assert "completed_at is not an ISO date-time" in html and "malformed resource uuid" in html
    assert "unknown status" in html and "no published resource has this uuid" in html
    assert not Progress.objects.exists()


def test_guide_page_with_progress_keeps_a_constant_query_count(client, learner, catalog):
    from apps.catalog.models import Entry, Resource

    client.force_login(learner)
    guide = catalog["guide"]
    progress_set_status(user=learner, resource=catalog["resources"][0], status=Status.DONE)
    html = client.get(guide.get_absolute_url()).content.decode()
    assert f'id="bar-guide-{guide.uuid}"' in html and 'aria-checked="true"' in html
    small = page_queries(client, guide.get_absolute_url())

    section = guide.sections.filter(parent__isnull=False).first()
    for i in range(30):
        resource = Resource.objects.create(title=f"More {i}", url=f"https://example.com/more/{i}")
        Entry.objects.create(section=section, resource=resource, position=100 + i)
        progress_set_status(
            user=learner, resource=resource, status=Status.DONE if i % 2 else Status.SKIPPED
        )
    # Warm: the session, its user, the token, and the learner's statuses.
    assert page_queries(client, guide.get_absolute_url()) == small == (small[0], 4)


# --- A note typed on the resource page is saved with a status click, never lost ----------------


def test_a_status_click_on_the_resource_page_saves_the_note_typed_with_it(client, learner, catalog):
    resource = catalog["resources"][0]
    client.force_login(learner)
    page = client.get(resource.get_absolute_url()).content.decode()
    # The checkbox, the status buttons and the note are one form: the checkbox's.
    [form] = re.findall(r'<form id="tick-form".*?</form>', page, re.DOTALL)
    assert 'name="note"' in form and 'id="status-in_progress"' in form and "Save note" in form
    assert page.count('id="tick-form"') == 1 and 'form="tick-form"' in page
    response = client.post(
        tick_url(resource),
        {"status": "in_progress", "scope": "resource", "note": "  typed, not saved yet  "},
        HTTP_HX_REQUEST="true",
    )
    assert response["HX-Retarget"] == "#my-progress"
    assert ">typed, not saved yet</textarea>" in response.content.decode()
    row = Progress.objects.get(user=learner, resource=resource)
    assert (row.status, row.note) == (Status.IN_PROGRESS, "typed, not saved yet")
    # Without JavaScript the checkbox posts the whole form: the note comes along.
    response = client.post(
        tick_url(resource) + f"?slot={resource.uuid}",
        {"status": "done", "scope": "resource", "note": "changed", "next": "/"},
    )
    assert response.status_code == 302 and response["Location"] == "/#my-progress"
    row.refresh_from_db()
    assert (row.status, row.note) == (Status.DONE, "changed")


def test_a_tick_without_a_note_field_leaves_the_note_alone(client, learner, catalog):
    resource = catalog["resources"][0]
    progress_set_note(user=learner, resource=resource, note="kept")
    client.force_login(learner)
    client.post(tick_url(resource), {"status": "done", "scope": "guide:x"}, HTTP_HX_REQUEST="true")
    assert Progress.objects.get(user=learner, resource=resource).note == "kept"


def test_a_too_long_note_with_a_status_changes_nothing_and_says_why(client, learner, catalog):
    resource = catalog["resources"][0]
    client.force_login(learner)
    data = {"status": "done", "scope": "resource", "note": "x" * 10_001}
    response = client.post(tick_url(resource), data, HTTP_HX_REQUEST="true")
    assert response.status_code == 400 and "at most 10,000 characters" in response.content.decode()
    response = client.post(tick_url(resource), data | {"next": resource.get_absolute_url()})
    assert response.status_code == 302
    assert "at most 10,000 characters" in str(list(get_messages(response.wsgi_request))[0])
    assert not Progress.objects.filter(user=learner).exists()


def test_save_note_over_htmx_swaps_the_block_with_the_note_saved(client, learner, catalog):
    resource = catalog["resources"][0]
    client.force_login(learner)
    url = reverse("learning:progress-note", args=[resource.uuid])
    response = client.post(url, {"note": "mine"}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response["HX-Retarget"] == "#my-progress" and ">mine</textarea>" in html
    assert "Note saved." in html and "<html" not in html
    assert Progress.objects.get(user=learner, resource=resource).note == "mine"
    response = client.post(url, {"note": "y" * 10_001}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert Progress.objects.get(user=learner, resource=resource).note == "mine"
