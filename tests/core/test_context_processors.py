"""The layout (base.html, apps.core.context_processors): its links, looked up once and right wherever the app
is mounted, and what each page still gets right for itself though its parts are made once."""

import re

import pytest
from django.test import Client
from django.urls import set_script_prefix

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def links(html) -> set[str]:
    return set(re.findall(r'(?:href|src|action)="([^"]+)"', html))


@pytest.mark.parametrize(
    "url", ["/topics/", "/accounts/login/", "/accounts/signup/"]
)  # ours and allauth's
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
    set_script_prefix(
        "/syllabus/"
    )  # as the WSGI handler does from SCRIPT_NAME (the test client does not)
    try:
        mounted = links(client.get("/topics/").content.decode())
    finally:
        set_script_prefix("/")
    assert {"/syllabus/", "/syllabus/topics/", "/syllabus/paths/", "/syllabus/search/"} <= mounted
    assert "/syllabus/topics/" not in links(
        client.get("/topics/").content.decode()
    )  # and back, per request


def current_nav(html) -> list[str]:
    nav = html.split('aria-label="Main"', 1)[1].split("</nav>", 1)[0]
    return re.findall(r'aria-current="page">([^<]+)<', nav)


@pytest.mark.parametrize(
    ("url", "current"),
    [
        ("/", ["Guides"]),
        ("/topics/", ["Topics"]),
        ("/paths/", ["Paths"]),
        ("/search/", []),
        ("/accounts/login/", []),
    ],
)
def test_the_nav_marks_the_section_of_the_page(client, url, current):
    assert current_nav(client.get(url).content.decode()) == current


@pytest.mark.parametrize(
    ("url", "current"),
    [
        ("/", ["Dashboard"]),  # a learner's home is their dashboard
        ("/dashboard/", ["Dashboard"]),
        ("/dashboard/notes/", ["Dashboard"]),
        ("/guides/", ["Guides"]),
        ("/topics/", ["Topics"]),
    ],
)
def test_signed_in_the_dashboard_has_its_own_nav_item(client, url, current):
    client.force_login(UserFactory())
    html = client.get(url).content.decode()
    assert current_nav(html) == current
    assert '<a href="/dashboard/"' in html.split('aria-label="Main"', 1)[1].split("</nav>", 1)[0]


def test_visitors_get_no_dashboard_item(client):
    assert "Dashboard" not in client.get("/topics/").content.decode()


def test_the_account_corner_escapes_the_learners_email(client):
    client.force_login(UserFactory(email='ada"<b>@example.com'))
    html = client.get("/topics/").content.decode()
    assert "<b>" not in html
    assert 'title="Your account (ada&quot;&lt;b&gt;@example.com)"' in html


def test_the_logout_form_carries_a_token_csrf_protection_accepts():
    user = UserFactory()
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(user)
    html = strict.get("/topics/").content.decode()
    # The logout form's and the language switcher's: one token, masked once per page.
    [token] = set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', html))
    assert (
        f'"X-CSRFToken": "{token}"' in html
    )  # htmx's header: the same token, masked once per page
    assert strict.post("/accounts/logout/", {"csrfmiddlewaretoken": token}).status_code == 302
    assert "_auth_user_id" not in strict.session
    assert (
        strict.post("/accounts/logout/", {"csrfmiddlewaretoken": "forged" * 8}).status_code == 403
    )


def test_a_message_shows_once_in_the_layout(client):
    client.force_login(UserFactory())
    assert 'class="container messages"' not in client.get("/topics/").content.decode()
    html = client.post("/accounts/logout/", follow=True).content.decode()  # allauth says goodbye
    assert 'class="container messages" role="status"' in html and "You have signed out." in html
    assert 'class="container messages"' not in client.get("/topics/").content.decode()
