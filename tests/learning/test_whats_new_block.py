"""The dashboard's What's new block (whatsnew.whats_new_block) says what the What's new page marks
new: how many resources, the newest few, the finished sections that gained items; on the page,
after a reload and after a dashboard tick's htmx swap."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from apps.catalog.models import Entry
from apps.learning import whatsnew
from apps.learning.models import WhatsNewSeen
from apps.paths.models import PathFollow, StepResource
from apps.paths.selectors import follows_for
from apps.progress.models import Status
from apps.progress.selectors import statuses_for
from apps.progress.services import progress_set_status
from tests.learning.test_whats_new import (
    DASHBOARD,
    NEW,
    PAGE,
    add_entry,
    before,  # noqa: F401 - the fixture, by name
    block_of,
    html_of,
    leaf,
)
from tests.progress.conftest import build_guide

pytestmark = pytest.mark.django_db


def _seen(learner, days_ago):
    WhatsNewSeen.objects.update_or_create(
        user=learner, defaults={"seen_up_to": timezone.now() - timedelta(days=days_ago)}
    )


def page_new(html):
    """(titles of the page's additions marked New, in its order; how many gained sections New)."""
    rows = re.findall(r'<li class="row" id="new-[^"]+">(.*?)</li>', html, re.S)
    titles = [
        re.search(r'class="row__link" href="[^"]+">([^<]+)</a>', row).group(1)
        for row in rows
        if NEW in row
    ]
    gained = re.findall(r'<li class="placement" id="gained-[^"]+">(.*?)</li>\s*</ul>', html, re.S)
    return titles, sum(NEW in item for item in gained)


def block_numbers(block):
    """(resources counted, titles named, sections counted) of the dashboard's block."""
    count = re.search(r"(\d+) resources? added to", block)
    sections = re.search(r"(\d+) sections? you had finished", block)
    titles = re.findall(r'<li><a href="/resources/[^"]+">([^<]+)</a>', block)
    return (
        int(count.group(1)) if count else 0,
        titles,
        int(sections.group(1)) if sections else 0,
    )


@pytest.fixture
def busy(before, learner, learning_path):  # noqa: F811 - the fixture, by name
    """Additions old and new to a guide, a topic and a followed path the learner uses, a resource
    added to two of them, and a finished section that gained items both before and after the
    learner's "seen up to" (five days ago)."""
    guide = before["guide"]
    PathFollow.objects.create(user=learner, path=learning_path)
    progress_set_status(user=learner, resource=before["shared"], status=Status.IN_PROGRESS)
    section = leaf(guide)
    for resource in {entry.resource for entry in section.entries.all()}:
        progress_set_status(user=learner, resource=resource, status=Status.DONE)
    add_entry(section, "Gained twenty days ago", days_ago=20)  # not done: before "seen"
    add_entry(section, "Gained yesterday", days_ago=1)
    for n in range(6):
        add_entry(leaf(before["other_guide"]), f"Beta addition {n}", days_ago=n % 3 + 1)
        add_entry(leaf(guide), f"Old alpha addition {n}", days_ago=10 + n)
    twice = add_entry(leaf(guide), "Added to the guide and the path", days_ago=2)
    StepResource.objects.create(
        step=learning_path.steps.get(position=2), resource=twice.resource, position=9
    )
    gamma, _ = build_guide("gamma", n_sections=1, per_section=0)
    fresh = add_entry(leaf(gamma), "New on the topic", days_ago=1)
    fresh.resource.topics.add(before["topic"])
    _seen(learner, 5)
    return before


def test_the_blocks_numbers_are_the_pages_new_ones(client, learner, busy):
    client.force_login(learner)
    block = block_of(html_of(client, DASHBOARD))  # first: opening the page moves "seen up to"
    titles, sections = page_new(html_of(client, PAGE))
    count, named, gained = block_numbers(block)
    assert count == len(titles) >= 8 and named == titles[:3]
    assert gained == sections == 1
    assert f"See everything new ({count})" in block


def test_a_section_that_gained_items_before_and_after_seen_is_new_on_both(client, learner, busy):
    """The page lists the section with its additions since the page's start (some older than
    "seen up to", one of them not done) and marks it new; the block lists it the same way."""
    client.force_login(learner)
    block = block_of(html_of(client, DASHBOARD))
    page = html_of(client, PAGE)
    named = re.search(r"you had finished it: (\d+) new items?", block)
    listed = re.search(
        r"You had finished this section; (\d+) items? (?:was|were) added since", page
    )
    assert named and listed and named.group(1) == listed.group(1)
    assert int(named.group(1)) > 1  # more than the addition after "seen up to"


def test_the_block_is_whats_new_at_every_seen_up_to(learner, busy):
    """For a range of "seen up to", the block's numbers and newest three are whats_new's."""
    statuses, follows = statuses_for(user=learner), follows_for(user=learner)
    now = timezone.now()
    for days in (0, 1.5, 2.5, 4, 12, 25, 40):
        seen = now - timedelta(days=days)
        since = whatsnew.page_since(user=learner, seen=seen, now=now)
        page = whatsnew.whats_new(statuses=statuses, follows=follows, seen=seen, since=since)
        block = whatsnew.whats_new_block(statuses=statuses, follows=follows, seen=seen, since=since)
        assert block.new_count == len(page.new_additions)
        assert [a.resource.id for a in block.newest] == [
            a.resource.id for a in page.new_additions[: whatsnew.BLOCK_NEWEST]
        ]
        assert [a.added_at for a in block.newest] == [
            a.added_at for a in page.new_additions[: whatsnew.BLOCK_NEWEST]
        ]
        assert [g.section.id for g in block.new_sections] == [
            g.section.id for g in page.new_sections
        ]
        assert block.anything_new == page.anything_new


def test_after_a_dashboard_tick_the_swapped_block_says_what_the_page_does(client, learner, busy):
    client.force_login(learner)
    gained = Entry.objects.get(resource__title="Gained yesterday").resource
    response = client.post(
        reverse("learning:progress-set", args=[gained.uuid]),
        {"status": "done", "scope": "dashboard"},
        HTTP_HX_REQUEST="true",
    )
    swapped = block_numbers(block_of(response.content.decode()))
    reloaded = block_numbers(block_of(html_of(client, DASHBOARD)))
    titles, sections = page_new(html_of(client, PAGE))
    assert swapped == reloaded == (len(titles), titles[:3], sections)
    # The section's newest addition is done, its older one not: still gained, on all three.
    assert sections == 1
