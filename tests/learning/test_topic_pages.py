"""A long topic a page at a time (apps.learning.views.topic_detail, shared.topic_parts and
topic_page, catalog.selectors.topic_page): `?page=N` links without JavaScript, the next page
appended by htmx, the status filter counting every row and paging those it keeps, ticks that come
back to their page, any page number answered, the shared rows memoized per page, and a query
count that does not grow with the topic."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from apps.catalog import selectors
from apps.catalog.models import Kind
from apps.core.content import memos_clear
from apps.progress.models import Status
from apps.progress.services import progress_set_status
from tests.conftest import page_queries
from tests.factories import (
    EntryFactory,
    GuideFactory,
    ResourceFactory,
    SectionFactory,
    TopicFactory,
)

pytestmark = pytest.mark.django_db

SIZE = 10  # rows per page in these tests (selectors.TOPIC_PAGE_SIZE is 100)


def grow_topic(topic, count, *, start=0):
    """`count` listed resources on `topic`, titled in page order; every third a video."""
    section = SectionFactory(guide=GuideFactory())
    made = []
    for number in range(start, start + count):
        kind = Kind.VIDEO if number % 3 == 0 else Kind.ARTICLE
        resource = ResourceFactory(title=f"Note {number:03d}", kind=kind, topics=[topic])
        EntryFactory(section=section, resource=resource)
        made.append(resource)
    return made


@pytest.fixture
def small_pages(monkeypatch):
    monkeypatch.setattr(selectors, "TOPIC_PAGE_SIZE", SIZE)


@pytest.fixture
def topic(small_pages):
    topic = TopicFactory(slug="kernels", title="GPU kernels")
    topic.grown = grow_topic(topic, 25)  # three pages: 10, 10, 5
    return topic


def get(client, url, data=None, **headers) -> str:
    response = client.get(url, data, headers=headers)
    assert response.status_code == 200
    text = response.content.decode()
    assert "\x00" not in text
    return text


def titles(html) -> list[str]:
    return re.findall(r'<li class="row" id="resource-[^"]+">.*?>(Note \d+)<', html, re.S)


def where(html) -> str:
    return re.search(r'<span class="pagination__where">([^<]*)</span>', html).group(1)


def link(html, rel) -> str | None:
    match = re.search(rf'<a class="button" rel="{rel}" href="([^"]*)"', html)
    return match and match.group(1).replace("&amp;", "&")


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


URL = "/topics/kernels/"


def test_a_visitor_reads_a_long_topic_a_page_at_a_time(topic, visitor):
    first = get(visitor, URL)
    assert titles(first) == [f"Note {n:03d}" for n in range(10)]
    assert where(first) == "Showing 1–10 of 25 resources"
    assert "25 resources from every guide" in first
    assert link(first, "prev") is None and link(first, "next") == f"{URL}?page=2"
    assert re.search(
        r'hx-target="#topic-rows" hx-swap="beforeend" hx-trigger="click, revealed"', first
    )
    second = get(visitor, URL, {"page": "2"})
    assert titles(second) == [f"Note {n:03d}" for n in range(10, 20)]
    assert where(second) == "Showing 11–20 of 25 resources"
    assert link(second, "prev") == URL and link(second, "next") == f"{URL}?page=3"
    last = get(visitor, URL, {"page": "3"})
    assert titles(last) == [f"Note {n:03d}" for n in range(20, 25)] and link(last, "next") is None


@pytest.mark.parametrize(
    ("asked", "shown"), [("99", 3), ("0", 3), ("-1", 3), ("abc", 1), ("", 1), ("2.5", 1)]
)
def test_any_page_number_gets_a_real_page(topic, visitor, asked, shown):
    html = get(visitor, URL, {"page": asked})
    assert titles(html) == titles(get(visitor, URL, {"page": str(shown)}))


def test_the_kind_filter_is_kept_in_page_links_and_a_filter_starts_at_page_one(topic, visitor):
    html = get(visitor, URL, {"kind": "article", "page": "2"})  # 16 articles: 10 + 6
    assert where(html) == "Showing 11–16 of 16 resources" and "Showing 16 of 25 resources." in html
    assert link(html, "prev") == f"{URL}?kind=article"
    assert all(
        title in {r.title for r in topic.grown if r.kind == Kind.ARTICLE} for title in titles(html)
    )
    assert f'href="{URL}?kind=video"' in html  # the chips lead to a filter's first page


def test_htmx_swaps_the_list_and_appends_the_next_page(topic, visitor):
    fragment = get(visitor, URL, {"page": "2"}, HX_Request="true", HX_Target="topic-resources")
    assert fragment.lstrip().startswith('<div id="topic-resources"') and "<html" not in fragment
    assert titles(fragment) == [f"Note {n:03d}" for n in range(10, 20)]
    more = get(
        visitor,
        URL,
        {"page": "2"},
        HX_Request="true",
        HX_Target="topic-rows",
        HX_Current_URL=f"http://testserver{URL}",
    )
    assert more.lstrip().startswith(
        '<li class="row"'
    )  # rows for #topic-rows, and no list around them
    assert "<ol" not in more and 'id="topic-resources"' not in more
    assert titles(more) == [f"Note {n:03d}" for n in range(10, 20)]
    # The nav after them, out of band: every row on screen since the page loaded.
    assert '<nav class="pagination" id="topic-pager" hx-swap-oob="true"' in more
    assert where(more) == "Showing 1–20 of 25 resources" and link(more, "next") == f"{URL}?page=3"
    assert link(more, "prev") is None
    from_two = get(
        visitor,
        URL,
        {"page": "3"},
        HX_Request="true",
        HX_Target="topic-rows",
        HX_Current_URL=f"http://testserver{URL}?page=2",
    )
    assert where(from_two) == "Showing 11–25 of 25 resources" and link(from_two, "prev") == URL
    assert link(from_two, "next") is None


def test_a_learners_status_filter_counts_every_row_and_pages_those_it_keeps(topic, learner):
    done = topic.grown[:12]  # the whole first page and two of the second
    for resource in done:
        progress_set_status(user=learner, resource=resource, status=Status.DONE)
    progress_set_status(user=learner, resource=topic.grown[20], status=Status.IN_PROGRESS)
    client = signed_in(learner)
    everything = get(client, URL)
    assert re.search(r'All <span class="chip__count">25</span>', everything)
    assert re.search(r'Hide done <span class="chip__count">13</span>', everything)
    assert re.search(r'In progress <span class="chip__count">1</span>', everything)
    assert "bar-topic-kernels" in everything and "12 of 25" in everything

    hiding = get(client, URL, {"status": "not_done"})
    assert "Hide done: showing 13 of 25 resources." in hiding
    assert titles(hiding) == [f"Note {n:03d}" for n in range(12, 22)]
    assert (
        where(hiding) == "Showing 1–10"
    )  # the total is the filter's sentence, which ticks refresh
    assert link(hiding, "next") == f"{URL}?status=not_done&page=2"
    second = get(client, URL, {"status": "not_done", "page": "2"})
    assert titles(second) == [f"Note {n:03d}" for n in range(22, 25)]
    assert re.search(r'Hide done <span class="chip__count">13</span>', second)
    only = get(client, URL, {"status": "in_progress", "kind": "video", "page": "4"})
    assert titles(only) == [] and "Nothing here is in progress." in only  # 20 is an article
    only = get(client, URL, {"status": "in_progress", "page": "4"})
    assert titles(only) == ["Note 020"] and 'class="pagination"' not in only


def test_a_tick_without_javascript_comes_back_to_its_page(topic, learner):
    client = signed_in(learner)
    page = get(client, URL, {"page": "3", "kind": "article"})  # 16 articles: page 2 is the last
    back = f"{URL}?kind=article&amp;page=2"
    assert f'name="next" value="{back}"' in page
    resource = topic.grown[23]  # Note 023, an article on page 2 of the articles
    response = client.post(
        reverse("learning:progress-set", args=[resource.uuid]) + f"?slot={resource.uuid}",
        {"status": "done", "scope": "topic:kernels", "next": back.replace("&amp;", "&")},
    )
    assert response.status_code == 302
    assert response["Location"] == f"{URL}?kind=article&page=2#resource-{resource.uuid}"
    assert f'id="resource-{resource.uuid}"' in get(client, response["Location"].split("#")[0])


def test_a_tick_on_page_three_counts_every_row_like_a_reload(topic, learner):
    from tests.learning.test_status_filter import htmx_tick, status_block

    client = signed_in(learner)
    page = f"{URL}?status=not_done&page=3"
    resource = topic.grown[22]
    html = get(client, page)
    assert f'id="resource-{resource.uuid}"' in html
    response = htmx_tick(client, resource, scope="topic:kernels", page=page)
    assert response.status_code == 200
    tick = response.content.decode()
    assert f'<li id="resource-{resource.uuid}" hx-swap-oob="delete">' in tick
    after = get(client, page)
    assert status_block(tick, "topic-resources") == status_block(after, "topic-resources")
    assert "Hide done: showing 24 of 25 resources." in after


def more_link(html) -> str:
    """Where htmx's "Load more" asks (its hx-get), as the browser sends it."""
    match = re.search(r'rel="next" href="[^"]*" hx-get="([^"]*)" hx-target="#topic-rows"', html)
    return match.group(1).replace("&amp;", "&")


def append(client, more, shown_from) -> str:
    """The rows htmx appends when the learner scrolls to "Load more" on `shown_from`."""
    return get(
        client,
        more,
        HX_Request="true",
        HX_Target="topic-rows",
        HX_Current_URL=f"http://testserver{shown_from}",
    )


def test_load_more_after_a_tick_hid_a_row_skips_no_row(topic, learner):
    """With "hide done" on, a row ticked done leaves the screen and the list: "Load more" then
    continues after the last row on screen, not at an offset that counted the row gone."""
    from tests.learning.test_status_filter import htmx_tick

    client = signed_in(learner)
    page = f"{URL}?status=not_done"
    first = get(client, page)
    assert titles(first) == [f"Note {n:03d}" for n in range(10)]
    more = more_link(first)
    assert more == f"{URL}?status=not_done&page=2&after={topic.grown[9].uuid}"
    assert link(first, "next") == f"{URL}?status=not_done&page=2"  # without JavaScript
    response = htmx_tick(client, topic.grown[3], scope="topic:kernels", page=page)
    assert f'<li id="resource-{topic.grown[3].uuid}" hx-swap-oob="delete">' in (
        response.content.decode()
    )
    appended = append(client, more, page)
    assert titles(appended) == [f"Note {n:03d}" for n in range(10, 20)]  # Note 010 too
    assert where(appended) == "Showing 1–19"  # the nine left of page one and these ten
    assert link(appended, "next") == f"{URL}?status=not_done&page=2"  # row 20 is the 20th now
    last = append(client, more_link(appended), page)
    assert titles(last) == [f"Note {n:03d}" for n in range(20, 25)] and link(last, "next") is None
    # The offset alone (what "Load more" asked for before) skips Note 010, which moved to page 1.
    assert titles(append(client, f"{URL}?status=not_done&page=2", page))[0] == "Note 011"


def test_load_more_continues_after_its_row_when_that_row_left_too(topic, learner):
    from tests.learning.test_status_filter import htmx_tick

    client = signed_in(learner)
    page = f"{URL}?status=not_done"
    more = more_link(get(client, page))
    for resource in (topic.grown[9], topic.grown[10]):  # the last row on screen, the next one
        htmx_tick(client, resource, scope="topic:kernels", page=page)
    assert titles(append(client, more, page)) == [f"Note {n:03d}" for n in range(11, 21)]
    # An `after` that names no row on the topic falls back to the page number.
    other = ResourceFactory(title="Elsewhere")
    EntryFactory(resource=other)
    for after in (other.uuid, "junk", ""):
        html = append(client, f"{URL}?status=not_done&page=2&after={after}", page)
        assert titles(html)[0] == "Note 012"  # page 2 of the 23 rows left


def test_without_javascript_the_next_page_after_a_tick_is_the_next_rows(topic, learner):
    """Without JavaScript a tick comes back to its page, reloaded: its next link is read then,
    so nothing is skipped either; a full page ignores "Load more"'s `after`."""
    client = signed_in(learner)
    resource = topic.grown[3]
    response = client.post(
        reverse("learning:progress-set", args=[resource.uuid]) + f"?slot={resource.uuid}",
        {"status": "done", "scope": "topic:kernels", "next": f"{URL}?status=not_done"},
    )
    assert response["Location"] == f"{URL}?status=not_done#resource-{resource.uuid}"
    back = get(client, response["Location"].split("#")[0])
    assert titles(back) == [f"Note {n:03d}" for n in (0, 1, 2, *range(4, 11))]
    second = get(client, link(back, "next"))
    assert titles(second) == [f"Note {n:03d}" for n in range(11, 21)]
    ignored = get(client, f"{URL}?status=not_done&page=2&after={topic.grown[0].uuid}")
    assert titles(ignored) == titles(second)


@pytest.fixture
def pages_built(monkeypatch):
    """The number of each topic page built from the database from now on (the memo emptied)."""
    built = []
    original = selectors.topic_page

    def counted(**kwargs):
        page = original(**kwargs)
        built.append(page.number)
        return page

    monkeypatch.setattr(selectors, "topic_page", counted)
    memos_clear()
    return built


def test_the_shared_rows_are_built_once_per_page(topic, visitor, pages_built):
    built = pages_built
    for number in ("1", "2", "2", "abc", "99", "3", "1"):
        get(visitor, URL, {"page": number})
    assert built == [1, 2, 3]  # junk and out-of-range numbers read the page they show


def test_a_chosen_status_pages_through_the_shared_rows(topic, learner, pages_built):
    built = pages_built
    for resource in topic.grown[:5]:
        progress_set_status(user=learner, resource=resource, status=Status.DONE)
    client = signed_in(learner)
    for _ in range(2):  # its page 2 is rows 15-24: the second and third pages of every row
        html = get(client, URL, {"status": "not_done", "page": "2"})
        assert titles(html) == [f"Note {n:03d}" for n in range(15, 25)]
    assert built == [2, 3]  # built once, shared, and nothing rendered for the learner
    for client in (Client(), signed_in(learner)):
        assert titles(get(client, URL, {"page": "2"})) == [f"Note {n:03d}" for n in range(10, 20)]
    assert built == [2, 3]
    assert titles(get(Client(), URL)) == [f"Note {n:03d}" for n in range(10)]
    assert built == [2, 3, 1]


@pytest.mark.parametrize(
    "who, data", [("visitor", {}), ("learner", {}), ("learner", {"status": "not_done"})]
)
def test_the_topic_page_costs_the_same_with_30_or_300_resources(learner, who, data):
    """Warm: a visitor reads the content token; a learner their session, user, the token and
    their statuses, with or without a chosen status."""
    topic = TopicFactory(slug="kernels")
    client = Client() if who == "visitor" else signed_in(learner)
    made = grow_topic(topic, 30)
    progress_set_status(user=learner, resource=made[0], status=Status.DONE)
    small = page_queries(client, URL, data)
    grow_topic(topic, 270, start=30)
    large = page_queries(client, URL, data)
    if data:  # cold, the rows it keeps come from each shared page they are on: here two
        assert large == (small[0] + 1, small[1])
    else:
        assert large == small
    assert small[1] == {"visitor": 1, "learner": 4}[who]
    assert page_queries(client, URL, {**data, "page": "3"})[1] == small[1]
