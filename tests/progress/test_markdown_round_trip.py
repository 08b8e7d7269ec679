"""The Markdown export round-trips: imported into the same account it changes nothing, into a fresh
account it gives the same resources done, for every shape a guide has (a source line holding
several links, items without a link, two items of one title, one resource in two guides)."""

import pytest
from django.urls import reverse

from apps.progress.exports import progress_markdown
from apps.progress.imports import import_apply, import_plan
from apps.progress.models import Progress, Status
from apps.progress.services import progress_set_status
from tests.factories import EntryFactory, GuideFactory, ResourceFactory, SectionFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def shapes():
    """One guide of every shape; returns its resources by name."""
    guide = GuideFactory(title="Cheatsheet", position=1)
    must = SectionFactory(guide=guide, title="MUST", position=1)
    maybe = SectionFactory(guide=guide, title="MAYBE", position=2)
    r = {
        "flash1": ResourceFactory(title="FlashAttention", url="https://example.com/fa1"),
        "flash2": ResourceFactory(title="FlashAttention-2", url="https://example.com/fa2"),
        "flash3": ResourceFactory(title="FlashAttention-3", url="https://example.com/fa3"),
        "single": ResourceFactory(title="Paged attention", url="https://example.com/paged"),
        "concept": ResourceFactory(title="Roofline model", url=None),
        "twin_a": ResourceFactory(title="Quantization", url=None),
        "twin_b": ResourceFactory(title="Quantization", url=None),
        "shared": ResourceFactory(title="KV cache", url="https://example.com/kv"),
    }
    # One source line that gave three resources: its first link is FlashAttention's.
    three = (
        "- [ ] FlashAttention [v1](https://example.com/fa1), [v2](https://example.com/fa2), "
        "[v3](https://example.com/fa3)"
    )
    for position, name in enumerate(("flash1", "flash2", "flash3"), start=1):
        EntryFactory(section=must, resource=r[name], position=position, raw=three)
    EntryFactory(
        section=must,
        resource=r["single"],
        position=4,
        raw="- [ ] [Paged attention](https://example.com/paged) (rating 9/10)",
    )
    EntryFactory(section=must, resource=r["concept"], position=5, raw="- [ ] Roofline model")
    EntryFactory(section=maybe, resource=r["twin_a"], position=1, raw="- [ ] Quantization")
    EntryFactory(section=maybe, resource=r["twin_b"], position=2, raw="- [ ] Quantization")
    EntryFactory(section=maybe, resource=r["shared"], position=3, raw="")
    other = GuideFactory(title="Inference", position=2)
    EntryFactory(
        section=SectionFactory(guide=other, title="Tier 1", position=1),
        resource=r["shared"],
        position=1,
        raw="1. [KV cache](https://example.com/kv) - Someone. Why it matters.",
    )
    return r


DONE_SETS = [
    ("flash2",),  # the second link of a shared line, not the line's first
    ("flash3", "concept"),
    ("twin_b",),  # one of two link-less items of the same title
    ("flash1", "flash2", "flash3", "single", "concept", "twin_a", "twin_b", "shared"),
    (),
]


def _done(user):
    return set(
        Progress.objects.filter(user=user, status=Status.DONE).values_list("resource_id", flat=True)
    )


@pytest.mark.parametrize("done", DONE_SETS)
def test_export_imported_into_the_same_account_changes_nothing(shapes, done):
    user = UserFactory()
    progress_set_status(user=user, resource=shapes["single"], status=Status.IN_PROGRESS)
    for name in done:
        progress_set_status(user=user, resource=shapes[name], status=Status.DONE)
    before = set(Progress.objects.filter(user=user).values_list("resource_id", "status"))

    plan = import_plan(user=user, content=progress_markdown(user))

    assert plan.changes == []
    assert plan.unmatched == []
    assert plan.unchanged == len(done)
    import_apply(user=user, plan=plan)
    assert set(Progress.objects.filter(user=user).values_list("resource_id", "status")) == before


@pytest.mark.parametrize("done", DONE_SETS)
def test_export_imported_into_a_fresh_account_gives_the_same_resources_done(shapes, done):
    ada, grace = UserFactory(), UserFactory()
    for name in done:
        progress_set_status(user=ada, resource=shapes[name], status=Status.DONE)

    plan = import_plan(user=grace, content=progress_markdown(ada))
    assert plan.unmatched == []
    import_apply(user=grace, plan=plan)

    assert _done(grace) == _done(ada) == {shapes[name].id for name in done}


def test_a_shared_source_line_is_written_once_per_resource_with_its_own_link(shapes):
    markdown = progress_markdown(UserFactory())
    for name, link in (("flash1", "fa1"), ("flash2", "fa2"), ("flash3", "fa3")):
        resource = shapes[name]
        line = f"- [ ] [{resource.title}](https://example.com/{link}) <!-- syllabus:{resource.uuid} -->"
        assert markdown.count(line) == 1
    # A line that gave one resource keeps the guide's own words.
    assert (
        "- [ ] [Paged attention](https://example.com/paged) (rating 9/10) "
        f"<!-- syllabus:{shapes['single'].uuid} -->"
    ) in markdown


def test_a_hand_written_line_without_a_marker_still_matches_by_link(shapes):
    user = UserFactory()
    plan = import_plan(user=user, content="- [x] [v2](https://example.com/fa2)\n")
    assert [change.resource for change in plan.changes] == [shapes["flash2"]]


def test_a_marker_wins_over_the_line_link(shapes):
    user = UserFactory()
    line = f"- [x] [FlashAttention](https://example.com/fa1) <!-- syllabus:{shapes['flash3'].uuid} -->\n"
    plan = import_plan(user=user, content=line)
    assert [change.resource for change in plan.changes] == [shapes["flash3"]]


def test_a_marker_of_a_resource_no_longer_published_falls_back_to_the_link(shapes):
    gone = ResourceFactory(title="Gone", url="https://example.com/gone", is_published=False)
    line = f"- [x] [FlashAttention-2](https://example.com/fa2) <!-- syllabus:{gone.uuid} -->\n"
    plan = import_plan(user=UserFactory(), content=line)
    assert [change.resource for change in plan.changes] == [shapes["flash2"]]


def test_round_trip_through_the_pages(client, shapes):
    ada, grace = UserFactory(), UserFactory()
    for name in ("flash2", "twin_b", "concept"):
        progress_set_status(user=ada, resource=shapes[name], status=Status.DONE)
    client.force_login(ada)
    markdown = client.get(reverse("progress:export", args=["md"])).content.decode()

    preview = client.post(reverse("progress:import"), {"text": markdown})
    assert preview.status_code == 200
    assert "Not started" not in preview.content.decode()
    client.force_login(grace)
    client.post(reverse("progress:import"), {"text": markdown, "confirm": "1"})
    assert _done(grace) == _done(ada)


@pytest.fixture
def seeded(db):
    from django.core.management import call_command

    call_command("seed", verbosity=0)


def test_the_seeded_guides_round_trip_both_ways(seeded):
    """The five real guides (multi-link lines, link-less concepts, one resource in several
    guides): every third resource done, exported, imported back and into a fresh account."""
    from apps.catalog.selectors import visible_entries

    resource_ids = sorted(set(visible_entries().values_list("resource_id", flat=True)))
    assert len(resource_ids) > 150
    ada, grace = UserFactory(), UserFactory()
    from apps.catalog.models import Resource

    for resource in Resource.objects.filter(id__in=resource_ids[::3]):
        progress_set_status(user=ada, resource=resource, status=Status.DONE)
    markdown = progress_markdown(ada)

    again = import_plan(user=ada, content=markdown)
    assert (again.changes, again.unmatched) == ([], [])
    fresh = import_plan(user=grace, content=markdown)
    assert fresh.unmatched == []
    import_apply(user=grace, plan=fresh)
    assert _done(grace) == _done(ada) == set(resource_ids[::3])


def test_a_malformed_marker_is_read_as_a_hand_written_line(shapes):
    content = (
        "- [x] [v2](https://example.com/fa2) <!-- syllabus:not-a-uuid-at-all-but-long-enough-ok -->\n"
        f"- [x] Roofline model <!-- syllabus:{shapes['concept'].uuid.hex} -->\n"
    )
    plan = import_plan(user=UserFactory(), content=content)
    assert {change.resource for change in plan.changes} == {shapes["flash2"], shapes["concept"]}


def test_markers_in_a_megabyte_are_read_in_linear_time(shapes):
    import time

    line = "- [x] x " + "<!-- syllabus:" * 250 + "\n"
    content = line * (1_000_000 // len(line))
    started = time.perf_counter()
    plan = import_plan(user=UserFactory(), content=content)
    assert time.perf_counter() - started < 2
    assert plan.changes == []
