"""Pages and htmx fragments are sent gzipped to a client that accepts it (GZipMiddleware), and
decode to the very HTML an uncompressed answer holds."""

import gzip
import re

import pytest

from apps.progress.models import Status
from tests.progress.conftest import catalog  # noqa: F401 - fixture, by name

# The per-response parts of a page: the masked CSRF token and the CSP nonce.
_PER_RESPONSE = re.compile(r'(?<=")[A-Za-z0-9]{64}(?=")|(?<=nonce=")[^"]+(?=")')


def _same_page(a: bytes, b: bytes) -> bool:
    return _PER_RESPONSE.sub("", a.decode()) == _PER_RESPONSE.sub("", b.decode())


def _decoded(response) -> bytes:
    assert response["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in response["Vary"]
    return gzip.decompress(response.content)


@pytest.mark.django_db
def test_a_page_is_gzipped_for_a_client_that_accepts_it(client, learner, catalog):  # noqa: F811
    client.force_login(learner)
    url = catalog["guide"].get_absolute_url()
    plain = client.get(url)
    assert plain.status_code == 200 and not plain.has_header("Content-Encoding")
    zipped = client.get(url, headers={"Accept-Encoding": "gzip, deflate, br, zstd"})
    html = _decoded(zipped)
    assert _same_page(html, plain.content)
    assert len(zipped.content) < len(plain.content) / 2


@pytest.mark.django_db
def test_a_visitors_page_is_gzipped_too(client, catalog):  # noqa: F811
    zipped = client.get("/", headers={"Accept-Encoding": "gzip"})
    assert _same_page(_decoded(zipped), client.get("/").content)


@pytest.mark.django_db
def test_an_htmx_fragment_is_gzipped(client, learner, catalog):  # noqa: F811
    from django.urls import reverse

    client.force_login(learner)
    resource, guide = catalog["resources"][0], catalog["guide"]
    url = reverse("learning:progress-set", args=[resource.uuid])
    data = {"status": Status.DONE, "scope": f"guide:{guide.uuid}"}
    htmx = {"HX-Request": "true", "Accept-Encoding": "gzip"}
    zipped = client.post(url, data, headers=htmx)
    assert zipped.status_code == 200
    html = _decoded(zipped)
    assert f"Done: {resource.title}" in html.decode()
    # the same answer again (the tick is idempotent), uncompressed
    plain = client.post(url, data, headers={"HX-Request": "true"})
    assert _same_page(html, plain.content)
