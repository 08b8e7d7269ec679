"""Unpublished guides, sections, entries, resources, topics and paths are invisible to learners everywhere.

The learner-facing pages belong to the catalog, progress and paths apps; these tests pin the
rule a curator relies on when they press "Unpublish" in the admin.
"""

import pytest
from django.apps import apps
from django.urls import reverse
from django.utils import timezone

from apps.progress.models import Progress, Status
from tests.factories import GuideFactory, ResourceFactory, TopicFactory
from tests.factories import NumberedEntryFactory as EntryFactory
from tests.factories import NumberedSectionFactory as SectionFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def catalog(db):
    guide = GuideFactory(slug="open", title="Open guide")
    section = SectionFactory(guide=guide, title="Open section")
    hidden_section = SectionFactory(guide=guide, title="Hidden section", is_published=False)
    child = SectionFactory(guide=guide, parent=hidden_section, title="Child of hidden")
    topic = TopicFactory(slug="attention", title="Attention")
    secret_topic = TopicFactory(slug="secret", title="Secret topic", is_published=False)

    visible = ResourceFactory(title="Visible zeppelin paper")
    hidden = ResourceFactory(title="Unpublished zeppelin", is_published=False)
    under_hidden = ResourceFactory(title="Under a hidden section zeppelin")
    withdrawn = ResourceFactory(title="Entry withdrawn zeppelin")
    EntryFactory(section=section, resource=visible)
    EntryFactory(section=section, resource=hidden)
    EntryFactory(section=child, resource=under_hidden)
    EntryFactory(section=section, resource=withdrawn, is_published=False)
    for resource in (visible, hidden, under_hidden):
        resource.topics.add(topic, secret_topic)

    secret_guide = GuideFactory(slug="secret", title="Secret guide", is_published=False)
    secret_section = SectionFactory(guide=secret_guide, title="Secret section")
    EntryFactory(section=secret_section, resource=visible)
    EntryFactory(
        section=secret_section, resource=ResourceFactory(title="In the secret guide only zeppelin")
    )
    return {
        "guide": guide,
        "secret_guide": secret_guide,
        "topic": topic,
        "secret_topic": secret_topic,
        "visible": visible,
        "hidden": hidden,
    }


# Published resources that no visible entry lists: hidden like their guide, section or entry.
LISTED_ONLY_WHERE_HIDDEN = (
    "Under a hidden section zeppelin",
    "Entry withdrawn zeppelin",
    "In the secret guide only zeppelin",
)


def page(client, url, status=200):
    response = client.get(url)
    assert response.status_code == status, url
    return response.content.decode()


def assert_hidden(html, *secrets):
    leaked = [secret for secret in secrets if secret in html]
    assert not leaked, f"leaked to learners: {leaked}"


def test_home_lists_and_counts_only_published_things(client, catalog):
    response = client.get(reverse("learning:home"))
    html = response.content.decode()
    assert "Open guide" in html and "Attention" in html
    assert_hidden(html, "Secret guide", "Secret topic")
    overview = response.context["overview"]
    assert [summary.guide.slug for summary in overview.guides] == ["open"]
    assert (
        overview.guides[0].resource_count == 1
    )  # visible only: not the unpublished, withdrawn or hidden-branch ones
    assert overview.guides[0].section_count == 1
    # Visible resources only: not the one listed only under a hidden section.
    assert {topic.slug: topic.resource_count for topic in overview.topics} == {"attention": 1}


def test_guide_page_hides_unpublished_sections_entries_and_resources(client, catalog):
    html = page(client, catalog["guide"].get_absolute_url())
    assert "Visible zeppelin paper" in html
    assert_hidden(
        html,
        "Hidden section",
        "Child of hidden",
        "Under a hidden section",
        "Unpublished zeppelin",
        "Entry withdrawn",
    )


def test_unpublished_guide_is_404(client, catalog):
    page(client, catalog["secret_guide"].get_absolute_url(), status=404)


def test_unpublished_resource_page_is_404(client, catalog):
    page(client, catalog["hidden"].get_absolute_url(), status=404)


def test_resource_page_lists_only_visible_placements_and_topics(client, catalog):
    html = page(client, catalog["visible"].get_absolute_url())
    assert "Open guide" in html and "Attention" in html
    assert_hidden(html, "Secret guide", "Secret section", "Secret topic")


def test_topic_pages_hide_unpublished_topics_and_resources(client, catalog):
    html = page(client, catalog["topic"].get_absolute_url())
    assert "Visible zeppelin paper" in html
    assert_hidden(html, "Unpublished zeppelin", "Secret guide", "Under a hidden section zeppelin")
    page(client, catalog["secret_topic"].get_absolute_url(), status=404)
    assert_hidden(page(client, reverse("learning:topic-list")), "Secret topic")


def test_search_finds_only_published_resources(client, catalog):
    response = client.get(reverse("learning:search"), {"q": "zeppelin"})
    html = response.content.decode()
    assert "Visible zeppelin paper" in html
    assert_hidden(html, "Unpublished zeppelin", "Secret guide", *LISTED_ONLY_WHERE_HIDDEN)
    htmx = client.get(
        reverse("learning:search"), {"q": "zeppelin"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert_hidden(htmx, "Unpublished zeppelin", *LISTED_ONLY_WHERE_HIDDEN)


def test_a_learners_dashboard_does_not_show_what_was_unpublished(client, catalog, learner):
    now = timezone.now()
    Progress.objects.create(
        user=learner, resource=catalog["hidden"], status=Status.IN_PROGRESS, started_at=now
    )
    Progress.objects.create(
        user=learner, resource=catalog["visible"], status=Status.IN_PROGRESS, started_at=now
    )
    client.force_login(learner)
    html = page(client, reverse("learning:dashboard"))
    assert "Visible zeppelin paper" in html
    assert_hidden(html, "Unpublished zeppelin", "Secret guide")


@pytest.mark.skipif(not apps.is_installed("apps.paths"), reason="the paths app is not installed")
def test_paths_hide_unpublished_paths_and_resources(client, catalog):
    from apps.paths.models import LearningPath, PathStep, StepResource

    path = LearningPath.objects.create(slug="open-path", title="Open path")
    step = PathStep.objects.create(path=path, position=1, title="Step one")
    StepResource.objects.create(step=step, resource=catalog["visible"], position=1)
    StepResource.objects.create(step=step, resource=catalog["hidden"], position=2)
    LearningPath.objects.create(slug="secret-path", title="Secret path", is_published=False)

    html = page(client, path.get_absolute_url())
    assert "Visible zeppelin paper" in html
    assert_hidden(html, "Unpublished zeppelin")
    assert_hidden(page(client, reverse("learning:path-list")), "Secret path")
    page(client, reverse("learning:path-detail", args=["secret-path"]), status=404)


def test_unpublishing_from_the_admin_hides_at_once(client, curator_client, catalog):
    guide = catalog["guide"]
    curator_client.post(
        reverse("admin:catalog_guide_changelist"),
        {"action": "unpublish", "_selected_action": [guide.pk]},
    )
    page(client, guide.get_absolute_url(), status=404)
    assert_hidden(page(client, reverse("learning:home")), "Open guide")
