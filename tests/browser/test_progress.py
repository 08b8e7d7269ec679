"""Ticking in a real browser: mouse, keyboard, reload, the dashboard's numbers, a path's next up,
and the same tick with JavaScript disabled."""

import re

import pytest
from playwright.sync_api import expect

from apps.paths.models import LearningPath, PathStep, StepResource
from apps.progress.models import Progress, Status
from tests.conftest import sign_in, tick
from tests.factories import EntryFactory, GuideFactory, ResourceFactory, SectionFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def guide():
    guide = GuideFactory(slug="inference", title="Inference Engineering")
    section = SectionFactory(guide=guide, title="Serving")
    for title in (
        "Paged attention",
        "Speculative decoding",
        "Continuous batching",
        "KV cache quantization",
        "Prefix caching",
    ):
        EntryFactory(section=section, resource=ResourceFactory(title=title))
    return guide


def test_tick_three_by_mouse_and_one_by_keyboard_and_they_survive_a_reload(
    page, live_server, guide, learner
):
    errors = []
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    page.goto(f"{live_server.url}/guides/inference/")
    bar = page.locator(f"#bar-guide-{guide.uuid}")
    assert "0/5" in bar.inner_text()

    for done, title in enumerate(
        ("Paged attention", "Continuous batching", "KV cache quantization"), start=1
    ):
        tick(page, title).click()
        expect(tick(page, title)).to_have_attribute("aria-checked", "true")
        expect(bar).to_contain_text(f"{done}/5")  # the bar updated in the same response, no reload

    # Keyboard only: from the first checkbox, j moves focus to the next, Space ticks it.
    tick(page, "Paged attention").focus()
    page.keyboard.press("j")
    assert (
        page.evaluate("document.activeElement.getAttribute('aria-label')")
        == "Done: Speculative decoding"
    )
    page.keyboard.press("Space")
    expect(tick(page, "Speculative decoding")).to_have_attribute("aria-checked", "true")
    # Focus stays on the ticked checkbox after the swap.
    assert (
        page.evaluate("document.activeElement.getAttribute('aria-label')")
        == "Done: Speculative decoding"
    )
    expect(bar).to_contain_text("4/5")

    page.reload()
    for title in (
        "Paged attention",
        "Speculative decoding",
        "Continuous batching",
        "KV cache quantization",
    ):
        assert tick(page, title).get_attribute("aria-checked") == "true"
    assert tick(page, "Prefix caching").get_attribute("aria-checked") == "false"
    assert Progress.objects.filter(user=learner, status=Status.DONE).count() == 4
    assert errors == []

    # The dashboard's numbers match.
    page.goto(f"{live_server.url}/")
    assert "4 of 5 resources done" in page.locator("h1 + .lede").inner_text()
    assert "4/5" in page.locator(f"#bar-guide-{guide.uuid}").inner_text()


def test_a_refused_tick_says_so_and_stays_as_it_was(page, live_server, guide, learner):
    page.goto(f"{live_server.url}/guides/inference/")
    message = (
        "This resource is being changed elsewhere at the same moment; nothing was saved. Try again."
    )
    page.route(
        "**/progress/**",
        lambda route: route.fulfill(
            status=409, content_type="text/plain; charset=utf-8", body=message
        ),
    )
    tick(page, "Paged attention").click()
    # Said on the ticked row itself.
    expect(page.locator("li.row", has_text="Paged attention").get_by_role("alert")).to_have_text(
        message
    )
    expect(tick(page, "Paged attention")).to_have_attribute("aria-checked", "false")
    page.route(
        "**/progress/**",
        lambda route: route.fulfill(
            status=500, content_type="text/html", body="<h1>Server Error</h1>"
        ),
    )
    tick(page, "Prefix caching").click()
    expect(page.locator("li.row", has_text="Prefix caching").get_by_role("alert")).to_have_text(
        re.compile("^That did not work, and nothing was changed")
    )
    page.unroute("**/progress/**")
    # The real server again: it works, and its row's alert goes (the other row's stays).
    tick(page, "Prefix caching").click()
    expect(tick(page, "Prefix caching")).to_have_attribute("aria-checked", "true")
    assert page.get_by_role("alert").count() == 1
    assert not Progress.objects.filter(user=learner, resource__title="Paged attention").exists()


def test_following_a_path_next_up_advances_as_items_are_ticked(page, live_server, guide, learner):
    path = LearningPath.objects.create(slug="serving", title="Serving path", guide=guide)
    step = PathStep.objects.create(path=path, position=1, title="Basics")
    resources = [entry.resource for entry in guide.sections.get().entries.order_by("position")]
    for position, resource in enumerate(resources, start=1):
        StepResource.objects.create(step=step, resource=resource, position=position)

    page.goto(f"{live_server.url}/paths/serving/")
    page.get_by_role("button", name="Follow this path").click()
    page.wait_for_url(re.compile(r"/paths/serving/$"))
    next_up = page.locator(f"#next-up-{path.uuid}")
    assert "Paged attention" in next_up.inner_text()

    tick(page, "Paged attention").click()
    expect(next_up).to_contain_text("Speculative decoding")
    tick(page, "Speculative decoding").click()
    expect(next_up).to_contain_text("Continuous batching")
    expect(page.locator(f"#bar-path-{path.uuid}")).to_contain_text("2/5")

    page.goto(f"{live_server.url}/")
    assert "Continuous batching" in page.locator(f"#next-up-{path.uuid}").inner_text()


def test_ticking_works_with_javascript_disabled(browser, live_server, guide):
    user = UserFactory(email="nojs@example.com")
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    sign_in(page, live_server, user)
    page.goto(f"{live_server.url}/guides/inference/")
    tick(page, "Continuous batching").click()
    page.wait_for_load_state()
    row = tick(page, "Continuous batching").locator("xpath=ancestor::li[contains(@class, 'row')]")
    assert page.url.endswith(f"/guides/inference/#{row.get_attribute('id')}")  # back at its row
    assert row.get_attribute("id").startswith("entry-")
    assert tick(page, "Continuous batching").get_attribute("aria-checked") == "true"
    assert Progress.objects.get(user=user).resource.title == "Continuous batching"
    context.close()
