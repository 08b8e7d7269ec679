"""apps.core.html: the large pages (guide, topic, path, search) are sent as pure ASCII whatever
the text of the resources and sections they list, so that encoding them is a copy (see the
module); the text reads the same. What a page shows per request (its heading, a path's next up)
is small and may be beyond ASCII."""

import html

import pytest
from django.urls import reverse

from apps.catalog.models import Resource, Section
from apps.progress.models import Status
from apps.progress.services import progress_set_status
from tests.paths.conftest import learning_path  # noqa: F401 - the two-step path over `catalog`

pytestmark = pytest.mark.django_db

TITLE = "Attention — “explained” ↗ für Anfänger 🎉"


@pytest.fixture
def unicode_catalog(catalog, learning_path):  # noqa: F811
    shared = catalog["shared"]
    Resource.objects.filter(pk=shared.pk).update(title=TITLE, description="Ünïcode · everywhere …")
    Section.objects.filter(guide=catalog["guide"]).update(title="Grundlagen — Teil")
    shared.refresh_from_db()
    return catalog | {"path": learning_path, "shared": shared}


def test_main_pages_are_ascii_and_read_the_same(client, user, unicode_catalog):
    shared = unicode_catalog["shared"]
    progress_set_status(user=user, resource=shared, status=Status.DONE)  # its title is shared HTML only
    progress_set_status(user=user, resource=unicode_catalog["resources"][0], status=Status.IN_PROGRESS)  # next up
    pages = [
        unicode_catalog["guide"].get_absolute_url(),
        unicode_catalog["topic"].get_absolute_url(),
        unicode_catalog["path"].get_absolute_url(),
        reverse("catalog:search") + "?q=attention",
    ]
    anonymous = [client.get(url) for url in pages]
    client.force_login(user)
    for response in anonymous + [client.get(url) for url in pages]:
        assert response.status_code == 200
        assert response.content.isascii(), (response.request["PATH_INFO"], {c for c in response.content.decode() if ord(c) > 127})
    for response in anonymous[:4]:
        assert TITLE in html.unescape(response.content.decode())
    guide_page = html.unescape(client.get(unicode_catalog["guide"].get_absolute_url()).content.decode())
    assert "Grundlagen — Teil" in guide_page and f"Done: {TITLE}" in guide_page and "Ünïcode · everywhere …" in guide_page
