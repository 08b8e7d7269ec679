"""Learners' suggestions in the curators' inbox (apps/inbox/admin.py LearnerSuggestionAdmin):
one line per link with how many learners saved it, accept into a section or dismiss, the
learner reading the outcome, and who must be refused."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.catalog.models import Entry
from apps.progress import services
from apps.progress.models import OwnResource, Suggestion
from tests.factories import GuideFactory, NumberedSectionFactory, UserFactory

pytestmark = pytest.mark.django_db

LIST = reverse("admin:inbox_learnersuggestion_changelist")
URL = "https://example.org/a-good-paper"


@pytest.fixture
def section():
    return NumberedSectionFactory(guide=GuideFactory(title="Inference"), title="Serving")


@pytest.fixture
def ada(learner):
    """Ada's own browser, beside the curator's (curator_client is pytest-django's client)."""
    client = Client()
    client.force_login(learner)
    return client


@pytest.fixture
def suggested(learner, other_learner):
    mine = services.own_resource_save(user=learner, url=URL, title="A good paper", kind="paper").own
    services.own_resource_save(user=other_learner, url=URL, title="Eve's private words")
    services.own_resource_suggest(own=mine)
    return mine


def test_curators_see_one_line_per_link_with_how_many_saved_it(curator_client, suggested):
    response = curator_client.get(LIST)
    assert response.status_code == 200
    text = response.text
    assert "A good paper" in text and URL in text
    assert "Eve&#x27;s private words" not in text and "Eve's private words" not in text
    assert "ada@example.com" not in text and "eve@example.com" not in text
    assert '<td class="field-savers">2</td>' in text


def test_a_link_nobody_suggested_is_not_listed(curator_client, learner):
    services.own_resource_save(user=learner, url="https://example.org/private", title="Private")
    assert "Private" not in curator_client.get(LIST).text


def test_accept_adds_a_draft_entry_and_the_learners_read_it(
    curator_client, suggested, section, ada
):
    data = {"action": "accept", "_selected_action": [suggested.pk]}
    assert curator_client.post(LIST, data).status_code == 200  # the section question
    done = curator_client.post(LIST, {**data, "apply": "Accept", "section": section.pk})
    assert done.status_code == 302
    entry = Entry.objects.get(section=section)
    assert entry.resource == suggested.resource and not entry.is_published
    assert entry.resource.title == "A good paper" and entry.resource.kind == "paper"
    assert set(OwnResource.objects.values_list("suggestion", flat=True)) == {Suggestion.ACCEPTED}
    page = ada.get(reverse("learning:own-list")).text
    assert "Accepted into Inference › Serving." in page
    # published by a curator, it is a catalog resource: the learner's row says so
    Entry.objects.filter(pk=entry.pk).update(is_published=True)
    assert "In the catalog now" in ada.get(reverse("learning:own-list")).text


def test_dismiss_tells_the_learner(curator_client, suggested, ada):
    response = curator_client.post(LIST, {"action": "dismiss", "_selected_action": [suggested.pk]})
    assert response.status_code == 302
    suggested.refresh_from_db()
    assert suggested.suggestion == Suggestion.DISMISSED
    assert OwnResource.objects.exclude(pk=suggested.pk).get().suggestion == ""  # never offered
    assert "did not take it" in ada.get(reverse("learning:own-list")).text


def test_learners_and_visitors_are_refused(client, visitor, learner, suggested):
    assert visitor.get(LIST).status_code == 302
    client.force_login(learner)
    assert client.get(LIST).status_code == 302
    client.force_login(UserFactory(username="staff", is_staff=True))  # staff, not a curator
    assert client.get(LIST).status_code == 403


def test_the_list_runs_the_same_queries_whatever_its_length(curator_client, suggested):
    with CaptureQueriesContext(connection) as few:
        assert curator_client.get(LIST).status_code == 200
    for n in range(15):
        user = UserFactory()
        own = services.own_resource_save(user=user, url=f"https://example.org/{n}").own
        services.own_resource_suggest(own=own)
    with CaptureQueriesContext(connection) as many:
        assert curator_client.get(LIST).status_code == 200
    assert len(many) == len(few)
