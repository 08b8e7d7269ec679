import pytest
from allauth.account.models import EmailAddress
from allauth.socialaccount.models import SocialAccount
from django.contrib.auth import get_user_model

from apps.accounts.services import AccountError, account_delete
from tests.factories import UserFactory

User = get_user_model()


@pytest.mark.django_db
def test_account_delete_removes_the_user_and_their_login_identities(learner, other_learner):
    SocialAccount.objects.create(user=learner, provider="github", uid="1")
    account_delete(user=learner)
    assert not User.objects.filter(pk=learner.pk).exists()
    assert not EmailAddress.objects.filter(email=learner.email).exists()
    assert not SocialAccount.objects.filter(uid="1").exists()
    assert EmailAddress.objects.filter(user=other_learner).exists()


@pytest.mark.django_db
def test_account_delete_is_all_or_nothing(learner, monkeypatch):
    SocialAccount.objects.create(user=learner, provider="github", uid="1")

    def fail(self, *args, **kwargs):
        raise RuntimeError("database went away")

    monkeypatch.setattr(User, "delete", fail)
    with pytest.raises(RuntimeError):
        account_delete(user=learner)
    assert User.objects.filter(pk=learner.pk).exists()
    assert EmailAddress.objects.filter(user=learner).exists()
    assert SocialAccount.objects.filter(user=learner).exists()


@pytest.mark.django_db
def test_the_last_active_administrator_is_kept():
    admin = UserFactory(is_superuser=True, is_staff=True)
    UserFactory(is_superuser=True, is_staff=True, is_active=False)
    with pytest.raises(AccountError, match="only administrator"):
        account_delete(user=admin)
    assert User.objects.filter(pk=admin.pk).exists()
