"""The catalog admin (apps.catalog.admin) as a curator uses it: lists, filters, bulk actions,
ordering, history."""

import pytest
from django.contrib.admin.models import CHANGE, DELETION, LogEntry
from django.contrib.auth.models import Permission
from django.contrib.messages import get_messages
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.catalog import selectors
from apps.catalog.models import Entry, Guide, LinkStatus, Resource, Section, Topic
from apps.progress.models import Progress, Status
from tests.curation.admin_forms import change_form_data
from tests.factories import GuideFactory, ResourceFactory, TopicFactory, make_user
from tests.factories import NumberedEntryFactory as EntryFactory
from tests.factories import NumberedSectionFactory as SectionFactory

pytestmark = pytest.mark.django_db

CHANGELISTS = ["guide", "section", "entry", "resource", "resourcelink", "topic"]
MODELS = {"guide": Guide, "section": Section, "entry": Entry, "resource": Resource, "topic": Topic}


def changelist(model):
    return reverse(f"admin:catalog_{model}_changelist")


def build_catalog(n):
    for _ in range(n):
        guide = GuideFactory()
        section = SectionFactory(guide=guide)
        child = SectionFactory(guide=guide, parent=section)
        for _ in range(2):
            entry = EntryFactory(section=child)
            entry.resource.topics.add(TopicFactory())
            entry.resource.links.create(url=f"https://mirror.example.com/{entry.pk}")


def messages_of(response):
    return [str(m) for m in get_messages(response.wsgi_request)]


# --- Changelists -------------------------------------------------------------------------------
@pytest.mark.parametrize("model", CHANGELISTS)
def test_changelist_queries_do_not_grow_with_the_rows(curator_client, model):
    build_catalog(2)
    with CaptureQueriesContext(connection) as few:
        assert curator_client.get(changelist(model)).status_code == 200
    build_catalog(6)
    with CaptureQueriesContext(connection) as many:
        assert curator_client.get(changelist(model)).status_code == 200
    assert len(many) == len(few)


@pytest.mark.parametrize("model", CHANGELISTS)
def test_change_and_add_pages_render(curator_client, model):
    build_catalog(1)
    obj = {
        "guide": lambda: GuideFactory(),
        "section": lambda: Section.objects.first(),
        "entry": lambda: Entry.objects.first(),
        "resource": lambda: Resource.objects.first(),
        "resourcelink": lambda: Resource.objects.first().links.first(),
        "topic": lambda: TopicFactory(),
    }[model]()
    assert (
        curator_client.get(reverse(f"admin:catalog_{model}_change", args=[obj.pk])).status_code
        == 200
    )
    assert curator_client.get(reverse(f"admin:catalog_{model}_add")).status_code == 200


def test_resource_list_shows_host_entries_topics_and_link_status(curator_client):
    resource = ResourceFactory(
        url="https://www.arxiv.org/abs/1", link_status=LinkStatus.BROKEN, link_status_code=404
    )
    EntryFactory(resource=resource)
    EntryFactory(resource=resource)
    resource.topics.add(TopicFactory(title="Attention"))
    response = curator_client.get(changelist("resource"))
    row = response.context["cl"].result_list.get(pk=resource.pk)
    assert row.entry_count == 2
    html = response.content.decode()
    assert ">arxiv.org</a>" in html and "Attention" in html and "Broken (404)" in html


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"kind": "video"}, {"video"}),
        ({"has_url": "no"}, {"concept"}),
        ({"has_url": "yes"}, {"video", "paper"}),
        ({"link": "attention"}, {"paper"}),
        ({"link": "ok"}, {"video"}),
        ({"is_published__exact": "0"}, {"concept"}),
        ({"url_issue": "yes"}, {"video"}),
        ({"q": "arxiv.org"}, {"paper"}),
        ({"q": "Vaswani"}, {"paper"}),
        ({"entries__tier": "2"}, {"paper"}),
        ({"entries__priority": "must"}, {"video"}),
    ],
)
def test_resource_filters_and_search(curator_client, params, expected):
    video = ResourceFactory(
        title="video", kind="video", link_status=LinkStatus.OK, url_issue="Had a space"
    )
    paper = ResourceFactory(
        title="paper",
        kind="paper",
        url="https://arxiv.org/abs/1",
        author="Vaswani",
        link_status=LinkStatus.BROKEN,
    )
    ResourceFactory(title="concept", kind="concept", url=None, is_published=False)
    EntryFactory(resource=video, priority="must")
    EntryFactory(resource=paper, tier=2)
    response = curator_client.get(changelist("resource"), params)
    assert response.status_code == 200
    assert {r.title for r in response.context["cl"].result_list} == expected


def test_guide_topic_and_section_filters(curator_client):
    guide = GuideFactory()
    first, second = SectionFactory(guide=guide), SectionFactory(guide=guide)
    topic = TopicFactory()
    in_first, in_second = (
        EntryFactory(section=first).resource,
        EntryFactory(section=second).resource,
    )
    in_first.topics.add(topic)
    EntryFactory()  # another guide
    by_guide = curator_client.get(
        changelist("resource"), {"entries__section__guide__id__exact": guide.pk}
    )
    assert set(by_guide.context["cl"].result_list) == {in_first, in_second}
    # The section filter offers this guide's sections once a guide is chosen.
    assert f"section={first.pk}" in by_guide.content.decode()
    by_section = curator_client.get(
        changelist("resource"),
        {"entries__section__guide__id__exact": guide.pk, "section": second.pk},
    )
    assert list(by_section.context["cl"].result_list) == [in_second]
    by_topic = curator_client.get(changelist("resource"), {"topics__id__exact": topic.pk})
    assert list(by_topic.context["cl"].result_list) == [in_first]
    entries = curator_client.get(
        changelist("entry"), {"section__guide__id__exact": guide.pk, "section": first.pk}
    )
    assert [e.resource for e in entries.context["cl"].result_list] == [in_first]


def test_autocomplete_finds_resources_for_an_entry(curator_client):
    ResourceFactory(title="FlashAttention")
    response = curator_client.get(
        reverse("admin:autocomplete"),
        {"app_label": "catalog", "model_name": "entry", "field_name": "resource", "term": "flash"},
    )
    assert response.status_code == 200
    assert [r["text"] for r in response.json()["results"]] == ["FlashAttention"]


# --- Bulk actions ------------------------------------------------------------------------------
def post_action(client, model, action, objects, **extra):
    data = {"action": action, "_selected_action": [obj.pk for obj in objects], **extra}
    return client.post(changelist(model), data)


@pytest.mark.parametrize("model", ["guide", "section", "entry", "resource", "topic"])
def test_unpublish_and_publish_write_history(curator_client, curator, model):
    build_catalog(2)
    objects = list(MODELS[model].objects.all()[:2])
    response = post_action(curator_client, model, "unpublish", objects)
    assert response.status_code == 302
    model_class = type(objects[0])
    assert not model_class.objects.filter(
        pk__in=[o.pk for o in objects], is_published=True
    ).exists()
    logs = LogEntry.objects.filter(
        user=curator, action_flag=CHANGE, change_message="Unpublished (bulk action)."
    )
    assert {int(log.object_id) for log in logs} == {o.pk for o in objects}
    post_action(curator_client, model, "publish", objects)
    assert model_class.objects.filter(
        pk__in=[o.pk for o in objects], is_published=True
    ).count() == len(objects)


def test_set_kind_asks_for_the_kind_first(curator_client, curator):
    resources = [ResourceFactory(kind="article"), ResourceFactory(kind="video")]
    page = post_action(curator_client, "resource", "set_kind", resources)
    assert page.status_code == 200
    assert (
        "Set the kind" in page.content.decode()
        and page.templates[0].name == "curation/action_form.html"
    )
    assert Resource.objects.filter(kind="paper").count() == 0
    done = post_action(
        curator_client, "resource", "set_kind", resources, kind="paper", apply="Set kind"
    )
    assert done.status_code == 302
    assert Resource.objects.filter(kind="paper").count() == 2
    assert (
        LogEntry.objects.filter(
            user=curator, change_message="Set kind to Paper (bulk action)."
        ).count()
        == 2
    )
    assert "Set kind to Paper: 2 resources changed." in messages_of(done)


def test_set_kind_with_an_invalid_choice_shows_the_form_again(curator_client):
    resources = [ResourceFactory(kind="article")]
    page = post_action(
        curator_client, "resource", "set_kind", resources, kind="nonsense", apply="Set kind"
    )
    assert page.status_code == 200 and page.context["form"].errors
    assert Resource.objects.get().kind == "article"


def test_add_and_remove_a_topic(curator_client, curator):
    resources = [ResourceFactory(), ResourceFactory()]
    topic = TopicFactory(title="Quantization")
    assert post_action(curator_client, "resource", "add_topic", resources).status_code == 200
    post_action(
        curator_client, "resource", "add_topic", resources, topic=topic.pk, apply="Add topic"
    )
    assert topic.resources.count() == 2
    assert (
        LogEntry.objects.filter(change_message="Added topic “Quantization” (bulk action).").count()
        == 2
    )
    post_action(
        curator_client,
        "resource",
        "remove_topic",
        resources[:1],
        topic=topic.pk,
        apply="Remove topic",
    )
    assert list(topic.resources.all()) == [resources[1]]


def test_renumber_actions(curator_client, curator):
    guide = GuideFactory()
    section = SectionFactory(guide=guide, position=7)
    SectionFactory(guide=guide, position=3)
    for position in (4, 8, 15):
        EntryFactory(section=section, position=position)
    done = post_action(curator_client, "section", "renumber_entries", [section])
    assert list(section.entries.order_by("position").values_list("position", flat=True)) == [
        1,
        2,
        3,
    ]
    assert messages_of(done) == [
        "Renumbered 3 entries in 1 section (the order of the entries is the same: only gaps closed)."
    ]
    done = post_action(curator_client, "guide", "renumber_sections", [guide])
    assert list(guide.sections.order_by("position").values_list("position", flat=True)) == [1, 2]
    assert section.pk == guide.sections.get(position=2).pk
    assert messages_of(done)[-1] == "Renumbered 2 sections in 1 guide."
    assert LogEntry.objects.filter(change_message__startswith="Renumbered").count() == 2


def test_renumber_sections_follows_the_guide_page_and_says_what_it_did(curator_client, curator):
    """A subsection typed before its parent's sibling reads in the wrong place wherever the guide
    is read flat (next up, reading order); the action puts positions in the page's order."""
    guide, tidy = GuideFactory(title="LLM Engineering"), GuideFactory()
    first = SectionFactory(guide=guide, position=1)
    second = SectionFactory(guide=guide, position=2)
    child_of_first = SectionFactory(guide=guide, parent=first, position=3)
    SectionFactory(guide=tidy, position=1)
    SectionFactory(guide=tidy, position=2)
    under_first, under_second = (
        EntryFactory(section=child_of_first),
        EntryFactory(section=second),
    )
    assert selectors.guide_entries(guide=guide) == [under_second, under_first]  # page: reversed

    done = post_action(curator_client, "guide", "renumber_sections", [guide, tidy])

    assert list(guide.sections.order_by("position")) == [first, child_of_first, second]
    assert selectors.guide_entries(guide=guide) == [under_first, under_second]
    assert messages_of(done) == [
        "Renumbered 2 sections in 1 guide; positions already 1…n in 1 guide."
    ]
    assert LogEntry.objects.get(object_id=str(guide.pk)).change_message.startswith(
        "Renumbered 2 sections 1…n in the order the guide page shows them"
    )
    assert not LogEntry.objects.filter(object_id=str(tidy.pk)).exists()
    again = post_action(curator_client, "guide", "renumber_sections", [guide, tidy])
    assert messages_of(again)[-1] == "Positions already 1…n in 2 guides: nothing to change."


def test_renumber_actions_are_refused_without_change_permission(client):
    viewer = make_user("vic@example.com", is_staff=True)
    viewer.user_permissions.add(*Permission.objects.filter(codename__in=["view_guide"]))
    client.force_login(viewer)
    guide = GuideFactory()
    SectionFactory(guide=guide, position=5)
    response = post_action(client, "guide", "renumber_sections", [guide])
    assert guide.sections.get().position == 5
    assert response.status_code == 302
    assert messages_of(response) == ["No action selected."]  # not offered without change rights


# --- Merge action ------------------------------------------------------------------------------
def test_merge_action_needs_two_resources(curator_client):
    response = post_action(curator_client, "resource", "merge_resources", [ResourceFactory()])
    assert response.status_code == 302
    assert "Select between 2 and 10 resources to merge." in messages_of(response)


def test_merge_action_shows_the_choice_then_merges_keeping_progress(curator_client, curator):
    survivor, duplicate = ResourceFactory(title="Keep me"), ResourceFactory(title="Fold me")
    EntryFactory(resource=duplicate)
    ada = make_user("ada@example.com")
    Progress.objects.create(
        user=ada,
        resource=duplicate,
        status=Status.DONE,
        started_at=None,
        completed_at="2026-01-01T00:00Z",
    )
    page = post_action(curator_client, "resource", "merge_resources", [survivor, duplicate])
    assert page.status_code == 200
    html = page.content.decode()
    assert "Keep me" in html and "Fold me" in html and 'name="survivor"' in html

    done = post_action(
        curator_client,
        "resource",
        "merge_resources",
        [survivor, duplicate],
        survivor=survivor.pk,
        apply="1",
    )

    assert done.status_code == 302 and done["Location"] == reverse(
        "admin:catalog_resource_change", args=[survivor.pk]
    )
    assert not Resource.objects.filter(pk=duplicate.pk).exists()
    assert Progress.objects.get(user=ada).resource == survivor
    assert survivor.entries.count() == 1
    assert LogEntry.objects.get(
        object_id=str(survivor.pk), action_flag=CHANGE
    ).change_message.startswith("Merged duplicates into this resource")
    assert LogEntry.objects.get(
        object_id=str(duplicate.pk), action_flag=DELETION
    ).change_message == (f"Merged into “Keep me” (#{survivor.pk}).")


def test_a_curator_without_delete_permission_cannot_merge(client, curator):
    curator.groups.clear()
    from django.contrib.auth.models import Permission

    curator.user_permissions.add(
        *Permission.objects.filter(codename__in=["view_resource", "change_resource"])
    )
    client.force_login(curator)
    a, b = ResourceFactory(), ResourceFactory()
    response = post_action(client, "resource", "merge_resources", [a, b], survivor=a.pk, apply="1")
    assert Resource.objects.filter(pk=b.pk).exists()
    assert response.status_code in (200, 302)


# --- Ordering from the change pages ------------------------------------------------------------
def test_typing_positions_in_the_section_inline_reorders_and_renumbers(curator_client):
    section = SectionFactory()
    a, b, c = (EntryFactory(section=section) for _ in range(3))
    url = reverse("admin:catalog_section_change", args=[section.pk])
    page = curator_client.get(url)
    # Move c to the top by typing 1 (a keeps 1 too: the moved row goes first), swap nothing else.
    data = change_form_data(page, **{"entries-2-position": "1"})
    response = curator_client.post(url, data)
    assert response.status_code == 302, response.context and response.context["errors"]
    assert list(section.entries.order_by("position").values_list("pk", "position")) == [
        (c.pk, 1),
        (a.pk, 2),
        (b.pk, 3),
    ]


def test_moving_a_row_down_in_the_inline_puts_it_at_that_place(curator_client):
    section = SectionFactory()
    a, b, c = (EntryFactory(section=section) for _ in range(3))
    url = reverse("admin:catalog_section_change", args=[section.pk])
    data = change_form_data(curator_client.get(url), **{"entries-0-position": "3"})
    assert curator_client.post(url, data).status_code == 302
    assert list(section.entries.order_by("position").values_list("pk", flat=True)) == [
        b.pk,
        c.pk,
        a.pk,
    ]


def test_deleting_and_adding_rows_in_the_inline_renumbers_without_gaps(curator_client):
    section = SectionFactory()
    a, b, c = (EntryFactory(section=section) for _ in range(3))
    new_resource = ResourceFactory()
    url = reverse("admin:catalog_section_change", args=[section.pk])
    data = change_form_data(curator_client.get(url), **{"entries-0-DELETE": "on"})
    data.update(
        {
            "entries-TOTAL_FORMS": "4",
            "entries-3-section": section.pk,
            "entries-3-resource": new_resource.pk,
            "entries-3-is_published": "on",
        }
    )
    assert curator_client.post(url, data).status_code == 302
    assert list(section.entries.order_by("position").values_list("resource", "position")) == [
        (b.resource_id, 1),
        (c.resource_id, 2),
        (new_resource.pk, 3),
    ]
    assert not Entry.objects.filter(pk=a.pk).exists()


def test_swapping_two_positions_in_the_inline_works(curator_client):
    section = SectionFactory()
    a, b = EntryFactory(section=section), EntryFactory(section=section)
    url = reverse("admin:catalog_section_change", args=[section.pk])
    data = change_form_data(
        curator_client.get(url), **{"entries-0-position": "2", "entries-1-position": "1"}
    )
    assert curator_client.post(url, data).status_code == 302
    assert list(section.entries.order_by("position").values_list("pk", flat=True)) == [b.pk, a.pk]


def test_reordering_top_level_sections_carries_their_subsections(curator_client):
    guide = GuideFactory()
    first = SectionFactory(guide=guide, title="First")
    SectionFactory(guide=guide, parent=first, title="First child")
    second = SectionFactory(guide=guide, title="Second")
    SectionFactory(guide=guide, parent=second, title="Second child")
    url = reverse("admin:catalog_guide_change", args=[guide.pk])
    page = curator_client.get(url)
    data = change_form_data(page, **{"sections-0-position": "9"})  # First goes last
    response = curator_client.post(url, data)
    assert response.status_code == 302
    assert list(guide.sections.order_by("position").values_list("title", flat=True)) == [
        "Second",
        "Second child",
        "First",
        "First child",
    ]


def test_an_entry_typed_onto_a_taken_position_inserts_there(curator_client):
    section = SectionFactory()
    a, b, c = (EntryFactory(section=section) for _ in range(3))
    url = reverse("admin:catalog_entry_change", args=[c.pk])
    response = curator_client.post(url, change_form_data(curator_client.get(url), position="1"))
    assert response.status_code == 302
    assert list(section.entries.order_by("position").values_list("pk", flat=True)) == [
        c.pk,
        a.pk,
        b.pk,
    ]


def test_an_entry_typed_onto_a_later_position_goes_after_the_one_there(curator_client):
    section = SectionFactory()
    a, b, c = (EntryFactory(section=section) for _ in range(3))
    url = reverse("admin:catalog_entry_change", args=[a.pk])
    assert (
        curator_client.post(
            url, change_form_data(curator_client.get(url), position="2")
        ).status_code
        == 302
    )
    assert list(section.entries.order_by("position").values_list("pk", flat=True)) == [
        b.pk,
        a.pk,
        c.pk,
    ]


def test_an_entry_saved_in_place_keeps_its_place_even_with_gaps(curator_client):
    section = SectionFactory()
    a, b, c = (EntryFactory(section=section, position=p) for p in (2, 5, 9))
    url = reverse("admin:catalog_entry_change", args=[b.pk])
    assert (
        curator_client.post(
            url, change_form_data(curator_client.get(url), note="Changed")
        ).status_code
        == 302
    )
    assert list(section.entries.order_by("position").values_list("pk", "position")) == [
        (a.pk, 1),
        (b.pk, 2),
        (c.pk, 3),
    ]


def test_an_entry_moved_to_another_section_leaves_no_gap(curator_client):
    old, new = SectionFactory(), SectionFactory()
    a, b, c = (EntryFactory(section=old) for _ in range(3))
    existing = EntryFactory(section=new)
    url = reverse("admin:catalog_entry_change", args=[a.pk])
    response = curator_client.post(
        url, change_form_data(curator_client.get(url), section=new.pk, position="")
    )
    assert response.status_code == 302
    assert list(old.entries.order_by("position").values_list("pk", "position")) == [
        (b.pk, 1),
        (c.pk, 2),
    ]
    assert list(new.entries.order_by("position").values_list("pk", "position")) == [
        (existing.pk, 1),
        (a.pk, 2),
    ]


def test_an_entry_added_without_position_goes_last(curator_client):
    section = SectionFactory()
    EntryFactory(section=section)
    resource = ResourceFactory()
    page = curator_client.get(reverse("admin:catalog_entry_add"))
    data = change_form_data(
        page, section=section.pk, resource=resource.pk, position="", is_published="on"
    )
    response = curator_client.post(reverse("admin:catalog_entry_add"), data)
    assert response.status_code == 302
    assert section.entries.get(resource=resource).position == 2


def test_an_entry_added_from_the_resource_page_goes_last_in_its_section(curator_client):
    section = SectionFactory()
    EntryFactory(section=section)
    EntryFactory(section=section)
    resource = ResourceFactory()
    url = reverse("admin:catalog_resource_change", args=[resource.pk])
    data = change_form_data(curator_client.get(url))
    data.update(
        {
            "entries-TOTAL_FORMS": "1",
            "entries-0-section": section.pk,
            "entries-0-is_published": "on",
        }
    )
    response = curator_client.post(url, data)
    assert response.status_code == 302, response.context and response.context["errors"]
    assert section.entries.get(resource=resource).position == 3


def test_moving_a_section_under_another_updates_the_depths_of_its_subtree(curator_client):
    guide = GuideFactory()
    first, second = SectionFactory(guide=guide), SectionFactory(guide=guide)
    child = SectionFactory(guide=guide, parent=second, depth=1)
    url = reverse("admin:catalog_section_change", args=[second.pk])
    response = curator_client.post(url, change_form_data(curator_client.get(url), parent=first.pk))
    assert response.status_code == 302
    second.refresh_from_db(), child.refresh_from_db()
    assert (second.parent, second.depth, child.depth) == (first, 1, 2)


def test_a_section_cannot_sit_under_a_section_of_another_guide(curator_client):
    section, foreign = SectionFactory(), SectionFactory()
    url = reverse("admin:catalog_section_change", args=[section.pk])
    response = curator_client.post(
        url, change_form_data(curator_client.get(url), parent=foreign.pk)
    )
    assert response.status_code == 200
    assert "same guide" in str(response.context["adminform"].form.errors)


# --- History -----------------------------------------------------------------------------------
def test_edits_show_under_recent_changes_on_the_change_page(curator_client, curator):
    resource = ResourceFactory(title="Old title")
    url = reverse("admin:catalog_resource_change", args=[resource.pk])
    data = change_form_data(curator_client.get(url), title="New title")
    assert curator_client.post(url, data).status_code == 302
    post_action(curator_client, "resource", "unpublish", [resource])
    html = curator_client.get(url).content.decode()
    assert "Recent changes" in html
    assert "Changed title: “Old title” → “New title”." in html
    assert "Unpublished (bulk action)." in html
    assert curator.get_username() in html


def test_guide_change_page_has_recent_changes_and_an_export_link(curator_client):
    guide = GuideFactory()
    html = curator_client.get(
        reverse("admin:catalog_guide_change", args=[guide.pk])
    ).content.decode()
    assert "Recent changes" in html
    assert reverse("admin:catalog_guide_export", args=[guide.pk]) in html


# --- URL identity and line endings ---------------------------------------------------------------
def test_resource_form_stores_the_normalized_url(curator_client):
    resource = ResourceFactory(url="https://example.com/old")
    url = reverse("admin:catalog_resource_change", args=[resource.pk])
    data = change_form_data(
        curator_client.get(url), url="https://arxiv.org/pdf/2205.14135v2.pdf?utm_source=feed"
    )
    assert curator_client.post(url, data).status_code == 302
    resource.refresh_from_db()
    assert resource.url == "https://arxiv.org/abs/2205.14135"


def test_a_tracking_variant_of_a_known_url_is_refused_with_a_link_to_the_existing_resource(
    curator_client,
):
    existing = ResourceFactory(title="FlashAttention", url="https://arxiv.org/abs/2205.14135")
    other = ResourceFactory(url="https://example.com/other")
    url = reverse("admin:catalog_resource_change", args=[other.pk])
    data = change_form_data(
        curator_client.get(url), url="https://arxiv.org/abs/2205.14135?utm_source=x"
    )
    response = curator_client.post(url, data)
    assert response.status_code == 200
    html = response.content.decode()
    assert "already the resource" in html
    assert reverse("admin:catalog_resource_change", args=[existing.pk]) in html
    other.refresh_from_db()
    assert other.url == "https://example.com/other"


def test_an_untouched_form_posted_with_crlf_line_endings_changes_nothing(curator_client):
    resource = ResourceFactory(description="First line\nSecond line")
    url = reverse("admin:catalog_resource_change", args=[resource.pk])
    data = change_form_data(curator_client.get(url), description="First line\r\nSecond line")
    assert curator_client.post(url, data).status_code == 302
    resource.refresh_from_db()
    assert resource.description == "First line\nSecond line"
    html = curator_client.get(url).content.decode()
    assert "Changed Description" not in html


def test_an_untouched_form_posted_as_a_browser_would_logs_no_change(curator_client, curator):
    """Every textarea, the inlines' too, comes back with \\r\\n: nothing counts as changed."""
    resource = ResourceFactory(description="First line\nSecond line")
    EntryFactory(resource=resource, note="A note\non two lines")
    url = reverse("admin:catalog_resource_change", args=[resource.pk])
    data = {
        key: value.replace("\n", "\r\n") if isinstance(value, str) else value
        for key, value in change_form_data(curator_client.get(url)).items()
    }
    assert any("\r\n" in str(value) for value in data.values())
    assert curator_client.post(url, data).status_code == 302
    log = LogEntry.objects.get(user=curator, object_id=str(resource.pk))
    assert log.get_change_message() == "No fields changed."


# --- History: old → new ---------------------------------------------------------------------------
def test_history_records_old_and_new_values(curator_client, curator):
    old_topic, new_topic = TopicFactory(title="Attention"), TopicFactory(title="Quantization")
    resource = ResourceFactory(title="Old", kind="article", description="x" * 200)
    resource.topics.add(old_topic)
    url = reverse("admin:catalog_resource_change", args=[resource.pk])
    data = change_form_data(
        curator_client.get(url),
        title="New",
        kind="paper",
        description="y" * 200,
        topics=[str(new_topic.pk)],
    )
    assert curator_client.post(url, data).status_code == 302
    message = LogEntry.objects.get(user=curator, object_id=str(resource.pk)).get_change_message()
    assert message.startswith("Changed ")
    assert "title: “Old” → “New”" in message
    assert "kind: “Article” → “Paper”" in message
    assert f"description: “{'x' * 79}…” → “{'y' * 79}…”" in message
    assert "topics: added “Quantization”, removed “Attention”" in message
    history = curator_client.get(reverse("admin:catalog_resource_history", args=[resource.pk]))
    assert "title: “Old” → “New”" in history.content.decode()


def test_history_of_an_inline_row_names_the_row_and_its_values(curator_client, curator):
    section = SectionFactory()
    entry = EntryFactory(section=section, tier=1)
    url = reverse("admin:catalog_section_change", args=[section.pk])
    data = change_form_data(curator_client.get(url), **{"entries-0-tier": "2"})
    assert curator_client.post(url, data).status_code == 302
    message = LogEntry.objects.get(user=curator, object_id=str(section.pk)).get_change_message()
    assert message == f"Changed entry “{entry}”: tier: “1” → “2”."


def test_a_foreign_key_change_names_the_old_and_new_object(curator_client, curator):
    guide = GuideFactory()
    top, other = (
        SectionFactory(guide=guide, title="Top"),
        SectionFactory(guide=guide, title="Other"),
    )
    child = SectionFactory(guide=guide, title="Child", parent=top)
    url = reverse("admin:catalog_section_change", args=[child.pk])
    data = change_form_data(curator_client.get(url), parent=str(other.pk))
    assert curator_client.post(url, data).status_code == 302
    message = LogEntry.objects.get(user=curator, object_id=str(child.pk)).get_change_message()
    assert "parent: “Top” → “Other”" in message


# --- Constraint messages -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("model", "field", "value", "expected"),
    [
        ("section", "tier", "5", "Tier must be 1, 2 or 3 (or blank)."),
        ("entry", "tier", "0", "Tier must be 1, 2 or 3 (or blank)."),
        ("entry", "rating", "11", "Rating must be between 0 and 10 (or blank)."),
    ],
)
def test_a_constraint_violation_reads_as_a_sentence_and_saves_nothing(
    curator_client, model, field, value, expected
):
    entry = EntryFactory()
    obj = {"section": entry.section, "entry": entry}[model]
    before = getattr(obj, field)
    url = reverse(f"admin:catalog_{model}_change", args=[obj.pk])
    response = curator_client.post(url, change_form_data(curator_client.get(url), **{field: value}))
    assert response.status_code == 200
    html = response.content.decode()
    assert expected in html
    assert "is violated" not in html and "_1_to_3" not in html
    obj.refresh_from_db()
    assert getattr(obj, field) == before
    assert not LogEntry.objects.exists()


def test_every_constraint_has_a_readable_message_and_code():
    from django.apps import apps
    from django.db.models import BaseConstraint

    for label in ("catalog", "paths", "progress"):
        for model in apps.get_app_config(label).get_models():
            for constraint in model._meta.constraints:
                assert (
                    constraint.violation_error_message
                    != BaseConstraint.default_violation_error_message
                ), constraint.name
                assert constraint.violation_error_code, constraint.name


# --- Section autocomplete ------------------------------------------------------------------------
def autocomplete(client, model, field, term):
    return client.get(
        reverse("admin:autocomplete"),
        {"app_label": "catalog", "model_name": model, "field_name": field, "term": term},
    )


def test_the_section_autocomplete_names_the_guide_and_the_parents(curator_client):
    llm, other = GuideFactory(title="LLM Engineering"), GuideFactory(title="Systems")
    training = SectionFactory(guide=llm, number="05", title="Training")
    SectionFactory(guide=llm, parent=training, title="Tier 2", depth=1)
    SectionFactory(guide=other, title="Tier 2")
    response = autocomplete(curator_client, "entry", "section", "tier 2")
    assert response.status_code == 200
    assert [r["text"] for r in response.json()["results"]] == [
        "LLM Engineering › 05 Training › Tier 2",
        "Systems › Tier 2",
    ]
    # The guide's title is searched too.
    narrowed = autocomplete(curator_client, "entry", "section", "llm tier")
    assert [r["text"] for r in narrowed.json()["results"]] == [
        "LLM Engineering › 05 Training › Tier 2"
    ]


def test_the_section_autocomplete_costs_the_same_queries_for_more_and_deeper_sections(
    curator_client, django_assert_num_queries
):
    def build(n):
        for _ in range(n):
            guide = GuideFactory()
            top = SectionFactory(guide=guide, title="Part")
            middle = SectionFactory(guide=guide, parent=top, title="Chapter")
            leaf = SectionFactory(guide=guide, parent=middle, title="Tier 2")
            SectionFactory(guide=guide, parent=leaf, title="Tier 2 extras")

    build(2)
    with CaptureQueriesContext(connection) as few:
        assert len(autocomplete(curator_client, "entry", "section", "tier").json()["results"]) == 4
    build(3)
    with CaptureQueriesContext(connection) as many:
        assert len(autocomplete(curator_client, "entry", "section", "tier").json()["results"]) == 10
    assert len(many) == len(few)


def test_the_parent_and_path_step_autocompletes_use_the_same_labels(curator_client):
    guide = GuideFactory(title="LLM Engineering")
    top = SectionFactory(guide=guide, title="Training")
    SectionFactory(guide=guide, parent=top, title="Tier 2")
    for model, field in [("section", "parent")]:
        texts = [
            r["text"] for r in autocomplete(curator_client, model, field, "tier").json()["results"]
        ]
        assert texts == ["LLM Engineering › Training › Tier 2"]
    step = curator_client.get(
        reverse("admin:autocomplete"),
        {"app_label": "paths", "model_name": "pathstep", "field_name": "section", "term": "tier"},
    )
    assert [r["text"] for r in step.json()["results"]] == ["LLM Engineering › Training › Tier 2"]


def test_a_chosen_section_is_shown_with_its_guide_and_parents_on_the_entry_form(curator_client):
    guide = GuideFactory(title="LLM Engineering")
    top = SectionFactory(guide=guide, title="Training")
    entry = EntryFactory(section=SectionFactory(guide=guide, parent=top, title="Tier 2"))
    html = curator_client.get(
        reverse("admin:catalog_entry_change", args=[entry.pk])
    ).content.decode()
    assert "LLM Engineering › Training › Tier 2</option>" in html


def test_a_learner_gets_no_section_autocomplete(learner_client):
    SectionFactory(title="Tier 2")
    response = autocomplete(learner_client, "entry", "section", "tier")
    assert response.status_code == 302 and "Tier 2" not in response.content.decode()


# --- Adding a resource ---------------------------------------------------------------------------
def test_adding_a_tracking_variant_of_a_known_paper_is_refused_with_a_link(curator_client):
    existing = ResourceFactory(title="FlashAttention", url="https://arxiv.org/abs/2205.14135")
    url = reverse("admin:catalog_resource_add")
    data = change_form_data(
        curator_client.get(url),
        title="FlashAttention again",
        kind="paper",
        url="https://arxiv.org/abs/2205.14135?utm_source=twitter",
    )
    response = curator_client.post(url, data)
    assert response.status_code == 200
    html = response.content.decode()
    assert "already the resource" in html
    assert reverse("admin:catalog_resource_change", args=[existing.pk]) in html
    assert Resource.objects.count() == 1


# --- Aliases ---------------------------------------------------------------------------------------
def test_the_resource_page_lists_the_uuids_it_also_answers_for(curator_client):
    survivor, duplicate = ResourceFactory(), ResourceFactory()
    merged_uuid = duplicate.uuid
    from apps.curation.services import resource_merge

    resource_merge(survivor=survivor, duplicates=[duplicate])
    html = curator_client.get(
        reverse("admin:catalog_resource_change", args=[survivor.pk])
    ).content.decode()
    assert "Also answers for" in html
    old_page = reverse("learning:resource-detail", args=[merged_uuid])
    assert f'<a href="{old_page}">{merged_uuid}</a>' in html


def test_no_help_text_carries_markup_the_admin_would_render():
    """The admin renders help texts as HTML: a "<title>" in one once swallowed the rest of the
    resource form (its inlines' hidden fields with it), so no save went through."""
    from django.apps import apps as django_apps

    for model in django_apps.get_models():
        for field in model._meta.get_fields():
            assert "<" not in str(getattr(field, "help_text", "")), (model, field.name)


def test_a_curator_sets_a_resources_year_and_a_year_that_is_no_year_is_refused(curator_client):
    resource = ResourceFactory(year=None)
    url = reverse("admin:catalog_resource_change", args=[resource.pk])
    page = curator_client.get(url)
    assert 'name="year"' in page.content.decode()
    data = change_form_data(page)
    response = curator_client.post(url, {**data, "year": "0"})
    assert response.status_code == 200
    assert "greater than or equal to 1" in str(response.context["errors"])
    resource.refresh_from_db()
    assert resource.year is None
    response = curator_client.post(url, {**data, "year": "2017"})
    assert response.status_code == 302
    resource.refresh_from_db()
    assert resource.year == 2017
