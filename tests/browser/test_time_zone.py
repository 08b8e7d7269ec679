"""The browser's time zone reaches the server: its days are the learner's."""

import pytest
from django.urls import reverse

from tests.conftest import sign_in
from tests.factories import UserFactory


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_browsers_time_zone_is_picked_up(browser, live_server):
    context = browser.new_context(timezone_id="Pacific/Auckland")
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        sign_in(page, live_server, UserFactory(email="ada@example.com"))
        page.goto(live_server.url + reverse("learning:dashboard"))
        cookies = {cookie["name"]: cookie["value"] for cookie in context.cookies()}
        assert cookies.get("tz") == "Pacific/Auckland"

        page.goto(live_server.url + reverse("accounts:account"))
        zone = page.get_by_role("combobox", name="Time zone")
        assert zone.input_value() == ""  # nothing saved: the browser's
        assert "Your browser's (Pacific/Auckland)" in zone.locator("option:checked").inner_text()
    finally:
        context.close()
