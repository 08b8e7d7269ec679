"""The tick on a learner's own path page: every item its owner sees (catalog resources and their
own) has the ordinary tick, whose htmx answer refreshes the path's bar, step bars, next up and pace
to what a reload shows, and which without JavaScript comes back to its row. Another learner's own
resource is never theirs to tick; on a published own path a visitor and another learner tick the
catalog's resources as on a curated path (their own progress), never the owner's own."""

from html.parser import HTMLParser

import pytest
from django.db import connection
from django.http import Http404
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.catalog.models import Kind
from apps.paths import services
from apps.paths.models import OwnStepItem
from apps.paths.selectors import addable_resource
from apps.progress import services as progress_services
from apps.progress.models import Progress, Status
from apps.progress.selectors import tickable_resource
from apps.progress.signals import PENDING_SESSION_KEY

pytestmark = pytest.mark.django_db

MINE = "Warp scheduling, my notes"


@pytest.fixture
def mine(learner):
    """Ada's own resource: a link in no guide, named by her (a video: an hour of effort)."""
    return progress_services.own_resource_save(
        user=learner, url="https://example.org/ada/warps", title=MINE, kind=Kind.VIDEO
    ).own


@pytest.fixture
def theirs(other_learner):
    """Eve's own resource."""
    return progress_services.own_resource_save(
        user=other_learner, url="https://example.org/eve/notes", title="Notes of Eve"
    ).own


@pytest.fixture
def own_path(learner, catalog, mine):
    """Ada's path at 5 h/week: step one holds a catalog article and her own video, step two another
    catalog article."""
    path = services.own_path_create(user=learner, title="My kernels")
    services.own_path_update(path=path, hours_per_week=5)
    first = services.own_step_add(path=path, title="Basics")
    second = services.own_step_add(path=path, title="More")
    r = catalog["resources"]
    services.own_item_add(path=path, resource=r[0], step=first)
    services.own_item_add(path=path, resource=mine.resource, step=first)
    services.own_item_add(path=path, resource=r[1], step=second)
    return path


def _item(path, resource) -> OwnStepItem:
    return OwnStepItem.objects.get(step__path=path, resource=resource)


def _page(path) -> str:
    return reverse("paths:own-detail", args=[path.uuid])


def _tick(client, path, resource, *, status="done", page=None, htmx=True):
    """A tick of `resource`'s row on `path`'s page (`page`: its address, the owner's by default),
    as the page's form sends it: with htmx, its button's id as HX-Trigger and the page as
    HX-Current-URL; without, the slot in the button's formaction and the page as `next`."""
    slot = str(_item(path, resource).uuid)
    page = page or _page(path)
    url = reverse("learning:progress-set", args=[resource.uuid])
    data = {"status": status, "scope": f"own:{path.uuid}", "next": page}
    if htmx:
        headers = {
            "HX-Request": "true",
            "HX-Trigger": f"tick-btn-{slot}",
            "HX-Current-URL": f"http://testserver{page}",
        }
        return client.post(url, data, headers=headers)
    return client.post(f"{url}?slot={slot}", data)


class _ById(HTMLParser):
    """Each element with an id, as its markup reads without whitespace runs or htmx's
    out-of-band mark: what a swap puts on the page."""

    VOID = {"input", "br", "img", "hr", "meta", "link", "source", "wbr"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: dict[str, str] = {}
        self.open: list[list] = []  # [id, depth, parts]

    def _tag(self, tag, attrs):
        kept = " ".join(f'{k}="{v}"' for k, v in sorted(attrs) if k != "hx-swap-oob")
        return f"<{tag} {kept}>"

    def handle_starttag(self, tag, attrs):
        for entry in self.open:
            entry[2].append(self._tag(tag, attrs))
            entry[1] += tag not in self.VOID
        ident = dict(attrs).get("id")
        if ident and tag not in self.VOID:
            self.open.append([ident, 1, [self._tag(tag, attrs)]])

    def handle_endtag(self, tag):
        for entry in list(self.open):
            entry[2].append(f"</{tag}>")
            entry[1] -= 1
            if entry[1] == 0:
                self.found[entry[0]] = " ".join("".join(entry[2]).split())
                self.open.remove(entry)

    def handle_data(self, data):
        for entry in self.open:
            entry[2].append(data)


def _by_id(html: str) -> dict[str, str]:
    parser = _ById()
    parser.feed(html)
    return parser.found


# --- The owner's page -----------------------------------------------------------------------
def test_the_owners_page_ticks_every_item_catalog_and_own(client, learner, own_path, mine, catalog):
    client.force_login(learner)
    html = client.get(_page(own_path)).content.decode()
    for resource in (catalog["resources"][0], mine.resource, catalog["resources"][1]):
        item = _item(own_path, resource)
        assert f'<li class="resource-row" id="step-item-{item.uuid}">' in html
        assert f'id="tick-btn-{item.uuid}"' in html
        assert reverse("learning:progress-set", args=[resource.uuid]) in html
    assert f'aria-label="Done: {MINE}"' in html  # named as she named it
    assert f'<input type="hidden" name="scope" value="own:{own_path.uuid}">' in html
    # Her own resource has no page: its row menu's "Set status" is its row in My resources.
    own_list = reverse("learning:own-list")
    assert f'class="tick-menu__page" href="{own_list}#own-{mine.pk}"' in html
    assert mine.resource.get_absolute_url() not in html
    # The path bar and a compact bar per step, as on a curated path.
    for step in own_path.steps.all():
        assert f'id="bar-step-{step.uuid}" class="bar bar--compact"' in html
    assert f'id="bar-path-{own_path.uuid}"' in html


@pytest.mark.parametrize("which", ["catalog", "own"])
def test_an_htmx_tick_refreshes_every_number_as_a_reload_shows(
    client, learner, own_path, mine, catalog, which
):
    resource = catalog["resources"][0] if which == "catalog" else mine.resource
    client.force_login(learner)
    before = _by_id(client.get(_page(own_path)).content.decode())
    response = _tick(client, own_path, resource)
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" not in html
    swapped = _by_id(html)
    slot = _item(own_path, resource).uuid
    first, _second = own_path.steps.order_by("position")
    ids = {
        f"tick-{slot}",
        f"bar-path-{own_path.uuid}",
        f"bar-step-{first.uuid}",
        f"next-up-{own_path.uuid}",
        f"pace-{own_path.uuid}",
    }
    assert ids <= swapped.keys(), swapped.keys()
    assert html.count('hx-swap-oob="true"') == len(ids) - 1  # all but the tick itself
    reload = _by_id(client.get(_page(own_path)).content.decode())
    for ident in ids:
        assert swapped[ident] == reload[ident], ident
        assert swapped[ident] != before[ident] or ident.startswith("next-up"), ident
    assert "1/3" in swapped[f"bar-path-{own_path.uuid}"]
    assert "1/2" in swapped[f"bar-step-{first.uuid}"]
    assert Progress.objects.get(user=learner, resource=resource).status == Status.DONE


def test_next_up_moves_on_when_its_resource_is_ticked(client, learner, own_path, mine, catalog):
    client.force_login(learner)
    first = catalog["resources"][0]
    html = _tick(client, own_path, first).content.decode()
    next_up = _by_id(html)[f"next-up-{own_path.uuid}"]
    assert MINE in next_up and first.title not in next_up  # on to her own video
    html = _tick(client, own_path, mine.resource, status="skipped").content.decode()
    assert catalog["resources"][1].title in _by_id(html)[f"next-up-{own_path.uuid}"]
    # Marked undone again, the first is next up once more.
    html = _tick(client, own_path, first, status="undone").content.decode()
    assert first.title in _by_id(html)[f"next-up-{own_path.uuid}"]
    assert "0/2" in _by_id(html)[f"bar-path-{own_path.uuid}"]  # the skipped one counts out


@pytest.mark.parametrize("which", ["catalog", "own"])
def test_a_tick_without_javascript_comes_back_to_its_row(
    client, learner, own_path, mine, catalog, which
):
    resource = catalog["resources"][0] if which == "catalog" else mine.resource
    client.force_login(learner)
    response = _tick(client, own_path, resource, htmx=False)
    slot = _item(own_path, resource).uuid
    assert response.status_code == 302
    assert response["Location"] == f"{_page(own_path)}#step-item-{slot}"
    assert Progress.objects.get(user=learner, resource=resource).status == Status.DONE
    page = client.get(response["Location"]).content.decode()
    assert f'id="tick-{slot}" class="tick tick--done"' in page


def test_an_own_resource_ticked_with_nowhere_to_return_goes_to_its_row_in_my_resources(
    client, learner, mine
):
    client.force_login(learner)
    url = reverse("learning:progress-set", args=[mine.resource.uuid])
    response = client.post(url, {"status": "in_progress"})
    assert response["Location"] == f"{reverse('learning:own-list')}#own-{mine.pk}"
    assert Progress.objects.get(user=learner, resource=mine.resource).status == Status.IN_PROGRESS


# --- Who is refused -------------------------------------------------------------------------
def test_another_learner_cannot_tick_the_owners_own_resource(
    client, learner, other_learner, own_path, mine
):
    progress_services.progress_set_status(
        user=learner, resource=mine.resource, status=Status.IN_PROGRESS
    )
    client.force_login(other_learner)
    url = reverse("learning:progress-set", args=[mine.resource.uuid])
    for headers in ({}, {"HX-Request": "true"}):
        for status in ("done", "undone", "skipped"):
            response = client.post(
                url, {"status": status, "scope": f"own:{own_path.uuid}"}, headers=headers
            )
            assert response.status_code == 404
    assert not Progress.objects.filter(user=other_learner).exists()
    assert Progress.objects.get(resource=mine.resource).status == Status.IN_PROGRESS  # Ada's, kept


def test_a_visitor_cannot_tick_an_own_resource(client, own_path, mine):
    url = reverse("learning:progress-set", args=[mine.resource.uuid])
    for headers in ({}, {"HX-Request": "true"}):
        assert client.post(url, {"status": "done"}, headers=headers).status_code == 404
    assert PENDING_SESSION_KEY not in client.session
    assert not Progress.objects.exclude(status=Status.NOT_STARTED).exists()


def test_a_learner_ticks_their_own_resource_and_nobody_elses(learner, other_learner, mine, theirs):
    """The one rule (progress.selectors.tickable_resource), which adding to an own path asks too."""
    assert tickable_resource(user=learner, uuid=mine.resource.uuid).title == MINE
    assert tickable_resource(user=learner, uuid=str(mine.resource.uuid)).own_pk == mine.pk
    for user, uuid in [
        (learner, theirs.resource.uuid),
        (other_learner, mine.resource.uuid),
        (learner, "not-a-uuid"),
    ]:
        with pytest.raises(Http404):
            tickable_resource(user=user, uuid=uuid)
        assert addable_resource(user=user, uuid=uuid) is None
    assert addable_resource(user=learner, uuid=mine.resource.uuid).own_pk == mine.pk


def test_a_forged_scope_of_someone_elses_private_path_refreshes_nothing(
    client, other_learner, own_path, catalog
):
    """Eve ticks a catalog resource naming Ada's private path as her page: her tick is hers, and
    the answer holds none of that path's bars, next up or pace."""
    client.force_login(other_learner)
    resource = catalog["resources"][0]
    response = client.post(
        reverse("learning:progress-set", args=[resource.uuid]),
        {"status": "done", "scope": f"own:{own_path.uuid}"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert str(own_path.uuid) not in html and "hx-swap-oob" not in html
    assert Progress.objects.get(user=other_learner, resource=resource).status == Status.DONE


# --- A published own path -------------------------------------------------------------------
@pytest.fixture
def published(own_path):
    services.own_path_update(path=own_path, slug="kernels", published=True)
    return reverse("paths:own-published", args=["kernels"])


def test_another_learner_ticks_the_catalogs_resources_of_a_published_path_with_their_numbers(
    client, learner, other_learner, own_path, mine, catalog, published
):
    progress_services.progress_set_status(
        user=learner, resource=catalog["resources"][1], status=Status.DONE
    )
    client.force_login(other_learner)
    html = client.get(published).content.decode()
    assert MINE not in html and str(mine.resource.uuid) not in html
    assert f'id="tick-btn-{_item(own_path, catalog["resources"][0]).uuid}"' in html
    assert f'name="scope" value="own:{own_path.uuid}"' in html
    response = _tick(client, own_path, catalog["resources"][0], page=published)
    swapped = _by_id(response.content.decode())
    assert f"pace-{own_path.uuid}" not in swapped  # her pace is the owner's alone
    reload = _by_id(client.get(published).content.decode())
    for ident in (f"bar-path-{own_path.uuid}", f"next-up-{own_path.uuid}"):
        assert swapped[ident] == reload[ident], ident
    # Eve's numbers: the two catalog resources, one ticked by her (Ada's ticks are not hers).
    assert "1/2" in swapped[f"bar-path-{own_path.uuid}"]
    assert MINE not in response.content.decode()
    # Without JavaScript, back to the row on the published page.
    response = _tick(client, own_path, catalog["resources"][1], page=published, htmx=False)
    slot = _item(own_path, catalog["resources"][1]).uuid
    assert response["Location"] == f"{published}#step-item-{slot}"


def test_a_visitor_of_a_published_path_ticks_as_on_a_curated_path(
    client, own_path, mine, catalog, published
):
    """A visitor's tick of a catalog resource asks them to sign in and is kept till they do."""
    html = client.get(published).content.decode()
    assert MINE not in html
    assert 'title="Sign in to track your progress"' in html
    resource = catalog["resources"][0]
    response = _tick(client, own_path, resource, page=published, htmx=False)
    assert response["Location"].startswith(reverse("account_login"))
    assert client.session[PENDING_SESSION_KEY] == {"resource": str(resource.uuid), "status": "done"}


def test_the_owner_ticks_her_own_resource_on_her_published_page(
    client, learner, own_path, mine, published
):
    client.force_login(learner)
    html = client.get(published).content.decode()
    assert f'aria-label="Done: {MINE}"' in html
    response = _tick(client, own_path, mine.resource, page=published)
    swapped = _by_id(response.content.decode())
    reload = _by_id(client.get(published).content.decode())
    for ident in (f"bar-path-{own_path.uuid}", f"pace-{own_path.uuid}"):
        assert swapped[ident] == reload[ident], ident
    assert "1/3" in swapped[f"bar-path-{own_path.uuid}"]


# --- Query counts ---------------------------------------------------------------------------
def _grow(path, user, resources):
    """One more step of the catalog's `resources` and as many of the owner's own, every other
    one done."""
    n = len(resources)
    step = services.own_step_add(path=path, title=f"Grown {n}")
    for i, catalogs in enumerate(resources):
        own = progress_services.own_resource_save(
            user=user, url=f"https://example.org/ada/grown/{n}/{i}", title=f"Mine {n}.{i}"
        ).own
        for resource in (catalogs, own.resource):
            services.own_item_add(path=path, resource=resource, step=step)
            if i % 2:
                progress_services.progress_set_status(user=user, resource=resource, status="done")


def _warm_queries(client, method, url, data=None, headers=None) -> int:
    send = getattr(client, method)
    send(url, data, headers=headers)  # warm: the catalog's memo, the session
    with CaptureQueriesContext(connection) as queries:
        assert send(url, data, headers=headers).status_code == 200
    return len(queries)


@pytest.mark.parametrize("who", ["owner", "another learner"])
def test_the_own_path_page_with_ticks_does_not_grow_with_its_items(
    client, learner, other_learner, own_path, catalog, published, who
):
    """Session, user, the path, its steps, their items with resources, the statuses, the content
    versions: seven, with one step or with two more of three and six ticked items."""
    client.force_login(learner if who == "owner" else other_learner)
    url = _page(own_path) if who == "owner" else published
    small = _warm_queries(client, "get", url)
    _grow(own_path, learner, catalog["resources"][2:4])
    _grow(own_path, learner, catalog["other_resources"])
    html = client.get(url).content.decode()
    assert html.count('class="tick-box"') == (13 if who == "owner" else 7)
    assert small == _warm_queries(client, "get", url) == 7


def test_an_htmx_tick_on_an_own_path_does_not_grow_with_its_items(
    client, learner, own_path, catalog
):
    """Session, content versions, user, the progress row (in a savepoint: four), the statuses,
    the path, its steps, their items: ten, with one step or with one more of six items."""
    client.force_login(learner)
    resource = catalog["resources"][0]
    slot = _item(own_path, resource).uuid
    url = reverse("learning:progress-set", args=[resource.uuid])
    data = {"status": "done", "scope": f"own:{own_path.uuid}"}
    headers = {"HX-Request": "true", "HX-Trigger": f"tick-btn-{slot}"}
    small = _warm_queries(client, "post", url, data, headers)
    _grow(own_path, learner, catalog["other_resources"])
    assert _warm_queries(client, "post", url, data, headers) == small == 10
