"""In a real browser: the bookmarklet opens the save page prefilled, saving there lands the link
in "Your own resources", a status is set by htmx; with JavaScript off the same works by plain
forms; a link in the catalog shows its tick instead. Screenshots at phone and desktop widths,
light and dark (artifacts/screenshots/own-*.png)."""

import os
from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import expect

from apps.progress import services
from apps.progress.models import OwnResource, Progress, Status
from tests.conftest import CHROMIUM_ARGS, sign_in  # noqa: F401 - the launch flags, documented
from tests.factories import listed_resource

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _bookmarklet_code(page):
    href = page.get_by_role("link", name="Save to Syllabus").get_attribute("href")
    assert href.startswith("javascript:")
    return href.removeprefix("javascript:")


def test_the_bookmarklet_saves_a_page_and_htmx_sets_its_status(page, live_server, learner):
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{live_server.url}/my/resources/")
    code = _bookmarklet_code(page)
    # the bookmarklet run on a page (here the guides page, whose title it carries along)
    page.goto(f"{live_server.url}/guides/")
    title = page.title()
    page.evaluate(code)
    page.wait_for_url("**/my/resources/save/**")
    expect(page.get_by_label("Title")).to_have_value(title)
    page.get_by_role("button", name="Save to your resources").click()
    page.wait_for_url("**/my/resources/#own-*")
    own = OwnResource.objects.get(user=learner)
    row = page.locator(f"#own-{own.pk}")
    expect(row).to_contain_text(title)
    row.get_by_role("button", name="Done").click()
    expect(row.locator(".badge", has_text="Done")).to_be_visible()
    assert Progress.objects.get(user=learner).status == Status.DONE
    assert not errors, errors


def test_the_list_page_saves_and_removes_in_place_with_htmx(page, live_server, learner):
    page.goto(f"{live_server.url}/my/resources/")
    page.evaluate("window.notReloaded = true")
    page.get_by_label("Link").fill("https://example.org/in-place")
    page.get_by_label("Title").fill("Saved in place")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.get_by_role("status")).to_contain_text("Saved “Saved in place”")
    own = OwnResource.objects.get(user=learner)
    expect(page.locator(f"#own-{own.pk}")).to_contain_text("Saved in place")
    expect(page.get_by_label("Link")).to_have_value("")  # a fresh form for the next link
    page.once("dialog", lambda dialog: dialog.accept())  # "Remove … and your progress on it?"
    page.locator(f"#own-{own.pk}").get_by_role("button", name="Remove").click()
    expect(page.locator(f"#own-{own.pk}")).to_have_count(0)
    assert page.evaluate("window.notReloaded === true")
    assert not OwnResource.objects.exists()


def test_a_catalog_link_shows_its_tick_on_the_save_page(page, live_server, learner):
    resource = listed_resource(url="https://example.org/a-catalog-paper", title="A catalog paper")
    page.goto(f"{live_server.url}/my/resources/save/?url=https://example.org/a-catalog-paper")
    expect(page.get_by_text("This link is in the catalog")).to_be_visible()
    page.get_by_role("checkbox", name="Done: A catalog paper").click()
    expect(page.get_by_role("checkbox", name="Done: A catalog paper")).to_have_attribute(
        "aria-checked", "true"
    )
    assert Progress.objects.get(user=learner, resource=resource).status == Status.DONE
    assert not OwnResource.objects.exists()


def test_without_javascript_save_edit_and_remove(browser, live_server, learner):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    sign_in(page, live_server, learner)
    page.goto(f"{live_server.url}/my/resources/")
    page.get_by_label("Link").fill("https://example.org/no-js")
    page.get_by_label("Title").fill("Saved without JS")
    page.get_by_role("button", name="Save", exact=True).click()
    own = OwnResource.objects.get(user=learner)
    row = page.locator(f"#own-{own.pk}")
    expect(row).to_contain_text("Saved without JS")
    row.get_by_role("button", name="In progress").click()
    expect(page.locator(f"#own-{own.pk} .badge", has_text="In progress")).to_be_visible()
    page.locator(f"#own-{own.pk}").get_by_role("button", name="Remove").click()
    expect(page.get_by_text("Removed “Saved without JS”")).to_be_visible()
    assert not OwnResource.objects.exists()
    context.close()


def test_screenshots_light_and_dark_on_phone_and_desktop(browser, live_server, learner):
    for n, (title, status) in enumerate(
        [
            ("Paged attention, explained", "done"),
            (
                "A long-titled blog post about KV caches and why they grow with the context",
                "in_progress",
            ),
            ("A video", ""),
        ]
    ):
        saved = services.own_resource_save(
            user=learner,
            url=f"https://example.org/own/{n}",
            title=title,
            author="Someone",
            note="Read the middle part again." if n == 1 else None,
        )
        if status:
            services.progress_set_status(user=learner, resource=saved.own.resource, status=status)
    services.own_resource_suggest(own=OwnResource.objects.get(title="A video"))
    out = Path(
        os.environ.get("SCREENSHOT_DIR") or Path(settings.BASE_DIR) / "artifacts" / "screenshots"
    )
    out.mkdir(parents=True, exist_ok=True)
    for width, height, name in ((1280, 900, "desktop"), (390, 844, "phone")):
        for scheme in ("light", "dark"):
            context = browser.new_context(
                viewport={"width": width, "height": height}, color_scheme=scheme
            )
            page = context.new_page()
            sign_in(page, live_server, learner)
            for slug, path in (
                ("own-list", "/my/resources/"),
                ("own-save", "/my/resources/save/?url=https://example.org/new&title=New"),
            ):
                page.goto(f"{live_server.url}{path}")
                assert page.evaluate(
                    "document.documentElement.scrollWidth <= window.innerWidth + 1"
                ), f"{slug} is wider than a {name}"
                page.screenshot(path=str(out / f"{slug}-{name}-{scheme}.png"), full_page=True)
            context.close()
