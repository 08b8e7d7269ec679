"""The account page, data export, account deletion, rate limits and how allauth's pages look."""

import re
import sys
import types
from datetime import timedelta
from html import unescape

import pytest
from allauth.account import app_settings as account_settings
from allauth.account.models import EmailAddress
from allauth.socialaccount.models import SocialAccount
from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from tests.factories import UserFactory

User = get_user_model()
GITHUB = {
    "github": {
        "APPS": [{"client_id": "test-client-id", "secret": "test-secret"}],
        "SCOPE": ["user:email"],
    }
}


def _amount_per(rate_setting, per):
    """The N of the "N/period/<per>" part of an allauth rate setting such as "10/m/ip,5/5m/key"."""
    for rate in rate_setting.split(","):
        amount, _, rate_per = rate.strip().split("/")
        if rate_per == per:
            return int(amount)
    raise AssertionError(f"no per-{per} rate in {rate_setting!r}")


def _rows_referencing(user_pk):
    """Every row, in every installed model, whose foreign key points at the user."""
    found = {}
    for model in apps.get_models():
        for field in model._meta.get_fields():
            if field.many_to_one and field.concrete and field.related_model is User:
                count = model._default_manager.filter(**{field.name: user_pk}).count()
                if count:
                    found[f"{model._meta.label}.{field.name}"] = count
    return found


# --- Account page ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_account_page_requires_login(client):
    response = client.get(reverse("accounts:account"))
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('account_login')}?next={reverse('accounts:account')}"


def test_account_page_lists_my_email_and_links(learner_client, learner, other_learner):
    EmailAddress.objects.create(user=learner, email="me-too@example.com", verified=False)
    response = learner_client.get(reverse("accounts:account"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "ada@example.com" in html and "me-too@example.com" in html
    assert "eve@example.com" not in html
    assert "Unverified" in html and "Primary" in html
    for name in (
        "account_email",
        "account_change_password",
        "accounts:data-export",
        "accounts:delete",
    ):
        assert f'"{reverse(name)}"' in html, name
    assert 'name="password"' in html, "a user with a password must type it to delete the account"


def test_account_page_links_progress_export_and_import_next_to_the_data_download(learner_client):
    html = learner_client.get(reverse("accounts:account")).content.decode()
    data = html.split('id="account-data"', 1)[1].split("</section>", 1)[0]
    assert f'"{reverse("accounts:data-export")}"' in data
    for fmt, label in (("md", "Markdown checklist"), ("csv", "CSV"), ("json", "JSON")):
        assert f'<a href="{reverse("progress:export", args=[fmt])}" download>{label}</a>' in data, (
            fmt
        )
    assert f'<a class="button" href="{reverse("progress:import")}">Import progress</a>' in data
    assert (
        "JSON keeps everything — statuses, notes and dates; a Markdown checklist carries only done or not done."
        in unescape(data)
    )


def test_account_page_offers_set_password_to_github_only_users(learner_client, learner):
    learner.set_unusable_password()
    learner.save()
    learner_client.force_login(learner)
    html = learner_client.get(reverse("accounts:account")).content.decode()
    assert reverse("account_set_password") in html
    assert 'name="password"' not in html


# --- Data export -----------------------------------------------------------------------------


@pytest.fixture
def exporter(monkeypatch):
    """Stands in for apps.progress.exports.user_data_export and records whom it was asked about."""
    calls = []

    def user_data_export(user):
        calls.append(user)
        return {"user": {"email": user.email}, "progress": [{"note": f"note of {user.username}"}]}

    try:
        import apps.progress.exports as module
    except ImportError:
        module = types.ModuleType("apps.progress.exports")
        monkeypatch.setitem(sys.modules, "apps.progress.exports", module)
    monkeypatch.setattr(module, "user_data_export", user_data_export, raising=False)
    return calls


@pytest.mark.django_db
def test_data_export_requires_login(client, exporter):
    response = client.get(reverse("accounts:data-export"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login") + "?next=")
    assert exporter == []


def test_data_export_is_a_json_attachment_of_only_my_data(
    learner_client, learner, other_learner, exporter
):
    response = learner_client.get(reverse("accounts:data-export"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert re.fullmatch(
        r'attachment; filename="syllabus-export-\d{4}-\d{2}-\d{2}\.json"',
        response["Content-Disposition"],
    )
    assert "no-cache" in response["Cache-Control"] or "no-store" in response["Cache-Control"]
    assert exporter == [learner]
    assert response.json() == {
        "user": {"email": "ada@example.com"},
        "progress": [{"note": "note of ada"}],
        "followed_paths": [],
        "own_paths": [],
        "pins": [],
    }
    assert b"eve" not in response.content


def test_data_export_holds_how_far_i_read_whats_new(learner_client, learner, other_learner):
    from apps.learning.models import WhatsNewSeen

    mine = timezone.now()
    WhatsNewSeen.objects.create(user=learner, seen_up_to=mine)
    WhatsNewSeen.objects.create(user=other_learner, seen_up_to=mine - timedelta(days=3))
    data = learner_client.get(reverse("accounts:data-export")).json()
    assert data["whats_new_seen_up_to"] == mine.isoformat()


def test_data_export_ignores_any_user_in_the_query(
    learner_client, learner, other_learner, exporter
):
    learner_client.get(
        reverse("accounts:data-export"), {"user": other_learner.pk, "user_id": other_learner.pk}
    )
    assert exporter == [learner]


def test_data_export_with_the_real_exporter_holds_my_notes_not_theirs(
    learner_client, learner, other_learner
):
    exports = pytest.importorskip("apps.progress.exports")
    if not hasattr(exports, "user_data_export"):
        pytest.skip("apps.progress.exports.user_data_export not written yet")
    from apps.catalog.models import Resource
    from apps.progress.models import Progress

    resource = Resource.objects.create(
        title="Attention Is All You Need", url="https://example.com/attention"
    )
    Progress.objects.create(
        user=learner, resource=resource, status="in_progress", note="my own private note"
    )
    Progress.objects.create(
        user=other_learner, resource=resource, status="in_progress", note="their private note"
    )

    response = learner_client.get(reverse("accounts:data-export"))
    assert response.status_code == 200
    assert "my own private note" in response.content.decode()
    assert "their private note" not in response.content.decode()
    assert "eve@example.com" not in response.content.decode()


# --- Account deletion ------------------------------------------------------------------------


def _delete(client, confirm, password=None, **extra):
    data = {"confirm": confirm, **extra}
    if password is not None:
        data["password"] = password
    return client.post(reverse("accounts:delete"), data)


def test_get_never_deletes(learner_client, learner):
    response = learner_client.get(reverse("accounts:delete"))
    assert response.status_code == 405
    assert User.objects.filter(pk=learner.pk).exists()


@pytest.mark.django_db
def test_anonymous_post_deletes_nothing(client, learner, password):
    response = _delete(client, learner.email, password)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))
    assert User.objects.filter(pk=learner.pk).exists()


@pytest.mark.parametrize(
    ("confirm", "typed_password", "error"),
    [
        ("eve@example.com", None, "not your email address"),
        ("", None, "This field is required"),
        ("ada@example.com", "wrong password", "password is not correct"),
        ("ada@example.com", "", "This field is required"),
    ],
)
def test_wrong_confirmation_changes_nothing(
    learner_client, learner, password, confirm, typed_password, error
):
    response = _delete(
        learner_client, confirm, password if typed_password is None else typed_password
    )
    assert response.status_code == 200
    assert error in response.content.decode()
    assert b"field--invalid" in response.content
    assert User.objects.filter(pk=learner.pk).exists()
    assert EmailAddress.objects.filter(user=learner).exists()
    assert _is_logged_in(learner_client)


def test_right_confirmation_deletes_me_and_everything_of_mine(
    learner_client, learner, other_learner, password
):
    me_pk = learner.pk
    EmailAddress.objects.create(user=learner, email="me-too@example.com")
    SocialAccount.objects.create(user=learner, provider="github", uid="12345")
    if apps.is_installed("apps.progress"):
        from apps.catalog.models import Resource
        from apps.progress.models import Progress

        resource = Resource.objects.create(title="A resource", url="https://example.com/r")
        Progress.objects.create(user=learner, resource=resource, status="done")
        Progress.objects.create(user=other_learner, resource=resource, status="done")
    assert _rows_referencing(me_pk)

    response = _delete(learner_client, "  ADA@example.com ", password)

    assert response.status_code == 302
    assert response["Location"] == reverse("learning:home")
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        "Your account and everything you recorded in it have been deleted."
    ]
    assert not User.objects.filter(pk=me_pk).exists()
    assert _rows_referencing(me_pk) == {}
    assert not EmailAddress.objects.filter(
        email__in=["ada@example.com", "me-too@example.com"]
    ).exists()
    assert not SocialAccount.objects.filter(uid="12345").exists()
    assert not _is_logged_in(learner_client)
    # The other learner keeps everything.
    assert User.objects.filter(pk=other_learner.pk).exists()
    assert EmailAddress.objects.filter(user=other_learner).exists()
    assert _rows_referencing(other_learner.pk)


def test_someone_else_cannot_delete_me(client, learner, other_learner, password):
    client.force_login(other_learner)
    # My address and my password, typed at their session: refused, nothing deleted.
    response = _delete(client, learner.email, password)
    assert response.status_code == 200
    assert User.objects.filter(pk__in=[learner.pk, other_learner.pk]).count() == 2

    # Their own valid confirmation plus my id in every field a view might read: only they go.
    response = _delete(
        client,
        other_learner.email,
        password,
        user=learner.pk,
        user_id=learner.pk,
        pk=learner.pk,
        id=learner.pk,
    )
    assert response.status_code == 302
    assert User.objects.filter(pk=learner.pk).exists()
    assert not User.objects.filter(pk=other_learner.pk).exists()


def test_github_only_user_confirms_with_their_email_alone(client, learner):
    learner.set_unusable_password()
    learner.save()
    client.force_login(learner)
    response = _delete(client, learner.email)
    assert response.status_code == 302
    assert not User.objects.filter(pk=learner.pk).exists()


@pytest.mark.django_db
def test_the_only_administrator_cannot_delete_their_account(client, password):
    admin = UserFactory(email="admin@example.com", is_staff=True, is_superuser=True)
    client.force_login(admin)
    response = _delete(client, admin.email, password)
    assert response.status_code == 200
    assert "only administrator" in response.content.decode()
    assert User.objects.filter(pk=admin.pk).exists()

    UserFactory(email="admin2@example.com", is_staff=True, is_superuser=True)
    assert _delete(client, admin.email, password).status_code == 302
    assert not User.objects.filter(pk=admin.pk).exists()


def test_password_guessing_on_the_delete_form_is_rate_limited(learner_client, learner):
    limit = _amount_per(account_settings.RATE_LIMITS["reauthenticate"], "user")
    for _ in range(limit):
        assert _delete(learner_client, learner.email, "guess").status_code == 200
    response = _delete(learner_client, learner.email, "guess")
    assert response.status_code == 429
    assert b"Too many attempts" in response.content
    assert User.objects.filter(pk=learner.pk).exists()


def _is_logged_in(client):
    return client.get(reverse("accounts:account")).status_code == 200


# --- Rate limits -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_failed_logins_for_one_email_are_rate_limited(client, learner, other_learner, password):
    limit = _amount_per(account_settings.RATE_LIMITS["login_failed"], "key")
    for _ in range(limit):
        response = client.post(
            reverse("account_login"), {"login": learner.email, "password": "guess"}
        )
        assert b"not correct" in response.content

    # Even the right password is refused now: the attacker learns nothing from the next guess.
    response = client.post(reverse("account_login"), {"login": learner.email, "password": password})
    assert response.status_code in (200, 429)
    assert b"Too many failed login attempts" in response.content
    assert not _is_logged_in(client)

    # The limit is per address: another learner on the same network can still log in.
    response = client.post(
        reverse("account_login"), {"login": other_learner.email, "password": password}
    )
    assert response.status_code == 302


@pytest.mark.django_db
def test_signups_from_one_address_are_rate_limited(client):
    limit = _amount_per(account_settings.RATE_LIMITS["signup"], "ip")
    for i in range(limit):
        response = client.post(
            reverse("account_signup"),
            {"email": f"bot{i}@example.com", "password1": "x", "password2": "x"},
        )
        assert (
            response.status_code == 200
        )  # invalid password: the form again, but the attempt counts
    response = client.post(
        reverse("account_signup"),
        {"email": "one-more@example.com", "password1": "x", "password2": "x"},
    )
    assert response.status_code == 429
    assert b"Too many attempts" in response.content
    assert b'<main id="main"' in response.content, "the 429 page is rendered in the site layout"


# --- allauth pages in the site's layout ------------------------------------------------------

ANONYMOUS_PAGES = [
    "account_login",
    "account_signup",
    "account_reset_password",
    "account_reset_password_done",
    "account_email_verification_sent",
]
SIGNED_IN_PAGES = [
    "account_email",
    "account_change_password",
    "account_logout",
    "socialaccount_connections",
    "accounts:account",
]
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", re.I)


def _assert_site_page(response):
    html = response.content.decode()
    assert response.status_code == 200
    assert '<main id="main"' in html, "rendered inside templates/base.html"
    assert "· Syllabus</title>" in unescape(re.sub(r"\s+", " ", html))
    assert "<strong>Menu:</strong>" not in html, "allauth's own layout must not leak through"
    assert " style=" not in html and "<style" not in html, "strict CSP: no inline styles"
    assert not INLINE_SCRIPT.search(html), "strict CSP: no inline scripts"


@pytest.mark.django_db
@pytest.mark.parametrize("name", ANONYMOUS_PAGES)
def test_anonymous_allauth_pages_use_the_site_layout(client, name):
    _assert_site_page(client.get(reverse(name)))


@pytest.mark.parametrize("name", SIGNED_IN_PAGES)
def test_signed_in_pages_use_the_site_layout(learner_client, name):
    _assert_site_page(learner_client.get(reverse(name)))


@pytest.mark.django_db
def test_login_form_markup(client):
    html = client.get(reverse("account_login")).content.decode()
    assert '<form class="form form--entrance form--login"' in html
    assert '<label for="id_login">' in html and '<label for="id_password">' in html
    assert 'class="button button--primary"' in html
    assert reverse("account_reset_password") in html
    assert reverse("account_signup") in html


@pytest.mark.django_db
def test_github_button_absent_without_keys(client, settings):
    settings.SOCIALACCOUNT_PROVIDERS = {}
    for name in ("account_login", "account_signup"):
        html = client.get(reverse(name)).content.decode()
        assert "GitHub" not in html
        assert "/accounts/github/" not in html


@pytest.mark.django_db
@override_settings(SOCIALACCOUNT_PROVIDERS=GITHUB)
def test_github_button_present_with_keys(client):
    for name in ("account_login", "account_signup"):
        html = client.get(reverse(name)).content.decode()
        assert 'action="/accounts/github/login/?process=login"' in html
        assert 'class="button button--provider button--github"' in html
        assert "Continue with GitHub" in html


@pytest.mark.django_db
@override_settings(SOCIALACCOUNT_PROVIDERS=GITHUB)
def test_github_button_posts_to_github(client):
    response = client.post("/accounts/github/login/?process=login")
    assert response.status_code == 302
    assert response["Location"].startswith(
        "https://github.com/login/oauth/authorize?client_id=test-client-id"
    )


@pytest.mark.django_db
def test_account_page_links_connected_accounts_only_when_github_is_configured(
    learner_client, settings
):
    settings.SOCIALACCOUNT_PROVIDERS = {}
    assert (
        reverse("socialaccount_connections")
        not in learner_client.get(reverse("accounts:account")).content.decode()
    )
    settings.SOCIALACCOUNT_PROVIDERS = GITHUB
    assert (
        reverse("socialaccount_connections")
        in learner_client.get(reverse("accounts:account")).content.decode()
    )
