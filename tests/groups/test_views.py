"""The group pages: what members see of each other, and everyone who must be refused."""

import re

import pytest
from django.urls import reverse

from apps.groups import services
from apps.groups.models import GroupInvite, Membership, StudyGroup
from apps.paths.selectors import path_detail
from apps.progress.models import Progress, Status
from apps.progress.selectors import guide_tally, statuses_for
from apps.progress.services import progress_set_note, progress_set_status
from tests.conftest import page_queries
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _detail(group):
    return reverse("groups:group-detail", args=[group.uuid])


def _bar_text(html, dom_id):
    match = re.search(
        rf'id="{re.escape(dom_id)}".*?<span class="bar-text">([^<]+)</span>', html, re.S
    )
    assert match, f"no bar {dom_id}"
    return match.group(1)


def _board(html):
    """The board's HTML, blank lines dropped (a fragment's messages slot is empty)."""
    start = html.index('<div id="group-board"')
    return _lines(html[start : html.index("</main>")])


def _lines(html):
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "csrf", html)  # masked per response
    return "\n".join(line for line in html.strip().splitlines() if line.strip())


def test_each_member_bar_is_the_bar_of_their_own_pages(
    group, learner, bob, catalog, learning_path, learner_client
):
    r = catalog["resources"]
    progress_set_status(user=learner, resource=r[0], status=Status.DONE)
    for resource in (r[0], catalog["shared"], r[3]):
        progress_set_status(user=bob, resource=resource, status=Status.DONE)
    progress_set_status(user=bob, resource=r[1], status=Status.SKIPPED)
    html = learner_client.get(_detail(group)).content.decode()
    bob_row = Membership.objects.get(user=bob)
    for member in (learner, bob):
        row = Membership.objects.get(user=member)
        own_path = path_detail(path=learning_path, user=member, follows={}).tally
        own_guide = guide_tally(guide=catalog["guide"], statuses=statuses_for(user=member))
        path_bar = _bar_text(html, f"bar-path-{learning_path.uuid}-m{row.pk}")
        guide_bar = _bar_text(html, f"bar-guide-{catalog['guide'].uuid}-m{row.pk}")
        assert path_bar.startswith(f"{own_path.done}/{own_path.countable}")
        assert guide_bar.startswith(f"{own_guide.done}/{own_guide.countable}")
    assert _bar_text(html, f"bar-path-{learning_path.uuid}-m{bob_row.pk}").startswith("3/3 · 100%")


def test_members_see_the_week_and_the_groups_next_up(group, learner, bob, catalog, learner_client):
    r = catalog["resources"]
    progress_set_status(user=bob, resource=r[0], status=Status.DONE)
    progress_set_status(user=learner, resource=r[0], status=Status.DONE)
    html = learner_client.get(_detail(group)).content.decode()
    week = html[html.index('id="group-week-title"') :]
    assert "bob finished" in week and r[0].title in week
    # Both finished the path's first resource; at least half have not finished the next one.
    path_card = html[html.index('class="card group-plan" id="path-') :]
    next_up = path_card[path_card.index("group-next") : path_card.index("</p>")]
    assert catalog["shared"].title in next_up and "0 of 2 finished" in next_up


def test_progress_outside_the_groups_paths_and_notes_are_never_shown(
    group, learner, bob, catalog, learner_client
):
    outside = catalog["other_resources"][0]  # only in the beta guide, not the group's
    progress_set_status(user=bob, resource=outside, status=Status.DONE)
    progress_set_note(user=bob, resource=catalog["resources"][0], note="my secret thoughts")
    for url in (_detail(group), reverse("groups:group-activity", args=[group.uuid])):
        html = learner_client.get(url).content.decode()
        assert outside.title not in html
        assert "my secret thoughts" not in html


def test_a_hidden_member_shows_as_hidden_and_in_nothing(
    group, learner, bob, catalog, learner_client, bob_client
):
    progress_set_status(user=bob, resource=catalog["resources"][0], status=Status.DONE)
    response = bob_client.post(
        reverse("groups:group-visibility", args=[group.uuid]), {"hidden": "1"}
    )
    assert response.status_code == 302
    assert Membership.objects.get(user=bob).progress_hidden
    html = learner_client.get(_detail(group)).content.decode()
    bob_row = Membership.objects.get(user=bob)
    assert f"bar-path-{group.paths.get().uuid}-m{bob_row.pk}" not in html
    assert "hidden" in html and "bob finished" not in html
    activity = learner_client.get(
        reverse("groups:group-activity", args=[group.uuid])
    ).content.decode()
    assert "bob finished" not in activity
    # Bob still sees his own bar, marked as hidden from the others.
    own = bob_client.get(_detail(group)).content.decode()
    assert f"m{bob_row.pk}" in own and "hidden from the others" in own


def test_hiding_with_htmx_swaps_the_board_a_reload_shows(group, bob, catalog, bob_client):
    progress_set_status(user=bob, resource=catalog["resources"][0], status=Status.DONE)
    url = reverse("groups:group-visibility", args=[group.uuid])
    for hidden in ("1", "0", "1"):
        fragment = bob_client.post(url, {"hidden": hidden}, headers={"HX-Request": "true"})
        assert fragment.status_code == 200
        swapped = _lines(fragment.content.decode())
        assert swapped.startswith('<div id="group-board"') and "<html" not in swapped
        reloaded = _board(bob_client.get(_detail(group)).content.decode())
        assert reloaded.startswith(swapped)
    assert Membership.objects.get(user=bob).progress_hidden
    # A retry converges: "hide" twice is hidden.
    bob_client.post(url, {"hidden": "1"})
    assert Membership.objects.get(user=bob).progress_hidden


def test_the_htmx_fragment_of_the_page_is_its_board(group, learner_client):
    fragment = learner_client.get(_detail(group), headers={"HX-Request": "true"}).content.decode()
    page = learner_client.get(_detail(group)).content.decode()
    assert _lines(fragment).startswith('<div id="group-board"')
    assert _board(page).startswith(_lines(fragment))


def test_bad_visibility_changes_nothing(group, bob, bob_client):
    response = bob_client.post(
        reverse("groups:group-visibility", args=[group.uuid]), {"hidden": "x"}
    )
    assert response.status_code == 302
    assert not Membership.objects.get(user=bob).progress_hidden


def test_unpublished_paths_and_guides_are_invisible_in_groups(
    group, catalog, learning_path, learner_client
):
    learning_path.is_published = False
    learning_path.save()
    catalog["guide"].is_published = False
    catalog["guide"].save()
    html = learner_client.get(_detail(group)).content.decode()
    assert learning_path.title not in html and catalog["guide"].title not in html
    assert "no published paths or guides" in html


def test_an_unpublished_resource_is_on_no_bar_and_in_no_list(
    group, learner, catalog, learner_client
):
    hidden = catalog["resources"][0]
    progress_set_status(user=learner, resource=hidden, status=Status.DONE)
    hidden.is_published = False
    hidden.save()
    html = learner_client.get(_detail(group)).content.decode()
    assert hidden.title not in html
    activity = learner_client.get(reverse("groups:group-activity", args=[group.uuid]))
    assert hidden.title not in activity.content.decode()


def test_activity_is_paged(group, bob, catalog, bob_client):
    from apps.catalog.models import Entry, Resource

    section = catalog["guide"].sections.filter(parent__isnull=False).first()
    for i in range(35):
        resource = Resource.objects.create(title=f"Extra {i:02}", url=f"https://example.com/x/{i}")
        Entry.objects.create(section=section, resource=resource, position=100 + i)
        progress_set_status(user=bob, resource=resource, status=Status.DONE)
    url = reverse("groups:group-activity", args=[group.uuid])
    first = bob_client.get(url).content.decode()
    assert first.count("bob finished") == 30 and "?page=2" in first
    second = bob_client.get(url, {"page": 2}).content.decode()
    assert second.count("bob finished") == 5
    fragment = bob_client.get(url, {"page": 2}, headers={"HX-Request": "true"}).content.decode()
    assert fragment.count("bob finished") == 5 and "<html" not in fragment
    assert bob_client.get(url, {"page": "nonsense"}).status_code == 200


# --- who is refused ------------------------------------------------------------------------------

MEMBER_PAGES = ["group-detail", "group-activity", "group-settings"]
MEMBER_POSTS = [
    ("group-visibility", {"hidden": "1"}),
    ("group-settings", {"weekly_mail": "on"}),
    ("group-leave", {}),
]
OWNER_PAGES = ["group-edit", "group-invites", "group-members"]


def _owner_posts(group, bob):
    member = Membership.objects.get(group=group, user=bob)
    invite = services.invite_create(
        group=group, user=group.memberships.get(role="owner").user, days=3
    )
    return [
        (reverse("groups:group-edit", args=[group.uuid]), {"name": "Taken over"}),
        (reverse("groups:group-invites", args=[group.uuid]), {"days": "5"}),
        (reverse("groups:invite-revoke", args=[group.uuid, invite.pk]), {}),
        (reverse("groups:member-remove", args=[group.uuid, member.pk]), {}),
        (reverse("groups:member-owner", args=[group.uuid, member.pk]), {}),
    ]


def _all_urls(group, bob):
    gets = [reverse(f"groups:{name}", args=[group.uuid]) for name in MEMBER_PAGES + OWNER_PAGES]
    posts = [(reverse(f"groups:{name}", args=[group.uuid]), data) for name, data in MEMBER_POSTS]
    return gets, posts + _owner_posts(group, bob)


def _unchanged(group, bob):
    group.refresh_from_db()
    assert group.name == "Kernel club"
    assert Membership.objects.filter(group=group).count() == 2
    assert group.memberships.get(role="owner").user.username == "ada"
    assert not GroupInvite.objects.filter(revoked_at__isnull=False).exists()
    assert GroupInvite.objects.filter(group=group).count() <= 1
    assert not Membership.objects.filter(progress_hidden=True).exists()


def test_an_outsider_gets_404_everywhere(group, bob, eve_client):
    gets, posts = _all_urls(group, bob)
    for url in gets:
        assert eve_client.get(url).status_code == 404, url
        assert eve_client.get(url, headers={"HX-Request": "true"}).status_code == 404, url
    for url, data in posts:
        assert eve_client.post(url, data).status_code == 404, url
    _unchanged(group, bob)


def test_a_visitor_is_sent_to_sign_in(group, bob, visitor):
    gets, posts = _all_urls(group, bob)
    for url in gets:
        response = visitor.get(url)
        assert response.status_code == 302 and response["Location"].startswith(
            reverse("account_login")
        ), url
    for url, data in posts:
        response = visitor.post(url, data)
        assert response.status_code == 302 and reverse("account_login") in response["Location"]
    _unchanged(group, bob)


def test_a_removed_member_is_an_outsider(group, bob, learner_client, bob_client):
    member = Membership.objects.get(user=bob)
    learner_client.post(reverse("groups:member-remove", args=[group.uuid, member.pk]))
    assert not Membership.objects.filter(user=bob).exists()
    for name in MEMBER_PAGES:
        assert bob_client.get(reverse(f"groups:{name}", args=[group.uuid])).status_code == 404
    assert (
        bob_client.post(
            reverse("groups:group-visibility", args=[group.uuid]), {"hidden": "1"}
        ).status_code
        == 404
    )
    assert group.name not in bob_client.get(reverse("groups:group-list")).content.decode()


def test_a_member_cannot_do_what_only_the_owner_may(group, bob, bob_client):
    for name in OWNER_PAGES:
        assert bob_client.get(reverse(f"groups:{name}", args=[group.uuid])).status_code == 403
    for url, data in _owner_posts(group, bob):
        assert bob_client.post(url, data).status_code == 403, url
    _unchanged(group, bob)


def test_the_owner_sees_owner_pages(group, learner_client):
    for name in OWNER_PAGES:
        assert learner_client.get(reverse(f"groups:{name}", args=[group.uuid])).status_code == 200


# --- making and changing a group ---------------------------------------------------------------


def test_a_learner_creates_a_group_and_owns_it(learner_client, learner, catalog, learning_path):
    response = learner_client.post(
        reverse("groups:group-create"),
        {
            "name": "Readers",
            "description": "",
            "paths": [learning_path.pk],
            "guides": [catalog["guide"].pk],
        },
    )
    group = StudyGroup.objects.get(name="Readers")
    assert response.status_code == 302 and response["Location"] == _detail(group)
    assert group.memberships.get().user == learner and group.memberships.get().is_owner
    assert list(group.paths.all()) == [learning_path]


def test_a_bad_group_form_changes_nothing(learner_client, learning_path):
    learning_path.is_published = False
    learning_path.save()
    response = learner_client.post(
        reverse("groups:group-create"), {"name": "", "paths": [learning_path.pk]}
    )
    assert response.status_code == 400 and not StudyGroup.objects.exists()
    response = learner_client.post(
        reverse("groups:group-create"), {"name": "Fine", "paths": [learning_path.pk]}
    )
    assert response.status_code == 400 and not StudyGroup.objects.exists(), "an unpublished path"


def test_the_owner_edits_the_group(group, catalog, learner_client):
    response = learner_client.post(
        reverse("groups:group-edit", args=[group.uuid]),
        {"name": "Kernel club II", "description": "", "guides": [catalog["other_guide"].pk]},
    )
    assert response.status_code == 302
    group.refresh_from_db()
    assert group.name == "Kernel club II" and list(group.guides.all()) == [catalog["other_guide"]]
    assert not group.paths.exists()


def test_groups_link_in_the_nav_and_on_the_dashboard(learner_client, visitor, db):
    nav = learner_client.get(reverse("learning:dashboard")).content.decode()
    assert nav.count(f'href="{reverse("groups:group-list")}"') == 2
    assert (
        reverse("groups:group-list")
        not in visitor.get(reverse("learning:guide-list")).content.decode()
    )


# --- leaving, removing, handing over -------------------------------------------------------------


def test_a_member_leaves_and_keeps_their_progress(group, bob, catalog, bob_client):
    progress_set_status(user=bob, resource=catalog["resources"][0], status=Status.DONE)
    progress_set_note(user=bob, resource=catalog["resources"][0], note="mine")
    response = bob_client.post(reverse("groups:group-leave", args=[group.uuid]))
    assert response.status_code == 302
    assert not Membership.objects.filter(user=bob).exists()
    row = Progress.objects.get(user=bob)
    assert row.status == Status.DONE and row.note == "mine"


def test_the_owner_cannot_leave_before_handing_over(group, learner, learner_client):
    response = learner_client.post(reverse("groups:group-leave", args=[group.uuid]), follow=True)
    assert "Hand the group over" in response.content.decode()
    assert Membership.objects.filter(user=learner, group=group, role="owner").exists()


def test_the_last_member_leaving_deletes_the_group(group, bob, learner, learner_client):
    Membership.objects.filter(user=bob).delete()
    services.invite_create(group=group, user=learner, days=3)
    learner_client.post(reverse("groups:group-leave", args=[group.uuid]))
    assert not StudyGroup.objects.exists() and not GroupInvite.objects.exists()


def test_the_owner_hands_over_and_then_may_leave(group, learner, bob, learner_client, bob_client):
    member = Membership.objects.get(user=bob)
    learner_client.post(reverse("groups:member-owner", args=[group.uuid, member.pk]))
    assert Membership.objects.get(user=bob).is_owner
    assert not Membership.objects.get(user=learner).is_owner
    assert learner_client.get(reverse("groups:group-invites", args=[group.uuid])).status_code == 403
    assert bob_client.get(reverse("groups:group-invites", args=[group.uuid])).status_code == 200
    learner_client.post(reverse("groups:group-leave", args=[group.uuid]))
    assert list(group.memberships.values_list("user__username", flat=True)) == ["bob"]


def test_the_owner_cannot_remove_themselves(group, learner, learner_client):
    owner = Membership.objects.get(user=learner)
    learner_client.post(reverse("groups:member-remove", args=[group.uuid, owner.pk]))
    assert Membership.objects.filter(pk=owner.pk).exists()


def test_a_deleted_owner_hands_the_group_to_the_next_member(group, learner, bob):
    from apps.accounts.services import account_delete

    account_delete(user=learner)
    assert Membership.objects.get(group=group, user=bob).is_owner


# --- the page's queries --------------------------------------------------------------------------


def test_the_group_page_queries_do_not_grow_with_members(group, catalog, learner_client):
    _, warm = page_queries(learner_client, _detail(group))
    assert warm == 9, (
        warm
    )  # session, user, membership, members, paths, guides, tokens, statuses, week
    for n in range(6):
        user = UserFactory(username=f"m{n}")
        Membership.objects.create(group=group, user=user)
        progress_set_status(user=user, resource=catalog["resources"][n % 3], status=Status.DONE)
    _, warm_more = page_queries(learner_client, _detail(group))
    assert warm_more == warm
    _, warm_activity = page_queries(
        learner_client, reverse("groups:group-activity", args=[group.uuid])
    )
    assert warm_activity <= 9, warm_activity


def test_a_memberships_choices_are_saved(group, bob, bob_client):
    response = bob_client.post(
        reverse("groups:group-settings", args=[group.uuid]), {"weekly_mail": "on"}
    )
    assert response.status_code == 302
    membership = Membership.objects.get(user=bob)
    assert membership.weekly_mail and not membership.progress_hidden
