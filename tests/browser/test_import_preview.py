"""The import preview at desktop width in a real browser: a curator sees which catalog resource a
row goes to, the duplicate rows, and the title fixes, unticks one and imports."""

import pytest
from playwright.sync_api import expect

from apps.catalog.models import Guide, Resource
from tests.conftest import sign_in
from tests.factories import ResourceFactory, ResourceLinkFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LIST = """# Attention kernels

## Papers
- [FlashAttention: Fast and Memory-Efficient Exact Attention](https://arxiv.org/abs/2205.14135)
- [FlashAttention-2: Faster Attention with Better Parallelism](https://arxiv.org/abs/2307.08691)
- [FlashAttention: Fast and Memory-Efficient Exact Attention](https://arxiv.org/pdf/2205.14135)

## Code
- [flash-attention](https://github.com/Dao-AILab/flash-attention) - The official implementation.
"""


@pytest.fixture
def curator(curator, page, live_server):
    sign_in(page, live_server, curator)
    return curator


def test_curator_reviews_matches_duplicates_and_title_fixes_then_imports(
    page, live_server, curator
):
    fa1 = ResourceFactory(title="arXiv 2205.14135", url="https://arxiv.org/abs/2205.14135")
    fa2 = ResourceFactory(title="Paper", url="https://arxiv.org/abs/2307.08691")
    blog = ResourceFactory(title="FlashAttention", url="https://example.com/blog/flashattention")
    ResourceLinkFactory(resource=blog, url="https://github.com/Dao-AILab/flash-attention")
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(f"{live_server.url}/admin/catalog/guide/import/")
    page.get_by_label("…or paste it").fill(LIST)
    page.get_by_label("Guide slug").fill("kernels")
    page.get_by_label("Guide title").fill("Kernels")
    page.get_by_role("button", name="Preview").click()

    main = page.locator("#content-main")
    stats = main.locator(".preview-stats li")
    expect(stats.filter(has_text="title fixes").locator("strong")).to_have_text("2")
    expect(stats.filter(has_text="duplicate rows").locator("strong")).to_have_text("1")
    expect(main.locator(".tag-duplicate")).to_have_text("duplicate: twice in this section")
    matches = main.locator("table.import-preview a.catalog-match")
    expect(matches).to_have_count(3)  # both rows of the first paper and the second: not the blog
    expect(matches.first).to_have_attribute("href", f"/admin/catalog/resource/{fa1.pk}/change/")
    fixes = main.locator("table.title-fixes tbody tr")
    expect(fixes).to_have_count(2)
    page.screenshot(path="/tmp/impf/import-preview-desktop.png", full_page=True)
    # the page fits the desktop width: nothing scrolls sideways
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    fixes.filter(has_text="Paper").get_by_role("checkbox").uncheck()
    page.get_by_role("button", name="Import", exact=True).first.click()
    guide = Guide.objects.get(slug="kernels")
    page.wait_for_url(f"{live_server.url}/admin/catalog/guide/{guide.pk}/change/")
    expect(page.locator(".messagelist")).to_contain_text("1 poor titles improved")
    fa1.refresh_from_db()
    fa2.refresh_from_db()
    assert fa1.title == "FlashAttention: Fast and Memory-Efficient Exact Attention"
    assert fa2.title == "Paper"  # unticked
    assert Resource.objects.filter(url="https://github.com/Dao-AILab/flash-attention").exists()
