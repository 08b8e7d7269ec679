"""URL identity has one owner, the model: Resource and ResourceLink keep ``url_key`` (the
importer's ``normalize_url``) on save, and every match (progress import, importer, the admin's
duplicate check, merge) compares it, however the URL was typed."""

import importlib
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.db import connection
from django.urls import reverse

from apps.catalog.importer import plan_import
from apps.catalog.models import Resource, ResourceLink
from apps.progress.imports import import_plan
from apps.progress.models import Status
from tests.curation.admin_forms import change_form_data
from tests.factories import NumberedEntryFactory as EntryFactory
from tests.factories import ResourceFactory, make_user

pytestmark = pytest.mark.django_db


def test_an_extra_link_added_in_the_admin_inline_is_found_by_a_progress_import(curator_client):
    resource = EntryFactory(resource__url="https://example.com/paper").resource
    url = reverse("admin:catalog_resource_change", args=[resource.pk])
    data = change_form_data(curator_client.get(url))
    data |= {
        "links-TOTAL_FORMS": "1",
        "links-0-url": "HTTPS://Example.com:443/Paper-Code/?utm_source=feed",
        "links-0-label": "Code",
        "links-0-position": "1",
    }
    response = curator_client.post(url, data)
    assert response.status_code == 302, response.context and response.context["errors"]
    link = ResourceLink.objects.get(resource=resource)
    assert link.url_key == "https://example.com/Paper-Code"

    learner = make_user("lea@example.com")
    for written in ("https://example.com/Paper-Code", "https://example.com/Paper-Code/"):
        plan = import_plan(user=learner, content=f"- [x] [The code]({written})\n")
        assert [(c.resource, c.new) for c in plan.changes] == [(resource, Status.DONE)], written


def test_a_resource_saved_with_a_url_as_typed_is_matched_by_its_normal_form():
    resource = EntryFactory(resource__url="https://Example.com/Post/?utm_source=x").resource
    assert resource.url_key == "https://example.com/Post"
    plan = import_plan(
        user=make_user("lea@example.com"), content="- [x] [Post](https://example.com/Post)\n"
    )
    assert [c.resource for c in plan.changes] == [resource]


def test_the_importer_finds_a_resource_and_an_extra_link_stored_as_typed():
    resource = ResourceFactory(url="https://Example.com/paper/")
    linked = ResourceFactory(url="https://example.com/other")
    # a mirror: the resource's own work, so the list's link means that resource
    ResourceLink.objects.create(
        resource=linked, url="https://EXAMPLE.com/tools/repo/?ref=hn", label="Mirror"
    )
    plan = plan_import(
        "# Papers\n\n- [Paper](https://example.com/paper)\n- [Serving tool](https://example.com/tools/repo)\n",
        guide_slug="papers",
        title="Papers",
    )
    assert {p.url: p.existing_id for p in plan.resources} == {
        "https://example.com/paper": resource.pk,
        "https://example.com/tools/repo": linked.pk,
    }


def test_the_admin_form_refuses_a_url_another_resource_holds_in_another_form(curator_client):
    ResourceFactory(title="First", url="https://Example.com/paper/")
    response = curator_client.post(
        reverse("admin:catalog_resource_add"),
        {"title": "Second", "kind": "paper", "url": "https://example.com/paper?utm_source=x"},
    )
    assert response.status_code == 200
    assert "This URL is already the resource" in response.content.decode()


def test_the_migration_fills_the_key_of_existing_rows():
    resource = ResourceFactory(url="https://Example.com/paper/")
    link = ResourceLink.objects.create(resource=resource, url="https://example.com/code/")
    Resource.objects.update(url_key="")  # as the rows were before the column existed
    ResourceLink.objects.update(url_key="")
    migration = importlib.import_module("apps.catalog.migrations.0005_resource_url_key")
    migration.fill_url_keys(apps, SimpleNamespace(connection=connection))
    resource.refresh_from_db(), link.refresh_from_db()
    assert (resource.url_key, link.url_key) == (
        "https://example.com/paper",
        "https://example.com/code",
    )
