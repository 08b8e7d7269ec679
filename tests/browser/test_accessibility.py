"""axe-core on every main page, in light and dark mode: no serious or critical violation.

axe-core comes bundled in axe-playwright-python (nothing is fetched at run time) and runs on the
seeded catalog, as a visitor or a signed-in learner with some progress, whichever sees the page.
"""

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.core.management import call_command
from playwright.sync_api import expect

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
    ("whats-new", True, lambda c: "/whats-new/"),
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


# --- Beyond axe: contrast of the checkbox, focus across a swap, keyboard reach, phone targets ---

CONTRAST = """box => {
  const rgb = c => c.match(/[\\d.]+/g).slice(0, 4).map(Number);
  const lum = ([r, g, b]) => {
    const f = v => (v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  let card = box.parentElement;  // the first ancestor that paints a background: the card
  while (card && (rgb(getComputedStyle(card).backgroundColor)[3] ?? 1) === 0) card = card.parentElement;
  const [a, b] = [lum(rgb(getComputedStyle(box).borderTopColor)),
                  lum(rgb(getComputedStyle(card || document.body).backgroundColor))].sort();
  return (b + 0.05) / (a + 0.05);
}"""


def test_checkbox_contrast_chip_focus_and_section_names(browser, live_server, catalog, learner):
    inference = Guide.objects.get(slug="ai-inference-engineering")
    for scheme in SCHEMES:
        context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
        page = context.new_page()
        sign_in(page, live_server, learner)
        page.goto(live_server.url + inference.get_absolute_url())
        unchecked = page.locator(".row .tick-box[aria-checked=false]").first
        ratio = unchecked.evaluate(CONTRAST)
        assert ratio >= 3, f"unchecked checkbox edge {ratio:.2f}:1 against its card ({scheme})"
        context.close()

    page = browser.new_page()
    sign_in(page, live_server, learner)
    page.goto(live_server.url + inference.get_absolute_url())
    # Enter on a chip swaps the list and keeps focus on that chip (not <body>), by tier and by status.
    for chip_id, url in (
        ("guide-entries-tier-2", "?tier=2"),
        ("guide-entries-status-not_done", "?tier=2&status=not_done"),
    ):
        page.locator(f"#{chip_id}").focus()
        page.keyboard.press("Enter")
        expect(page).to_have_url(live_server.url + inference.get_absolute_url() + url)
        expect(page.locator(f"#{chip_id}")).to_be_focused()
        expect(page.locator(f"#{chip_id}")).to_have_attribute("aria-current", "true")

    # Each "Tier 1" section is named with its topic: no two landmarks share a name.
    page.goto(live_server.url + inference.get_absolute_url())
    names = page.evaluate(
        """() => [...document.querySelectorAll("section.guide-section")].map(s =>
             s.getAttribute("aria-labelledby").split(" ")
               .map(id => document.getElementById(id).textContent.trim()).join(" "))"""
    )
    assert sum(name.startswith("Tier 1 ") for name in names) > 1
    assert len(names) == len(set(names))
    expect(page.get_by_role("region", name="Tier 1", exact=True)).to_have_count(0)
    page.close()


def test_phone_targets_status_word_and_heatmap_by_keyboard(browser, live_server, catalog, learner):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    sign_in(page, live_server, learner)
    page.goto(live_server.url + catalog["guide"].get_absolute_url())
    tick = page.locator(".row .tick", has=page.locator(".tick-status")).first
    box = tick.locator(".tick-box").bounding_box()
    menu = tick.locator(".tick-menu > summary").bounding_box()
    for target in (box, menu):
        assert target["width"] >= 44 and target["height"] >= 44, target
    gap = max(menu["y"] - (box["y"] + box["height"]), menu["x"] - (box["x"] + box["width"]))
    assert gap >= 8, f"checkbox and menu {gap:.1f} px apart"
    size = tick.locator(".tick-status").evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert size >= 12

    # The heatmap's scroll area (wider than a phone) is reached by Tab and named.
    page.goto(live_server.url + "/dashboard/")
    region = page.get_by_role("region", name="Activity heatmap (scrolls sideways)")
    assert region.evaluate("e => e.scrollWidth > e.clientWidth")
    page.locator("#activity-heatmap, #activity-heading").first.evaluate(
        "e => { e.tabIndex = -1; e.focus(); }"
    )
    for _ in range(5):
        page.keyboard.press("Tab")
        if region.evaluate("e => e === document.activeElement"):
            break
    expect(region).to_be_focused()
    context.close()
