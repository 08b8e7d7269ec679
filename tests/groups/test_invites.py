"""Invite links: made and withdrawn by the owner, expiring, limited; a visitor signs up through one
and lands on the group's join page; joining is a POST."""

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from apps.groups import services
from apps.groups.models import GroupInvite, Membership

pytestmark = pytest.mark.django_db
PASSWORD = "a brand new passphrase 77"


@pytest.fixture
def invite(group, learner):
    return services.invite_create(group=group, user=learner, days=14)


def test_the_owner_makes_a_link_that_works_for_14_days_by_default(group, learner_client):
    response = learner_client.get(reverse("groups:group-invites", args=[group.uuid]))
    assert 'value="14"' in response.content.decode()
    learner_client.post(reverse("groups:group-invites", args=[group.uuid]), {"days": "14"})
    invite = GroupInvite.objects.get()
    assert abs(invite.expires_at - (timezone.now() + timedelta(days=14))) < timedelta(minutes=1)
    page = learner_client.get(reverse("groups:group-invites", args=[group.uuid])).content.decode()
    assert f"http://testserver/groups/join/{invite.token}/" in page


def test_a_bad_invite_form_makes_nothing(group, learner_client):
    for data in ({"days": "0"}, {"days": "x"}, {"days": "3", "max_uses": "0"}):
        response = learner_client.post(reverse("groups:group-invites", args=[group.uuid]), data)
        assert response.status_code == 400
    assert not GroupInvite.objects.exists()


def test_joining_asks_for_confirmation(invite, other_learner, eve_client):
    url = reverse("groups:join", args=[invite.token])
    page = eve_client.get(url)
    assert page.status_code == 200 and "Join the group" in page.content.decode()
    assert not Membership.objects.filter(user=other_learner).exists(), "a GET joins nobody"
    response = eve_client.post(url)
    assert response.status_code == 302 and response["Location"] == invite.group.get_absolute_url()
    assert Membership.objects.get(user=other_learner).role == "member"
    invite.refresh_from_db()
    assert invite.uses == 1
    # Opening it again as a member goes to the group and uses nothing.
    assert eve_client.post(url).status_code == 302
    invite.refresh_from_db()
    assert invite.uses == 1


@pytest.mark.parametrize("state", ["expired", "revoked", "used up"])
def test_a_dead_link_lets_nobody_in(invite, other_learner, eve_client, visitor, state):
    if state == "expired":
        invite.expires_at = timezone.now() - timedelta(seconds=1)
    elif state == "revoked":
        invite.revoked_at = timezone.now()
    else:
        invite.max_uses, invite.uses = 1, 1
    invite.save()
    url = reverse("groups:join", args=[invite.token])
    for client in (eve_client, visitor):
        assert client.get(url).status_code == 410
        assert client.post(url).status_code == 410
    assert not Membership.objects.filter(user=other_learner).exists()
    assert eve_client.get(invite.group.get_absolute_url()).status_code == 404


def test_the_owner_revokes_a_link(invite, learner_client, eve_client):
    learner_client.post(reverse("groups:invite-revoke", args=[invite.group.uuid, invite.pk]))
    invite.refresh_from_db()
    assert invite.revoked_at is not None
    assert eve_client.post(reverse("groups:join", args=[invite.token])).status_code == 410


def test_a_count_limit_is_kept(group, learner, eve_client, bob_client):
    invite = services.invite_create(group=group, user=learner, days=3, max_uses=1)
    Membership.objects.filter(user__username="bob").delete()
    assert eve_client.post(reverse("groups:join", args=[invite.token])).status_code == 302
    assert bob_client.post(reverse("groups:join", args=[invite.token])).status_code == 410
    assert not Membership.objects.filter(user__username="bob").exists()


def test_an_unknown_token_is_404(eve_client, db):
    assert eve_client.get(reverse("groups:join", args=["nope"])).status_code == 404


def test_a_visitor_signs_up_through_the_link_and_lands_in_the_group(invite, client):
    url = reverse("groups:join", args=[invite.token])
    page = client.get(url).content.decode()
    assert "Sign up" in page and "Join the group" not in page
    signup = client.post(
        reverse("account_signup") + f"?next={url}",
        {"email": "new@example.com", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert signup.status_code == 302
    [message] = mail.outbox
    confirm = re.search(r"https?://\S*/accounts/confirm-email/\S*", message.body).group(0)
    confirmed = client.post(confirm.removeprefix("http://testserver"))
    assert confirmed.status_code == 302 and confirmed["Location"] == url
    assert client.post(url).status_code == 302
    assert Membership.objects.filter(group=invite.group, user__email="new@example.com").exists()


def test_a_visitor_who_logs_in_lands_on_the_join_page(invite, client, other_learner, password):
    url = reverse("groups:join", args=[invite.token])
    client.get(url)
    response = client.post(
        reverse("account_login"), {"login": other_learner.email, "password": password}
    )
    assert response.status_code == 302 and response["Location"] == url
    assert not Membership.objects.filter(user=other_learner).exists(), "joining is confirmed"
    client.post(url)
    assert Membership.objects.filter(user=other_learner).exists()
    # The link no longer waits in the session: the next login goes home.
    client.post(reverse("account_logout"))
    again = client.post(
        reverse("account_login"), {"login": other_learner.email, "password": password}
    )
    assert again["Location"] == "/"


def test_another_groups_owner_cannot_reach_this_groups_links_or_members(
    invite, other_learner, eve_client, bob
):
    theirs = services.group_create(user=other_learner, name="Eve's club")
    revoke = reverse("groups:invite-revoke", args=[theirs.uuid, invite.pk])
    assert eve_client.post(revoke).status_code == 404
    member = Membership.objects.get(user=bob)
    for name in ("member-remove", "member-owner"):
        assert (
            eve_client.post(reverse(f"groups:{name}", args=[theirs.uuid, member.pk])).status_code
            == 404
        )
    invite.refresh_from_db()
    assert invite.revoked_at is None
    assert Membership.objects.get(user=bob).group == invite.group and not member.is_owner
