"""Back and Forward with the browser's back/forward cache on, as it is for people (Playwright turns
it off by default): a signed-in page restored from the cache reloads, so it shows the progress as
it is now (static/js/shortcuts.js). Without that reload the restored page shows the tick as it was."""

import pytest
from playwright.sync_api import expect

from apps.progress.models import Status
from apps.progress.services import progress_set_status
from tests.conftest import CHROMIUM_ARGS, _chromium_path, sign_in, tick
from tests.factories import EntryFactory, GuideFactory, ResourceFactory, SectionFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Records, across the reload, that the browser really restored a page from its cache.
NOTE_RESTORES = """
window.addEventListener("pageshow", (event) => {
  if (event.persisted) sessionStorage.setItem("restored", location.pathname);
});
"""


@pytest.fixture
def cached_page(playwright):
    browser = playwright.chromium.launch(
        executable_path=_chromium_path(),
        headless=True,
        args=CHROMIUM_ARGS,
        ignore_default_args=["--disable-back-forward-cache"],
    )
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.set_default_timeout(10_000)
    page.add_init_script(NOTE_RESTORES)
    yield page
    browser.close()


def test_a_page_restored_from_the_back_forward_cache_shows_current_progress(
    cached_page, live_server, settings
):
    # Chromium keeps a `no-store` page only while no cookie changes, and Django renews its CSRF
    # cookie on every page with a form; kept in the session instead, nothing changes.
    settings.CSRF_USE_SESSIONS = True
    page = cached_page
    guide = GuideFactory(slug="serving", title="Serving")
    section = SectionFactory(guide=guide, title="Batching")
    first, second = (
        EntryFactory(section=section, resource=ResourceFactory(title=title)).resource
        for title in ("Paged attention", "Continuous batching")
    )
    learner = UserFactory(email="ada@example.com")
    sign_in(page, live_server, learner)
    page.goto(f"{live_server.url}/topics/")  # the session gets its CSRF token
    page.goto(f"{live_server.url}/guides/serving/")
    expect(tick(page, "Paged attention")).to_have_attribute("aria-checked", "false")
    page.goto(f"{live_server.url}/topics/")
    progress_set_status(user=learner, resource=first, status=Status.DONE)  # another tab
    page.go_back(wait_until="commit")  # a restore from the cache fires no load event
    expect(page).to_have_url(f"{live_server.url}/guides/serving/")
    expect(tick(page, "Paged attention")).to_have_attribute("aria-checked", "true")
    expect(page.locator(f"#bar-guide-{guide.uuid}")).to_contain_text("1/2")
    assert page.evaluate("sessionStorage.getItem('restored')") == "/guides/serving/"
    expect(tick(page, second.title)).to_have_attribute("aria-checked", "false")


def test_a_visitors_page_restored_from_the_cache_is_not_reloaded(cached_page, live_server):
    page = cached_page
    GuideFactory(slug="serving", title="Serving")
    page.goto(f"{live_server.url}/guides/serving/")
    page.evaluate("window.stillHere = true")
    page.goto(f"{live_server.url}/topics/")
    page.go_back(wait_until="commit")  # a restore from the cache fires no load event
    expect(page).to_have_url(f"{live_server.url}/guides/serving/")
    assert page.evaluate("sessionStorage.getItem('restored')") == "/guides/serving/"
    assert page.evaluate("window.stillHere") is True  # restored as it was: nothing to refresh
