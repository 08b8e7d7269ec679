""" "Download all my data" with what learners bring: own resources, own paths (steps, items,
publishing, pace, copies), pins and What's new. Exported, imported into a fresh account and exported
again, it is the same file but for ids; imported twice it adds nothing twice; a link another learner
uses comes back unpublished, with a message; malformed input changes nothing."""

import json
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from apps.accounts.services import account_delete
from apps.learning.models import Pin, WhatsNewSeen
from apps.learning.services import pin_set
from apps.paths.models import LearningPath, OwnPath, OwnStep, OwnStepItem, PathFollow
from apps.paths.services import own_item_add, own_path_copy, own_path_update, own_step_add
from apps.progress.models import OwnResource, Progress, Status
from apps.progress.services import own_resource_save, progress_set_status
from tests.factories import EntryFactory, SectionFactory, UserFactory

pytestmark = pytest.mark.django_db


def _ago(days):
    return timezone.now().replace(microsecond=0) - timedelta(days=days)


@pytest.fixture
def catalog():
    section = SectionFactory()  # in a published guide: learners may see its resources
    resources = [EntryFactory(section=section).resource for _ in range(4)]
    path = LearningPath.objects.create(slug="curated", title="Curated", is_published=True)
    return {"guide": section.guide, "resources": resources, "path": path}


@pytest.fixture
def ada_data(learner, other_learner, catalog):
    """Everything a learner can bring, with dates in the past."""
    r = catalog["resources"]
    progress_set_status(user=learner, resource=r[0], status=Status.DONE, at=_ago(3))
    own_a = own_resource_save(
        user=learner,
        url="https://example.org/own-a",
        title="Own A",
        kind="paper",
        author="Me",
        note="my words",
        status=Status.DONE,
        dates={"started_at": _ago(9), "completed_at": _ago(8)},
        dated=True,
        saved_at=_ago(10),
    ).own
    own_resource_save(user=learner, url="https://example.org/own-b", title="Own B")
    # Eve's published path, which Ada copied
    eves = OwnPath.objects.create(owner=other_learner, title="Eve's", slug="eves", published=True)
    own_item_add(path=eves, resource=r[3])
    plan = OwnPath.objects.create(
        owner=learner,
        title="My plan",
        description="What I read first",
        notes="private",
        hours_per_week=5,
        done_minutes_at_follow=30,
        created_at=_ago(20),
    )
    own_path_update(path=plan, slug="my-plan", published=True)
    first = own_step_add(path=plan, title="Basics", effort_hours=3)
    own_item_add(path=plan, resource=r[0], step=first)
    own_item_add(path=plan, resource=r[1], step=first)
    # an own resource in a path (the items reference it by its link)
    own_item_add(path=plan, resource=own_a.resource, step=first)
    second = own_step_add(path=plan, title="More")
    own_item_add(path=plan, resource=r[2], step=second)
    copy = own_path_copy(user=learner, source=eves)
    OwnPath.objects.filter(pk=copy.pk).update(created_at=_ago(5))
    pin_set(user=learner, pinned=True, guide=catalog["guide"])
    pin_set(user=learner, pinned=True, path=catalog["path"])
    pin_set(user=learner, pinned=True, own_path=plan)
    for days, pin in zip((7, 6, 4), Pin.objects.filter(user=learner).order_by("pk"), strict=True):
        Pin.objects.filter(pk=pin.pk).update(pinned_at=_ago(days))
    WhatsNewSeen.objects.create(user=learner, seen_up_to=_ago(2))
    follow = PathFollow.objects.create(user=learner, path=catalog["path"], hours_per_week=2)
    PathFollow.objects.filter(pk=follow.pk).update(followed_at=_ago(15))
    return {"plan": plan, "copy": copy, "eves": eves, "own_a": own_a}


def _export(client):
    response = client.get(reverse("accounts:data-export"))
    assert response.status_code == 200
    return response.json()


def _client(user):
    client = Client()
    client.force_login(user)
    return client


def _import(client, data):
    text = data if isinstance(data, str) else json.dumps(data)
    return client.post(reverse("progress:import"), {"text": text, "confirm": "1"}, follow=True)


def _comparable(data):
    """The export but for what another account cannot share: when it was made, the account,
    and the steps' and items' own ids (never written)."""
    return {key: value for key, value in data.items() if key not in ("exported_at", "account")}


def test_an_account_export_imports_into_a_fresh_account_as_it_was(
    learner, learner_client, ada_data
):
    before = _export(learner_client)
    assert [path["title"] for path in before["own_paths"]] == ["My plan", "Eve's"]
    plan = before["own_paths"][0]
    assert plan["notes"] == "private" and plan["slug"] == "my-plan" and plan["published"]
    assert [len(step["items"]) for step in plan["steps"]] == [3, 1]
    assert plan["steps"][0]["items"][2]["url"] == "https://example.org/own-a"
    assert before["own_paths"][1]["copied_from"] == str(ada_data["eves"].uuid)
    assert len(before["followed_paths"]) == 1 and len(before["activity"]) == 2
    assert [sorted(pin) for pin in before["pins"]] == [
        ["guide", "pinned_at"],
        ["path", "pinned_at"],
        ["own_path", "pinned_at"],
    ]
    # The learner moves: the account goes, the file comes back into a new one.
    account_delete(user=learner)
    fresh = UserFactory(email="fresh@example.com")
    response = _import(_client(fresh), before)
    assert response.status_code == 200
    assert not [m for m in response.context["messages"] if m.level_tag == "warning"]

    after = _export(_client(fresh))
    assert _comparable(after) == _comparable(before)


def test_a_link_another_path_uses_now_comes_back_unpublished_with_a_message(
    learner, learner_client, ada_data
):
    before = _export(learner_client)
    fresh = UserFactory(email="fresh@example.com")
    response = _import(_client(fresh), before)
    warnings = [str(m) for m in response.context["messages"] if m.level_tag == "warning"]
    assert len(warnings) == 1 and "“my-plan”" in warnings[0] and "unpublished" in warnings[0]
    mine = OwnPath.objects.get(owner=fresh, title="My plan")
    assert (mine.slug, mine.published) == (None, False)
    assert OwnPath.objects.get(slug="my-plan").owner == learner  # Ada's stays Ada's
    # everything else as it was: new ids (Ada's are taken), the same content
    after = _export(_client(fresh))
    plan = after["own_paths"][0]
    assert plan["id"] != before["own_paths"][0]["id"]
    expected = {**before["own_paths"][0], "id": plan["id"], "slug": None, "published": False}
    assert plan == expected
    assert after["pins"][2] == {**before["pins"][2], "own_path": plan["id"]}


def test_importing_the_same_file_twice_adds_nothing_twice(learner, learner_client, ada_data):
    data = _export(learner_client)
    fresh = UserFactory(email="fresh@example.com")
    client = _client(fresh)
    _import(client, data)
    counts = (
        OwnPath.objects.filter(owner=fresh).count(),
        OwnStep.objects.filter(path__owner=fresh).count(),
        Pin.objects.filter(user=fresh).count(),
        OwnResource.objects.filter(user=fresh).count(),
    )
    assert counts == (2, 3, 3, 2)
    preview = client.post(reverse("progress:import"), {"text": json.dumps(data)})
    assert not preview.context["plan"].anything_to_apply
    _import(client, data)
    assert (
        OwnPath.objects.filter(owner=fresh).count(),
        OwnStep.objects.filter(path__owner=fresh).count(),
        Pin.objects.filter(user=fresh).count(),
        OwnResource.objects.filter(user=fresh).count(),
    ) == counts
    # into the account it came from: nothing to apply either
    same = learner_client.post(reverse("progress:import"), {"text": json.dumps(data)})
    assert not same.context["plan"].anything_to_apply


def test_an_import_never_loses_what_the_account_already_has(learner, learner_client, ada_data):
    data = _export(learner_client)
    fresh = UserFactory(email="fresh@example.com")
    kept = OwnPath.objects.create(owner=fresh, title="Already mine", notes="keep me")
    own_step_add(path=kept, title="Mine")
    later = timezone.now().replace(microsecond=0)
    WhatsNewSeen.objects.create(user=fresh, seen_up_to=later)
    pin_set(user=fresh, pinned=True, own_path=kept)
    preview = _client(fresh).post(reverse("progress:import"), {"text": json.dumps(data)})
    assert "2 of your own paths will be added" in preview.content.decode()
    _import(_client(fresh), data)
    kept.refresh_from_db()
    assert kept.notes == "keep me" and kept.steps.count() == 1
    assert OwnPath.objects.filter(owner=fresh).count() == 3
    assert Pin.objects.filter(user=fresh).count() == 4
    # What's new never goes back: what they had read stays read
    assert WhatsNewSeen.objects.get(user=fresh).seen_up_to == later


def test_an_old_version_1_export_still_imports(learner_client, learner, catalog):
    progress_set_status(user=learner, resource=catalog["resources"][0], status=Status.DONE)
    data = _export(learner_client)
    old = {key: data[key] for key in ("format", "progress", "followed_paths")}
    old["version"] = 1
    fresh = UserFactory(email="fresh@example.com")
    _import(_client(fresh), old)
    assert Progress.objects.get(user=fresh).status == Status.DONE


def _state(user):
    return (
        Progress.objects.filter(user=user).count(),
        OwnPath.objects.filter(owner=user).count(),
        OwnStepItem.objects.filter(step__path__owner=user).count(),
        Pin.objects.filter(user=user).count(),
        OwnResource.objects.filter(user=user).count(),
        WhatsNewSeen.objects.filter(user=user).count(),
    )


def _path(**changes):
    path = {
        "id": "8c1d2f0e-5a5b-4d8e-9a5c-2b1f3e4d5c6b",
        "title": "P",
        "created_at": "2025-01-01T00:00:00+00:00",
        "steps": [{"title": "S", "items": []}],
    }
    return {**path, **changes}


BAD = [
    ({"own_paths": "nope"}, "“own_paths” must be a list"),
    ({"own_paths": [_path()] * 1001}, "at most 1000 paths"),
    ({"pins": [{"guide": "g"}] * 1001}, "at most 1000 pins"),
    ({"own_paths": [_path(description="x\x00")]}, "without NUL"),
    (
        {"own_paths": [_path(steps=[{"title": "s", "items": [{"url": "\x00"}]}])]},
        "without NUL",
    ),
    ({"own_paths": [_path(title="a\x00b")]}, "without NUL"),
    ({"own_paths": [_path(title="")]}, "has no title"),
    ({"own_paths": [_path(title="x" * 201)]}, "at most 200 characters"),
    ({"own_paths": [_path(slug="a"), _path(id=None, slug="a")]}, "given to two paths"),
    ({"own_paths": [_path(slug="Not a slug!")]}, "is not a link"),
    ({"own_paths": [_path(published=True)]}, "a published path needs a link"),
    ({"own_paths": [_path(created_at="yesterday")]}, "“created_at” must be an ISO date-time"),
    ({"own_paths": [_path(hours_per_week=1000)]}, "from 1 to 168"),
    ({"own_paths": [_path(steps=[{"title": "s"}] * 501)]}, "at most 500 steps"),
    ({"own_paths": [_path(steps=[{"title": "s", "items": ["x"]}])]}, "an item is not an object"),
    ({"own_paths": [_path(), _path(title="Q")]}, "repeats another path"),
    ({"pins": [{"guide": "a", "path": "b"}]}, "Pin 1 names no guide"),
    ({"pins": [{"guide": 3}]}, "Pin 1 names no guide"),
    ({"pins": [5]}, "Pin 1 names no guide"),
    ({"own_paths": [_path(created_at="2025-13-45T00:00:00+00:00")]}, "“created_at” must be"),
    ({"own_paths": [_path(created_at="2999-01-01T00:00:00+00:00")]}, "not in the future"),
    ({"whats_new_seen_up_to": "soon"}, "not an ISO date-time"),
    ({"version": 99}, "made by a newer Syllabus"),
    ({"version": "2"}, "not a whole number"),
]


@pytest.mark.parametrize(("extra", "message"), BAD)
def test_a_malformed_account_file_is_refused_whole_with_a_message(
    learner, learner_client, catalog, extra, message
):
    # a file whose progress would import, but whose other parts are malformed: nothing is
    fine = {
        "format": "syllabus-progress",
        "version": 2,
        "progress": [
            {"resource": str(catalog["resources"][0].uuid), "status": "done", "note": "kept?"}
        ],
        "own_resources": [{"url": "https://example.org/x", "title": "X", "status": "done"}],
    }
    before = _state(learner)
    response = learner_client.post(
        reverse("progress:import"), {"text": json.dumps({**fine, **extra}), "confirm": "1"}
    )
    assert response.status_code == 200
    assert message in response.content.decode()
    assert "Nothing was imported" in response.content.decode() or "nothing was imported" in (
        response.content.decode()
    )
    assert _state(learner) == before


def test_a_failure_while_restoring_changes_nothing(learner, learner_client, ada_data, monkeypatch):
    data = _export(learner_client)
    fresh = UserFactory(email="fresh@example.com")

    def broken(*args, **kwargs):
        raise RuntimeError("disk full")

    client = _client(fresh)
    preview = client.post(reverse("progress:import"), {"text": json.dumps(data)})
    assert preview.context["plan"].anything_to_apply
    # the last write of the import fails: progress, own resources and own paths were written
    monkeypatch.setattr(Pin.objects, "bulk_create", broken)
    with pytest.raises(RuntimeError):
        _import(client, data)
    assert _state(fresh) == (0, 0, 0, 0, 0, 0)


def test_another_learners_export_holds_none_of_mine_and_their_import_only_theirs(
    learner, learner_client, other_learner, ada_data
):
    eve = _client(other_learner)
    theirs = _export(eve)
    assert [path["title"] for path in theirs["own_paths"]] == ["Eve's"]
    assert theirs["pins"] == [] and "my words" not in json.dumps(theirs)
    mine = _state(learner)
    _import(eve, _export(learner_client))  # Eve imports Ada's file: into Eve's account only
    assert _state(learner) == mine
    assert OwnPath.objects.filter(owner=other_learner).count() == 3


def test_a_visitor_can_neither_export_nor_import(client, ada_data):
    assert client.get(reverse("accounts:data-export")).status_code == 302
    response = client.post(reverse("progress:import"), {"text": "{}", "confirm": "1"})
    assert response.status_code == 302 and "login" in response["Location"]


def _queries(client):
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("accounts:data-export")).status_code == 200
    return len(queries)


def test_the_export_reads_a_fixed_number_of_queries_however_many_paths_and_steps(
    learner, learner_client, catalog
):
    def grow(n):
        for index in range(n):
            path = OwnPath.objects.create(owner=learner, title=f"Path {index}")
            for step_index in range(3):
                step = own_step_add(path=path, title=f"Step {step_index}")
                for resource in catalog["resources"][:3]:
                    own_item_add(path=path, resource=resource, step=step)
            pin_set(user=learner, pinned=True, own_path=path)
            own_resource_save(
                user=learner, url=f"https://example.org/{len(str(path.uuid))}/{index}"
            )

    grow(1)
    _queries(learner_client)  # warm: a new link moves the content version, read once
    one = _queries(learner_client)
    grow(5)
    _queries(learner_client)
    assert _queries(learner_client) == one == 14
