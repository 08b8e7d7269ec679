"""Personas for the curation tests: a superuser, a curator (staff in the Curators group) and a
learner (not staff), the one who must be refused."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from apps.curation.permissions import CURATORS_GROUP

PASSWORD = "correct horse battery staple"


def make_user(email, **extra):
    return get_user_model().objects.create_user(
        username=email, email=email, password=PASSWORD, **extra
    )


@pytest.fixture
def curator(db):
    user = make_user("cora@example.com", is_staff=True)
    user.groups.add(Group.objects.get(name=CURATORS_GROUP))
    return user


@pytest.fixture
def learner(db):
    return make_user("lea@example.com")


@pytest.fixture
def superuser(db):
    return get_user_model().objects.create_superuser(
        username="root@example.com", email="root@example.com", password=PASSWORD
    )


@pytest.fixture
def curator_client(client, curator):
    client.force_login(curator)
    return client


@pytest.fixture
def learner_client(client, learner):
    client.force_login(learner)
    return client
