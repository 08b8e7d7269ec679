"""A guide kept in step with its source URL, end to end (the source served by a local server)."""

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from apps.catalog.importer import apply_import, plan_import
from apps.catalog.models import Entry, Guide, Resource
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


@pytest.fixture
def source_server():
    served = {"body": VERSION_1.encode()}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/markdown; charset=utf-8")
            self.end_headers()
            self.wfile.write(served["body"])

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield served, f"http://127.0.0.1:{server.server_address[1]}/README.md"
    server.shutdown()
    server.server_close()


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
