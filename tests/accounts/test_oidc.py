"""Sign-in with a generic OpenID Connect server (OIDC_* settings), the whole flow against a fake
provider on 127.0.0.1 (tests/oidc_server.py): the button, the redirect to its authorization
endpoint, the code exchange in the callback, the signed id_token and userinfo."""

from urllib.parse import parse_qs, urlsplit
from urllib.request import HTTPRedirectHandler, build_opener

import pytest
from allauth.socialaccount.models import SocialAccount
from django.contrib.auth import get_user_model
from django.core.exceptions import ImproperlyConfigured
from django.urls import reverse

from config.oidc import oidc_provider_settings
from tests.oidc_server import CLIENT_ID, CLIENT_SECRET, fake_oidc_server

PERSON = {
    "sub": "pocket-42",
    "email": "grace@example.com",
    "email_verified": True,
    "name": "Grace Hopper",
    "preferred_username": "grace",
}


def configure(settings, server_url, name="Pocket ID"):
    """What settings.py does with OIDC_PROVIDER_NAME, OIDC_SERVER_URL, OIDC_CLIENT_ID/SECRET."""
    entry, form_action = oidc_provider_settings(
        provider_id="sso",
        name=name,
        server_url=server_url,
        client_id=CLIENT_ID,
        secret=CLIENT_SECRET,
    )
    settings.SOCIALACCOUNT_PROVIDERS = {**settings.SOCIALACCOUNT_PROVIDERS, "openid_connect": entry}
    return form_action


class _NoRedirect(HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def follow_authorize(url: str) -> str:
    """The browser's visit to the provider: its redirect back to us (path and query)."""
    try:
        build_opener(_NoRedirect).open(url, timeout=5)
    except Exception as redirect:  # urllib raises HTTPError for the unfollowed 302
        location = redirect.headers["Location"]
    parts = urlsplit(location)
    return f"{parts.path}?{parts.query}"


@pytest.fixture
def provider(settings):
    with fake_oidc_server(person=PERSON) as server:
        configure(settings, server.url)
        yield server


@pytest.mark.django_db
def test_sign_in_with_the_oidc_server_creates_a_signed_in_account(client, provider):
    page = client.get(reverse("account_login")).content.decode()
    assert "Continue with Pocket ID" in page
    login_url = reverse("openid_connect_login", kwargs={"provider_id": "sso"})
    assert login_url == "/accounts/oidc/sso/login/"

    response = client.post(login_url)
    assert response.status_code == 302
    authorize = urlsplit(response.url)
    query = {k: v[0] for k, v in parse_qs(authorize.query).items()}
    assert f"{authorize.scheme}://{authorize.netloc}{authorize.path}" == f"{provider.url}/authorize"
    assert query["redirect_uri"] == "http://testserver/accounts/oidc/sso/login/callback/"
    assert query["code_challenge_method"] == "S256" and set(query["scope"].split()) >= {
        "openid",
        "email",
    }

    callback = follow_authorize(response.url)
    response = client.get(callback)
    assert response.status_code == 302, response.content.decode()[:2000]

    user = get_user_model().objects.get(email="grace@example.com")
    assert SocialAccount.objects.get(user=user, provider="sso").uid == "pocket-42"
    assert client.get(reverse("accounts:account")).status_code == 200
    # The code was exchanged (with the secret and PKCE verifier) and userinfo read, in the callback.
    assert ("POST", "/token") in provider.requests and ("GET", "/userinfo") in provider.requests


@pytest.mark.django_db
def test_a_callback_with_a_forged_state_signs_nobody_in(client, provider):
    response = client.post(reverse("openid_connect_login", kwargs={"provider_id": "sso"}))
    callback = follow_authorize(response.url)
    forged = callback.replace("state=", "state=x")
    response = client.get(forged)
    assert client.get(reverse("accounts:account")).status_code == 302
    assert not get_user_model().objects.filter(email="grace@example.com").exists()
    assert ("POST", "/token") not in provider.requests


@pytest.mark.django_db
def test_without_oidc_settings_there_is_no_button_and_the_url_is_a_404(client, settings):
    settings.SOCIALACCOUNT_PROVIDERS = {
        k: v for k, v in settings.SOCIALACCOUNT_PROVIDERS.items() if k != "openid_connect"
    }
    page = client.get(reverse("account_login")).content.decode()
    assert "/accounts/oidc/" not in page
    response = client.post(reverse("openid_connect_login", kwargs={"provider_id": "sso"}))
    assert response.status_code == 404


@pytest.mark.django_db
def test_an_unknown_provider_id_is_a_404(client, provider):
    response = client.post(reverse("openid_connect_login", kwargs={"provider_id": "other"}))
    assert response.status_code == 404


def test_the_settings_helper_allows_the_servers_origin_in_form_action():
    _, form_action = oidc_provider_settings(
        provider_id="authentik",
        name="Authentik",
        server_url="https://auth.example.com/application/o/syllabus/",
        client_id="id",
        secret="secret",
    )
    assert form_action == ["https://auth.example.com"]


@pytest.mark.parametrize(
    ("provider_id", "server_url"),
    [("sso", "auth.example.com"), ("sso", "ftp://auth.example.com"), ("s/o", "https://a.example")],
)
def test_the_settings_helper_refuses_a_bad_url_or_id(provider_id, server_url):
    with pytest.raises(ImproperlyConfigured):
        oidc_provider_settings(
            provider_id=provider_id, name="X", server_url=server_url, client_id="i", secret="s"
        )


# --- settings.py from the environment (a fresh interpreter each, production settings) ---------

OIDC_DUMP = (
    "import json; from django.conf import settings; "
    "print(json.dumps([settings.SOCIALACCOUNT_PROVIDERS.get('openid_connect'), "
    "settings.SECURE_CSP['form-action']]))"
)
OIDC_ENV = {
    "OIDC_PROVIDER_NAME": "Keycloak",
    "OIDC_SERVER_URL": "https://sso.example.com/realms/myrealm/",
    "OIDC_CLIENT_ID": "syllabus",
    "OIDC_CLIENT_SECRET": "s3cret",
}


def test_the_oidc_variables_configure_the_provider_and_the_csp():
    import json

    from tests.core.test_production_settings import SECRET, run_python

    result = run_python(OIDC_DUMP, DEBUG="false", SECRET_KEY=SECRET, **OIDC_ENV)
    entry, form_action = json.loads(result.stdout)
    app = entry["APPS"][0]
    assert app["provider_id"] == "sso" and app["name"] == "Keycloak"
    assert app["client_id"] == "syllabus" and app["secret"] == "s3cret"
    assert app["settings"]["server_url"] == "https://sso.example.com/realms/myrealm"
    assert app["settings"]["oauth_pkce_enabled"] is True
    assert "https://sso.example.com" in form_action


def test_without_all_four_oidc_variables_nothing_is_configured():
    import json

    from tests.core.test_production_settings import SECRET, run_python

    partial = {k: v for k, v in OIDC_ENV.items() if k != "OIDC_CLIENT_SECRET"}
    result = run_python(OIDC_DUMP, DEBUG="false", SECRET_KEY=SECRET, **partial)
    entry, form_action = json.loads(result.stdout)
    assert entry is None and "https://sso.example.com" not in form_action


def test_production_refuses_webauthns_insecure_origin():
    from tests.core.test_production_settings import SECRET, run_python

    result = run_python(
        "print('started')",
        DEBUG="false",
        SECRET_KEY=SECRET,
        MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN="true",
    )
    assert result.returncode != 0 and "MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN" in result.stderr
