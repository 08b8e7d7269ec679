"""An own resource added to an own path from "Your own resources" in a real browser, with and
without JavaScript, seen in the path at desktop and phone widths; a visitor of the published path
never sees it."""

import pytest
from playwright.sync_api import expect

from apps.paths import services
from apps.paths.models import OwnPath, OwnStepItem
from apps.progress import services as progress_services
from tests.browser.test_own_paths import _screens
from tests.conftest import sign_in
from tests.factories import EntryFactory, GuideFactory, ResourceFactory, SectionFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MINE = "Warp scheduling, my notes"


@pytest.fixture
def setup(learner):
    guide = GuideFactory(slug="inference", title="Inference Engineering")
    section = SectionFactory(guide=guide, title="Serving")
    catalog = ResourceFactory(title="Paper 00")
    EntryFactory(section=section, resource=catalog)
    path = services.own_path_create(user=learner, title="Serving, my way")
    services.own_item_add(path=path, resource=catalog)
    own = progress_services.own_resource_save(
        user=learner, url="https://example.org/warps", title=MINE, kind="video", author="Me"
    ).own
    return path, own


def _add_from_my_resources(page, live_server):
    page.goto(f"{live_server.url}/my/resources/")
    row = page.locator("li.own-row", has_text=MINE)
    row.get_by_role("link", name="Add to my path…").click()
    expect(page.get_by_role("heading", name="Add to my path")).to_be_visible()
    page.get_by_label("Serving, my way").check()
    page.get_by_role("button", name="Add").click()
    expect(page.get_by_role("heading", name="Edit “Serving, my way”")).to_be_visible()
    expect(page.locator("#own-summary")).to_contain_text("1 step · 2 resources")


def test_add_an_own_resource_from_my_resources_and_see_it_in_the_path(
    page, live_server, learner, setup, other_learner, browser
):
    path, own = setup
    _add_from_my_resources(page, live_server)
    assert OwnStepItem.objects.filter(step__path=path, resource=own.resource).exists()
    page.get_by_role("link", name="Follow it: next up and pace").click()
    item = page.locator(".own-items li", has_text=MINE)
    expect(item.locator(".badge--own")).to_have_text("Yours")
    for width in (1280, 390):  # desktop and phone: the item and its mark fit the screen
        page.set_viewport_size({"width": width, "height": 900})
        expect(item).to_be_visible()
        box = item.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= width
    page.set_viewport_size({"width": 1280, "height": 900})
    _screens(page, "own-path-own-resource")
    page.goto(f"{live_server.url}/my/resources/")
    _screens(page, "own-resources-add-to-path")
    page.goto(f"{live_server.url}/my/paths/{path.uuid}/edit/?q=warp")
    expect(page.locator(".own-found")).to_contain_text(MINE)
    _screens(page, "own-path-editor-own-found")

    # Published: another learner sees the catalog's resource only, with its numbers.
    services.own_path_update(path=OwnPath.objects.get(pk=path.pk), slug="serving", published=True)
    context = browser.new_context()
    eve = context.new_page()
    sign_in(eve, live_server, other_learner)
    eve.goto(f"{live_server.url}/p/serving/")
    expect(eve.locator(".own-items")).to_contain_text("Paper 00")
    expect(eve.locator(".page-header .meta")).to_contain_text("1 step · 1 resource ·")
    assert MINE not in eve.content()
    context.close()


def test_add_an_own_resource_without_javascript(browser, live_server, learner, setup):
    path, own = setup
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 800})
    page = context.new_page()
    sign_in(page, live_server, learner)
    _add_from_my_resources(page, live_server)
    page.goto(f"{live_server.url}/my/paths/{path.uuid}/")
    expect(page.locator(".own-items li", has_text=MINE)).to_be_visible()
    assert OwnStepItem.objects.filter(step__path=path, resource=own.resource).exists()
    context.close()
