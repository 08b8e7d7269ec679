"""A learner's own paths (apps.paths: OwnPath and its pages): composing, following, publishing,
copying, and everyone who must be refused."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.catalog.models import Resource
from apps.paths import services
from apps.paths.models import OwnPath, OwnStep, OwnStepItem
from apps.progress.models import Status
from apps.progress.services import progress_set_status

pytestmark = pytest.mark.django_db


@pytest.fixture
def own_path(learner, catalog):
    """Ada's path: two steps, three resources, a private note."""
    path = services.own_path_create(user=learner, title="My kernels", notes="secret plan")
    first = services.own_step_add(path=path, title="Basics", effort_hours=3)
    second = services.own_step_add(path=path, title="More")
    r = catalog["resources"]
    services.own_item_add(path=path, resource=r[0], step=first)
    services.own_item_add(path=path, resource=r[1], step=first)
    services.own_item_add(path=path, resource=r[2], step=second)
    return path


def _titles(path):
    return [
        (item.step.title, item.resource.title)
        for item in OwnStepItem.objects.filter(step__path=path)
        .select_related("step", "resource")
        .order_by("step__position", "position")
    ]


def test_create_add_from_a_row_menu_reorder_and_group(client, learner, catalog):
    client.force_login(learner)
    r = catalog["resources"]
    response = client.post(reverse("paths:own-list"), {"title": "Plan"})
    path = OwnPath.objects.get(owner=learner)
    assert response["Location"] == reverse("paths:own-edit", args=[path.uuid])
    # The row menu's link: choose the path; the first resource makes a first step.
    add = reverse("paths:own-add-resource")
    page = client.get(add, {"resource": r[0].uuid}).content.decode()
    assert "Add to my path" in page and "Plan" in page
    client.post(add, {"resource": r[0].uuid, "path": path.uuid})
    client.post(add, {"resource": r[1].uuid, "path": path.uuid})
    client.post(add, {"resource": r[1].uuid, "path": path.uuid})  # once per step
    assert _titles(path) == [("Step 1", r[0].title), ("Step 1", r[1].title)]
    # A new path straight from the menu.
    client.post(add, {"resource": r[2].uuid, "path": "new", "title": "Second"})
    assert OwnPath.objects.get(owner=learner, title="Second")

    # Steps with an estimate, moving an item down, then to another step.
    client.post(
        reverse("paths:own-step-add", args=[path.uuid]), {"title": "Later", "effort_hours": "4"}
    )
    later = OwnStep.objects.get(path=path, title="Later")
    assert later.position == 2 and later.effort_hours == 4
    first_item = OwnStepItem.objects.get(step__path=path, resource=r[0])
    client.post(
        reverse("paths:own-item-change", args=[path.uuid, first_item.uuid]), {"action": "down"}
    )
    assert _titles(path) == [("Step 1", r[1].title), ("Step 1", r[0].title)]
    client.post(
        reverse("paths:own-item-change", args=[path.uuid, first_item.uuid]),
        {"action": "to_step", "step": later.uuid},
    )
    assert _titles(path) == [("Step 1", r[1].title), ("Later", r[0].title)]
    client.post(reverse("paths:own-step-change", args=[path.uuid, later.uuid]), {"action": "up"})
    assert _titles(path) == [("Later", r[0].title), ("Step 1", r[1].title)]
    # Search in the editor lists what may be added.
    html = client.get(reverse("paths:own-edit", args=[path.uuid]), {"q": "alpha 1."}).content
    assert r[4].title in html.decode()


def test_editor_htmx_answers_its_fragment_equal_to_a_reload(client, learner, own_path, catalog):
    client.force_login(learner)
    url = reverse("paths:own-step-add", args=[own_path.uuid])
    fragment = client.post(url, {"title": "Third"}, headers={"HX-Request": "true"})
    assert fragment.status_code == 200
    html = fragment.content.decode()
    assert html.lstrip().startswith('<div id="own-editor"') and "<html" not in html
    assert "3 steps · 3 resources" in html
    reload = client.get(reverse("paths:own-edit", args=[own_path.uuid])).content.decode()
    assert "3 steps · 3 resources" in reload
    # Bad input: a message in the fragment, nothing changed.
    bad = client.post(url, {"title": " "}, headers={"HX-Request": "true"}).content.decode()
    assert "Nothing was changed" in bad and OwnStep.objects.filter(path=own_path).count() == 3


def test_follow_next_up_and_pace_use_the_paths_machinery(client, learner, own_path, catalog):
    client.force_login(learner)
    r = catalog["resources"]
    client.post(
        reverse("paths:own-edit", args=[own_path.uuid]),
        {"title": own_path.title, "notes": "secret plan", "hours_per_week": "5"},
    )
    html = client.get(reverse("paths:own-detail", args=[own_path.uuid])).content.decode()
    assert "Next up" in html and r[0].title in html
    assert "At 5 h/week: finish around" in html and "secret plan" in html
    progress_set_status(user=learner, resource=r[0], status=Status.DONE)
    progress_set_status(user=learner, resource=r[1], status=Status.SKIPPED)
    html = client.get(reverse("paths:own-detail", args=[own_path.uuid])).content.decode()
    assert f'Next up</span>\n  <a class="next-up-link" href="{r[2].url}"' in html
    assert "ahead by" in html


def test_publish_needs_a_unique_link_and_never_shows_notes(
    client, learner, other_learner, own_path, catalog
):
    client.force_login(learner)
    edit = reverse("paths:own-edit", args=[own_path.uuid])
    response = client.post(edit, {"title": "My kernels", "published": "on"}, follow=True)
    assert "Choose a link" in response.content.decode()
    own_path.refresh_from_db()
    assert not own_path.published
    client.post(
        edit, {"title": "My kernels", "notes": "secret plan", "slug": "k", "published": "on"}
    )
    own_path.refresh_from_db()
    assert own_path.published and own_path.slug == "k"
    # Eve's path cannot take the same link.
    theirs = services.own_path_create(user=other_learner, title="Eve's")
    with pytest.raises(services.OwnPathError, match="taken"):
        services.own_path_update(path=theirs, slug="k", published=True)

    client.logout()
    page = client.get(reverse("paths:own-published", args=["k"]))
    html = page.content.decode()
    assert (
        page.status_code == 200 and "My kernels" in html and catalog["resources"][0].title in html
    )
    assert "secret plan" not in html
    # Unpublished again: gone for everyone else.
    client.force_login(learner)
    client.post(edit, {"title": "My kernels", "slug": "k"})
    client.logout()
    assert client.get(reverse("paths:own-published", args=["k"])).status_code == 404


def test_another_learner_copies_a_published_path_and_the_copy_is_theirs(
    client, learner, other_learner, own_path, catalog
):
    services.own_path_update(path=own_path, slug="k", published=True)
    client.force_login(other_learner)
    response = client.post(reverse("paths:own-copy", args=["k"]))
    copy = OwnPath.objects.get(owner=other_learner)
    assert response["Location"] == reverse("paths:own-edit", args=[copy.uuid])
    assert copy.copied_from == own_path and not copy.published and copy.notes == ""
    assert _titles(copy) == _titles(own_path)
    assert OwnStep.objects.get(path=copy, position=1).effort_hours == 3
    # Changing the copy leaves the original alone.
    item = OwnStepItem.objects.filter(step__path=copy).first()
    client.post(reverse("paths:own-item-change", args=[copy.uuid, item.uuid]), {"action": "remove"})
    assert len(_titles(copy)) == 2 and len(_titles(own_path)) == 3


def test_a_curated_path_is_copied_as_a_start(client, learner, learning_path, catalog):
    client.force_login(learner)
    assert "Copy to my paths" in client.get(learning_path.get_absolute_url()).content.decode()
    client.post(reverse("paths:path-copy", args=[learning_path.slug]))
    copy = OwnPath.objects.get(owner=learner)
    assert copy.title == learning_path.title and copy.copied_from is None
    assert [step.title for step in copy.steps.order_by("position")] == [
        "Foundations",
        "Going deeper",
    ]
    assert len(_titles(copy)) == 5


def test_hidden_resources_are_neither_added_nor_shown(client, learner, own_path, catalog):
    client.force_login(learner)
    hidden = Resource.objects.create(title="In no guide", url="https://example.com/nowhere")
    response = client.post(
        reverse("paths:own-item-add", args=[own_path.uuid]), {"resource": hidden.uuid}, follow=True
    )
    assert "Only a resource in the catalog or one of your own" in response.content.decode()
    assert not OwnStepItem.objects.filter(resource=hidden).exists()
    Resource.objects.filter(pk=catalog["resources"][0].pk).update(is_published=False)
    html = client.get(reverse("paths:own-detail", args=[own_path.uuid])).content.decode()
    assert catalog["resources"][0].title not in html and "2 resources" in html


def _own_urls(path):
    step = path.steps.first()
    item = OwnStepItem.objects.filter(step=step).first()
    return [
        ("get", reverse("paths:own-detail", args=[path.uuid]), {}),
        ("get", reverse("paths:own-edit", args=[path.uuid]), {}),
        ("post", reverse("paths:own-edit", args=[path.uuid]), {"title": "Mine now"}),
        ("post", reverse("paths:own-delete", args=[path.uuid]), {}),
        ("post", reverse("paths:own-step-add", args=[path.uuid]), {"title": "x"}),
        (
            "post",
            reverse("paths:own-step-change", args=[path.uuid, step.uuid]),
            {"action": "remove"},
        ),
        ("post", reverse("paths:own-item-add", args=[path.uuid]), {"resource": item.resource.uuid}),
        (
            "post",
            reverse("paths:own-item-change", args=[path.uuid, item.uuid]),
            {"action": "remove"},
        ),
        (
            "post",
            reverse("paths:own-add-resource"),
            {"resource": item.resource.uuid, "path": path.uuid},
        ),
    ]


def test_a_private_path_refuses_another_learner_and_a_visitor(
    client, learner, other_learner, own_path
):
    before = _titles(own_path)
    client.force_login(other_learner)
    for method, url, data in _own_urls(own_path):
        assert getattr(client, method)(url, data).status_code == 404, url
    assert client.get(reverse("paths:own-list")).content.decode().count("My kernels") == 0
    client.logout()
    for method, url, data in _own_urls(own_path):
        response = getattr(client, method)(url, data)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("account_login")), url
    own_path.refresh_from_db()
    assert own_path.title == "My kernels" and _titles(own_path) == before
    # Not published: no public page, and no copy.
    services.own_path_update(path=own_path, slug="mine")
    client.force_login(other_learner)
    assert client.get(reverse("paths:own-published", args=["mine"])).status_code == 404
    assert client.post(reverse("paths:own-copy", args=["mine"])).status_code == 404
    assert not OwnPath.objects.filter(owner=other_learner).exists()


def _grow(path, catalog, n):
    step = services.own_step_add(path=path, title=f"Grown {n}")
    for resource in catalog["other_resources"][:n]:
        services.own_item_add(path=path, resource=resource, step=step)


@pytest.mark.parametrize(
    ("url_name", "queries"),
    [("paths:own-detail", 7), ("paths:own-edit", 7)],
    ids=["detail", "editor"],
)
def test_own_path_pages_query_count_does_not_grow(
    client, learner, own_path, catalog, url_name, queries
):
    """Session, user, the path, its steps, their items with resources, the statuses, the
    content versions: the same with one more step of three resources."""
    client.force_login(learner)
    url = reverse(url_name, args=[own_path.uuid])
    client.get(url)  # warm: the catalog's memo, the session
    with CaptureQueriesContext(connection) as small:
        assert client.get(url).status_code == 200
    _grow(own_path, catalog, 3)
    client.get(url)
    with CaptureQueriesContext(connection) as large:
        assert client.get(url).status_code == 200
    assert len(small) == len(large) == queries, [q["sql"] for q in large.captured_queries]


def test_a_new_paths_bad_title_from_the_row_menu_changes_nothing(client, learner, catalog):
    client.force_login(learner)
    resource = catalog["resources"][0]
    for title in ["x" * 201, "a\x00b"]:
        response = client.post(
            reverse("paths:own-add-resource"),
            {"resource": resource.uuid, "path": "new", "title": title},
            follow=True,
        )
        assert "Nothing was changed" in response.content.decode()
    assert not OwnPath.objects.exists()
