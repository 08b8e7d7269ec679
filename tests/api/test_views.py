"""The token page under the account pages (apps.api.views): make a token (its secret shown
once), list them (name, prefix, last used), revoke; only ever the learner's own."""

import hashlib
import re

import pytest
from django.urls import reverse

from apps.api.models import ApiToken
from apps.api.services import MAX_TOKENS, token_create
from tests.api.conftest import bearer

pytestmark = pytest.mark.django_db

TOKENS = "/account/tokens/"


def secret_in(html):
    found = re.search(r'id="token-secret" type="text" value="(syl_[A-Za-z0-9_-]+)"', html)
    return found and found.group(1)


def test_the_account_page_links_to_the_token_page(learner_client):
    html = learner_client.get(reverse("accounts:account")).content.decode()
    assert f'href="{reverse("api:tokens")}"' in html and "API tokens" in html
    assert reverse("api:tokens") == TOKENS


def test_a_visitor_is_sent_to_sign_in_and_makes_nothing(visitor, learner):
    for response in (visitor.get(TOKENS), visitor.post(TOKENS, {"name": "x"})):
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("account_login"))
    assert not ApiToken.objects.exists()


def test_a_new_token_is_shown_once_and_stored_hashed(learner_client, learner, client):
    response = learner_client.post(TOKENS, {"name": "laptop script"})
    assert response.status_code == 201
    assert "no-store" in response["Cache-Control"]
    html = response.content.decode()
    secret = secret_in(html)
    assert secret and len(secret) > 40
    assert "Copy it now: it is not shown again." in html
    token = ApiToken.objects.get(user=learner)
    assert token.name == "laptop script" and token.prefix == secret[:12]
    assert token.digest == hashlib.sha256(secret.encode()).hexdigest()
    # Not stored, not shown again.
    assert secret not in str(ApiToken.objects.filter(pk=token.pk).values().get())
    assert not secret_in(learner_client.get(TOKENS).content.decode())
    assert secret not in learner_client.get(TOKENS).content.decode()
    # And it works.
    assert client.get("/api/v1/me", **bearer(secret)).json()["token"] == "laptop script"


def test_the_list_shows_each_tokens_name_prefix_and_last_use(learner_client, learner, client):
    used, secret = token_create(user=learner, name="phone app")
    unused, _ = token_create(user=learner, name="backup job")
    client.get("/api/v1/me", **bearer(secret))
    html = learner_client.get(TOKENS).content.decode()
    assert html.index("backup job") < html.index("phone app")  # newest first
    assert f"{used.prefix}…" in html and f"{unused.prefix}…" in html
    row = html[html.index(f'id="token-{used.uuid}"') :]
    assert "last used" in row[: row.index("</li>")]
    row = html[html.index(f'id="token-{unused.uuid}"') :]
    assert "never used" in row[: row.index("</li>")]


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "This field is required."),
        ("   ", "This field is required."),
        ("x" * 81, "Ensure this value has at most 80 characters"),
        ("laptop script", "You already have a token named “laptop script”"),
    ],
)
def test_a_bad_name_is_refused_with_a_message_and_makes_nothing(
    learner_client, learner, token, name, message
):
    response = learner_client.post(TOKENS, {"name": name})
    assert response.status_code == 400
    html = response.content.decode()
    assert message in html and not secret_in(html)
    assert ApiToken.objects.filter(user=learner).count() == 1


def test_the_same_name_is_free_for_another_learner(learner_client, other_learner):
    token_create(user=other_learner, name="laptop script")
    assert learner_client.post(TOKENS, {"name": "laptop script"}).status_code == 201


def test_a_learner_holds_at_most_twenty_tokens(learner_client, learner):
    for n in range(MAX_TOKENS):
        token_create(user=learner, name=f"token {n}")
    assert "the most one account may hold" in learner_client.get(TOKENS).content.decode()
    response = learner_client.post(TOKENS, {"name": "one more"})
    assert response.status_code == 400
    assert "the most one account may hold" in response.content.decode()
    assert ApiToken.objects.filter(user=learner).count() == MAX_TOKENS


def test_revoking_a_token_stops_it_at_once(learner_client, learner, client):
    token, secret = token_create(user=learner, name="old laptop")
    assert client.get("/api/v1/me", **bearer(secret)).status_code == 200
    response = learner_client.post(reverse("api:token-revoke", args=[token.uuid]), follow=True)
    assert response.redirect_chain[-1][0] == TOKENS
    assert "Revoked “old laptop”: it no longer works." in response.content.decode()
    assert not ApiToken.objects.exists()
    assert client.get("/api/v1/me", **bearer(secret)).status_code == 401


def test_another_learners_token_cannot_be_revoked_or_seen(learner_client, other_learner):
    theirs, secret = token_create(user=other_learner, name="eve's secret script")
    assert "eve's secret script" not in learner_client.get(TOKENS).content.decode()
    response = learner_client.post(reverse("api:token-revoke", args=[theirs.uuid]))
    assert response.status_code == 404
    assert ApiToken.objects.filter(pk=theirs.pk).exists()


def test_revoke_takes_a_post_only(learner_client, token, learner):
    stored = ApiToken.objects.get(user=learner)
    assert learner_client.get(reverse("api:token-revoke", args=[stored.uuid])).status_code == 405
    assert ApiToken.objects.filter(pk=stored.pk).exists()


def test_deleting_the_account_deletes_its_tokens(learner_client, learner, password, token):
    from apps.accounts import services

    services.account_delete(user=learner)
    assert not ApiToken.objects.exists()
