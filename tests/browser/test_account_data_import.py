""" "Download all my data" with an own path and pins, brought into a fresh account in a real
browser: the preview says what it adds, the dashboard shows the pins again, and a link another
learner uses comes back unpublished with the import's message."""

import pytest
from playwright.sync_api import expect

from apps.learning.services import pin_set
from apps.paths.models import OwnPath
from apps.paths.services import own_item_add, own_path_update
from apps.progress.services import own_resource_save
from tests.conftest import sign_in
from tests.factories import EntryFactory, GuideFactory, SectionFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def brought(learner):
    guide = GuideFactory(slug="inference", title="Inference Engineering")
    entry = EntryFactory(section=SectionFactory(guide=guide, title="Serving"))
    own_resource_save(
        user=learner, url="https://example.org/my-notes", title="My notes", kind="notes"
    )
    path = OwnPath.objects.create(owner=learner, title="My serving plan", notes="private")
    own_item_add(path=path, resource=entry.resource)
    own_path_update(path=path, slug="serving-plan", published=True)
    pin_set(user=learner, pinned=True, guide=guide)
    pin_set(user=learner, pinned=True, own_path=path)
    return path


def test_an_account_file_brings_own_paths_and_pins_into_a_fresh_account(
    page, live_server, learner, brought, tmp_path
):
    page.goto(f"{live_server.url}/account/")
    with page.expect_download() as info:
        page.get_by_role("link", name="Download all my data").click()
    saved = tmp_path / "data.json"
    info.value.save_as(saved)

    fresh = UserFactory(email="fresh@example.com")
    page.context.clear_cookies()
    sign_in(page, live_server, fresh)
    page.goto(f"{live_server.url}/progress/import/")
    page.get_by_label("File").set_input_files(saved)
    page.get_by_role("button", name="Preview").click()
    preview = page.get_by_role("region", name="Preview")
    expect(preview).to_contain_text("1 of your own paths will be added: “My serving plan”.")
    expect(preview).to_contain_text("2 pins will be restored to your dashboard")
    expect(preview).to_contain_text("One of your own resources will be saved or updated: My notes")
    expect(preview).not_to_contain_text("Nothing to change")
    page.get_by_role("button", name="Apply the import").click()
    expect(page.get_by_role("status")).to_contain_text(
        "Imported: 0 resources updated. 1 own resource saved or updated. Your paths, pins and "
        "What's new are as the preview said."
    )

    # Ada still has the link: Fresh's copy comes back unpublished, and says so.
    expect(page.get_by_role("status")).to_contain_text("had the link “serving-plan”")
    mine = OwnPath.objects.get(owner=fresh)
    assert (mine.title, mine.notes, mine.published, mine.slug) == (
        "My serving plan",
        "private",
        False,
        None,
    )
    pinned = page.get_by_role("region", name="Pinned")  # the import lands on the dashboard
    expect(pinned.get_by_role("link", name="Inference Engineering")).to_be_visible()
    expect(pinned.get_by_role("link", name="My serving plan")).to_be_visible()
