"""Browser tests' shared people."""

import pytest

from tests.conftest import sign_in
from tests.factories import UserFactory


@pytest.fixture
def learner(page, live_server):
    """A learner signed in in the test's browser page."""
    user = UserFactory(email="ada@example.com")
    sign_in(page, live_server, user)
    return user
