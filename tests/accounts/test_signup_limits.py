"""Sign-up limits that fit a class behind one network address: the default limit, the true wait
on the 429 page, and the admin's invite links (apps.accounts: Invite, InviteSignupView)."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from apps.accounts.models import Invite

PASSWORD = "a brand new passphrase 77"


def _sign_up(client, url, n):
    return client.post(
        url, {"email": f"student{n}@example.com", "password1": PASSWORD, "password2": PASSWORD}
    )


def _invite(**kwargs):
    return Invite.objects.create(
        expires_at=kwargs.pop("expires_at", timezone.now() + timedelta(days=7)), **kwargs
    )


def _users():
    return get_user_model().objects.filter(email__startswith="student").count()


@pytest.mark.django_db
def test_the_default_limit_lets_a_class_of_30_sign_up_from_one_address(client):
    for n in range(30):
        assert _sign_up(client, reverse("account_signup"), n).status_code == 302, n
        client.cookies.clear()  # thirty browsers behind one NAT, not one browser

    assert _users() == 30


@pytest.mark.django_db
def test_past_the_limit_the_page_says_the_real_wait(client, settings):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "signup": "3/h/ip"}
    for n in range(3):
        assert _sign_up(client, reverse("account_signup"), n).status_code == 302

    refused = _sign_up(client, reverse("account_signup"), 3)

    assert refused.status_code == 429
    page = refused.content.decode()
    assert "Wait 1 hour, then try again." in page  # an hour's window, just started
    assert "a few minutes" not in page
    assert "invite link" in page
    assert 3590 <= int(refused["Retry-After"]) <= 3600
    assert _users() == 3


@pytest.mark.django_db
def test_the_wait_is_until_the_oldest_attempt_leaves_the_window(client, settings, monkeypatch):
    import time

    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "signup": "2/h/ip"}
    start = time.time()
    monkeypatch.setattr(time, "time", lambda: start)
    _sign_up(client, reverse("account_signup"), 0)
    monkeypatch.setattr(time, "time", lambda: start + 50 * 60)
    _sign_up(client, reverse("account_signup"), 1)

    refused = _sign_up(client, reverse("account_signup"), 2)

    assert refused.status_code == 429
    assert "Wait 10 minutes, then try again." in refused.content.decode()
    assert int(refused["Retry-After"]) == 600


@pytest.mark.django_db
def test_30_sign_ups_from_one_address_with_an_invite_link_all_succeed(client, settings):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "signup": "3/h/ip"}
    invite = _invite(max_uses=30, note="Tuesday class")
    url = invite.get_absolute_url()

    page = client.get(url)
    assert page.status_code == 200
    assert "You were invited (Tuesday class)" in page.content.decode()
    assert f'action="{url}"' in page.content.decode()
    for n in range(30):
        assert _sign_up(client, url, n).status_code == 302, n
        client.cookies.clear()

    assert _users() == 30
    invite.refresh_from_db()
    assert invite.uses == 30
    # The invite does not count against the address: a plain sign-up still has its 3.
    assert _sign_up(client, reverse("account_signup"), 30).status_code == 302


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("state", "says"),
    [
        ({"expires_at": timezone.now() - timedelta(minutes=1)}, "has expired"),
        ({"revoked_at": timezone.now()}, "has been withdrawn"),
        ({"max_uses": 2, "uses": 2}, "used as many times as it allows"),
    ],
)
def test_an_unusable_invite_link_is_refused_clearly_and_signs_nobody_up(client, state, says):
    invite = _invite(**state)

    for response in (
        client.get(invite.get_absolute_url()),
        _sign_up(client, invite.get_absolute_url(), 0),
    ):
        assert response.status_code == 410
        page = response.content.decode()
        assert says in page
        assert "Nobody was signed up" in page
        assert reverse("account_signup") in page
    assert _users() == 0


@pytest.mark.django_db
def test_an_unknown_invite_token_is_a_404(client):
    assert client.get(reverse("accounts:invite-signup", args=["no-such-token"])).status_code == 404


@pytest.mark.django_db
def test_the_last_use_is_taken_once(client):
    invite = _invite(max_uses=1)

    assert _sign_up(client, invite.get_absolute_url(), 0).status_code == 302
    client.cookies.clear()
    second = _sign_up(client, invite.get_absolute_url(), 1)

    assert second.status_code == 410
    assert _users() == 1


@pytest.mark.django_db
def test_an_invalid_form_costs_no_use(client):
    invite = _invite(max_uses=1)

    response = client.post(
        invite.get_absolute_url(),
        {"email": "x@example.com", "password1": PASSWORD, "password2": "no"},
    )

    assert response.status_code == 200
    invite.refresh_from_db()
    assert invite.uses == 0


@pytest.mark.django_db
def test_the_admin_makes_an_invite_and_revokes_it(client, superuser):
    client.force_login(superuser)
    add = reverse("admin:accounts_invite_add")
    assert client.get(add).status_code == 200
    expires = timezone.localtime() + timedelta(days=3)

    response = client.post(
        add,
        {
            "note": "Evening class",
            "max_uses": "30",
            "expires_at_0": expires.strftime("%Y-%m-%d"),
            "expires_at_1": expires.strftime("%H:%M:%S"),
        },
    )

    assert response.status_code == 302, response.content.decode()[:2000]
    invite = Invite.objects.get()
    assert (invite.note, invite.max_uses, invite.created_by) == ("Evening class", 30, superuser)
    listing = client.get(reverse("admin:accounts_invite_changelist")).content.decode()
    assert re.search(rf"https?://[^<\s]+{re.escape(invite.get_absolute_url())}", listing)

    client.post(
        reverse("admin:accounts_invite_changelist"),
        {"action": "revoke", "_selected_action": [invite.pk]},
    )
    invite.refresh_from_db()
    assert invite.revoked_at is not None
    client.logout()
    assert client.get(invite.get_absolute_url()).status_code == 410


@pytest.mark.django_db
def test_a_curator_does_not_see_invites(curator_client):
    assert curator_client.get(reverse("admin:accounts_invite_changelist")).status_code == 403


@pytest.mark.parametrize(
    ("seconds", "phrase"),
    [
        (1, "1 second"),
        (40, "40 seconds"),
        (600, "10 minutes"),
        (3599, "1 hour"),
        (5400, "1 hour 30 minutes"),
        (7200, "2 hours"),
    ],
)
def test_a_wait_reads_as_people_say_it(seconds, phrase):
    from apps.accounts.ratelimits import wait_phrase

    assert wait_phrase(seconds) == phrase


@pytest.mark.django_db
def test_the_invite_page_reads_the_invite_once(client, django_assert_num_queries):
    invite = _invite()

    with django_assert_num_queries(1):  # the invite; no session or user yet
        response = client.get(invite.get_absolute_url())

    assert response.status_code == 200
