"""apps.core.sessions: database sessions loaded with one plain query, as Django's own would be."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.utils import timezone

from apps.core.sessions import SessionStore

pytestmark = pytest.mark.django_db


def test_settings_use_it():
    assert settings.SESSION_ENGINE == "apps.core.sessions"


def test_a_saved_session_loads_in_one_query(django_assert_num_queries):
    store = SessionStore()
    store["answer"] = 42
    store.create()
    with django_assert_num_queries(1):
        loaded = SessionStore(store.session_key).load()
    assert loaded == {"answer": 42}


def test_an_expired_or_unknown_session_loads_empty_and_drops_its_key():
    store = SessionStore()
    store["answer"] = 42
    store.create()
    Session.objects.filter(session_key=store.session_key).update(expire_date=timezone.now() - timedelta(seconds=1))
    for key in (store.session_key, "no-such-session-key-at-all", None):
        session = SessionStore(key)
        assert session.load() == {}
        assert session.session_key is None


def test_signing_in_and_out_through_the_site(client, django_user_model):
    user = django_user_model.objects.create_user("ada", "ada@example.com", "a long passphrase 1")
    client.force_login(user)
    assert client.get("/").context["user"] == user
    client.logout()
    assert not client.get("/").context["user"].is_authenticated
