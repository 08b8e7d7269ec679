"""A resource merged into another: its old page answers with a permanent redirect to the
survivor's, as long as learners may see the survivor (it is listed in a published guide)."""

import uuid

import pytest
from django.urls import reverse

from apps.catalog.models import Resource
from apps.curation.services import resource_merge
from tests.factories import EntryFactory, ResourceFactory, UserFactory

pytestmark = pytest.mark.django_db


def page(resource_uuid):
    return reverse("learning:resource-detail", args=[resource_uuid])


@pytest.fixture
def merged():
    survivor, duplicate = (
        EntryFactory(resource__title="Keep").resource,
        ResourceFactory(title="Dup"),
    )
    resource_merge(survivor=survivor, duplicates=[duplicate])
    return survivor, duplicate.uuid


@pytest.mark.parametrize("signed_in", [False, True])
def test_a_merged_away_page_redirects_for_good_to_the_survivor(client, merged, signed_in):
    survivor, old_uuid = merged
    if signed_in:
        client.force_login(UserFactory())
    response = client.get(page(old_uuid))
    assert response.status_code == 301
    assert response["Location"] == page(survivor.uuid)
    assert client.get(response["Location"]).status_code == 200


def test_every_uuid_of_a_chain_of_merges_redirects_to_the_last_survivor(client):
    a, b, c = ResourceFactory(), ResourceFactory(), EntryFactory().resource
    resource_merge(survivor=b, duplicates=[a])
    resource_merge(survivor=c, duplicates=[b])
    for old in (a.uuid, b.uuid):
        response = client.get(page(old))
        assert (response.status_code, response["Location"]) == (301, page(c.uuid))


def test_an_unpublished_survivor_is_not_revealed_by_the_old_address(client, merged):
    survivor, old_uuid = merged
    Resource.objects.filter(pk=survivor.pk).update(is_published=False)
    assert client.get(page(old_uuid)).status_code == 404
    assert client.get(page(survivor.uuid)).status_code == 404


def test_an_unknown_uuid_is_still_not_found(client, merged):
    assert client.get(page(uuid.uuid4())).status_code == 404


def test_the_redirect_costs_few_queries(client, merged, django_assert_num_queries):
    _survivor, old_uuid = merged
    client.get(page(old_uuid))  # warm the shared memo, as a running site has it
    # The content token, the published resource (none), the alias; the survivor is in the memo.
    with django_assert_num_queries(3):
        assert client.get(page(old_uuid)).status_code == 301
