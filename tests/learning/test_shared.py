"""The per-worker memo of learner pages (apps.core.content) with per-learner holes
(apps.learning.shared): whoever warms the memo, every learner sees only their own ticks, bars
and CSRF token, and no page is ever served from content older than the database's.

Every test requests a page with one person first (which builds the shared overlay) and then
with others (which are served from it); `builds` proves the later requests really were warm.
"""

import re

import pytest
from django.test import Client
from django.urls import reverse

from apps.catalog.models import Guide, Kind, Resource, Section
from apps.core.content import memo
from apps.learning import shared
from apps.paths.models import PathStep, StepResource
from apps.progress.models import Progress, Status
from apps.progress.services import progress_set_status
from tests.factories import UserFactory
from tests.paths.conftest import learning_path  # noqa: F401 - the two-step path over `catalog`

pytestmark = pytest.mark.django_db

SIGN_IN = "Sign in to track your progress"


# --- Reading pages -----------------------------------------------------------------------------


def get(client, url, data=None) -> str:
    response = client.get(url, data)
    assert response.status_code == 200
    html = response.content.decode()
    assert "\x00" not in html, "an overlay placeholder (NUL) reached the page"
    return html


_TICK = re.compile(
    r'<span id="tick-([^"]+)".*?</button>(?:\s*<span class="tick-status">[^<]*</span>)?'
    r'(?:\s*<details class="tick-menu".*?</details>)?\s*</span>',
    re.DOTALL,
)


def ticks(html) -> dict[str, str]:
    """{slot: the tick's HTML} of a page."""
    found = {m.group(1): m.group(0) for m in _TICK.finditer(html)}
    assert found, "no ticks on the page"
    assert all('form="tick-form"' in tick for tick in found.values())
    return found


def tick_form(html) -> str:
    """The one form a page's ticks submit."""
    [form] = re.findall(r'<form id="tick-form".*?</form>', html, re.DOTALL)
    return form


def tick(html, slot) -> str:
    return ticks(html)[str(slot)]


def is_checked(form) -> bool:
    assert ('aria-checked="true"' in form) != ('aria-checked="false"' in form)
    return 'aria-checked="true"' in form


def bar(html, dom_id) -> str | None:
    """The "done/countable" text of the bar `dom_id`, or None when the page has no such bar."""
    match = re.search(rf'<div id="{re.escape(dom_id)}".*?</div>', html, re.DOTALL)
    if match is None:
        return None
    return re.search(r'<span class="bar-text">(\d+/\d+)', match.group(0)).group(1)


def csrf_of(form) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]*)"', form).group(1)


def signed_in(user, **kwargs) -> Client:
    client = Client(**kwargs)
    client.force_login(user)
    return client


@pytest.fixture
def builds(monkeypatch):
    """How many times each shared part was built (a warm request builds nothing)."""
    memo.clear()
    counts = {"guide": 0, "topic": 0, "path": 0}

    def spy(module, name, kind):
        original = getattr(module, name)

        def counted(*args, **kwargs):
            counts[kind] += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(module, name, counted)

    spy(shared, "_guide_parts_build", "guide")
    spy(shared, "_topic_parts_build", "topic")
    spy(shared, "_path_steps_build", "path")
    yield counts
    memo.clear()


def entry_of(resource, guide):
    return resource.entries.get(section__guide=guide)


# --- 1. Guide page -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "order", [("a", "b", "anon"), ("anon", "b", "a")], ids=["a-warms", "anonymous-warms"]
)
def test_guide_page_shows_each_learner_only_their_own_ticks_and_bars(
    order, builds, learner, other_learner, catalog
):
    guide, r = catalog["guide"], catalog["resources"]
    x, y, z = r[0], r[1], r[3]  # x, y in the first section; z in the second
    progress_set_status(user=learner, resource=x, status=Status.DONE)
    progress_set_status(user=learner, resource=y, status=Status.IN_PROGRESS)
    progress_set_status(user=other_learner, resource=z, status=Status.DONE)
    first, second = entry_of(x, guide).section, entry_of(z, guide).section  # the tier-1 children
    clients = {"a": signed_in(learner), "b": signed_in(other_learner), "anon": Client()}
    url = guide.get_absolute_url()

    pages = {who: get(clients[who], url) for who in order}
    assert builds["guide"] == 1  # the later two were served from the memo

    a, b, anon = pages["a"], pages["b"], pages["anon"]
    x_slot, y_slot, z_slot = (entry_of(resource, guide).uuid for resource in (x, y, z))
    # A: x done, y in progress (labelled), z (B's) not done.
    assert is_checked(tick(a, x_slot)) and f'aria-label="Done: {x.title}"' in tick(a, x_slot)
    assert not is_checked(
        tick(a, y_slot)
    ) and '<span class="tick-status">In progress</span>' in tick(a, y_slot)
    assert not is_checked(tick(a, z_slot))
    assert [slot for slot, form in ticks(a).items() if is_checked(form)] == [str(x_slot)]
    # B: only z.
    assert (
        not is_checked(tick(b, x_slot)) and '<span class="tick-status">In progress</span>' not in b
    )
    assert [slot for slot, form in ticks(b).items() if is_checked(form)] == [str(z_slot)]
    # Anonymous: every tick asks to sign in, nothing is checked or labelled.
    assert all(
        f'title="{SIGN_IN}"' in form and not is_checked(form) for form in ticks(anon).values()
    )
    assert len(ticks(anon)) == len(ticks(a)) == len(ticks(b)) == 8
    assert SIGN_IN not in a and SIGN_IN not in b and "In progress" not in anon  # no menu, no filter
    # Bars: each learner's own counts (7 distinct resources, 4 under each section).
    for section, a_count, b_count in (
        (first, "1/4", "0/4"),
        (first.parent, "1/4", "0/4"),
        (second, "0/4", "1/4"),
    ):
        assert bar(a, f"bar-section-{section.uuid}") == a_count
        assert bar(b, f"bar-section-{section.uuid}") == b_count
    assert bar(a, f"bar-guide-{guide.uuid}") == "1/7" and bar(b, f"bar-guide-{guide.uuid}") == "1/7"
    assert "bar-section-" not in anon and "bar-guide-" not in anon and 'class="bar' not in anon


# --- 2. Topic and path pages -------------------------------------------------------------------


@pytest.mark.parametrize(
    "order", [("a", "b", "anon"), ("anon", "b", "a")], ids=["a-warms", "anonymous-warms"]
)
def test_topic_page_shows_each_learner_only_their_own_ticks(
    order, builds, learner, other_learner, catalog
):
    topic, x, y = catalog["topic"], catalog["resources"][0], catalog["shared"]
    extra = catalog["other_resources"][0]  # from the other guide
    extra.topics.add(topic)
    progress_set_status(user=learner, resource=x, status=Status.DONE)
    progress_set_status(user=learner, resource=y, status=Status.IN_PROGRESS)
    progress_set_status(user=other_learner, resource=extra, status=Status.SKIPPED)
    clients = {"a": signed_in(learner), "b": signed_in(other_learner), "anon": Client()}
    url = reverse("learning:topic-detail", args=[topic.slug])

    pages = {who: get(clients[who], url) for who in order}
    assert builds["topic"] == 1

    a, b, anon = pages["a"], pages["b"], pages["anon"]
    assert len(ticks(a)) == len(ticks(b)) == len(ticks(anon)) == 3
    assert is_checked(tick(a, x.uuid)) and "In progress" in tick(a, y.uuid)
    # (Every learner's row menu names each status: the labels are the tick-status spans.)
    assert '<span class="tick-status">Skipped</span>' not in a
    # Each row's status, which the page's one status menu offers the others of, is its class.
    assert "tick--in_progress" in tick(a, y.uuid) and "tick--not_started" in tick(a, extra.uuid)
    assert a.count('id="status-menu"') == 1 and 'id="status-menu"' not in anon
    assert not any(is_checked(form) for form in ticks(b).values())
    assert '<span class="tick-status">In progress</span>' not in b
    assert '<span class="tick-status">Skipped</span>' in tick(b, extra.uuid)
    assert all(
        f'title="{SIGN_IN}"' in form and not is_checked(form) for form in ticks(anon).values()
    )
    assert "In progress" not in anon and "Skipped" not in anon and SIGN_IN not in a + b
    # Skipped leaves the countable total: 1 of 3 for A, 0 of 2 for B, no bar for a visitor.
    assert bar(a, f"bar-topic-{topic.slug}") == "1/3" and bar(b, f"bar-topic-{topic.slug}") == "0/2"
    assert "bar-topic-" not in anon and 'class="bar' not in anon


@pytest.mark.parametrize(
    "order", [("a", "b", "anon"), ("anon", "b", "a")], ids=["a-warms", "anonymous-warms"]
)
def test_path_page_shows_each_learner_only_their_own_ticks_and_step_bars(
    order,
    builds,
    learner,
    other_learner,
    catalog,
    learning_path,  # noqa: F811
):
    r, shared = catalog["resources"], catalog["shared"]
    progress_set_status(user=learner, resource=r[0], status=Status.DONE)
    progress_set_status(user=learner, resource=r[1], status=Status.IN_PROGRESS)
    progress_set_status(user=other_learner, resource=shared, status=Status.DONE)  # in both steps
    first, second = learning_path.steps.order_by("position")
    slot = {(item.step_id, item.resource_id): str(item.uuid) for item in StepResource.objects.all()}
    clients = {"a": signed_in(learner), "b": signed_in(other_learner), "anon": Client()}
    url = learning_path.get_absolute_url()

    pages = {who: get(clients[who], url) for who in order}
    assert builds["path"] == 1

    a, b, anon = pages["a"], pages["b"], pages["anon"]
    assert len(ticks(a)) == len(ticks(b)) == len(ticks(anon)) == 5
    assert [s for s, form in ticks(a).items() if is_checked(form)] == [slot[first.id, r[0].id]]
    assert "In progress" in tick(a, slot[first.id, r[1].id]) and a.count('class="tick-status"') == 1
    assert sorted(s for s, form in ticks(b).items() if is_checked(form)) == sorted(
        [slot[first.id, shared.id], slot[second.id, shared.id]]
    )
    assert 'class="tick-status"' not in b
    assert all(
        f'title="{SIGN_IN}"' in form and not is_checked(form) for form in ticks(anon).values()
    )
    assert 'class="tick-status"' not in anon and SIGN_IN not in a + b
    assert (bar(a, f"bar-step-{first.uuid}"), bar(a, f"bar-step-{second.uuid}")) == ("1/3", "0/2")
    assert (bar(b, f"bar-step-{first.uuid}"), bar(b, f"bar-step-{second.uuid}")) == ("1/3", "1/2")
    assert (
        bar(a, f"bar-path-{learning_path.uuid}") == "1/4"
        and bar(b, f"bar-path-{learning_path.uuid}") == "1/4"
    )
    assert "bar-step-" not in anon and "bar-path-" not in anon and 'class="bar' not in anon


# --- 3. CSRF -----------------------------------------------------------------------------------


def test_each_learner_gets_a_csrf_token_of_their_own_in_a_warm_page(
    builds, learner, other_learner, catalog
):
    guide, resource = catalog["guide"], catalog["resources"][2]
    url = guide.get_absolute_url()
    b = signed_in(other_learner, enforce_csrf_checks=True)
    b_html = get(b, url)  # B warms the memo
    a = signed_in(learner, enforce_csrf_checks=True)
    a_html = get(a, url)
    assert builds["guide"] == 1

    slot = entry_of(resource, guide).uuid
    # The form every tick of a page submits carries a token of the page's own learner.
    a_token, b_token = csrf_of(tick_form(a_html)), csrf_of(tick_form(b_html))
    assert a_token and b_token and "csrf" not in a_token
    assert 'form="tick-form"' in tick(a_html, slot)
    # B's token is worth nothing to A (so A's page must not carry it) …
    data = {"status": "done", "scope": f"guide:{guide.uuid}", "slot": str(slot), "next": url}
    assert (
        a.post(
            reverse("learning:progress-set", args=[resource.uuid]),
            {**data, "csrfmiddlewaretoken": b_token},
        ).status_code
        == 403
    )
    assert not Progress.objects.exists()
    # … and the one in A's page works for A, and only writes A's progress.
    response = a.post(
        reverse("learning:progress-set", args=[resource.uuid]),
        {**data, "csrfmiddlewaretoken": a_token},
    )
    assert (
        response.status_code == 302 and response["Location"] == f"{url}#entry-{slot}"
    )  # back at the row
    assert Progress.objects.get(resource=resource).user == learner
    assert not Progress.objects.filter(user=other_learner).exists()
    # The write is A's alone on the warm page, too.
    assert is_checked(tick(get(a, url), slot)) and not is_checked(tick(get(b, url), slot))
    assert builds["guide"] == 1  # a learner's progress is not content: the memo stays warm


# --- 4. Freshness ------------------------------------------------------------------------------


def guide_card(html, guide) -> str:
    match = re.search(
        rf'<li class="card">(?:(?!</li>).)*href="{guide.get_absolute_url()}".*?</li>',
        html,
        re.DOTALL,
    )
    return match.group(0)


def test_bulk_writes_show_on_the_very_next_request(builds, learner, catalog, learning_path):  # noqa: F811
    guide, other_guide, topic = catalog["guide"], catalog["other_guide"], catalog["topic"]
    renamed, shared = (
        catalog["resources"][0],
        catalog["shared"],
    )  # both on the guide, topic and path
    old_title = renamed.title
    progress_set_status(user=learner, resource=catalog["resources"][1], status=Status.DONE)
    a, anon = signed_in(learner), Client()
    urls = [
        guide.get_absolute_url(),
        reverse("learning:topic-detail", args=[topic.slug]),
        learning_path.get_absolute_url(),
    ]
    home = reverse("learning:home")

    for client in (a, anon):  # warm every page, for a learner and for a visitor
        for url in urls:
            html = get(client, url)
            assert old_title in html and shared.title in html
    home_html = get(anon, home)
    assert "10 papers" in home_html
    assert "7 resources" in guide_card(home_html, guide) and "4 resources" in guide_card(
        home_html, other_guide
    )
    assert (
        "8 entries" in get(a, urls[0]) and bar(get(a, urls[0]), f"bar-guide-{guide.uuid}") == "1/7"
    )
    dashboard = get(a, home)  # a learner's home is their dashboard
    assert (
        bar(dashboard, f"bar-guide-{guide.uuid}") == "1/7"
        and bar(dashboard, "bar-overall") == "1/10"
    )
    assert builds == {"guide": 1, "topic": 1, "path": 1}

    # A curator's bulk rename: no save(), no signals.
    Resource.objects.filter(pk=renamed.pk).update(title="New title")
    Section.objects.filter(pk=renamed.entries.get().section.parent_id).update(title="Renamed part")
    for client in (a, anon):
        for url in urls:
            html = get(client, url)
            assert "New title" in html and old_title not in html
            assert 'aria-label="Done: New title"' in html
        assert "Renamed part" in get(client, urls[0])

    # Unpublishing in bulk removes the resource from every page and from every count.
    Resource.objects.filter(pk=shared.pk).update(is_published=False)
    for client in (a, anon):
        for url in urls:
            assert shared.title not in get(client, url)
    guide_html = get(a, urls[0])
    assert "6 entries" in guide_html and len(ticks(guide_html)) == 6
    assert bar(guide_html, f"bar-guide-{guide.uuid}") == "1/6"
    assert bar(get(a, urls[1]), f"bar-topic-{topic.slug}") == "0/1"
    assert bar(get(a, urls[2]), f"bar-path-{learning_path.uuid}") == "1/3"
    home_html = get(anon, home)
    assert "9 papers" in home_html
    assert "6 resources" in guide_card(home_html, guide) and "3 resources" in guide_card(
        home_html, other_guide
    )
    dashboard = get(a, home)
    assert (
        bar(dashboard, f"bar-guide-{guide.uuid}") == "1/6"
        and bar(dashboard, "bar-overall") == "1/9"
    )
    assert bar(dashboard, f"bar-guide-{other_guide.uuid}") == "0/3"
    assert builds == {"guide": 3, "topic": 3, "path": 3}  # rebuilt once per write, not per request


def test_a_resource_filed_under_a_topic_shows_there_at_once(builds, learner, catalog):
    topic, added = catalog["topic"], catalog["resources"][5]
    url = reverse("learning:topic-detail", args=[topic.slug])
    progress_set_status(user=learner, resource=added, status=Status.DONE)
    a = signed_in(learner)
    html = get(a, url)
    assert (
        len(ticks(html)) == 2
        and added.title not in html
        and bar(html, f"bar-topic-{topic.slug}") == "0/2"
    )
    added.topics.add(topic)  # only the many-to-many table changes
    html = get(a, url)
    assert added.title in html and len(ticks(html)) == 3 and is_checked(tick(html, added.uuid))
    assert bar(html, f"bar-topic-{topic.slug}") == "1/3"
    assert builds["topic"] == 2


# --- 5. Filters --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "unfiltered_first", [True, False], ids=["unfiltered-first", "filtered-first"]
)
def test_filtered_and_unfiltered_guide_pages_are_cached_apart(
    unfiltered_first, builds, learner, catalog
):
    guide, paper, other = catalog["guide"], catalog["resources"][0], catalog["resources"][4]
    Resource.objects.filter(pk=paper.pk).update(kind=Kind.PAPER)
    progress_set_status(user=learner, resource=paper, status=Status.DONE)
    progress_set_status(user=learner, resource=other, status=Status.DONE)
    url = guide.get_absolute_url()
    a, b = signed_in(learner), signed_in(UserFactory())

    def unfiltered(client):
        html = get(client, url)
        assert len(ticks(html)) == 8 and other.title in html and 'class="result-count"' not in html
        assert f'name="next" value="{url}"' in tick_form(html)
        return html

    def filtered(client):
        html = get(client, url, {"kind": Kind.PAPER})
        assert list(ticks(html)) == [str(entry_of(paper, guide).uuid)] and other.title not in html
        assert "Showing 1 of 8 entries." in html
        assert f'name="next" value="{url}?kind=paper"' in tick_form(html)
        return html

    first, second = (unfiltered, filtered) if unfiltered_first else (filtered, unfiltered)
    first(a)
    second(a)
    first(b)
    second(b)
    assert builds["guide"] == 2  # one per filter set, however many learners
    a_filtered, a_plain, b_plain = filtered(a), unfiltered(a), unfiltered(b)
    assert is_checked(tick(a_filtered, entry_of(paper, guide).uuid))
    assert [is_checked(tick(a_plain, entry_of(r, guide).uuid)) for r in (paper, other)] == [
        True,
        True,
    ]
    assert not any(is_checked(form) for form in ticks(b_plain).values())
    # The section bars follow the learner, not the filter the memo was warmed with.
    first_section = entry_of(paper, guide).section
    assert (
        bar(a_filtered, f"bar-section-{first_section.uuid}")
        == bar(a_plain, f"bar-section-{first_section.uuid}")
        == "1/4"
    )
    assert bar(b_plain, f"bar-section-{first_section.uuid}") == "0/4"


def test_an_overlay_fills_each_tick_by_status_and_shows_visitors_no_bars(catalog):
    from apps.learning.shared import overlay_render
    from apps.learning.widgets import Bar
    from apps.progress.selectors import Tally

    first, second = catalog["resources"][:2]
    overlay = overlay_render(
        "progress/tick_response.html",
        {
            "resource": first,
            "slot": "a",
            "status": "",
            "other_slots": ["b"],
            "bars": [Bar("bar-x", "X", Tally(total=1))],
        },
    )
    done = overlay.fill(
        statuses={first.id: Status.DONE}, tallies={"bar-x": Tally(total=4, done=1)}, signed_in=True
    )
    assert done.count('aria-checked="true"') == 2 and "1/4" in done
    for statuses in ({}, {first.id: Status.NOT_STARTED}, {second.id: Status.DONE}):
        html = overlay.fill(statuses=statuses, tallies={}, signed_in=True)
        assert html.count('aria-checked="false"') == 2 and 'id="bar-x"' not in html
    visitor = overlay.fill(
        statuses={first.id: Status.DONE}, tallies={"bar-x": Tally(total=4, done=1)}, signed_in=False
    )
    assert visitor.count("Sign in to track your progress") == 2 and 'id="bar-x"' not in visitor


# --- The contract: shared parts see nobody -----------------------------------------------------

PERSONAL = ("request", "user", "perms", "csrf_token", "messages")


@pytest.fixture
def personal_reads(monkeypatch):
    """Each name of PERSONAL a template looked up while a shared part was being built (any build
    the content memo runs), with the part's key. Outside builds, templates read what they like."""
    from contextvars import ContextVar

    from django.template.context import BaseContext

    from apps.core.content import ContentMemo

    building: ContextVar = ContextVar("building", default=None)
    reads, built = [], []
    original_get = ContentMemo.get

    def get(self, tokens, key, build, tables=None):
        def watched_build():
            built.append(key)
            reset = building.set(key)
            try:
                return build()
            finally:
                building.reset(reset)

        return original_get(self, tokens, key, watched_build, tables)

    def watch(name):
        original = getattr(BaseContext, name)

        def looked_up(self, key, *args):
            if key in PERSONAL and building.get() is not None:
                reads.append((key, building.get()))
            return original(self, key, *args)

        monkeypatch.setattr(BaseContext, name, looked_up)

    for name in ("__getitem__", "get", "__contains__"):
        watch(name)
    monkeypatch.setattr(ContentMemo, "get", get)
    memo.clear()
    yield reads, built
    memo.clear()


def test_no_template_of_a_shared_part_reads_the_request_or_the_user(
    personal_reads,
    learner,
    catalog,
    learning_path,  # noqa: F811
):
    """shared.py's contract (no request, user or context processors in a shared build), checked
    on every page that shows shared parts, for a visitor and for a learner: a template of a
    shared part that read `user` would show the first reader's data to everyone after them."""
    reads, built = personal_reads
    resource = catalog["resources"][0]
    urls = [
        reverse("learning:home"),
        reverse("learning:guide-list"),
        reverse("learning:dashboard"),
        catalog["guide"].get_absolute_url(),
        catalog["topic"].get_absolute_url(),
        learning_path.get_absolute_url(),
        resource.get_absolute_url(),
        reverse("learning:search") + "?q=" + resource.title.split()[0],
    ]
    for client in (Client(), signed_in(learner)):
        memo.clear()
        for url in urls:
            response = client.get(url)
            assert response.status_code in (200, 302), url
    kinds = {key[0] if isinstance(key, tuple) else key for key in built}
    assert {"html", "overlay", "published"} <= kinds, built  # the shared parts were built here
    assert reads == []


# --- A change rebuilds only what it touches ------------------------------------------------------
# A content token per table (apps.core.content) and each part's declaration (apps.learning.shared):
# a guide's title change rebuilds the pages that show guide titles and not a path's steps; a
# path's change rebuilds no guide.


def visit_all(client, guide, topic, path):
    return (
        get(client, guide.get_absolute_url()),
        get(client, reverse("learning:topic-detail", args=[topic.slug])),
        get(client, path.get_absolute_url()),
    )


def test_a_guide_title_change_rebuilds_its_pages_but_not_a_paths_steps(
    builds,
    catalog,
    learning_path,  # noqa: F811
):
    guide, topic, client = catalog["guide"], catalog["topic"], Client()
    visit_all(client, guide, topic, learning_path)
    visit_all(client, guide, topic, learning_path)
    assert builds == {"guide": 1, "topic": 1, "path": 1}

    Guide.objects.filter(pk=guide.pk).update(title="Kernels, renamed <&>")
    guide_html, topic_html, path_html = visit_all(client, guide, topic, learning_path)
    assert builds["path"] == 1  # its steps show no guide title
    assert builds["guide"] == 2 and "Kernels, renamed &lt;&amp;&gt;" in guide_html
    # A topic's rows say which guides list them ("In <guide title>"): it is rebuilt too.
    assert builds["topic"] == 2 and "Kernels, renamed &lt;&amp;&gt;" in topic_html
    # The path page's own header (built per request from the path's plan) names its guide.
    assert "Kernels, renamed &lt;&amp;&gt;" in path_html


def test_a_guide_saved_through_the_model_with_a_new_title_does_not_rebuild_a_path(
    builds,
    catalog,
    learning_path,  # noqa: F811
):
    """The admin saves every column: only the columns that changed count."""
    guide, client = catalog["guide"], Client()
    get(client, learning_path.get_absolute_url())
    guide.title = "Retitled in the admin"
    guide.save()
    get(client, learning_path.get_absolute_url())
    assert builds["path"] == 1


def test_unpublishing_a_guide_rebuilds_the_path_whose_resources_it_held(
    builds,
    catalog,
    learning_path,  # noqa: F811
):
    guide, client = catalog["guide"], Client()
    before = get(client, learning_path.get_absolute_url())
    Guide.objects.filter(pk=guide.pk).update(is_published=False)
    after = get(client, learning_path.get_absolute_url())
    assert builds["path"] == 2 and after != before


def test_a_path_change_rebuilds_the_path_and_no_guide_or_topic(
    builds,
    catalog,
    learning_path,  # noqa: F811
):
    guide, topic, client = catalog["guide"], catalog["topic"], Client()
    visit_all(client, guide, topic, learning_path)
    PathStep.objects.filter(path=learning_path, position=1).update(title="Foundations, renamed")
    _, _, path_html = visit_all(client, guide, topic, learning_path)
    assert builds == {"guide": 1, "topic": 1, "path": 2}
    assert "Foundations, renamed" in path_html
