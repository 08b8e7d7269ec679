"""A learner's status filter on every list (guide, topic, path, search), the status menu on a row
and the marker on a row the learner has a note on: per learner, over the shared HTML."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from apps.core.content import memo
from apps.learning import shared
from apps.progress.models import Progress, Status
from apps.progress.services import progress_set_note, progress_set_status
from tests.conftest import page_queries

pytestmark = pytest.mark.django_db


def signed_in(person) -> Client:
    client = Client()
    client.force_login(person)
    return client


def html_of(response) -> str:
    assert response.status_code == 200
    html = response.content.decode()
    assert "\x00" not in html
    return html


def rows(html) -> set[str]:
    """The ids of the rows on a page (guide entries, topic/search resources, path step items)."""
    return set(
        re.findall(
            r'<li class="(?:row|resource-row)" id="((?:entry|resource|step-item)-[^"]+)"', html
        )
    )


def chip_count(html, label) -> int:
    match = re.search(
        rf'class="chip"[^>]*>{re.escape(label)} <span class="chip__count">(\d+)</span>', html
    )
    assert match, f"no {label!r} chip"
    return int(match.group(1))


@pytest.fixture
def learner(learner, catalog):
    """Ada: resources[0] done, [1] in progress, [3] skipped; Eve (other_user) has done [1]."""
    r = catalog["resources"]
    progress_set_status(user=learner, resource=r[0], status=Status.DONE)
    progress_set_status(user=learner, resource=r[1], status=Status.IN_PROGRESS)
    progress_set_status(user=learner, resource=r[3], status=Status.SKIPPED)
    return learner


def entry_id(resource, guide) -> str:
    return f"entry-{resource.entries.get(section__guide=guide).uuid}"


# --- The guide page -------------------------------------------------------------------------------


def test_guide_page_hides_done_rows_and_counts_each_choice(learner, other_learner, catalog):
    guide, r = catalog["guide"], catalog["resources"]
    url = guide.get_absolute_url()
    client = signed_in(learner)
    everything = rows(html_of(client.get(url)))
    assert len(everything) == 8  # 6 resources and the shared one twice

    html = html_of(client.get(url, {"status": "not_done"}))
    assert rows(html) == everything - {entry_id(r[0], guide)}
    assert chip_count(html, "All") == 8 and chip_count(html, "Hide done") == 7
    assert chip_count(html, "In progress") == 1 and chip_count(html, "Skipped") == 1
    assert "Hide done: showing 7 of 8 entries." in html
    assert re.search(r'aria-current="true">Hide done', html)

    assert rows(html_of(client.get(url, {"status": "in_progress"}))) == {entry_id(r[1], guide)}
    assert rows(html_of(client.get(url, {"status": "skipped"}))) == {entry_id(r[3], guide)}
    # The bars still count the whole guide.
    assert 'id="bar-guide-' in html and "1/6" in html

    # Eve's filter is over her own statuses: nothing of hers is in progress.
    eve = html_of(signed_in(other_learner).get(url, {"status": "in_progress"}))
    assert rows(eve) == set() and "Nothing here is in progress." in eve


def test_guide_status_filter_keeps_the_other_filters_and_the_no_javascript_tick_returns_to_it(
    learner, catalog
):
    guide = catalog["guide"]
    html = html_of(
        signed_in(learner).get(guide.get_absolute_url(), {"tier": "1", "status": "not_done"})
    )
    assert 'href="/guides/alpha/?tier=1&amp;status=skipped"' in html  # the choices keep tier=1
    assert 'href="/guides/alpha/?tier=1"' in html  # "All" drops only the status
    # A tick without JavaScript comes back to the same filtered list.
    assert 'name="next" value="/guides/alpha/?tier=1&amp;status=not_done"' in html


def test_guide_status_filter_htmx_swaps_only_the_list(learner, catalog):
    guide = catalog["guide"]
    response = signed_in(learner).get(
        guide.get_absolute_url(), {"status": "in_progress"}, HTTP_HX_REQUEST="true"
    )
    html = html_of(response)
    assert "<html" not in html and html.lstrip().startswith('<div id="guide-entries"')
    assert rows(html) == {entry_id(catalog["resources"][1], guide)}
    assert 'hx-get="/guides/alpha/?status=skipped" hx-target="#guide-entries"' in html
    assert "HX-Request" in response["Vary"]


def test_a_bad_status_filter_is_reported_and_ignored(learner, catalog):
    guide = catalog["guide"]
    html = html_of(signed_in(learner).get(guide.get_absolute_url(), {"status": "<b>done</b>"}))
    assert (
        "Ignored the status filter “&lt;b&gt;done&lt;/b&gt;”" in html and "<b>done</b>" not in html
    )
    assert len(rows(html)) == 8


def test_visitors_see_no_status_filter_and_their_status_parameter_is_ignored(learner, catalog):
    guide = catalog["guide"]
    html = html_of(Client().get(guide.get_absolute_url(), {"status": "in_progress"}))
    assert len(rows(html)) == 8 and "status-filter" not in html and "Hide done" not in html


def test_status_filters_share_one_build_and_cost_no_query(
    learner, other_learner, catalog, monkeypatch
):
    guide = catalog["guide"]
    builds = []
    original = shared._guide_parts_build
    monkeypatch.setattr(
        shared, "_guide_parts_build", lambda **kw: builds.append(1) or original(**kw)
    )
    memo.clear()
    client = signed_in(learner)
    for status in ("", "not_done", "in_progress", "skipped"):
        html_of(client.get(guide.get_absolute_url(), {"status": status} if status else None))
    html_of(signed_in(other_learner).get(guide.get_absolute_url(), {"status": "not_done"}))
    assert builds == [1]  # every learner and every status filter from one shared build
    url = guide.get_absolute_url()
    assert page_queries(client, url, {"status": "not_done"})[1] == page_queries(client, url)[1] == 4


# --- Topic, search and path --------------------------------------------------------------------


def test_topic_page_status_filter(learner, catalog):
    topic, r = (
        catalog["topic"],
        catalog["resources"],
    )  # the topic holds r[0] (done) and the shared one
    url = reverse("learning:topic-detail", args=[topic.slug])
    client = signed_in(learner)
    html = html_of(client.get(url, {"status": "not_done"}))
    assert rows(html) == {f"resource-{catalog['shared'].uuid}"}
    assert chip_count(html, "All") == 2 and chip_count(html, "Hide done") == 1
    fragment = html_of(client.get(url, {"status": "not_done"}, HTTP_HX_REQUEST="true"))
    assert "<html" not in fragment and rows(fragment) == {f"resource-{catalog['shared'].uuid}"}
    assert f'value="{url}?status=not_done"' in html  # the no-JS tick's way back
    assert rows(html_of(Client().get(url, {"status": "not_done"}))) == {
        f"resource-{r[0].uuid}",
        f"resource-{catalog['shared'].uuid}",
    }


def test_search_status_filter(learner, catalog):
    r = catalog["resources"]
    url = reverse("learning:search")
    client = signed_in(learner)
    everything = rows(html_of(client.get(url, {"q": "alpha"})))
    assert f"resource-{r[0].uuid}" in everything and len(everything) == 6
    html = html_of(client.get(url, {"q": "alpha", "status": "in_progress"}))
    assert rows(html) == {f"resource-{r[1].uuid}"}
    assert 'href="/search/?q=alpha&amp;status=not_done"' in html
    fragment = html_of(
        client.get(url, {"q": "alpha", "status": "not_done"}, HTTP_HX_REQUEST="true")
    )
    assert "<html" not in fragment and rows(fragment) == everything - {f"resource-{r[0].uuid}"}
    assert len(rows(html_of(Client().get(url, {"q": "alpha", "status": "in_progress"})))) == 6


def test_path_page_status_filter(learner, catalog, learning_path):
    client = signed_in(learner)
    url = learning_path.get_absolute_url()
    assert len(rows(html_of(client.get(url)))) == 5
    html = html_of(client.get(url, {"status": "not_done"}))
    assert len(rows(html)) == 4 and chip_count(html, "In progress") == 1
    fragment = html_of(client.get(url, {"status": "in_progress"}, HTTP_HX_REQUEST="true"))
    assert fragment.lstrip().startswith('<div id="path-steps"') and len(rows(fragment)) == 1
    assert len(rows(html_of(Client().get(url, {"status": "in_progress"})))) == 5


# --- The row's status menu ------------------------------------------------------------------------


def test_a_row_menu_sets_the_status_it_names_without_javascript(learner, catalog):
    guide, resource = catalog["guide"], catalog["resources"][2]
    client = signed_in(learner)
    html = html_of(client.get(guide.get_absolute_url()))
    slot = entry_id(resource, guide).removeprefix("entry-")
    menu = re.search(rf'<span id="tick-{slot}".*?</details>', html, re.DOTALL).group(0)
    assert f"Status of {resource.title}" in menu and 'aria-controls="status-menu"' in menu
    # Without JavaScript the row's menu opens on a link to the resource page's status buttons.
    assert f'href="{resource.get_absolute_url()}#my-progress"' in menu
    page = html_of(client.get(resource.get_absolute_url()))
    assert 'id="status-in_progress"' in page and 'id="status-skipped"' in page
    assert 'id="status-not_started"' in page
    # The page's one status menu, filled by JavaScript with the row's URL and slot, posts the
    # form the ticks post; its buttons name each status.
    assert html.count('id="status-menu"') == 1 and html.count('<details class="tick-menu"') > 1
    shared = re.search(r'<div id="status-menu".*?</div>', html, re.DOTALL).group(0)
    assert shared.count('form="tick-form"') == 3
    assert 'value="in_progress"' in shared and 'value="skipped"' in shared
    assert 'value="not_started"' in shared and 'value="done"' not in shared
    back = f"{guide.get_absolute_url()}?status=not_done"
    for status in (
        "in_progress",
        "in_progress",
        "skipped",
        "not_started",
    ):  # the same one twice converges
        response = client.post(
            reverse("learning:progress-set", args=[resource.uuid]),
            {"status": status, "scope": f"guide:{guide.uuid}", "next": back},
        )
        assert response.status_code == 302 and response["Location"] == back
        row = Progress.objects.filter(user=learner, resource=resource).first()
        assert (row.status if row else Status.NOT_STARTED) == status


def test_a_row_menu_over_htmx_swaps_the_tick_with_the_menu_open_and_focused(
    learner, other_learner, catalog
):
    guide, resource = catalog["guide"], catalog["resources"][2]
    slot = entry_id(resource, guide).removeprefix("entry-")
    response = signed_in(learner).post(
        reverse("learning:progress-set", args=[resource.uuid]),
        {"status": "skipped", "scope": f"guide:{guide.uuid}", "slot": slot, "menu": "1"},
        HTTP_HX_REQUEST="true",
    )
    html = html_of(response)
    assert html.startswith(f'<span id="tick-{slot}"')
    assert '<details class="tick-menu" open><summary aria-controls="status-menu" autofocus>' in html
    # Skipped now, as the tick's class says (the page's one menu reads it from there).
    assert "tick--skipped" in html and 'id="status-menu"' not in html
    assert '<span class="tick-status">Skipped</span>' in html
    assert Progress.objects.get(user=learner, resource=resource).status == Status.SKIPPED
    assert not Progress.objects.filter(user=other_learner, resource=resource).exists()


def test_visitors_get_no_row_menu_and_their_post_asks_to_sign_in(catalog):
    guide, resource = catalog["guide"], catalog["resources"][2]
    html = html_of(Client().get(guide.get_absolute_url()))
    assert "tick-menu" not in html and "status-menu" not in html
    response = Client().post(
        reverse("learning:progress-set", args=[resource.uuid]), {"status": "in_progress"}
    )
    assert response.status_code == 302 and response["Location"].startswith(reverse("account_login"))
    assert not Progress.objects.exists()


def test_the_resource_page_keeps_its_own_status_buttons_not_a_menu(learner, catalog):
    html = html_of(signed_in(learner).get(catalog["resources"][0].get_absolute_url()))
    assert "tick-menu" not in html and 'aria-label="Status"' in html


# --- The note marker ---------------------------------------------------------------------------


def test_rows_mark_the_learners_own_notes_only(learner, other_learner, catalog, learning_path):
    guide, topic, r = catalog["guide"], catalog["topic"], catalog["resources"]
    progress_set_note(user=learner, resource=r[0], note="Read twice")  # done, with a note
    progress_set_note(
        user=learner, resource=catalog["shared"], note="Not begun; a note all the same"
    )
    mark = 'class="note-mark"'
    pages = {
        "guide": guide.get_absolute_url(),
        "topic": reverse("learning:topic-detail", args=[topic.slug]),
        "path": learning_path.get_absolute_url(),
    }
    for name, url in pages.items():
        mine = html_of(signed_in(learner).get(url))
        assert (
            f"Your note on {r[0].title}" in mine
            and f"Your note on {catalog['shared'].title}" in mine
        ), name
        assert mark in mine and 'title="You have a note on this"' in mine
        assert mark not in html_of(signed_in(other_learner).get(url)), name
        assert mark not in html_of(Client().get(url)), name
    # A note on something not started does not count it as started.
    assert (
        Progress.objects.get(user=learner, resource=catalog["shared"]).status == Status.NOT_STARTED
    )
    search = html_of(signed_in(learner).get(reverse("learning:search"), {"q": "shared"}))
    assert f"Your note on {catalog['shared'].title}" in search


def test_a_tick_keeps_its_menu_after_the_swap_except_on_the_resource_page(learner, catalog):
    resource = catalog["resources"][2]
    client = signed_in(learner)
    url = reverse("learning:progress-set", args=[resource.uuid])
    # The search page's ticks name no scope: the swapped tick still has its menu, closed.
    html = html_of(client.post(url, {"status": "done"}, HTTP_HX_REQUEST="true"))
    assert '<details class="tick-menu">' in html and 'aria-checked="true"' in html
    # The resource page's checkbox says it has no menu, and gets none back.
    page = html_of(client.get(resource.get_absolute_url()))
    assert """hx-vals='{"menu": "0"}'""" in page
    html = html_of(client.post(url, {"status": "not_started", "menu": "0"}, HTTP_HX_REQUEST="true"))
    assert "tick-menu" not in html and 'aria-checked="false"' in html


def test_the_other_filters_links_keep_the_learners_status_filter(learner, other_learner, catalog):
    guide, topic, r = catalog["guide"], catalog["topic"], catalog["resources"]
    for resource, kind in ((r[0], "paper"), (r[1], "video")):  # so the guide has a kind filter
        resource.kind = kind
        resource.save()
    url = guide.get_absolute_url()
    mine = html_of(signed_in(learner).get(url, {"status": "not_done"}))
    assert f'href="{url}?kind=paper&amp;status=not_done"' in mine
    assert f'hx-get="{url}?kind=paper&amp;status=not_done"' in mine
    # Another learner without one, and a visitor, get the same links without it (one shared build).
    for html in (
        html_of(signed_in(other_learner).get(url)),
        html_of(Client().get(url, {"status": "not_done"})),
    ):
        assert f'href="{url}?kind=paper"' in html and "kind=paper&amp;status" not in html
    # With a kind chosen, its "All" keeps only the status.
    chosen = html_of(signed_in(learner).get(url, {"kind": "video", "status": "skipped"}))
    assert f'href="{url}?kind=paper&amp;status=skipped"' in chosen
    assert f'class="chip" href="{url}?status=skipped"' in chosen
    # The topic page's too.
    topic_url = reverse("learning:topic-detail", args=[topic.slug])
    html = html_of(signed_in(learner).get(topic_url, {"status": "in_progress"}))
    assert f'href="{topic_url}?kind=paper&amp;status=in_progress"' in html


def test_search_status_filter_covers_every_page_of_results(learner):
    """The filter's counts are of all results, a chosen status pages through only what it keeps,
    and the page links keep it (with and without htmx)."""
    from tests.factories import listed_resource

    found = [listed_resource(title=f"Zeta paper {n:02}") for n in range(25)]  # two pages
    progress_set_status(user=learner, resource=found[0], status=Status.DONE)
    progress_set_status(user=learner, resource=found[22], status=Status.IN_PROGRESS)
    progress_set_status(user=learner, resource=found[24], status=Status.SKIPPED)
    client, url = signed_in(learner), reverse("learning:search")

    html = html_of(client.get(url, {"q": "zeta"}))
    assert len(rows(html)) == 20 and "25 results" in html
    assert chip_count(html, "All") == 25 and chip_count(html, "Hide done") == 24
    assert chip_count(html, "In progress") == 1 and chip_count(html, "Skipped") == 1

    html = html_of(client.get(url, {"q": "zeta", "status": "in_progress"}))
    assert rows(html) == {f"resource-{found[22].uuid}"}  # from the second page of all results
    assert "showing 1 of 25 results" in html and "Nothing matches" not in html

    html = html_of(client.get(url, {"q": "zeta", "status": "not_done"}))
    assert f"resource-{found[0].uuid}" not in rows(html) and len(rows(html)) == 20
    assert 'href="/search/?q=zeta&amp;status=not_done&amp;page=2"' in html
    second = html_of(
        client.get(url, {"q": "zeta", "status": "not_done", "page": "2"}, HTTP_HX_REQUEST="true")
    )
    assert "<html" not in second
    assert rows(second) == {f"resource-{r.uuid}" for r in found[21:]}
    assert chip_count(second, "Hide done") == 24

    html = html_of(client.get(url, {"q": "zeta", "status": "skipped", "page": "9"}))
    assert rows(html) == {f"resource-{found[24].uuid}"}  # a page past the end gives the last


def test_search_status_filter_that_keeps_nothing_says_so_once(learner):
    from tests.factories import ResourceFactory

    ResourceFactory(title="Zeta paper")
    html = html_of(
        signed_in(learner).get(reverse("learning:search"), {"q": "zeta", "status": "skipped"})
    )
    assert rows(html) == set() and "Nothing here is skipped" in html
    assert "Nothing matches" not in html and "Did you mean" not in html


def test_search_query_counts_for_a_learner_are_pinned(learner, catalog):
    client, url = signed_in(learner), reverse("learning:search")
    # Warm: session, user, content token, statuses (every result's id is shared, memoized), and
    # the learner's own links that match (apps/learning/own.py: one query, at most 20 rows).
    assert page_queries(client, url, {"q": "alpha"})[1] == 5
    # A chosen status renders the learner's own page: + the count and the page of results.
    assert page_queries(client, url, {"q": "alpha", "status": "not_done"})[1] == 7


# --- A tick over htmx refreshes the filter's counts and the rows it keeps ------------------------


def status_block(html, target) -> str:
    match = re.search(rf'<div id="{target}-status"( hx-swap-oob="true")?>.*?\n</div>', html, re.S)
    assert match, f"no status filter for #{target}"
    return re.sub(r' hx-swap-oob="true"', "", match.group(0))


def htmx_tick(client, resource, *, scope, page, status="done", slot=""):
    return client.post(
        reverse("learning:progress-set", args=[resource.uuid]),
        {"status": status, "scope": scope, "slot": slot},
        headers={"HX-Request": "true", "HX-Current-URL": f"http://testserver{page}"},
    )


def test_a_tick_with_hide_done_on_sends_the_counts_of_a_reload_and_removes_its_rows(
    learner, catalog
):
    guide, shared_resource = catalog["guide"], catalog["shared"]
    page = f"{guide.get_absolute_url()}?status=not_done"
    client = signed_in(learner)
    before = html_of(client.get(page))
    assert "Hide done: showing 7 of 8 entries." in before
    slots = sorted(
        f"entry-{entry.uuid}" for entry in shared_resource.entries.filter(section__guide=guide)
    )
    assert len(slots) == 2 and set(slots) <= rows(before)
    first = slots[0].removeprefix("entry-")
    html = html_of(
        htmx_tick(client, shared_resource, scope=f"guide:{guide.uuid}", page=page, slot=first)
    )
    after = html_of(client.get(page))
    # The counts are the reload's, chip by chip, and "showing N of M".
    assert status_block(html, "guide-entries") == status_block(after, "guide-entries")
    assert "Hide done: showing 5 of 8 entries." in html and chip_count(html, "Hide done") == 5
    # Both rows of the shared resource leave the list, as they are gone from the reload.
    for row in slots:
        assert html.count(f'<li id="{row}" hx-swap-oob="delete"></li>') == 1
        assert row not in rows(after)
    # Unticked, it comes back on a reload; the counts agree again, and nothing is removed.
    html = html_of(
        htmx_tick(
            client,
            shared_resource,
            scope=f"guide:{guide.uuid}",
            page=guide.get_absolute_url(),
            status="undone",
        )
    )
    assert status_block(html, "guide-entries") == status_block(
        html_of(client.get(guide.get_absolute_url())), "guide-entries"
    )
    assert 'hx-swap-oob="delete"' not in html


def test_a_tick_on_topic_and_path_pages_refreshes_their_filters(learner, catalog, learning_path):
    client = signed_in(learner)
    topic, shared_resource = catalog["topic"], catalog["shared"]
    page = f"{topic.get_absolute_url()}?status=not_done"
    html = html_of(htmx_tick(client, shared_resource, scope=f"topic:{topic.slug}", page=page))
    assert status_block(html, "topic-resources") == status_block(
        html_of(client.get(page)), "topic-resources"
    )
    assert f'<li id="resource-{shared_resource.uuid}" hx-swap-oob="delete">' in html
    assert "Nothing here is left to do." in html

    page = f"{learning_path.get_absolute_url()}?status=in_progress"
    in_progress = catalog["resources"][1]
    html = html_of(htmx_tick(client, in_progress, scope=f"path:{learning_path.uuid}", page=page))
    assert status_block(html, "path-steps") == status_block(html_of(client.get(page)), "path-steps")
    assert re.search(r'<li id="step-item-[^"]+" hx-swap-oob="delete">', html)


def test_a_tick_from_another_address_refreshes_no_filter(learner, catalog):
    guide, resource = catalog["guide"], catalog["resources"][2]
    scope = f"guide:{guide.uuid}"
    for page in ("/guides/other/?status=not_done", "/", ""):
        html = html_of(htmx_tick(signed_in(learner), resource, scope=scope, page=page))
        assert '-status" hx-swap-oob' not in html and 'hx-swap-oob="delete"' not in html
    # Without JavaScript the page is simply loaded again, with its filter.
    response = signed_in(learner).post(
        reverse("learning:progress-set", args=[resource.uuid]),
        {"status": "undone", "scope": scope, "next": f"{guide.get_absolute_url()}?status=not_done"},
    )
    assert response["Location"].startswith(f"{guide.get_absolute_url()}?status=not_done")


def test_a_tick_on_a_filtered_search_refreshes_its_counts_over_every_result(learner, catalog):
    client = signed_in(learner)
    page = reverse("learning:search") + "?q=alpha&status=not_done"
    resource = catalog["resources"][2]
    html = html_of(htmx_tick(client, resource, scope="", page=page))
    assert status_block(html, "search-results") == status_block(
        html_of(client.get(page)), "search-results"
    )
    assert f'<li id="resource-{resource.uuid}" hx-swap-oob="delete"></li>' in html
    # A search page without a query has no list to refresh.
    html = html_of(htmx_tick(client, resource, scope="", page=reverse("learning:search")))
    assert '-status" hx-swap-oob' not in html and "delete" not in html
