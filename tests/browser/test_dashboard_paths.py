"""The dashboard's "Paths you follow" in a real browser: a learner's own path beside a followed
curated one, a tick on the dashboard moving both bars and next ups as a reload shows them, with
JavaScript and without."""

import pytest
from playwright.sync_api import expect

from apps.paths import services as path_services
from apps.paths.models import LearningPath, PathFollow, PathStep, StepResource
from apps.progress.models import Status
from apps.progress.services import progress_set_status
from tests.conftest import tick
from tests.factories import EntryFactory, GuideFactory, ResourceFactory, SectionFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TITLES = ("Paged attention", "Speculative decoding", "Continuous batching")


@pytest.fixture
def paths(learner):
    guide = GuideFactory(slug="inference", title="Inference Engineering")
    section = SectionFactory(guide=guide, title="Serving")
    resources = [
        EntryFactory(
            section=section,
            resource=ResourceFactory(title=title, url=f"https://example.com/{n}"),
        ).resource
        for n, title in enumerate(TITLES)
    ]
    curated = LearningPath.objects.create(slug="serving", title="Serving, step by step")
    step = PathStep.objects.create(path=curated, position=1, title="Read")
    for position, resource in enumerate(resources, start=1):
        StepResource.objects.create(step=step, resource=resource, position=position)
    PathFollow.objects.create(user=learner, path=curated, hours_per_week=4)
    own = path_services.own_path_create(user=learner, title="My serving notes")
    path_services.own_path_update(path=own, hours_per_week=2)
    mine = path_services.own_step_add(path=own, title="First reads")
    for resource in resources[:2]:
        path_services.own_item_add(path=own, resource=resource, step=mine)
    # The dashboard's Continue lists the guide once something in it was ticked.
    progress_set_status(user=learner, resource=resources[2], status=Status.IN_PROGRESS)
    return curated, own


def test_a_dashboard_tick_moves_own_and_curated_paths_as_a_reload_shows(
    page, live_server, learner, paths
):
    curated, own = paths
    page.goto(f"{live_server.url}/dashboard/")
    followed = page.locator(".followed-paths")
    expect(followed).to_contain_text("My serving notes")
    expect(followed).to_contain_text("your path")
    expect(page.locator(f"#bar-path-{own.uuid}")).to_contain_text("0/2")
    expect(page.locator(f"#next-up-{own.uuid}")).to_contain_text("Paged attention")
    expect(page.locator(f"#pace-{own.uuid}")).to_contain_text("At 2 h/week")
    tick(page, "Paged attention").click()
    expect(page.locator(f"#bar-path-{own.uuid}")).to_contain_text("1/2")
    expect(page.locator(f"#bar-path-{curated.uuid}")).to_contain_text("1/3")
    expect(page.locator(f"#next-up-{own.uuid}")).to_contain_text("Speculative decoding")
    expect(page.locator(f"#next-up-{curated.uuid}")).to_contain_text("Speculative decoding")
    swapped = {
        dom_id: page.locator(f"#{dom_id}").inner_text()
        for uuid in (own.uuid, curated.uuid)
        for dom_id in (f"bar-path-{uuid}", f"next-up-{uuid}", f"pace-{uuid}")
    }
    page.reload()
    expect(page.locator(f"#bar-path-{own.uuid}")).to_contain_text("1/2")
    assert {dom_id: page.locator(f"#{dom_id}").inner_text() for dom_id in swapped} == swapped


def test_without_javascript_a_dashboard_tick_comes_back_with_the_paths_moved(
    browser, live_server, learner, paths
):
    from tests.conftest import sign_in

    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    try:
        sign_in(page, live_server, learner)
        _, own = paths
        page.goto(f"{live_server.url}/dashboard/")
        tick(page, "Paged attention").click()
        page.wait_for_url("**/dashboard/**")
        expect(page.locator(f"#bar-path-{own.uuid}")).to_contain_text("1/2")
        expect(page.locator(f"#next-up-{own.uuid}")).to_contain_text("Speculative decoding")
    finally:
        context.close()
