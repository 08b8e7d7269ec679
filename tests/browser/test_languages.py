"""A browser set to Chinese sees the Chinese interface; the footer's switcher takes it back to
English, and a learner's choice is kept on their account."""

import pytest
from django.urls import reverse

from apps.accounts.models import Preferences
from tests.conftest import sign_in
from tests.factories import UserFactory, listed_resource


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_chinese_browser_sees_chinese_and_switches_to_english(browser, live_server):
    listed_resource(title="Attention Is All You Need", kind="paper")
    context = browser.new_context(locale="zh-CN")
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        page.goto(live_server.url + reverse("learning:guide-list"))
        assert page.locator("html").get_attribute("lang") == "zh-hans"
        switcher = page.get_by_role("combobox", name="语言")
        assert switcher.locator("option:checked").inner_text() == "简体中文"

        switcher.select_option("en")
        page.get_by_role("button", name="切换").click()
        page.wait_for_url(live_server.url + reverse("learning:guide-list"))
        assert page.locator("html").get_attribute("lang") == "en"
        assert page.get_by_role("combobox", name="Language").input_value() == "en"

        page.goto(live_server.url + reverse("learning:guide-list"))  # kept by the cookie
        assert page.locator("html").get_attribute("lang") == "en"
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_learner_saves_chinese_on_the_account_page(browser, live_server):
    learner = UserFactory(email="ada@example.com")
    context = browser.new_context(locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        sign_in(page, live_server, learner)
        page.goto(live_server.url + reverse("accounts:account"))
        page.locator("#account-language").locator("xpath=..").get_by_role(
            "combobox", name="Language"
        ).select_option("zh-hans")
        page.get_by_role("button", name="Save language").click()
        assert page.locator("html").get_attribute("lang") == "zh-hans"
        assert page.get_by_text("语言已保存：简体中文。").is_visible()
        assert Preferences.objects.get(user=learner).language == "zh-hans"
    finally:
        context.close()
