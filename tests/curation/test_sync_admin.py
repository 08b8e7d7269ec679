"""Syncing a guide with its source from the admin: a URL fetched by a job into a pending sync, or an
upload diffed at once → diff → apply (progress and edits kept)."""

import pytest
from django.contrib.admin.models import ADDITION, CHANGE, LogEntry
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from apps.catalog.importer import apply_import, plan_import
from apps.catalog.models import Entry, Guide, Resource
from apps.curation.models import PendingSync, SyncState
from apps.progress.models import Progress, Status
from tests.catalog.test_sync import VERSION_1, VERSION_2, serving
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

VLLM = "https://github.com/vllm-project/vllm"
# VERSION_2 without vLLM: one added, one removed, one moved
NEWER = VERSION_2.replace(
    "- [vLLM](https://github.com/vllm-project/vllm) - PagedAttention serving.\n", ""
)


@pytest.fixture
def source_server(allow_loopback):
    with serving(VERSION_1.encode()) as served_and_url:
        yield served_and_url


@pytest.fixture
def guide(source_server):
    _, url = source_server
    apply_import(
        plan_import(
            VERSION_1, guide_slug="serving", title="Serving", source_name="v1.md", source_url=url
        )
    )
    guide = Guide.objects.get(slug="serving")
    Guide.objects.filter(pk=guide.pk).update(is_published=True)
    return guide


@pytest.fixture
def progress(guide):
    learner = UserFactory()
    return Progress.objects.create(
        user=learner, resource=Resource.objects.get(url=VLLM), status=Status.DONE
    )


def sync_url(guide):
    return reverse("admin:catalog_guide_sync", args=[guide.pk])


def layout(guide):
    return sorted(
        Entry.objects.filter(section__guide=guide).values_list(
            "pk", "section__title", "position", "resource__title", "note"
        )
    )


def apply_data(response):
    form = response.context["confirm"]
    return {**{name: form[name].value() for name in form.fields}, "apply": "Apply"}


def fetch_by_job(client, guide, url, capture):
    """Post the URL; the fetch job runs when the request's transaction commits. The pending sync."""
    with capture(execute=True):
        response = client.post(sync_url(guide), {"source_url": url})
    pending = PendingSync.objects.latest("pk")
    assert response.status_code == 302
    assert response["Location"] == review_url(pending)
    return pending


def review_url(pending):
    return reverse("admin:curation_pendingsync_change", args=[pending.pk])


def test_the_change_page_links_to_the_sync_page_which_offers_the_remembered_url(
    curator_client, guide
):
    change = curator_client.get(reverse("admin:catalog_guide_change", args=[guide.pk]))
    assert f'href="{sync_url(guide)}"' in change.content.decode()
    response = curator_client.get(sync_url(guide))
    assert response.status_code == 200
    assert response.context["form"]["source_url"].value() == guide.source_url
    assert "Last imported from v1.md" in response.content.decode()


def test_the_url_is_fetched_by_a_job_and_its_diff_shown_with_nothing_written(
    curator_client, guide, source_server, django_capture_on_commit_callbacks
):
    served, url = source_server
    served["body"] = NEWER.encode()
    before = layout(guide)
    pending = fetch_by_job(curator_client, guide, url, django_capture_on_commit_callbacks)
    assert pending.state == SyncState.PENDING and pending.source_url == url
    assert pending.summary.startswith("1 added, 1 removed, 1 moved, 0 changed.")
    response = curator_client.get(review_url(pending))
    assert response.status_code == 200
    html = response.content.decode()
    assert "TensorRT-LLM" in html and "in Engines" in html  # added, with its section
    assert "vLLM" in html and "stays in the catalog, unlisted, with its progress" in html
    assert "SGLang" in html and "from Engines to Papers" in html
    assert layout(guide) == before


def test_the_request_itself_fetches_nothing(curator_client, guide, source_server):
    """Without the commit (no job run), the request only records the fetch it asked for."""
    served, url = source_server
    served["body"] = NEWER.encode()
    response = curator_client.post(sync_url(guide), {"source_url": url})
    pending = PendingSync.objects.get()
    assert response["Location"] == review_url(pending)
    assert pending.state == SyncState.FETCHING and pending.text == ""
    page = curator_client.get(review_url(pending)).content.decode()
    assert "Fetching the source in the background" in page
    assert 'data-state="fetching"' in page and "pending_sync.js" in page


def test_apply_syncs_in_place_keeps_progress_and_logs_the_change(
    curator_client, curator, guide, progress, source_server, django_capture_on_commit_callbacks
):
    served, url = source_server
    served["body"] = NEWER.encode()
    sglang = Entry.objects.get(section__guide=guide, resource__url__contains="sglang")
    pending = fetch_by_job(curator_client, guide, url, django_capture_on_commit_callbacks)
    seen = curator_client.get(review_url(pending)).context["seen"]
    response = curator_client.post(review_url(pending), {"seen": seen, "apply": "Apply"})
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:catalog_guide_change", args=[guide.pk])
    assert sorted((title, resource) for _, title, _, resource, _ in layout(guide)) == [
        ("Engines", "TensorRT-LLM"),
        ("Papers", "FlashAttention"),
        ("Papers", "SGLang"),
    ]
    moved = Entry.objects.get(pk=sglang.pk)  # the same row, moved
    assert moved.section.title == "Papers"
    progress.refresh_from_db()
    assert progress.status == Status.DONE and not progress.resource.entries.exists()
    log = LogEntry.objects.get(object_id=str(guide.pk), content_type__model="guide")
    assert log.action_flag == CHANGE and log.user == curator
    assert "1 added, 1 removed, 1 moved, 0 changed." in log.change_message
    assert "- vLLM (from Engines; stays in the catalog" in log.change_message
    created = LogEntry.objects.get(content_type__model="resource")
    assert created.action_flag == ADDITION and created.object_repr == "TensorRT-LLM"
    guide.refresh_from_db()
    assert guide.is_published
    pending.refresh_from_db()
    assert pending.state == SyncState.APPLIED and pending.decided_by == curator


def test_an_uploaded_newer_file_becomes_the_source(curator_client, guide, progress):
    upload = SimpleUploadedFile("v2.md", NEWER.encode(), content_type="text/markdown")
    response = curator_client.post(sync_url(guide), {"source_url": "", "file": upload})
    assert response.context["diff"].added == [("TensorRT-LLM", "Engines")]
    assert "Applying also makes v2.md the guide's remembered source" in response.content.decode()
    curator_client.post(sync_url(guide), apply_data(response))
    guide.refresh_from_db()
    assert guide.source_name == "v2.md"
    assert Entry.objects.filter(section__guide=guide, resource__title="TensorRT-LLM").exists()
    assert Progress.objects.filter(pk=progress.pk).exists()


def test_the_same_source_again_has_nothing_to_apply(
    curator_client, guide, source_server, django_capture_on_commit_callbacks
):
    _, url = source_server
    pending = fetch_by_job(curator_client, guide, url, django_capture_on_commit_callbacks)
    assert pending.state == SyncState.UNCHANGED
    html = curator_client.get(review_url(pending)).content.decode()
    assert "The guide already matches this source" in html
    assert 'name="apply"' not in html


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"source_url": "file:///etc/passwd"}, "is not an http(s) URL"),
        ({"source_url": ""}, "Give the source URL or upload the file"),
        (
            {"file": SimpleUploadedFile("x.md", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")},
            "binary file",
        ),
        ({"file": SimpleUploadedFile("x.md", b"# A\n" + b"x" * (1024 * 1024))}, "the limit is 1.0"),
        (
            {"file": SimpleUploadedFile("x.md", b"Only prose here, no list.\n")},
            "No reading-list items found",
        ),
    ],
    ids=["not-http", "nothing-given", "binary", "too-big", "no-list"],
)
def test_bad_input_gets_a_clear_message_and_changes_nothing(curator_client, guide, data, message):
    before = layout(guide)
    response = curator_client.post(sync_url(guide), data)
    assert response.status_code == 200
    assert response.templates[0].name == "curation/guide_sync.html"
    assert message in " ".join(response.context["form"].non_field_errors())
    assert message in response.content.decode().replace("&#x27;", "'")
    assert layout(guide) == before


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"\x00\x01binary", "binary file"),
        (b"Only prose here, no list.\n", "No reading-list items found"),
    ],
    ids=["binary", "no-list"],
)
def test_a_url_source_that_is_no_list_fails_the_job_with_its_reason(
    curator_client, guide, source_server, django_capture_on_commit_callbacks, body, message
):
    served, url = source_server
    served["body"] = body
    before = layout(guide)
    pending = fetch_by_job(curator_client, guide, url, django_capture_on_commit_callbacks)
    assert pending.state == SyncState.FAILED and message in pending.error
    html = curator_client.get(review_url(pending)).content.decode().replace("&#x27;", "'")
    assert message in html and 'name="refetch"' in html
    assert layout(guide) == before


def test_an_unreachable_url_fails_the_job_and_changes_nothing(
    curator_client, guide, django_capture_on_commit_callbacks
):
    before = layout(guide)
    pending = fetch_by_job(
        curator_client, guide, "http://127.0.0.1:1/README.md", django_capture_on_commit_callbacks
    )
    assert pending.state == SyncState.FAILED and "Could not fetch" in pending.error
    assert layout(guide) == before


def test_an_incomplete_apply_changes_nothing(curator_client, guide):
    before = layout(guide)
    response = curator_client.post(sync_url(guide), {"apply": "Apply"})
    assert response.status_code == 302 and response["Location"] == sync_url(guide)
    assert layout(guide) == before


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"text": "Only prose, no list.\n", "source_url": ""}, "No reading-list items found"),
        ({"text": "# x\n- [a](https://a.example)\n", "source_url": "file:///etc/passwd"}, None),
    ],
    ids=["no-list", "forged-url"],
)
def test_an_apply_the_sync_cannot_use_changes_nothing(curator_client, guide, data, message):
    before = layout(guide)
    response = curator_client.post(sync_url(guide), {**data, "apply": "Apply"}, follow=True)
    assert response.redirect_chain[-1][0] == sync_url(guide)
    shown = " ".join(str(m) for m in response.context["messages"])
    assert "nothing was changed" in shown.lower()
    if message:
        assert message in shown
    assert layout(guide) == before
    guide.refresh_from_db()
    assert guide.source_url.startswith("http://127.0.0.1")


def test_a_learner_is_sent_to_the_admin_login(learner_client, guide):
    response = learner_client.get(sync_url(guide))
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_staff_without_import_permissions_is_refused_and_sees_no_link(client, curator, guide):
    from django.contrib.auth.models import Permission

    curator.groups.clear()
    curator.user_permissions.add(
        *Permission.objects.filter(
            content_type__app_label="catalog", codename__in=["view_guide", "change_guide"]
        )
    )
    client.force_login(curator)
    before = layout(guide)
    assert client.get(sync_url(guide)).status_code == 403
    assert client.post(sync_url(guide), {"source_url": guide.source_url}).status_code == 403
    change = client.get(reverse("admin:catalog_guide_change", args=[guide.pk]))
    assert sync_url(guide) not in change.content.decode()
    assert layout(guide) == before


def test_a_missing_guide_is_404(curator_client):
    assert curator_client.get("/admin/catalog/guide/999999/sync/").status_code == 404
