"""The groups tests' people and group: Ada (`learner`) owns "Kernel club", which works through
the path `learning_path` and the guide `alpha`; Bob is a member; Eve (`other_learner`) is the
outsider who must be refused everywhere."""

import pytest
from django.test import Client

from apps.groups import services
from apps.groups.models import Membership
from tests.factories import UserFactory
from tests.paths.conftest import learning_path  # noqa: F401 - shared fixture
from tests.progress.conftest import catalog  # noqa: F401 - shared fixture


@pytest.fixture
def bob(db):
    return UserFactory(username="bob", email="bob@example.com")


@pytest.fixture
def group(learner, bob, catalog, learning_path):  # noqa: F811 - fixtures, by name
    group = services.group_create(
        user=learner,
        name="Kernel club",
        description="We read kernels on Tuesdays.",
        paths=[learning_path],
        guides=[catalog["guide"]],
    )
    Membership.objects.create(group=group, user=bob)
    return group


@pytest.fixture
def bob_client(bob):
    client = Client()
    client.force_login(bob)
    return client


@pytest.fixture
def eve_client(other_learner):
    client = Client()
    client.force_login(other_learner)
    return client
