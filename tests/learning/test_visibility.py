"""What learners see has one owner (apps.catalog.selectors): a published subsection under an
unpublished section is hidden on the guide page, and so it is in every count, suggestion and
export built on the catalog."""

from html import unescape

import pytest
from django.urls import reverse

from apps.catalog.models import Entry, Guide, Resource, Section
from apps.progress.exports import progress_markdown
from apps.progress.models import Status
from apps.progress.services import progress_set_status
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def guide():
    """One visible entry, and one in a published subsection of an unpublished section."""
    guide = Guide.objects.create(slug="kernels", title="Kernels")
    shown = Section.objects.create(guide=guide, title="Shown", position=1)
    withdrawn = Section.objects.create(
        guide=guide, title="Withdrawn", position=2, is_published=False
    )
    inner = Section.objects.create(
        guide=guide, parent=withdrawn, title="Inner", position=3, depth=1
    )
    for section, title in ((shown, "Visible paper"), (inner, "Hidden paper")):
        resource = Resource.objects.create(
            title=title, url=f"https://example.com/{title.split()[0].lower()}"
        )
        Entry.objects.create(section=section, resource=resource, position=1, raw=f"- [ ] {title}")
    return guide


def test_a_published_subsection_under_an_unpublished_section_is_hidden_everywhere(client, guide):
    learner = UserFactory()
    visible = Resource.objects.get(title="Visible paper")
    progress_set_status(
        user=learner, resource=Resource.objects.get(title="Hidden paper"), status=Status.IN_PROGRESS
    )
    client.force_login(learner)

    page = unescape(client.get(guide.get_absolute_url()).content.decode())
    assert "Visible paper" in page and "Hidden paper" not in page and "Inner" not in page
    assert "0/1 · 0%" in page  # the guide's bar counts the one entry the page shows

    progress_set_status(
        user=learner, resource=visible, status=Status.DONE
    )  # the latest change: this guide
    dashboard = unescape(client.get(reverse("learning:dashboard")).content.decode())
    assert "1 of 1 resources done" in dashboard  # the overall bar counts visible entries only
    continue_card = dashboard.split('id="continue-heading"')[1].split("</section>")[0]
    assert "Hidden paper" not in continue_card.split("<h3>In progress</h3>")[0]

    assert "Hidden paper" not in progress_markdown(
        learner
    ) and "Visible paper" in progress_markdown(learner)


def test_a_tick_on_the_guide_page_refreshes_bars_over_visible_entries_only(client, guide):
    learner = UserFactory()
    visible = Resource.objects.get(title="Visible paper")
    client.force_login(learner)
    response = client.post(
        reverse("learning:progress-set", args=[visible.uuid]),
        {"status": "done", "scope": f"guide:{guide.uuid}"},
        HTTP_HX_REQUEST="true",
    )
    html = unescape(response.content.decode())
    assert f'id="bar-guide-{guide.uuid}"' in html and "1/1 · 100%" in html


# --- Drafts stay drafts: a resource is visible only through a visible entry -------------------
HIDINGS = ["draft guide", "unpublished section", "unpublished entry", "in no guide"]


@pytest.fixture(params=HIDINGS)
def hidden(request):
    """A published resource ("Zyzzyva kernels") that learners may not see, hidden the way the
    param says, next to a visible one; both on one topic and one published path."""
    from apps.paths.models import LearningPath, PathStep, StepResource
    from tests.factories import EntryFactory, ResourceFactory, SectionFactory, TopicFactory

    topic = TopicFactory(slug="kernels", title="Kernels")
    shown = ResourceFactory(title="Shown paper", url="https://example.com/shown", topics=[topic])
    EntryFactory(resource=shown)
    resource = ResourceFactory(
        title="Zyzzyva kernels", url="https://example.com/zyzzyva", topics=[topic]
    )
    if request.param == "draft guide":
        EntryFactory(resource=resource, section=SectionFactory(guide__is_published=False))
    elif request.param == "unpublished section":
        EntryFactory(resource=resource, section=SectionFactory(is_published=False))
    elif request.param == "unpublished entry":
        EntryFactory(resource=resource, is_published=False)
    path = LearningPath.objects.create(slug="kernel-path", title="Kernel path")
    step = PathStep.objects.create(path=path, position=1, title="Read")
    StepResource.objects.create(step=step, resource=shown, position=1)
    StepResource.objects.create(step=step, resource=resource, position=2)
    return resource


def test_a_hidden_resource_is_not_found_by_search(client, hidden):
    from apps.catalog import selectors

    assert list(selectors.search_resources("zyzzyva")) == []
    page = client.get(reverse("learning:search"), {"q": "zyzzyva"}).content.decode()
    assert "Zyzzyva kernels" not in page


def test_a_hidden_resource_gives_no_did_you_mean(hidden):
    from apps.catalog import search

    assert search.suggestion(["zyzzyvb"]) == ""  # "zyzzyva" is no word of the visible catalog


def test_a_hidden_resource_is_not_on_its_topic(client, hidden):
    page = unescape(client.get(reverse("learning:topic-detail", args=["kernels"])).content.decode())
    assert "Shown paper" in page and "Zyzzyva kernels" not in page
    topics = unescape(client.get(reverse("learning:topic-list")).content.decode())
    assert "1 resource" in topics and "2 resources" not in topics


def test_a_hidden_resource_is_not_on_a_published_path(client, hidden):
    page = unescape(
        client.get(reverse("learning:path-detail", args=["kernel-path"])).content.decode()
    )
    assert "Shown paper" in page and "Zyzzyva kernels" not in page


def test_a_hidden_resource_has_no_page(client, hidden):
    assert client.get(hidden.get_absolute_url()).status_code == 404


def test_a_visitor_cannot_tick_a_hidden_resource(client, hidden):
    from apps.progress.signals import PENDING_SESSION_KEY

    response = client.post(reverse("learning:progress-set", args=[hidden.uuid]), {"status": "done"})
    assert response.status_code == 404
    assert PENDING_SESSION_KEY not in client.session


def test_a_learner_cannot_tick_or_note_a_hidden_resource(client, hidden):
    from apps.progress.models import Progress

    client.force_login(UserFactory())
    for htmx in ({}, {"HTTP_HX_REQUEST": "true"}):
        response = client.post(
            reverse("learning:progress-set", args=[hidden.uuid]), {"status": "done"}, **htmx
        )
        assert response.status_code == 404
    response = client.post(reverse("learning:progress-note", args=[hidden.uuid]), {"note": "mine"})
    assert response.status_code == 404
    assert not Progress.objects.filter(resource=hidden).exists()


def test_a_progress_import_does_not_tick_a_hidden_resource(hidden):
    from apps.progress.imports import import_plan

    learner = UserFactory()
    plan = import_plan(
        user=learner, content="- [x] [Zyzzyva kernels](https://example.com/zyzzyva)\n"
    )
    assert plan.changes == [] and len(plan.unmatched) == 1


def test_progress_on_a_resource_hidden_later_stays_the_learners_and_in_their_export(hidden):
    from apps.progress.exports import progress_json, user_data_export
    from apps.progress.models import Progress

    learner = UserFactory()
    Progress.objects.create(user=learner, resource=hidden, status=Status.IN_PROGRESS, note="mine")
    exported = {row["resource"]: row for row in user_data_export(learner)["progress"]}
    assert exported[str(hidden.uuid)]["note"] == "mine"
    assert Progress.objects.filter(user=learner, resource=hidden).exists()
    # The progress file holds what learners may see, as every page does.
    assert str(hidden.uuid) not in {row["resource"] for row in progress_json(learner)["progress"]}
