"""The committed catalog fixture: rebuilt byte-identically from the committed sources, natural keys only."""

import hashlib
import json

import pytest
from django.core.management import call_command

from apps.catalog.importer.fixtures import FIXTURE_PATH
from apps.catalog.importer.sources import GUIDE_SOURCES, SOURCES_DIR
from apps.catalog.path_fixtures import PATHS_FIXTURE_PATH

# sha256 of the community originals the sources were copied from (../shared/seeds/*.txt).
ORIGINAL_SHA256 = {
    "ai-cheatsheet": "3e4babde301a87420f447a31450be2e731d09660894619e79069833ad8941ae9",
    "ai-engineering-awesome": "06fee5f32d2e1132d3f3f51eb2bcc1645980b48dfdee5973bbb97344a5a73f7f",
    "ai-inference-engineering": "96e9520329b6dd6c203551ae8fef3643c95f096bab3b60b0edf8a17a442ac244",
    "future-blogs-to-write": "35cf754a5b3dce5609d63591706ce65ba56e6de66a79d1f3b0cb48c6c6efa2ee",
    "ai-infra-field-notes": "d3a57afe00b0754baac739c01cdc1320bbc88f7381abfacab6f9ad8a58bb972f",
}


@pytest.fixture(scope="module")
def fixture_objects():
    return json.loads(FIXTURE_PATH.read_text(encoding="utf-8"))


def test_sources_are_byte_identical_copies_of_the_originals():
    for source in GUIDE_SOURCES:
        assert (
            hashlib.sha256(source.path.read_bytes()).hexdigest() == ORIGINAL_SHA256[source.slug]
        ), source.slug
    assert sorted(p.name for p in SOURCES_DIR.glob("*.md")) == sorted(
        f"{s.slug}.md" for s in GUIDE_SOURCES
    )


def test_build_fixtures_regenerates_the_committed_file_byte_identically(tmp_path):
    call_command("build_fixtures", output=str(tmp_path))
    assert (tmp_path / "catalog.json").read_bytes() == FIXTURE_PATH.read_bytes()
    assert (tmp_path / "paths.json").read_bytes() == PATHS_FIXTURE_PATH.read_bytes()


def test_fixture_uses_natural_keys_only(fixture_objects):
    assert fixture_objects and all("pk" not in obj for obj in fixture_objects)
    uuids = [obj["fields"]["uuid"] for obj in fixture_objects]
    assert len(uuids) == len(set(uuids))
    entry = next(obj for obj in fixture_objects if obj["model"] == "catalog.entry")
    assert isinstance(entry["fields"]["section"], list) and isinstance(
        entry["fields"]["resource"], list
    )


def test_fixture_objects_come_in_load_order(fixture_objects):
    order = [
        "catalog.topic",
        "catalog.guide",
        "catalog.section",
        "catalog.resource",
        "catalog.resourcelink",
        "catalog.entry",
    ]
    models = [obj["model"] for obj in fixture_objects]
    assert models == sorted(models, key=order.index)
    seen = set()
    for obj in fixture_objects:
        parent = obj["fields"].get("parent")
        assert parent is None or parent[0] in seen
        seen.add(obj["fields"]["uuid"])


def test_fixture_holds_the_five_guides(fixture_objects):
    guides = [obj["fields"] for obj in fixture_objects if obj["model"] == "catalog.guide"]
    assert [(g["slug"], g["position"]) for g in guides] == [
        ("ai-cheatsheet", 1),
        ("ai-engineering-awesome", 2),
        ("ai-inference-engineering", 3),
        ("future-blogs-to-write", 4),
        ("ai-infra-field-notes", 5),
    ]
    assert guides[3]["title"] == "Future blogs to write"
    resources = [obj["fields"] for obj in fixture_objects if obj["model"] == "catalog.resource"]
    assert all(r["topics"] for r in resources)
