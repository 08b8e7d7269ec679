"""A curator syncs a guide with a newer file in the real admin (no JavaScript needed), and splits a link at import."""

import pytest
from playwright.sync_api import expect

from apps.catalog.importer import apply_import, plan_import
from apps.catalog.models import Entry, Guide, Resource
from apps.progress.models import Progress, Status
from tests.catalog.test_sync import VERSION_1, VERSION_2
from tests.conftest import sign_in
from tests.factories import UserFactory


@pytest.fixture
def curator(curator, page, live_server):
    """The curator (tests/conftest.py), signed in in the test's browser page."""
    sign_in(page, live_server, curator)
    return curator


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_curator_syncs_a_guide_with_a_newer_file_and_progress_stays(
    page, live_server, curator, tmp_path
):
    apply_import(plan_import(VERSION_1, guide_slug="serving", title="Serving"))
    guide = Guide.objects.get(slug="serving")
    vllm = Resource.objects.get(url="https://github.com/vllm-project/vllm")
    Progress.objects.create(user=UserFactory(), resource=vllm, status=Status.DONE)
    newer = tmp_path / "serving-v2.md"
    newer.write_text(
        VERSION_2.replace(
            "- [vLLM](https://github.com/vllm-project/vllm) - PagedAttention serving.\n", ""
        )
    )

    page.goto(f"{live_server.url}/admin/catalog/guide/{guide.pk}/change/")
    page.get_by_role("link", name="Sync with source…").click()
    page.get_by_label("…or upload a newer file").set_input_files(str(newer))
    page.get_by_role("button", name="Show what would change").click()
    main = page.locator("#content-main")
    expect(main).to_contain_text("TensorRT-LLM")
    expect(main).to_contain_text("stays in the catalog, unlisted, with its progress")
    page.get_by_role("button", name="Apply").click()
    page.wait_for_url(f"{live_server.url}/admin/catalog/guide/{guide.pk}/change/")
    expect(page.locator(".messagelist")).to_contain_text("1 added, 1 removed, 1 moved")
    assert Entry.objects.filter(section__guide=guide).count() == 3
    assert Progress.objects.get(resource=vllm).status == Status.DONE


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_curator_splits_a_link_out_in_the_import_preview(page, live_server, curator):
    page.goto(f"{live_server.url}/admin/catalog/guide/import/")
    page.get_by_label("…or paste it").fill(
        "# Kernels\n## GPUs\n- [Brrr](https://horace.io/brrr_intro.html) ([Slides](https://horace.io/slides.pdf))\n"
    )
    page.get_by_label("Guide slug").fill("kernels")
    page.get_by_label("Guide title").fill("Kernels")
    page.get_by_role("button", name="Preview").click()
    page.get_by_role("checkbox", name="split out").check()
    page.get_by_role("button", name="Import").first.click()
    expect(page.locator(".messagelist")).to_contain_text("Imported")
    titles = list(
        Entry.objects.filter(section__guide__slug="kernels").values_list(
            "resource__title", flat=True
        )
    )
    assert titles == ["Brrr", "Brrr: Slides"]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_curator_syncs_from_the_url_through_a_pending_sync(page, live_server, curator, settings):
    from apps.curation.models import PendingSync, SyncState
    from tests.catalog.test_sync import serving

    settings.FETCH_ALLOW_LOOPBACK = True
    with serving(VERSION_1.encode()) as (served, url):
        apply_import(plan_import(VERSION_1, guide_slug="serving", title="Serving", source_url=url))
        guide = Guide.objects.get(slug="serving")
        served["body"] = VERSION_2.encode()
        page.goto(f"{live_server.url}/admin/catalog/guide/{guide.pk}/change/")
        page.get_by_role("link", name="Sync with source…").click()
        page.get_by_role("button", name="Show what would change").click()
        main = page.locator("#content-main")
        expect(main).to_contain_text("TensorRT-LLM")
        page.get_by_role("button", name="Apply").click()
        page.wait_for_url(f"{live_server.url}/admin/catalog/guide/{guide.pk}/change/")
        expect(page.locator(".messagelist")).to_contain_text("1 added, 0 removed, 1 moved")
    assert PendingSync.objects.get().state == SyncState.APPLIED
    assert Entry.objects.filter(section__guide=guide, resource__title="TensorRT-LLM").exists()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_fetching_sync_page_reloads_itself_until_the_job_is_done(page, live_server, curator):
    from apps.curation.models import PendingSync, SyncState

    apply_import(plan_import(VERSION_1, guide_slug="serving", title="Serving"))
    pending = PendingSync.objects.create(
        guide=Guide.objects.get(slug="serving"), source_url="https://example.com/README.md"
    )
    page.goto(f"{live_server.url}/admin/curation/pendingsync/{pending.pk}/change/")
    expect(page.locator("#content-main")).to_contain_text("Fetching the source in the background")
    PendingSync.objects.filter(pk=pending.pk).update(state=SyncState.UNCHANGED)
    expect(page.locator("#content-main")).to_contain_text(
        "The guide already matches this source", timeout=8000
    )
