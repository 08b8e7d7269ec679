"""A guide kept in step with its source URL, end to end (the source served by a local server)."""

import threading
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from apps.catalog.importer import apply_import, plan_import
from apps.catalog.importer.sync import apply_sync, diff_guide, fetch_failed, sync_counts
from apps.catalog.models import Entry, Guide, Resource, Section
from apps.catalog.selectors import visible_entries
from apps.progress.models import Progress, Status
from tests.factories import UserFactory

VERSION_1 = """# Serving
## Engines
- [vLLM](https://github.com/vllm-project/vllm) - PagedAttention serving.
- [SGLang](https://github.com/sgl-project/sglang) - Structured generation.
## Papers
- [FlashAttention](https://arxiv.org/abs/2205.14135) - Dao. IO-aware attention.
"""
VERSION_2 = """# Serving
## Engines
- [vLLM](https://github.com/vllm-project/vllm) - PagedAttention serving.
- [TensorRT-LLM](https://github.com/NVIDIA/TensorRT-LLM) - NVIDIA's engine.
## Papers
- [FlashAttention](https://arxiv.org/pdf/2205.14135v2) - Dao. IO-aware attention.
- [SGLang](https://github.com/sgl-project/sglang) - Structured generation.
"""


@contextmanager
def serving(body: bytes):
    """A local HTTP server answering every GET with ``served["body"]`` (change it to serve a newer version)."""
    served = {"body": body}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/markdown; charset=utf-8")
            self.end_headers()
            self.wfile.write(served["body"])

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield served, f"http://127.0.0.1:{server.server_address[1]}/README.md"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def source_server(allow_loopback):
    with serving(VERSION_1.encode()) as served_and_url:
        yield served_and_url


def sync(*args):
    out = StringIO()
    call_command("sync_guide", *args, stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_sync_applies_the_diff_and_keeps_progress_and_curator_edits(source_server):
    served, url = source_server
    apply_import(
        plan_import(VERSION_1.encode(), guide_slug="serving", title="Serving", source_url=url)
    )
    guide = Guide.objects.get(slug="serving")
    Guide.objects.filter(pk=guide.pk).update(is_published=True)
    learner = UserFactory()
    vllm = Resource.objects.get(url="https://github.com/vllm-project/vllm")
    sglang = Resource.objects.get(url="https://github.com/sgl-project/sglang")
    Progress.objects.create(user=learner, resource=vllm, status=Status.DONE)
    Progress.objects.create(user=learner, resource=sglang, status=Status.IN_PROGRESS)
    vllm.title = "vLLM (curated)"  # a curator's edit the diff does not touch
    vllm.save()

    served["body"] = VERSION_2.encode()
    shown = sync("serving")
    assert shown.splitlines()[0] == "1 added, 0 removed, 1 moved, 0 changed."
    assert "+ TensorRT-LLM" in shown and "~ SGLang: Engines -> Papers" in shown
    assert Entry.objects.filter(section__guide=guide).count() == 3  # showing applies nothing

    served["body"] = VERSION_2.replace(
        "- [vLLM](https://github.com/vllm-project/vllm) - PagedAttention serving.\n", ""
    ).encode()
    applied = sync("serving", "--apply")
    assert applied.splitlines()[0] == "1 added, 1 removed, 1 moved, 0 changed."
    entries = Entry.objects.filter(section__guide=guide).select_related("resource", "section")
    assert sorted((e.section.title, e.resource.title) for e in entries) == [
        ("Engines", "TensorRT-LLM"),
        ("Papers", "FlashAttention"),
        ("Papers", "SGLang"),
    ]
    # the removed entry's resource stays, unlisted, with its progress; the moved one keeps its progress
    vllm.refresh_from_db()
    assert vllm.title == "vLLM (curated)" and not vllm.entries.exists()
    assert Progress.objects.get(user=learner, resource=vllm).status == Status.DONE
    assert Progress.objects.get(user=learner, resource=sglang).status == Status.IN_PROGRESS
    guide.refresh_from_db()
    assert guide.is_published  # a sync does not unpublish
    assert sync("serving", "--apply").splitlines()[0] == "0 added, 0 removed, 0 moved, 0 changed."


@pytest.mark.django_db
def test_sync_needs_a_source_and_refuses_what_it_cannot_read(source_server):
    _, url = source_server
    apply_import(plan_import(VERSION_1.encode(), guide_slug="serving", title="Serving"))
    with pytest.raises(CommandError, match="no source URL"):
        sync("serving")
    with pytest.raises(CommandError, match="not an http"):
        sync("serving", "--url", "file:///etc/passwd")
    with pytest.raises(CommandError, match="Could not fetch"):
        sync("serving", "--url", "http://127.0.0.1:1/README.md")  # nothing listens there
    with pytest.raises(CommandError, match="No guide"):
        sync("nope", "--url", url)
    served, _ = source_server
    served["body"] = b"Only prose now, the list is gone.\n"
    before = list(Entry.objects.values_list("pk", "section", "position"))
    with pytest.raises(CommandError, match="No reading-list items"):
        sync("serving", "--url", url, "--apply")
    assert list(Entry.objects.values_list("pk", "section", "position")) == before


@pytest.mark.django_db
def test_sync_reads_no_address_of_the_servers_own_network(source_server, settings):
    """The source goes through the guarded fetcher: a loopback source (the tests' own server,
    allowed by the fixture until now) is refused with the one generic message."""
    served, url = source_server
    apply_import(plan_import(VERSION_1.encode(), guide_slug="serving", title="Serving"))
    settings.FETCH_ALLOW_LOOPBACK = False
    port = url.split(":")[2].split("/")[0]
    for source in (url, f"http://localhost:{port}/", f"http://0x7f000001:{port}/"):
        with pytest.raises(CommandError) as refused:
            sync("serving", "--url", source)
        assert str(refused.value) == fetch_failed()


# --- In place: what a curator and a learner made survives -----------------------------------
BEFORE = """# Serving
## Engines
- [vLLM](https://github.com/vllm-project/vllm) - PagedAttention serving.
- [SGLang](https://github.com/sgl-project/sglang) - Structured generation.
## Papers
- [FlashAttention](https://arxiv.org/abs/2205.14135) - Dao. IO-aware attention. (rating 8/10)
- [Orca](https://www.usenix.org/conference/osdi22/presentation/yu) - Continuous batching.
## Old
- [Retired tool](https://example.com/retired) - Nobody uses it now.
"""
AFTER = """# Serving
## Engines
- [TensorRT-LLM](https://github.com/NVIDIA/TensorRT-LLM) - NVIDIA's engine.
- [vLLM](https://github.com/vllm-project/vllm) - PagedAttention serving.
## Papers
- [FlashAttention](https://arxiv.org/abs/2205.14135) - Dao. IO-aware attention, now v3. (rating 9/10)
- [Orca](https://www.usenix.org/conference/osdi22/presentation/yu) - Continuous batching.
- [SGLang](https://github.com/sgl-project/sglang) - Structured generation.
"""


def entry_of(guide, url):
    return Entry.objects.select_related("section").get(section__guide=guide, resource__url=url)


VLLM, SGLANG = "https://github.com/vllm-project/vllm", "https://github.com/sgl-project/sglang"
FLASH, ORCA = (
    "https://arxiv.org/abs/2205.14135",
    "https://www.usenix.org/conference/osdi22/presentation/yu",
)
RETIRED, TRT = "https://example.com/retired", "https://github.com/NVIDIA/TensorRT-LLM"


@pytest.fixture
def curated_guide(db):
    """BEFORE imported and published, then edited by a curator and used by a learner."""
    apply_import(plan_import(BEFORE, guide_slug="serving", title="Serving"))
    guide = Guide.objects.get(slug="serving")
    guide.is_published, guide.description = True, "A curator's description."
    guide.save()
    engines = guide.sections.get(title="Engines")
    engines.title = "Serving engines"  # a curator's edit of a section the source keeps as is
    engines.save()
    vllm = entry_of(guide, VLLM)
    vllm.note = "Start here (curator)."  # a curator's edit of an entry the source keeps as is
    vllm.save()
    learner = UserFactory()
    for url, status in [(VLLM, Status.DONE), (RETIRED, Status.IN_PROGRESS), (SGLANG, Status.DONE)]:
        Progress.objects.create(user=learner, resource=Resource.objects.get(url=url), status=status)
    return guide, learner


def test_diff_of_a_changed_list_names_every_change(curated_guide):
    guide, _ = curated_guide
    diff = diff_guide(guide, plan_import(AFTER, guide_slug="serving", title="Serving"))
    assert diff.added == [("TensorRT-LLM", "Engines")]
    assert diff.removed == [("Retired tool", "Old")]
    assert diff.moved == [("SGLang", "Serving engines", "Papers")]
    assert diff.changed == [("FlashAttention", "Papers")]  # vLLM's curator note is not a change
    assert diff.sections_removed == ["Old"] and diff.sections_added == []
    assert diff.sections_changed == []  # the curator's "Serving engines" is no source change
    assert "stays in the catalog, unlisted, with its progress" in diff.summary()


def test_sync_of_a_changed_list_updates_in_place_and_keeps_progress_and_edits(curated_guide):
    guide, learner = curated_guide
    before = {url: entry_of(guide, url) for url in (VLLM, SGLANG, FLASH, ORCA)}
    engines_pk = guide.sections.get(title="Serving engines").pk
    retired = Resource.objects.get(url=RETIRED)

    result = apply_sync(plan_import(AFTER, guide_slug="serving", title="Serving"))
    assert sync_counts(result).startswith("1 entries added, 1 removed, 1 moved, 1 updated")

    guide.refresh_from_db()
    assert guide.is_published and guide.description == "A curator's description."
    # kept rows keep their pk; the curator's edits the source did not touch survive
    after = {url: entry_of(guide, url) for url in (VLLM, SGLANG, FLASH, ORCA)}
    assert {url: row.pk for url, row in after.items()} == {
        url: row.pk for url, row in before.items()
    }
    assert after[VLLM].note == "Start here (curator)."
    engines = Section.objects.get(pk=engines_pk)
    assert engines.title == "Serving engines"
    # the source changed FlashAttention's line: its note and rating follow, raw is refreshed
    assert after[FLASH].note == "IO-aware attention, now v3." and after[FLASH].rating == 9
    assert "now v3" in after[FLASH].raw
    # the moved entry moved, in the source's order; the added one sits where the source put it
    layout = [
        (e.section.title, e.position, e.resource.title)
        for e in Entry.objects.filter(section__guide=guide).select_related("section", "resource")
    ]
    assert layout == [
        ("Serving engines", 1, "TensorRT-LLM"),
        ("Serving engines", 2, "vLLM"),
        ("Papers", 1, "FlashAttention"),
        ("Papers", 2, "Orca"),
        ("Papers", 3, "SGLang"),
    ]
    assert list(guide.sections.values_list("title", "position")) == [
        ("Serving engines", 1),
        ("Papers", 2),
    ]  # the dropped section, left empty, is gone
    # progress: on kept and moved entries as it was; the removed entry's resource stays, unlisted
    assert Progress.objects.get(user=learner, resource__url=VLLM).status == Status.DONE
    assert Progress.objects.get(user=learner, resource__url=SGLANG).status == Status.DONE
    retired.refresh_from_db()
    assert retired.is_published and not retired.entries.exists()
    assert Progress.objects.get(user=learner, resource=retired).status == Status.IN_PROGRESS
    assert retired.pk not in {e.resource_id for e in visible_entries()}
    assert Progress.objects.filter(user=learner).count() == 3
    # the same source again: nothing left to do, nothing changes
    again = diff_guide(guide, plan_import(AFTER, guide_slug="serving", title="Serving"))
    assert again.is_empty, again.summary()


def test_a_sync_dates_the_entries_it_adds_and_keeps_the_dates_of_those_it_keeps(curated_guide):
    from datetime import timedelta

    from django.utils import timezone

    guide, _ = curated_guide
    long_ago = timezone.now() - timedelta(days=90)
    Entry.objects.update(added_at=long_ago)
    apply_sync(plan_import(AFTER, guide_slug="serving", title="Serving"))
    dates = {url: entry_of(guide, url).added_at for url in (TRT, VLLM, SGLANG, FLASH, ORCA)}
    assert dates.pop(TRT) > timezone.now() - timedelta(minutes=1)  # new in What's new, the feeds
    assert set(dates.values()) == {long_ago}  # kept, moved and changed rows are not additions


def test_a_source_change_of_a_heading_updates_the_section_a_curator_edit_elsewhere_stays(
    curated_guide,
):
    guide, _ = curated_guide
    papers_pk = guide.sections.get(title="Papers").pk
    renamed = BEFORE.replace("## Papers", "## Papers (Tier 1)").replace(
        "## Old", "## Old\nThe tools we used to use."
    )
    plan = plan_import(renamed, guide_slug="serving", title="Serving")
    # a heading path is the section's identity: a renamed heading is a new section
    diff = diff_guide(guide, plan)
    assert diff.sections_added == ["Papers (Tier 1)"] and diff.sections_removed == ["Papers"]
    assert [title for title, _, _ in diff.moved] == ["FlashAttention", "Orca"]
    # a description under a kept heading is a change of that section's source text
    assert [new for _, new in diff.sections_changed] == ["Old"]
    apply_sync(plan)
    old = guide.sections.get(title="Old")
    assert old.description == "The tools we used to use."
    assert guide.sections.get(title="Serving engines")  # still the curator's title
    assert not Section.objects.filter(pk=papers_pk).exists()  # its entries moved to the new heading


def test_rows_imported_before_raw_was_kept_count_as_unchanged(curated_guide):
    guide, _ = curated_guide
    Section.objects.filter(guide=guide).update(raw="")
    Section.objects.filter(guide=guide, title="Papers").update(description="Curated blurb.")
    changed = BEFORE.replace("## Papers", "## Papers\nThe source's blurb.")
    apply_sync(plan_import(changed, guide_slug="serving", title="Serving"))
    papers = guide.sections.get(title="Papers")
    assert papers.description == "Curated blurb." and papers.raw  # raw recorded for next time


def test_a_curator_added_entry_and_section_stay(curated_guide):
    from tests.factories import EntryFactory, ResourceFactory, SectionFactory

    guide, _ = curated_guide
    old = guide.sections.get(title="Old")
    extra = EntryFactory(section=old, resource=ResourceFactory(), position=5, raw="")
    mine = SectionFactory(guide=guide, title="Curator's corner", position=50)
    apply_sync(plan_import(AFTER, guide_slug="serving", title="Serving"))
    extra.refresh_from_db()
    assert extra.section_id == old.pk and extra.position == 1  # the dropped section stays for it
    assert Section.objects.filter(pk=mine.pk).exists()
    positions = list(guide.sections.values_list("position", flat=True))
    assert positions == list(range(1, len(positions) + 1))


def test_a_failure_while_syncing_changes_nothing(curated_guide, monkeypatch):
    from apps.catalog.importer import sync as sync_module

    guide, _ = curated_guide
    layout = list(
        Entry.objects.filter(section__guide=guide).values_list("pk", "section", "position", "note")
    )

    def fail(*args, **kwargs):
        raise RuntimeError("disk full")

    # new_entry runs after the removed entries were deleted and the sections renumbered
    monkeypatch.setattr(sync_module, "new_entry", fail)
    with pytest.raises(RuntimeError):
        apply_sync(plan_import(AFTER, guide_slug="serving", title="Serving"))
    assert (
        list(
            Entry.objects.filter(section__guide=guide).values_list(
                "pk", "section", "position", "note"
            )
        )
        == layout
    )
    assert guide.sections.count() == 3


def test_a_resource_a_curator_merged_away_is_not_brought_back(curated_guide):
    from apps.catalog.models import ResourceAlias

    guide, _ = curated_guide
    orca = Resource.objects.get(url=ORCA)
    survivor = Resource.objects.create(title="Orca (OSDI '22)", url="https://example.org/orca")
    Entry.objects.filter(resource=orca).update(resource=survivor)  # what a merge leaves behind
    ResourceAlias.objects.create(uuid=orca.uuid, resource=survivor)
    orca.delete()
    plan = plan_import(BEFORE, guide_slug="serving", title="Serving")
    assert diff_guide(guide, plan).is_empty
    apply_sync(plan)
    assert not Resource.objects.filter(url=ORCA).exists()
    assert entry_of(guide, "https://example.org/orca").section.title == "Papers"


NESTED = """# Kernels
## GPUs
### Papers
- [Roofline](https://example.com/roofline) - Williams.
- [Brrr](https://horace.io/brrr_intro.html) - Horace He.
### Tools
- [Nsight](https://example.com/nsight) - Profiler.
## Triton
- [Triton tutorial](https://triton-lang.org/tutorials) - Start here.
"""
REORDERED = """# Kernels
## Triton
- [Triton tutorial](https://triton-lang.org/tutorials) - Start here.
## GPUs
### Tools
- [Nsight](https://example.com/nsight) - Profiler.
### Papers
- [Brrr](https://horace.io/brrr_intro.html) - Horace He.
- [Roofline](https://example.com/roofline) - Williams.
"""


def test_a_reordered_source_reorders_sections_and_entries_keeping_every_row(db):
    apply_import(plan_import(NESTED, guide_slug="kernels", title="Kernels"))
    guide = Guide.objects.get(slug="kernels")
    sections = dict(guide.sections.values_list("title", "pk"))
    entries = dict(Entry.objects.values_list("resource__title", "pk"))
    plan = plan_import(REORDERED, guide_slug="kernels", title="Kernels")
    diff = diff_guide(guide, plan)
    assert (diff.added, diff.removed, diff.moved, diff.changed) == ([], [], [], [])
    assert diff.reordered == ["GPUs/Papers"] and diff.sections_reordered
    assert "= reordered: GPUs/Papers" in diff.summary()
    apply_sync(plan)
    assert list(guide.sections.values_list("title", "position", "depth", "parent__title")) == [
        ("Triton", 1, 0, None),
        ("GPUs", 2, 0, None),
        ("Tools", 3, 1, "GPUs"),
        ("Papers", 4, 1, "GPUs"),
    ]
    assert list(
        Entry.objects.filter(section__title="Papers").values_list("resource__title", "position")
    ) == [("Brrr", 1), ("Roofline", 2)]
    assert dict(guide.sections.values_list("title", "pk")) == sections
    assert dict(Entry.objects.values_list("resource__title", "pk")) == entries
    assert diff_guide(guide, plan).is_empty


@pytest.mark.django_db
def test_a_seeded_guide_syncs_with_its_own_source_as_unchanged():
    """The bundled fixture keeps each section's source text (raw), so a sync of a seeded guide
    against the file it was built from has nothing to do."""
    from pathlib import Path

    from django.conf import settings

    call_command("seed", stdout=StringIO())
    sources = Path(settings.BASE_DIR) / "fixtures" / "sources"
    guides = list(Guide.objects.all())
    assert len(guides) == 5
    for guide in guides:
        assert not guide.sections.filter(raw="").exists(), guide.slug
        plan = plan_import(
            (sources / guide.source_name).read_bytes(), guide_slug=guide.slug, title=guide.title
        )
        diff = diff_guide(guide, plan)
        assert diff.is_empty, (guide.slug, diff.summary()[:2000])
