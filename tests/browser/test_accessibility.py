"""axe-core on every main page, in light and dark mode: no serious or critical violation.

axe-core comes bundled in axe-playwright-python (nothing is fetched at run time) and runs on the
seeded catalog, as a visitor or a signed-in learner with some progress, whichever sees the page.
"""

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.core.management import call_command

from apps.catalog.models import Guide, Resource, Topic
from apps.paths.models import LearningPath
from apps.progress.models import Status
from apps.progress.services import progress_set_status
from tests.conftest import sign_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCHEMES = ["light", "dark"]
BLOCKING_IMPACTS = {"serious", "critical"}

# Known violations, each to be fixed in the templates/CSS and then removed from here (strict:
# a fix makes the test XPASS and fail, so this list cannot go stale).
KNOWN = {}  # page name -> reason, for a violation the lead has not fixed yet (strict xfail)

axe = Axe()


@pytest.fixture
def catalog():
    call_command("seed", verbosity=0)
    guide = max(Guide.objects.published(), key=lambda g: g.sections.values("entries").count())
    return {
        "guide": guide,
        "resource": Resource.objects.published().filter(entries__section__guide=guide).first(),
        "topic": Topic.objects.filter(resources__isnull=False).first(),
        "path": LearningPath.objects.published().first(),
    }


@pytest.fixture
def learner(catalog):
    """A learner part-way through the guide, so ticks, bars and the dashboard show every state."""
    user = UserFactory(email="axe@example.com")
    resources = (
        Resource.objects.published().filter(entries__section__guide=catalog["guide"]).distinct()[:6]
    )
    for resource, status in zip(
        resources,
        [Status.DONE, Status.DONE, Status.IN_PROGRESS, Status.SKIPPED, Status.DONE, Status.DONE],
        strict=False,
    ):
        progress_set_status(user=user, resource=resource, status=status)
    return user


# (name, signed in?, url from the catalog)
PAGES = [
    ("home", False, lambda c: "/"),
    ("guide", True, lambda c: c["guide"].get_absolute_url()),
    ("resource", True, lambda c: c["resource"].get_absolute_url()),
    ("topic", True, lambda c: c["topic"].get_absolute_url()),
    ("search", True, lambda c: "/search/?q=attention"),
    ("path-list", True, lambda c: "/paths/"),
    ("path", True, lambda c: c["path"].get_absolute_url()),
    ("dashboard", True, lambda c: "/dashboard/"),
    ("sign-in", False, lambda c: "/accounts/login/"),
    ("account", True, lambda c: "/account/"),
]


def _cases():
    for name, signed_in, url in PAGES:
        marks = [pytest.mark.xfail(strict=True, reason=KNOWN[name])] if name in KNOWN else []
        yield pytest.param(name, signed_in, url, marks=marks, id=name)


def _describe(violations):
    lines = []
    for violation in violations:
        lines.append(
            f"  [{violation['impact']}] {violation['id']}: {violation['help']} ({violation['helpUrl']})"
        )
        for node in violation["nodes"][:8]:
            summary = node.get("failureSummary", "").strip().splitlines()
            lines.append(
                f"      {' '.join(map(str, node['target']))}: {summary[-1].strip() if summary else ''}"
            )
        if len(violation["nodes"]) > 8:
            lines.append(f"      … and {len(violation['nodes']) - 8} more")
    return "\n".join(lines)


def _blocking_violations(browser, live_server, user, path, scheme):
    # No bypass_csp: axe is injected with page.evaluate, which Playwright runs through the
    # DevTools protocol where the page's strict CSP does not apply, so pages are audited under
    # their real policy.
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        if user:
            sign_in(page, live_server, user)
        response = page.goto(live_server.url + path)
        assert response.status == 200, f"{path} answered {response.status}"
        assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") == (
            scheme == "dark"
        )
        results = axe.run(page)
        return [v for v in results.response["violations"] if v["impact"] in BLOCKING_IMPACTS]
    finally:
        context.close()


# One test per page, both colour schemes inside it: seeding the catalog is most of each test's time.
@pytest.mark.parametrize(("name", "signed_in", "url"), list(_cases()))
def test_page_has_no_serious_accessibility_violation(
    browser, live_server, catalog, learner, name, signed_in, url
):
    path = url(catalog)
    report = []
    for scheme in SCHEMES:
        blocking = _blocking_violations(
            browser, live_server, learner if signed_in else None, path, scheme
        )
        if blocking:
            report.append(f"{name} {path} in {scheme} mode:\n{_describe(blocking)}")
    assert not report, "serious/critical axe violations:\n" + "\n".join(report)
