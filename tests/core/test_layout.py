"""The layout's links (apps.core.context_processors.layout): looked up once, right wherever the app is mounted."""

import re

import pytest
from django.urls import set_script_prefix

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def links(html) -> set[str]:
    return set(re.findall(r'(?:href|src|action)="([^"]+)"', html))


@pytest.mark.parametrize("url", ["/topics/", "/accounts/login/", "/accounts/signup/"])  # ours and allauth's
def test_every_page_links_the_sections_its_assets_and_signing_in(client, url):
    html = client.get(url).content.decode()
    assert {"/", "/topics/", "/paths/", "/search/", "/accounts/login/"} <= links(html)
    assert any(re.fullmatch(r"/static/css/app(\.\w+)?\.css", link) for link in links(html))
    # htmx is served by us, without a nonce the CSP would not use anyway.
    [htmx] = re.findall(r"<script [^>]*htmx[^>]*>", html)
    assert 'src="/static/django_htmx/' in htmx and "nonce" not in htmx


def test_signed_in_pages_link_the_account_and_signing_out(client):
    client.force_login(UserFactory())
    assert {"/account/", "/accounts/logout/"} <= links(client.get("/topics/").content.decode())


def test_links_follow_the_prefix_the_app_is_mounted_at(client):
    set_script_prefix("/syllabus/")  # as the WSGI handler does from SCRIPT_NAME (the test client does not)
    try:
        mounted = links(client.get("/topics/").content.decode())
    finally:
        set_script_prefix("/")
    assert {"/syllabus/", "/syllabus/topics/", "/syllabus/paths/", "/syllabus/search/"} <= mounted
    assert "/syllabus/topics/" not in links(client.get("/topics/").content.decode())  # and back, per request
