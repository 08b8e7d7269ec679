"""`manage.py ensure_admin`: the first superuser from the environment, created once."""

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

STRONG_PASSWORD = "correct-horse-battery-staple-42"


@pytest.fixture
def admin_env(monkeypatch):
    for name in (
        "DJANGO_ADMIN_EMAIL",
        "DJANGO_ADMIN_PASSWORD",
        "DJANGO_ADMIN_EMAIL_FILE",
        "DJANGO_ADMIN_PASSWORD_FILE",
    ):
        monkeypatch.delenv(name, raising=False)

    def set_env(email=None, password=None):
        if email is not None:
            monkeypatch.setenv("DJANGO_ADMIN_EMAIL", email)
        if password is not None:
            monkeypatch.setenv("DJANGO_ADMIN_PASSWORD", password)

    return set_env


@pytest.mark.django_db
def test_creates_a_superuser_with_a_verified_primary_email(admin_env, client):
    admin_env(email="Admin@Example.com", password=STRONG_PASSWORD)

    call_command("ensure_admin")

    user = get_user_model().objects.get()
    assert user.is_superuser and user.is_staff and user.is_active
    assert user.email == "admin@example.com"
    assert user.username
    assert user.check_password(STRONG_PASSWORD)
    address = EmailAddress.objects.get(user=user)
    assert (address.email, address.verified, address.primary) == ("admin@example.com", True, True)
    # Email sign-in works straight away: no confirmation mail stands in the way.
    response = client.post(
        "/accounts/login/", {"login": "admin@example.com", "password": STRONG_PASSWORD}
    )
    assert response.status_code == 302
    assert client.get("/admin/").status_code == 200


@pytest.mark.django_db
def test_running_again_changes_nothing(admin_env):
    admin_env(email="admin@example.com", password=STRONG_PASSWORD)
    call_command("ensure_admin")

    admin_env(password="a-different-but-also-long-password-7")
    call_command("ensure_admin")

    user = get_user_model().objects.get()
    assert user.check_password(STRONG_PASSWORD), (
        "an existing admin's password is never reset from env"
    )
    assert EmailAddress.objects.count() == 1


@pytest.mark.django_db
def test_an_existing_account_with_that_email_is_left_alone(admin_env, django_user_model):
    learner = django_user_model.objects.create_user(
        username="learner", email="admin@example.com", password="x"
    )
    admin_env(email="ADMIN@example.com", password=STRONG_PASSWORD)

    call_command("ensure_admin")

    learner.refresh_from_db()
    assert not learner.is_superuser
    assert django_user_model.objects.count() == 1


@pytest.mark.django_db
def test_does_nothing_when_unset(admin_env, capsys):
    call_command("ensure_admin")

    assert not get_user_model().objects.exists()
    assert "not set" in capsys.readouterr().out


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("email", "password", "message"),
    [
        ("admin@example.com", "", "Set both"),
        ("", STRONG_PASSWORD, "Set both"),
        ("not-an-email", STRONG_PASSWORD, "not an email address"),
        ("admin@example.com", "password", "too weak"),
        ("admin@example.com", "12345678901", "too weak"),
        ("admin@example.com", "short", "too weak"),
    ],
)
def test_refuses_blank_half_set_or_weak_credentials(admin_env, email, password, message):
    admin_env(email=email, password=password)

    with pytest.raises(CommandError, match=message):
        call_command("ensure_admin")

    assert not get_user_model().objects.exists()


@pytest.mark.django_db
def test_password_can_come_from_a_secret_file(admin_env, monkeypatch, tmp_path):
    secret = tmp_path / "admin_password"
    secret.write_text(STRONG_PASSWORD + "\n")
    admin_env(email="admin@example.com")
    monkeypatch.setenv("DJANGO_ADMIN_PASSWORD_FILE", str(secret))

    call_command("ensure_admin")

    assert get_user_model().objects.get().check_password(STRONG_PASSWORD)
