"""A learner's own resources inside their own paths: shown to the owner alone (named as they named
them, counted in their next up and pace), added from the editor's search and from "My resources",
and never shown, counted or copied for anyone else; another learner's own resource is refused."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.catalog.models import Kind
from apps.learning.quick import dashboard_pins
from apps.paths import selectors, services
from apps.paths.models import OwnPath, OwnStepItem
from apps.progress import services as progress_services
from apps.progress.models import Status
from apps.progress.selectors import statuses_for

pytestmark = pytest.mark.django_db

SECRET = "Private reading on warps"


@pytest.fixture
def mine(learner):
    """Ada's own resource: a link in no guide, named by her."""
    return progress_services.own_resource_save(
        user=learner,
        url="https://example.org/ada/warps",
        title=SECRET,
        kind=Kind.VIDEO,
        author="Ada herself",
    ).own


@pytest.fixture
def theirs(other_learner):
    """Eve's own resource, which Ada must never add."""
    return progress_services.own_resource_save(
        user=other_learner, url="https://example.org/eve/notes", title="Notes of Eve"
    ).own


@pytest.fixture
def own_path(learner, catalog):
    """Ada's path: one step of two catalog resources, no estimate of its own."""
    path = services.own_path_create(user=learner, title="My kernels")
    step = services.own_step_add(path=path, title="Basics")
    for resource in catalog["resources"][:2]:
        services.own_item_add(path=path, resource=resource, step=step)
    return path


def _add(client, path, resource_uuid, **extra):
    return client.post(
        reverse("paths:own-item-add", args=[path.uuid]), {"resource": resource_uuid}, **extra
    )


def test_the_owner_sees_their_own_resource_named_as_they_named_it_with_next_up_and_pace(
    client, learner, own_path, mine, catalog
):
    client.force_login(learner)
    response = _add(client, own_path, mine.resource.uuid)
    assert response["Location"] == reverse("paths:own-edit", args=[own_path.uuid])
    assert OwnStepItem.objects.filter(step__path=own_path, resource=mine.resource).exists()
    html = client.get(reverse("paths:own-detail", args=[own_path.uuid])).content.decode()
    assert SECRET in html and "Ada herself" in html and "Yours" in html
    assert f'href="{mine.resource.url}"' in html
    assert "3 resources" in html and "0 of 3 done" in html
    # Its kind is hers: a video's hour joins the step's two articles' 45 minutes each.
    view = selectors.own_path_view(path=OwnPath.objects.get(pk=own_path.pk), user=learner)
    assert view.minutes == 45 + 45 + 60
    # Next up reaches it once the catalog's are done; its status is her ordinary progress.
    for resource in catalog["resources"][:2]:
        progress_services.progress_set_status(user=learner, resource=resource, status=Status.DONE)
    html = client.get(reverse("paths:own-detail", args=[own_path.uuid])).content.decode()
    assert f'<a class="next-up-link" href="{mine.resource.url}"' in html
    progress_services.progress_set_status(user=learner, resource=mine.resource, status=Status.DONE)
    html = client.get(reverse("paths:own-detail", args=[own_path.uuid])).content.decode()
    assert "Path complete" in html and "3 of 3 done" in html


def test_the_editors_search_finds_own_resources_beside_the_catalogs_page_and_fragment(
    client, learner, own_path, mine, theirs
):
    client.force_login(learner)
    url = reverse("paths:own-edit", args=[own_path.uuid])
    for extra in ({}, {"headers": {"HX-Request": "true"}}):
        html = client.get(url, {"q": "warps"}, **extra).content.decode()
        assert SECRET in html and "Yours" in html, extra
        assert f'value="{mine.resource.uuid}"' in html
    # Beside the catalog's; another learner's own resources are never found.
    html = client.get(url, {"q": "notes"}).content.decode()
    assert "Notes of Eve" not in html and str(theirs.resource.uuid) not in html
    html = client.get(url, {"q": "alpha 0.0"}).content.decode()
    assert "alpha 0.0" in html
    # Added with htmx: the fragment shows it as a reload does.
    fragment = _add(client, own_path, mine.resource.uuid, headers={"HX-Request": "true"})
    html = fragment.content.decode()
    assert html.lstrip().startswith('<div id="own-editor"') and SECRET in html
    assert "3 resources" in html
    assert "3 resources" in client.get(url).content.decode()


def test_added_from_my_resources_row_menu_without_javascript(client, learner, own_path, mine):
    client.force_login(learner)
    listing = client.get(reverse("learning:own-list")).content.decode()
    add = reverse("paths:own-add-resource")
    assert f'href="{add}?resource={mine.resource.uuid}"' in listing
    page = client.get(add, {"resource": mine.resource.uuid}).content.decode()
    assert SECRET in page and "My kernels" in page
    response = client.post(add, {"resource": mine.resource.uuid, "path": own_path.uuid})
    assert response["Location"] == reverse("paths:own-edit", args=[own_path.uuid])
    editor = client.get(response["Location"]).content.decode()
    assert SECRET in editor and f"Added “{SECRET}” to “My kernels”." in editor
    # A new path straight from the row menu.
    client.post(add, {"resource": mine.resource.uuid, "path": "new", "title": "Warps"})
    new = OwnPath.objects.get(owner=learner, title="Warps")
    assert [i.resource_id for i in OwnStepItem.objects.filter(step__path=new)] == [mine.resource_id]


def test_another_learners_own_resource_is_refused_with_a_message(client, learner, own_path, theirs):
    client.force_login(learner)
    before = list(OwnStepItem.objects.values_list("pk", flat=True))
    refused = "Only a resource in the catalog or one of your own can be added"
    html = _add(client, own_path, theirs.resource.uuid, follow=True).content.decode()
    assert refused in html and "Nothing was changed" in html and "Notes of Eve" not in html
    fragment = _add(client, own_path, theirs.resource.uuid, headers={"HX-Request": "true"})
    assert fragment.status_code == 200 and refused in fragment.content.decode()
    add = reverse("paths:own-add-resource")
    for response in (
        client.get(add, {"resource": theirs.resource.uuid}, follow=True),
        client.post(add, {"resource": theirs.resource.uuid, "path": own_path.uuid}, follow=True),
        client.post(add, {"resource": theirs.resource.uuid, "path": "new"}, follow=True),
    ):
        assert refused in response.content.decode()
        assert "Notes of Eve" not in response.content.decode()
    assert list(OwnStepItem.objects.values_list("pk", flat=True)) == before
    assert OwnPath.objects.filter(owner=learner).count() == 1
    # A visitor is sent to sign in, as for every own-path page.
    client.logout()
    response = client.get(add, {"resource": theirs.resource.uuid})
    assert response["Location"].startswith(reverse("account_login"))


def test_a_published_path_never_shows_nor_counts_the_owners_own_resources(
    client, learner, other_learner, own_path, mine
):
    services.own_item_add(path=own_path, resource=mine.resource)
    services.own_path_update(path=own_path, slug="kernels", published=True)
    public = reverse("paths:own-published", args=["kernels"])
    for who in (other_learner, None):
        client.logout()
        if who:
            client.force_login(who)
        html = client.get(public).content.decode()
        assert SECRET not in html and mine.resource.url not in html and "Yours" not in html
        # Every number is what the visitor sees: two articles, 45 minutes each, about 2 hours.
        assert "1 step · 2 resources · about 2 hours" in html, who
    view = selectors.own_path_view(path=OwnPath.objects.get(pk=own_path.pk), user=other_learner)
    assert view.tally.total == 2 and view.minutes == 90 and view.steps[0].minutes == 90
    client.force_login(learner)
    html = client.get(public).content.decode()
    assert SECRET in html and "1 step · 3 resources · about 3 hours" in html


def test_a_copy_leaves_the_owners_own_resources_out_unless_the_owner_makes_it(
    client, learner, other_learner, own_path, mine
):
    services.own_item_add(path=own_path, resource=mine.resource)
    services.own_path_update(path=own_path, slug="kernels", published=True)
    client.force_login(other_learner)
    client.post(reverse("paths:own-copy", args=["kernels"]))
    copy = OwnPath.objects.get(owner=other_learner)
    assert OwnStepItem.objects.filter(step__path=copy).count() == 2
    assert not OwnStepItem.objects.filter(step__path=copy, resource=mine.resource).exists()
    client.force_login(learner)
    client.post(reverse("paths:own-copy", args=["kernels"]))
    own_copy = OwnPath.objects.filter(owner=learner).exclude(pk=own_path.pk).get()
    assert OwnStepItem.objects.filter(step__path=own_copy, resource=mine.resource).exists()


def test_a_reset_and_a_pin_count_the_owners_own_resources(client, learner, own_path, mine):
    services.own_item_add(path=own_path, resource=mine.resource)
    progress_services.progress_set_status(user=learner, resource=mine.resource, status="done")
    client.force_login(learner)
    client.post(reverse("learning:pin", args=["own", own_path.uuid]), {"pinned": "1"})
    [pin] = dashboard_pins(user=learner, statuses=statuses_for(user=learner))
    assert (pin["tally"].total, pin["tally"].done) == (3, 1)
    assert (
        f'id="bar-pin-own-{own_path.uuid}"'
        in client.get(reverse("learning:dashboard")).content.decode()
    )
    client.post(reverse("learning:progress-reset", args=["own", own_path.uuid]))
    assert not mine.resource.progress.filter(user=learner, status="done").exists()


@pytest.mark.parametrize(
    ("url_name", "queries"),
    [("paths:own-detail", 7), ("paths:own-edit", 7)],
    ids=["detail", "editor"],
)
def test_an_own_path_with_own_resources_query_count_does_not_grow(
    client, learner, own_path, mine, url_name, queries
):
    """As an own path of catalog resources only (test_own_paths): the owner's own resources come
    in the items' one query, whatever their number."""
    services.own_item_add(path=own_path, resource=mine.resource)
    client.force_login(learner)
    url = reverse(url_name, args=[own_path.uuid])
    client.get(url)  # warm: the catalog's memo, the session
    with CaptureQueriesContext(connection) as small:
        assert client.get(url).status_code == 200
    step = services.own_step_add(path=own_path, title="Grown")
    for n in range(4):
        own = progress_services.own_resource_save(
            user=learner, url=f"https://example.org/ada/{n}", title=f"Mine {n}"
        ).own
        services.own_item_add(path=own_path, resource=own.resource, step=step)
    client.get(url)
    with CaptureQueriesContext(connection) as large:
        html = client.get(url).content.decode()
    assert "Mine 3" in html
    assert len(small) == len(large) == queries, [q["sql"] for q in large.captured_queries]


def test_an_own_resource_removed_leaves_the_owners_paths_with_it(
    client, learner, own_path, mine, catalog
):
    services.own_item_add(path=own_path, resource=mine.resource)
    client.force_login(learner)
    client.post(reverse("learning:own-delete", args=[mine.pk]), follow=True)
    items = OwnStepItem.objects.filter(step__path=own_path).order_by("position")
    assert [(i.resource_id, i.position) for i in items] == [
        (catalog["resources"][0].pk, 1),
        (catalog["resources"][1].pk, 2),
    ]
    assert not type(mine.resource).objects.filter(pk=mine.resource_id).exists()
    html = client.get(reverse("paths:own-detail", args=[own_path.uuid])).content.decode()
    assert "2 resources" in html and SECRET not in html
