"""The API tests' catalog (the progress tests' two guides, a topic, a path) and tokens."""

import pytest
from django.test import Client

from apps.api.services import token_create
from tests.paths.conftest import learning_path  # noqa: F401 - shared fixture
from tests.progress.conftest import catalog  # noqa: F401 - shared fixture


@pytest.fixture(autouse=True)
def _no_rate_limit_history():
    """Each test starts with no request counted (the limit lives in the cache)."""
    from django.core.cache import cache

    cache.clear()


def bearer(secret):
    return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}


@pytest.fixture
def token(learner):
    """Ada's token's secret."""
    return token_create(user=learner, name="laptop script")[1]


@pytest.fixture
def other_token(other_learner):
    """Eve's."""
    return token_create(user=other_learner, name="eve's script")[1]


@pytest.fixture
def api(token):
    """A client calling the API with Ada's token (no session, no cookie)."""
    client = Client()
    client.defaults.update(bearer(token))
    return client
