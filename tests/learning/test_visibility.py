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
    dashboard = unescape(client.get(reverse("progress:dashboard")).content.decode())
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
        reverse("progress:set", args=[visible.uuid]),
        {"status": "done", "scope": f"guide:{guide.uuid}"},
        HTTP_HX_REQUEST="true",
    )
    html = unescape(response.content.decode())
    assert f'id="bar-guide-{guide.uuid}"' in html and "1/1 · 100%" in html
