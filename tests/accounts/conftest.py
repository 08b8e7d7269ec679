"""Personas for the account tests: me, and another learner who must never reach my account."""

import pytest
from django.core.cache import cache

from tests.accounts.factories import PASSWORD, UserFactory


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    """allauth counts attempts in the default cache; a locmem cache would carry them from test to test."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def password():
    return PASSWORD


@pytest.fixture
def me(db):
    return UserFactory(username="me", email="me@example.com")


@pytest.fixture
def someone_else(db):
    return UserFactory(username="someone", email="someone@example.com")


@pytest.fixture
def my_client(client, me):
    client.force_login(me)
    return client
