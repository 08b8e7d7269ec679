"""Browser tests' shared people."""

import pytest

from tests.conftest import sign_in


@pytest.fixture
def learner(learner, page, live_server):
    """The learner (tests/conftest.py), signed in in the test's browser page."""
    sign_in(page, live_server, learner)
    return learner
