"""apps.accounts.sessions and .auth: a session is read with its user in one query, and Django's
checks on that user (active, session hash) still decide who is signed in."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.accounts.models import Session
from apps.accounts.sessions import SessionStore

pytestmark = pytest.mark.django_db



@pytest.fixture
def ada(me):
    return me


def signed_in_user(client):
    """Who the site thinks `client` is, and how many queries it took to find out."""
    with CaptureQueriesContext(connection) as queries:
        user = client.get("/topics/").context["user"]
    return user, [q["sql"] for q in queries.captured_queries]


def test_settings_use_it():
    assert settings.SESSION_ENGINE == "apps.accounts.sessions"
    assert settings.AUTHENTICATION_BACKENDS == ["apps.accounts.auth.ModelBackend", "apps.accounts.auth.AuthenticationBackend"]
    assert "apps.accounts.auth.AuthenticationMiddleware" in settings.MIDDLEWARE


def test_a_saved_session_loads_with_its_user_in_one_query(ada, django_assert_num_queries):
    store = SessionStore()
    store[SESSION_KEY] = str(ada.pk)
    store.create()
    assert Session.objects.get(session_key=store.session_key).user_id == ada.pk
    with django_assert_num_queries(1):
        loaded = SessionStore(store.session_key)
        assert loaded[SESSION_KEY] == str(ada.pk)
        user = loaded.user
    assert user == ada
    assert (user.username, user.email, user.is_active, user.date_joined) == (ada.username, ada.email, True, ada.date_joined)
    assert user.date_joined.tzinfo is not None


def test_a_session_without_a_user_has_none():
    store = SessionStore()
    store["answer"] = 42
    store.create()
    loaded = SessionStore(store.session_key)
    assert loaded["answer"] == 42
    assert loaded.user is None
    assert Session.objects.get(session_key=store.session_key).user_id is None


def test_an_expired_or_unknown_session_loads_empty_and_drops_its_key(ada):
    store = SessionStore()
    store[SESSION_KEY] = str(ada.pk)
    store.create()
    Session.objects.filter(session_key=store.session_key).update(expire_date=timezone.now() - timedelta(seconds=1))
    for key in (store.session_key, "no-such-session-key-at-all", None):
        session = SessionStore(key)
        assert session.user is None
        assert session.load() == {}
        assert session.session_key is None


def test_a_signed_in_page_finds_its_user_without_a_query_of_its_own(client, ada):
    client.force_login(ada)
    user, queries = signed_in_user(client)
    assert user == ada
    assert not any('"auth_user"' in sql and "accounts_session" not in sql for sql in queries), queries


def test_signing_in_and_out_through_the_site(client, ada, password):
    response = client.post("/accounts/login/", {"login": ada.email, "password": password})
    assert response.status_code == 302
    assert signed_in_user(client)[0] == ada
    assert Session.objects.get(session_key=client.session.session_key).user_id == ada.pk
    client.post("/accounts/logout/")
    assert not signed_in_user(client)[0].is_authenticated
    assert not Session.objects.filter(user=ada).exists()


def test_a_deactivated_user_is_signed_out(client, ada):
    client.force_login(ada)
    type(ada).objects.filter(pk=ada.pk).update(is_active=False)
    assert not signed_in_user(client)[0].is_authenticated


def test_a_password_change_elsewhere_signs_the_session_out(client, ada):
    client.force_login(ada)
    ada.set_password("another long passphrase 2")
    ada.save()
    assert not signed_in_user(client)[0].is_authenticated


def test_a_session_naming_another_user_than_its_row_gets_that_user_checked_by_query(client, ada, someone_else):
    """The row read with the session is only offered for the user the session names."""
    grace = someone_else
    client.force_login(ada)
    Session.objects.filter(session_key=client.session.session_key).update(user=grace)
    user, queries = signed_in_user(client)
    assert user == ada
    assert any('"auth_user"' in sql and "accounts_session" not in sql for sql in queries)


def test_deleting_a_user_deletes_their_sessions(client, ada):
    client.force_login(ada)
    ada.delete()
    assert not Session.objects.exists()
    assert not signed_in_user(client)[0].is_authenticated
