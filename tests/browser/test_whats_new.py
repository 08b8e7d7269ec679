"""What's new in a real browser: the dashboard's block, "Mark as seen" swapped away by htmx."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from apps.catalog.models import Entry
from apps.learning.models import WhatsNewSeen
from apps.progress.models import Status
from apps.progress.services import progress_set_status
from tests.conftest import sign_in
from tests.factories import EntryFactory, ResourceFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_mark_as_seen_removes_the_block_in_place(page, live_server, learner):
    first = EntryFactory()
    Entry.objects.update(added_at=timezone.now() - timedelta(days=60))
    learner.date_joined = timezone.now() - timedelta(days=30)
    learner.save(update_fields=["date_joined"])
    progress_set_status(user=learner, resource=first.resource, status=Status.DONE)
    EntryFactory(section=first.section, resource=ResourceFactory(title="Brand new chapter"))
    sign_in(page, live_server, learner)
    page.goto(f"{live_server.url}/dashboard/")
    block = page.locator("#whats-new")
    expect(block).to_contain_text("Brand new chapter")
    expect(block).to_contain_text("1 section you had finished gained items")
    page.get_by_role("button", name="Mark as seen").click()
    expect(block).to_have_count(0)
    assert page.url == f"{live_server.url}/dashboard/"  # swapped in place, no navigation
    assert WhatsNewSeen.objects.get(user=learner).seen_up_to <= timezone.now()
    page.reload()
    expect(page.locator("#whats-new")).to_have_count(0)
    expect(page.get_by_text("Nothing new in the guides, topics and paths you use")).to_be_visible()
