import pytest
from allauth.account.models import EmailAddress
from allauth.socialaccount.models import SocialAccount
from django.contrib.auth import get_user_model

from apps.accounts.services import AccountError, account_delete
from tests.accounts.factories import UserFactory

User = get_user_model()


@pytest.mark.django_db
def test_account_delete_removes_the_user_and_their_login_identities(me, someone_else):
    SocialAccount.objects.create(user=me, provider="github", uid="1")
    account_delete(user=me)
    assert not User.objects.filter(pk=me.pk).exists()
    assert not EmailAddress.objects.filter(email=me.email).exists()
    assert not SocialAccount.objects.filter(uid="1").exists()
    assert EmailAddress.objects.filter(user=someone_else).exists()


@pytest.mark.django_db
def test_account_delete_is_all_or_nothing(me, monkeypatch):
    SocialAccount.objects.create(user=me, provider="github", uid="1")

    def fail(self, *args, **kwargs):
        raise RuntimeError("database went away")

    monkeypatch.setattr(User, "delete", fail)
    with pytest.raises(RuntimeError):
        account_delete(user=me)
    assert User.objects.filter(pk=me.pk).exists()
    assert EmailAddress.objects.filter(user=me).exists()
    assert SocialAccount.objects.filter(user=me).exists()


@pytest.mark.django_db
def test_the_last_active_administrator_is_kept():
    admin = UserFactory(is_superuser=True, is_staff=True)
    UserFactory(is_superuser=True, is_staff=True, is_active=False)
    with pytest.raises(AccountError, match="only administrator"):
        account_delete(user=admin)
    assert User.objects.filter(pk=admin.pk).exists()
