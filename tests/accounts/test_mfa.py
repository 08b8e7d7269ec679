"""Second factors (allauth.mfa) on our pages: the authenticator app's enrolment, sign-in asking
for its code, recovery codes that work once, and REQUIRE_MFA_FOR_STAFF at the admin's door."""

import re
import time

import pytest
from allauth.mfa.models import Authenticator
from allauth.mfa.recovery_codes.internal.auth import RecoveryCodes
from allauth.mfa.totp.internal.auth import format_hotp_value, hotp_value
from django.urls import reverse

from tests.factories import PASSWORD, UserFactory


def totp_code(secret: str) -> str:
    """The code an authenticator app shows now for `secret` (RFC 6238, 30 s steps)."""
    return format_hotp_value(hotp_value(secret, int(time.time()) // 30))


def sign_in(client, user):
    """The sign-in form, as a person fills it: the response after the password."""
    return client.post(reverse("account_login"), {"login": user.email, "password": PASSWORD})


def confirm_password(client):
    """allauth asks for the password again before a second factor is added or removed."""
    response = client.post(reverse("account_reauthenticate"), {"password": PASSWORD})
    assert response.status_code == 302


def enrol_totp(client, user) -> str:
    """Sign in with the password, activate an authenticator app; its secret."""
    assert sign_in(client, user).status_code == 302
    assert client.get(reverse("mfa_activate_totp")).url.startswith(
        reverse("account_reauthenticate")
    )
    confirm_password(client)
    page = client.get(reverse("mfa_activate_totp"))
    assert page.status_code == 200
    secret = page.context["form"].secret
    assert page.context["totp_svg_data_uri"].startswith("data:image/svg+xml")
    response = client.post(reverse("mfa_activate_totp"), {"code": totp_code(secret)})
    assert response.status_code == 302, response.context and response.context["form"].errors
    return secret


@pytest.mark.django_db
def test_an_authenticator_app_is_asked_for_at_the_next_sign_in(client, learner):
    secret = enrol_totp(client, learner)
    assert Authenticator.objects.filter(user=learner, type=Authenticator.Type.TOTP).exists()
    # Activating one makes the recovery codes too.
    assert Authenticator.objects.filter(
        user=learner, type=Authenticator.Type.RECOVERY_CODES
    ).exists()
    client.post(reverse("account_logout"))

    response = sign_in(client, learner)
    assert response.status_code == 302 and response.url == reverse("mfa_authenticate")
    assert client.get(reverse("accounts:account")).status_code == 302  # not signed in yet

    wrong = client.post(reverse("mfa_authenticate"), {"code": "000000"})
    assert wrong.status_code == 200 and wrong.context["form"].errors
    assert client.get(reverse("accounts:account")).status_code == 302

    response = client.post(reverse("mfa_authenticate"), {"code": totp_code(secret)})
    assert response.status_code == 302
    assert client.get(reverse("accounts:account")).status_code == 200


@pytest.mark.django_db
def test_a_recovery_code_signs_in_once_and_is_refused_the_second_time(client, learner):
    enrol_totp(client, learner)
    codes = RecoveryCodes(
        Authenticator.objects.get(user=learner, type=Authenticator.Type.RECOVERY_CODES)
    ).get_unused_codes()
    assert len(codes) == 10
    client.post(reverse("account_logout"))

    sign_in(client, learner)
    assert client.post(reverse("mfa_authenticate"), {"code": codes[0]}).status_code == 302
    assert client.get(reverse("accounts:account")).status_code == 200
    client.post(reverse("account_logout"))

    sign_in(client, learner)
    again = client.post(reverse("mfa_authenticate"), {"code": codes[0]})
    assert again.status_code == 200 and again.context["form"].errors
    assert client.get(reverse("accounts:account")).status_code == 302


@pytest.mark.django_db
def test_the_account_page_leads_to_the_second_factor_pages(client, learner):
    client.force_login(learner)
    page = client.get(reverse("accounts:account")).content.decode()
    assert reverse("mfa_index") in page
    assert "Passkeys and two-factor authentication" in page
    assert client.get(reverse("mfa_index")).status_code == 200


@pytest.mark.django_db
def test_the_second_factor_pages_refuse_a_visitor(visitor):
    for name in ("mfa_index", "mfa_activate_totp", "mfa_add_webauthn", "mfa_list_webauthn"):
        response = visitor.get(reverse(name))
        assert response.status_code == 302 and response.url.startswith(reverse("account_login"))


@pytest.mark.django_db
def test_the_totp_page_and_passkey_pages_have_no_inline_script(client, learner):
    sign_in(client, learner)
    confirm_password(client)
    for name in ("mfa_activate_totp", "mfa_add_webauthn"):
        page = client.get(reverse(name)).content.decode()
        scripts = re.findall(r"<script\b([^>]*)>", page)
        # Only files of our own, or json_script's data (never run).
        assert all('src="' in attrs or 'type="application/json"' in attrs for attrs in scripts)
        assert "data-allauth-onload" not in page and " style=" not in page
    login = client.get(reverse("account_login"))  # signed in: allauth redirects
    assert login.status_code == 302


@pytest.mark.django_db
def test_the_sign_in_page_offers_a_passkey_without_inline_script(visitor):
    page = visitor.get(reverse("account_login")).content.decode()
    assert 'data-passkey="get"' in page and reverse("mfa_login_webauthn") in page
    assert "data-allauth-onload" not in page


# --- REQUIRE_MFA_FOR_STAFF -----------------------------------------------------------------


def give_totp(user):
    Authenticator.objects.create(
        user=user, type=Authenticator.Type.TOTP, data={"secret": "JBSWY3DPEHPK3PXP"}
    )


@pytest.mark.django_db
def test_staff_without_a_second_factor_are_sent_from_the_admin_to_set_one_up(
    settings, curator_client
):
    settings.REQUIRE_MFA_FOR_STAFF = True
    for url in ("/admin/", "/admin/catalog/resource/", "/admin/catalog/guide/import/"):
        response = curator_client.get(url)
        assert response.status_code == 302 and response.url == reverse("mfa_index"), url
    page = curator_client.get(reverse("mfa_index"), follow=True).content.decode()
    assert "Curators and admins need a second factor" in page
    # A curator action by POST is refused just the same.
    assert curator_client.post("/admin/catalog/resource/", {}).url == reverse("mfa_index")


@pytest.mark.django_db
def test_staff_with_an_authenticator_app_reach_the_admin(settings, curator_client, curator):
    settings.REQUIRE_MFA_FOR_STAFF = True
    give_totp(curator)
    assert curator_client.get("/admin/").status_code == 200
    assert curator_client.get("/admin/catalog/resource/").status_code == 200


@pytest.mark.django_db
def test_a_superuser_without_a_second_factor_is_sent_to_set_one_up(settings, client, superuser):
    settings.REQUIRE_MFA_FOR_STAFF = True
    client.force_login(superuser)
    assert client.get("/admin/auth/user/").url == reverse("mfa_index")


@pytest.mark.django_db
def test_learners_are_unaffected_by_the_staff_rule(settings, learner_client):
    settings.REQUIRE_MFA_FOR_STAFF = True
    # Still the admin's own refusal (its sign-in), never the second-factor page.
    response = learner_client.get("/admin/")
    assert response.status_code == 302 and reverse("mfa_index") not in response.url
    page = learner_client.get(reverse("accounts:account")).content.decode()
    assert "must set up a second factor" not in page


@pytest.mark.django_db
def test_the_account_page_tells_staff_the_rule(settings, curator_client):
    settings.REQUIRE_MFA_FOR_STAFF = True
    page = curator_client.get(reverse("accounts:account")).content.decode()
    assert "Curators and admins must set up a second factor" in page


@pytest.mark.django_db
def test_with_the_rule_off_staff_reach_the_admin_without_a_second_factor(settings, curator_client):
    settings.REQUIRE_MFA_FOR_STAFF = False
    assert curator_client.get("/admin/").status_code == 200


@pytest.mark.django_db
def test_recovery_codes_alone_do_not_count_as_a_second_factor(settings, curator_client, curator):
    settings.REQUIRE_MFA_FOR_STAFF = True
    Authenticator.objects.create(
        user=curator, type=Authenticator.Type.RECOVERY_CODES, data={"seed": "00" * 20}
    )
    assert curator_client.get("/admin/").url == reverse("mfa_index")


@pytest.mark.django_db
def test_a_staff_member_signs_in_with_the_code_and_reaches_the_admin(settings, client):
    settings.REQUIRE_MFA_FOR_STAFF = True
    staff = UserFactory(username="stan", email="stan@example.com", is_staff=True)
    sign_in(client, staff)
    assert client.get("/admin/").url == reverse("mfa_index")
    secret = enrol_totp_signed_in(client)
    assert client.get("/admin/").status_code == 200
    client.post(reverse("account_logout"))
    sign_in(client, staff)
    client.post(reverse("mfa_authenticate"), {"code": totp_code(secret)})
    assert client.get("/admin/").status_code == 200


def enrol_totp_signed_in(client) -> str:
    confirm_password(client)
    secret = client.get(reverse("mfa_activate_totp")).context["form"].secret
    assert client.post(reverse("mfa_activate_totp"), {"code": totp_code(secret)}).status_code == 302
    return secret
