"""A curator edits the catalog in the real admin, under the real CSP; a learner sees the change."""

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from playwright.sync_api import expect

from apps.curation.permissions import CURATORS_GROUP
from tests.factories import NumberedEntryFactory as EntryFactory

PASSWORD = "a long and unusual passphrase 42"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_curator_renames_a_resource_and_learners_see_the_new_title(page, live_server):
    console_errors = []
    page.on(
        "console",
        lambda message: console_errors.append(message.text) if message.type == "error" else None,
    )
    curator = get_user_model().objects.create_user(
        username="cora", email="cora@example.com", password=PASSWORD, is_staff=True
    )
    curator.groups.add(Group.objects.get(name=CURATORS_GROUP))
    EmailAddress.objects.create(user=curator, email=curator.email, verified=True, primary=True)
    resource = EntryFactory(resource__title="Atention is all you need").resource

    page.goto(
        f"{live_server.url}/admin/"
    )  # staff sign in through the site's sign-in (rate limited)
    page.wait_for_url(f"{live_server.url}/accounts/login/**")
    page.get_by_label("Email").fill("cora@example.com")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in", exact=True).click()
    page.wait_for_url(f"{live_server.url}/admin/")
    assert page.get_by_role("link", name="Resources").first.is_visible()
    assert page.get_by_role("link", name="Users").count() == 0

    page.get_by_role("link", name="Resources").first.click()
    page.get_by_role("link", name="Atention is all you need").click()
    expect(page.locator("#content-main")).to_contain_text(
        "Recent changes"
    )  # waits for the page, as a person does
    page.get_by_role("textbox", name="Title:", exact=True).fill("Attention Is All You Need")
    page.get_by_role("button", name="Save", exact=True).first.click()
    page.wait_for_url(f"{live_server.url}/admin/catalog/resource/")
    assert "was changed successfully" in page.locator(".messagelist").inner_text()

    learner = page.context.browser.new_context()
    try:
        learner_page = learner.new_page()
        learner_page.goto(f"{live_server.url}{resource.get_absolute_url()}")
        assert (
            learner_page.get_by_role("heading", level=1).inner_text().strip()
            == "Attention Is All You Need"
        )
    finally:
        learner.close()
    assert console_errors == [], "no CSP violations or script errors in the admin"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_section_autocomplete_tells_alike_sections_apart(page, live_server):
    from tests.conftest import sign_in
    from tests.factories import GuideFactory
    from tests.factories import NumberedSectionFactory as SectionFactory

    curator = get_user_model().objects.create_user(
        username="cora", email="cora@example.com", password=PASSWORD, is_staff=True
    )
    curator.groups.add(Group.objects.get(name=CURATORS_GROUP))
    llm, systems = GuideFactory(title="LLM Engineering"), GuideFactory(title="Systems")
    training = SectionFactory(guide=llm, number="05", title="Training")
    SectionFactory(guide=llm, parent=training, title="Tier 2", depth=1)
    SectionFactory(guide=systems, title="Tier 2")
    entry = EntryFactory(section=training)
    sign_in(page, live_server, curator)

    page.goto(f"{live_server.url}/admin/catalog/entry/{entry.pk}/change/")
    expect(page.locator(".field-section .select2-selection__rendered")).to_have_text(
        "LLM Engineering › 05 Training"
    )
    page.locator(".field-section .select2-selection").click()
    page.locator(".select2-search__field").fill("tier 2")
    options = page.locator(".select2-results__option")
    expect(options).to_have_text(["LLM Engineering › 05 Training › Tier 2", "Systems › Tier 2"])
