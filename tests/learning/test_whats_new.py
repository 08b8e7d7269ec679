"""What's new: additions to the guides, topics and paths a learner uses since their last visit,
the finished sections that gained items, the page, the dashboard's block and "Mark as seen"."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from apps.catalog.models import Entry, Resource, Section
from apps.curation.services import objects_set_published
from apps.learning.models import WhatsNewSeen
from apps.paths.models import PathFollow, PathStep, StepResource
from apps.progress.models import Status
from apps.progress.services import progress_set_note, progress_set_status
from tests.conftest import page_queries
from tests.progress.conftest import build_guide

PAGE = reverse("learning:whats-new")
DASHBOARD = reverse("learning:dashboard")
SEEN = reverse("learning:whats-new-seen")


@pytest.fixture
def before(catalog, learner, other_learner):
    """Everything in the catalog fixture was added two months ago; the learners joined a month ago."""
    long_ago = timezone.now() - timedelta(days=60)
    Entry.objects.update(added_at=long_ago)
    StepResource.objects.update(added_at=None)
    for person in (learner, other_learner):
        person.date_joined = timezone.now() - timedelta(days=30)
        person.save(update_fields=["date_joined"])
    return catalog


def leaf(guide) -> Section:
    """The guide's first subsection holding entries."""
    return guide.sections.filter(parent__isnull=False).order_by("position").first()


def add_entry(section, title, *, days_ago=0, **entry_fields) -> Entry:
    resource = Resource.objects.create(
        title=title, url=f"https://example.com/new/{title.replace(' ', '-')}"
    )
    entry = Entry.objects.create(
        section=section, resource=resource, position=100 + Entry.objects.count(), **entry_fields
    )
    if days_ago:
        Entry.objects.filter(pk=entry.pk).update(added_at=timezone.now() - timedelta(days=days_ago))
    return entry


NEW = 'class="badge badge--new">New</span>'


def block_of(html: str) -> str:
    """The dashboard's What's new block, "" when it is not there."""
    start = html.find('id="whats-new"')
    return html[start : html.index("</section>", start)] if start >= 0 else ""


def row_of(html: str, resource) -> str:
    """The page's row of an addition."""
    start = html.index(f'id="new-{resource.uuid}"')
    return html[start : html.index("</li>", start)]


def html_of(client, url=PAGE) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_lists_resources_added_to_the_guides_the_learner_uses(client, learner, before):
    progress_set_status(user=learner, resource=before["resources"][0], status=Status.DONE)
    add_entry(leaf(before["guide"]), "Fresh in alpha")
    add_entry(leaf(before["other_guide"]), "Fresh in beta")  # a guide they never opened
    client.force_login(learner)
    html = html_of(client)
    assert "Fresh in alpha" in html and "Alpha › alpha part 0 › alpha part 0 tier 1" in html
    assert "Fresh in beta" not in html
    assert NEW in row_of(html, Resource.objects.get(title="Fresh in alpha"))


def test_a_note_alone_makes_a_guide_used(client, learner, before):
    progress_set_note(user=learner, resource=before["other_resources"][0], note="later")
    add_entry(leaf(before["other_guide"]), "Fresh in beta")
    client.force_login(learner)
    assert "Fresh in beta" in html_of(client)


def test_hidden_additions_are_never_shown(client, learner, before):
    guide = before["guide"]
    progress_set_status(user=learner, resource=before["resources"][0], status=Status.DONE)
    add_entry(leaf(guide), "Draft entry", is_published=False)
    hidden = Section.objects.create(
        guide=guide, title="Hidden part", position=99, is_published=False
    )
    child = Section.objects.create(guide=guide, parent=hidden, title="Under it", position=100)
    add_entry(child, "Under a hidden section")
    draft_resource = add_entry(leaf(guide), "Draft resource").resource
    Resource.objects.filter(pk=draft_resource.pk).update(is_published=False)
    client.force_login(learner)
    html = html_of(client)
    for title in ("Draft entry", "Under a hidden section", "Draft resource"):
        assert title not in html
    assert "Nothing was added to the guides, topics and paths you use" in html


def test_additions_before_the_learner_joined_or_undated_are_not_listed(client, learner, before):
    progress_set_status(user=learner, resource=before["resources"][0], status=Status.DONE)
    add_entry(leaf(before["guide"]), "Before they joined", days_ago=45)
    undated = add_entry(leaf(before["guide"]), "Before dates were kept")
    Entry.objects.filter(pk=undated.pk).update(added_at=None)
    add_entry(leaf(before["guide"]), "Last week", days_ago=7)
    client.force_login(learner)
    html = html_of(client)
    assert "Last week" in html
    assert "Before they joined" not in html and "Before dates were kept" not in html


def test_a_finished_section_that_gained_items_says_which_and_when(client, learner, before):
    section = leaf(before["guide"])
    for resource in {entry.resource for entry in section.entries.all()}:
        progress_set_status(user=learner, resource=resource, status=Status.DONE)
    added = add_entry(section, "The new chapter", days_ago=3)
    client.force_login(learner)
    html = html_of(client)
    assert "Sections you had finished that gained items" in html
    assert f'id="gained-{section.uuid}"' in html
    assert "You had finished this section; 1 item was added since:" in html
    assert f'datetime="{Entry.objects.get(pk=added.pk).added_at.isoformat()}"' in html
    # Its parent (finished too) is in its label, not listed again.
    assert "alpha part 0 › alpha part 0 tier 1" in html
    assert f'id="gained-{section.parent.uuid}"' not in html


def test_a_section_finished_again_is_no_longer_listed(client, learner, before):
    section = leaf(before["guide"])
    for resource in {entry.resource for entry in section.entries.all()}:
        progress_set_status(user=learner, resource=resource, status=Status.DONE)
    added = add_entry(section, "The new chapter")
    progress_set_status(user=learner, resource=added.resource, status=Status.SKIPPED)
    client.force_login(learner)
    html = html_of(client)
    assert "Sections you had finished" not in html and "The new chapter" in html


def test_a_tick_on_the_dashboard_updates_its_block_as_a_reload_would(client, learner, before):
    """Finishing the item a finished section gained, with htmx on the dashboard: the block
    swapped out of band says what a reload says (the section no longer listed)."""
    section = leaf(before["guide"])
    for resource in {entry.resource for entry in section.entries.all()}:
        progress_set_status(user=learner, resource=resource, status=Status.DONE)
    added = add_entry(section, "The new chapter")
    client.force_login(learner)
    assert "you had finished it" in block_of(html_of(client, DASHBOARD))
    response = client.post(
        reverse("learning:progress-set", args=[added.resource.uuid]),
        {"status": "done", "scope": "dashboard"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    swapped = block_of(response.content.decode())
    reloaded = block_of(html_of(client, DASHBOARD))

    def shown_at(html):  # the moment each was shown and its masked CSRF token differ, by design
        return re.sub(r'name="(seen_up_to|csrfmiddlewaretoken)" value="[^"]*"', "", html)

    assert "you had finished it" not in swapped and "The new chapter" in swapped
    assert shown_at(swapped) == shown_at(reloaded)


def test_a_resource_new_to_the_catalog_on_a_topic_the_learner_uses(client, learner, before):
    topic = before["topic"]
    progress_set_status(user=learner, resource=before["shared"], status=Status.IN_PROGRESS)
    # A guide the learner does not use: the topic is what makes it theirs.
    gamma, _ = build_guide("gamma", n_sections=1, per_section=0)
    Entry.objects.filter(section__guide=gamma).update(added_at=timezone.now() - timedelta(days=60))
    fresh = add_entry(leaf(gamma), "Fresh attention paper")
    fresh.resource.topics.add(topic)
    old = before["other_resources"][0]  # in the catalog for two months, filed under it today
    old.topics.add(topic)
    client.force_login(learner)
    html = html_of(client)
    assert "Fresh attention paper" in html and "the topic Attention" in html
    assert old.title not in html


def test_resources_added_to_a_followed_path(client, learner, before, learning_path):
    PathFollow.objects.create(user=learner, path=learning_path)
    step = learning_path.steps.get(position=2)
    StepResource.objects.create(step=step, resource=before["other_resources"][1], position=9)
    client.force_login(learner)
    html = html_of(client)
    assert before["other_resources"][1].title in html
    assert "the path Kernel development › Going deeper" in html
    assert f"{learning_path.get_absolute_url()}#{step.anchor}" in html


def test_opening_the_page_moves_seen_up_to_and_empties_the_dashboard_block(client, learner, before):
    progress_set_status(user=learner, resource=before["resources"][0], status=Status.DONE)
    add_entry(leaf(before["guide"]), "Fresh in alpha")
    client.force_login(learner)
    dashboard = html_of(client, DASHBOARD)
    assert 'id="whats-new"' in dashboard and "Fresh in alpha" in dashboard
    assert "1 resource added to the guides, topics and paths you use" in dashboard

    assert client.head(PAGE).status_code == 200  # a HEAD reads nothing and moves nothing
    assert not WhatsNewSeen.objects.filter(user=learner).exists()
    fresh = Resource.objects.get(title="Fresh in alpha")
    assert NEW in row_of(html_of(client), fresh)
    assert WhatsNewSeen.objects.get(user=learner).seen_up_to > timezone.now() - timedelta(minutes=1)

    assert 'id="whats-new"' not in html_of(client, DASHBOARD)
    again = html_of(client)  # still listed (the last 30 days), no longer new
    assert NEW not in row_of(again, fresh)


def test_mark_as_seen_without_javascript(client, learner, before):
    progress_set_status(user=learner, resource=before["resources"][0], status=Status.DONE)
    add_entry(leaf(before["guide"]), "Fresh in alpha")
    client.force_login(learner)
    shown_at = timezone.now()
    response = client.post(SEEN, {"seen_up_to": shown_at.isoformat()}, follow=True)
    assert response.redirect_chain == [(DASHBOARD, 302)]
    html = response.content.decode()
    assert "Marked as seen." in html and 'id="whats-new"' not in html
    assert WhatsNewSeen.objects.get(user=learner).seen_up_to == shown_at


def test_mark_as_seen_with_htmx_removes_the_block(client, learner, before):
    progress_set_status(user=learner, resource=before["resources"][0], status=Status.DONE)
    add_entry(leaf(before["guide"]), "Fresh in alpha")
    client.force_login(learner)
    dashboard = html_of(client, DASHBOARD)
    assert f'hx-post="{SEEN}" hx-target="#whats-new" hx-swap="outerHTML"' in dashboard
    response = client.post(SEEN, {"seen_up_to": timezone.now().isoformat()}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and response.content == b""
    assert 'id="whats-new"' not in html_of(client, DASHBOARD)


def test_mark_as_seen_keeps_what_was_added_after_the_block_was_shown(client, learner, before):
    progress_set_status(user=learner, resource=before["resources"][0], status=Status.DONE)
    add_entry(leaf(before["guide"]), "Seen on the block", days_ago=1)
    client.force_login(learner)
    shown_at = timezone.now() - timedelta(hours=1)
    add_entry(leaf(before["guide"]), "Added after")
    client.post(SEEN, {"seen_up_to": shown_at.isoformat()})
    block = block_of(html_of(client, DASHBOARD))
    assert "Added after" in block and "Seen on the block" not in block
    # A stale tab's older time never brings back what was seen.
    client.post(SEEN, {"seen_up_to": (shown_at - timedelta(days=20)).isoformat()})
    assert WhatsNewSeen.objects.get(user=learner).seen_up_to == shown_at
    # A time in the future counts as now.
    client.post(SEEN, {"seen_up_to": (timezone.now() + timedelta(days=9)).isoformat()})
    assert WhatsNewSeen.objects.get(user=learner).seen_up_to <= timezone.now()


def test_mark_as_seen_refuses_junk_and_changes_nothing(client, learner, before):
    client.force_login(learner)
    response = client.post(SEEN, {"seen_up_to": "yesterday-ish"}, follow=True)
    assert "could not be read; nothing was changed" in response.content.decode()
    htmx = client.post(SEEN, {"seen_up_to": ""}, HTTP_HX_REQUEST="true")
    assert htmx.status_code == 400 and b"nothing was changed" in htmx.content
    assert not WhatsNewSeen.objects.filter(user=learner).exists()
    assert client.get(SEEN).status_code == 405


def test_visitors_are_sent_to_sign_in(visitor, before):
    for response in (visitor.get(PAGE), visitor.post(SEEN, {"seen_up_to": "2026-01-01"})):
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("account_login"))
    assert not WhatsNewSeen.objects.exists()


def test_another_learners_progress_and_visits_are_never_shown(
    client, learner, other_learner, before
):
    # Eve uses beta and finished a section of it; Ada uses nothing yet.
    section = leaf(before["other_guide"])
    for resource in {entry.resource for entry in section.entries.all()}:
        progress_set_status(user=other_learner, resource=resource, status=Status.DONE)
    add_entry(section, "Fresh in beta")
    client.force_login(other_learner)
    assert "Fresh in beta" in html_of(client)  # and Eve's "seen up to" moves
    client.force_login(learner)
    assert 'id="whats-new"' not in html_of(client, DASHBOARD)
    html = html_of(client)
    assert "Fresh in beta" not in html and "Sections you had finished" not in html
    assert (
        WhatsNewSeen.objects.get(user=learner).seen_up_to
        != WhatsNewSeen.objects.get(user=other_learner).seen_up_to
    )


def _grow(before, learner, n):
    """n more additions to a guide the learner uses, to a followed path, and finished sections."""
    gamma, resources = build_guide(f"grow{n}", n_sections=n, per_section=2)
    for resource in resources:
        progress_set_status(user=learner, resource=resource, status=Status.DONE)
    Entry.objects.filter(section__guide=gamma).update(added_at=timezone.now() - timedelta(days=40))
    for section in gamma.sections.filter(parent__isnull=False):
        add_entry(section, f"New in {section.title}")
    path = before["path"]
    step = PathStep.objects.create(path=path, position=10 + n, title=f"Step {n}")
    for i, resource in enumerate(resources):
        StepResource.objects.create(step=step, resource=resource, position=i + 1)


@pytest.fixture
def grown(before, learner, learning_path):
    before["path"] = learning_path
    PathFollow.objects.create(user=learner, path=learning_path)
    progress_set_status(user=learner, resource=before["resources"][0], status=Status.DONE)
    return before


def test_the_page_query_count_does_not_grow_with_additions(client, learner, grown):
    client.force_login(learner)
    html_of(client)  # their first visit writes a "seen up to", every later one moves it
    _grow(grown, learner, 1)
    small = page_queries(client, PAGE)
    _grow(grown, learner, 8)
    assert "New in grow8 part 7 tier 1" in html_of(client)
    # Warm: the session, its user, the content tokens, the learner's "seen up to", statuses and
    # follows, and the write of their "seen up to".
    assert page_queries(client, PAGE) == small == (small[0], 7)


def test_the_dashboard_block_adds_one_query_however_much_is_new(client, learner, grown):
    client.force_login(learner)
    _grow(grown, learner, 1)
    small = page_queries(client, DASHBOARD)
    _grow(grown, learner, 8)
    assert "New in grow8" in html_of(client, DASHBOARD)
    # The dashboard's eight (see tests/learning/test_views.py) and the learner's "seen up to".
    assert page_queries(client, DASHBOARD) == small == (small[0], 8 + 1)


# --- When an entry counts as added ----------------------------------------------------------
def test_an_entry_is_dated_by_its_first_publishing(before):
    section = leaf(before["guide"])
    draft = add_entry(section, "Imported as a draft", is_published=False)
    assert Entry.objects.get(pk=draft.pk).added_at is None
    objects_set_published(queryset=Entry.objects.filter(pk=draft.pk), published=True)
    first = Entry.objects.get(pk=draft.pk).added_at
    assert first is not None and first > timezone.now() - timedelta(minutes=1)
    # Unpublished and published again (in bulk, then from a form): still its first date.
    objects_set_published(queryset=Entry.objects.filter(pk=draft.pk), published=False)
    objects_set_published(queryset=Entry.objects.filter(pk=draft.pk), published=True)
    entry = Entry.objects.get(pk=draft.pk)
    entry.note = "edited"
    entry.save()
    assert Entry.objects.get(pk=draft.pk).added_at == first

    saved = add_entry(section, "Saved later", is_published=False)
    saved.is_published = True
    saved.save(update_fields=["is_published"])
    assert Entry.objects.get(pk=saved.pk).added_at is not None


def test_a_step_resource_is_dated_when_it_joins_its_step(before, learning_path):
    step = learning_path.steps.get(position=1)
    learning_path.steps.get(position=1).resources.add(
        before["other_resources"][2], through_defaults={"position": 50}
    )
    item = StepResource.objects.get(step=step, resource=before["other_resources"][2])
    assert item.added_at is not None and item.added_at > timezone.now() - timedelta(minutes=1)
