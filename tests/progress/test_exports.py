"""The Markdown checklist export: the guides' own layout, readable as plain text and re-importable."""

import pytest
from django.urls import reverse

from apps.progress.exports import progress_markdown
from apps.progress.models import Progress, Status
from apps.progress.services import progress_set_status
from tests.factories import EntryFactory, GuideFactory, ResourceFactory, SectionFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_guides():
    first = GuideFactory(title="Inference", position=1)
    serving = SectionFactory(guide=first, title="Serving", position=1)
    batching = SectionFactory(guide=first, title="Batching", position=2)
    paged = ResourceFactory(title="Paged attention", url="https://example.com/paged")
    EntryFactory(section=serving, resource=paged, position=1)
    EntryFactory(
        section=batching,
        resource=ResourceFactory(title="Continuous batching", url="https://example.com/cb"),
        position=1,
    )
    second = GuideFactory(title="Training", position=2)
    backprop = ResourceFactory(title="Backprop", url="https://example.com/backprop")
    EntryFactory(
        section=SectionFactory(guide=second, title="Basics", position=1),
        resource=backprop,
        position=1,
    )
    return {"paged": paged, "batching": batching.entries.get().resource, "backprop": backprop}


def test_markdown_has_exactly_one_blank_line_around_every_heading(two_guides):
    user = UserFactory()
    progress_set_status(user=user, resource=two_guides["paged"], status=Status.DONE)
    marker = {name: f" <!-- syllabus:{resource.uuid} -->" for name, resource in two_guides.items()}
    assert progress_markdown(user) == (
        "# Inference\n"
        "\n"
        "## Serving\n"
        "\n"
        f"- [x] [Paged attention](https://example.com/paged){marker['paged']}\n"
        "\n"
        "## Batching\n"
        "\n"
        f"- [ ] [Continuous batching](https://example.com/cb){marker['batching']}\n"
        "\n"
        "# Training\n"
        "\n"
        "## Basics\n"
        "\n"
        f"- [ ] [Backprop](https://example.com/backprop){marker['backprop']}\n"
    )


def test_a_guide_without_entries_leaves_no_double_blank_line(two_guides):
    GuideFactory(title="Empty", position=0)
    markdown = progress_markdown(UserFactory())
    assert markdown.startswith("# Empty\n\n# Inference\n\n## Serving\n\n")
    assert "\n\n\n" not in markdown


def test_the_tighter_markdown_still_round_trips(client, two_guides):
    ada, grace = UserFactory(), UserFactory()
    progress_set_status(user=ada, resource=two_guides["paged"], status=Status.DONE)
    client.force_login(ada)
    markdown = client.get(reverse("progress:export", args=["md"])).content.decode()
    assert "\n\n\n" not in markdown

    client.force_login(grace)
    client.post(reverse("progress:import"), {"text": markdown, "confirm": "1"})
    assert list(Progress.objects.filter(user=grace).values_list("resource__title", "status")) == [
        ("Paged attention", Status.DONE)
    ]
