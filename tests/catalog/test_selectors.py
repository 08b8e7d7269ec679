"""Catalog reads: visibility rules, inherited annotations, facets, overview counts and both search paths."""

import pytest
from django.db import connection

from apps.catalog import selectors
from apps.catalog.models import Kind, Priority
from tests.factories import (
    EntryFactory,
    GuideFactory,
    ResourceFactory,
    SectionFactory,
    TopicFactory,
    listed_resource,
)

pytestmark = pytest.mark.django_db

postgresql_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="full-text search needs PostgreSQL"
)
sqlite_only = pytest.mark.skipif(
    connection.vendor == "postgresql", reason="the fallback path runs where PostgreSQL does not"
)


def shown_titles(contents):
    titles = []

    def walk(section):
        titles.extend(entry.resource.title for entry in section.shown_entries)
        for child in section.shown_subsections:
            walk(child)

    for section in contents.sections:
        walk(section)
    return titles


# --- Guide contents --------------------------------------------------------------------------
def test_unpublished_section_hides_its_whole_branch():
    guide = GuideFactory()
    chapter = SectionFactory(guide=guide, is_published=False)
    sub = SectionFactory(parent=chapter)
    subsub = SectionFactory(parent=sub)
    EntryFactory(section=subsub, resource=ResourceFactory(title="Deep down"))
    EntryFactory(section=SectionFactory(guide=guide), resource=ResourceFactory(title="Visible"))

    contents = selectors.guide_contents(guide=guide, filters={})

    assert shown_titles(contents) == ["Visible"]
    assert contents.total_count == 1


def test_tier_and_priority_are_inherited_from_the_nearest_heading():
    guide = GuideFactory()
    must = SectionFactory(guide=guide, priority=Priority.MUST)
    tier3 = SectionFactory(parent=must, tier=3)
    inherited = EntryFactory(section=tier3)
    own = EntryFactory(section=tier3, tier=1, priority=Priority.MAYBE)

    contents = selectors.guide_contents(guide=guide, filters={})
    entries = {entry.id: entry for entry in contents.sections[0].shown_subsections[0].shown_entries}

    assert (entries[inherited.id].effective_tier, entries[inherited.id].effective_priority) == (
        3,
        "must",
    )
    assert (entries[own.id].effective_tier, entries[own.id].effective_priority) == (1, "maybe")


def test_facet_counts_respect_the_other_filters():
    guide = GuideFactory()
    section = SectionFactory(guide=guide)
    EntryFactory(section=section, tier=1, resource=ResourceFactory(kind=Kind.PAPER))
    EntryFactory(section=section, tier=1, resource=ResourceFactory(kind=Kind.VIDEO))
    EntryFactory(section=section, tier=2, resource=ResourceFactory(kind=Kind.PAPER))

    contents = selectors.guide_contents(guide=guide, filters={"kind": "paper"})
    facets = {facet.name: facet for facet in contents.facets}

    assert [(o.value, o.count) for o in facets["tier"].options] == [("1", 1), ("2", 1)]
    assert [(o.value, o.count, o.active) for o in facets["kind"].options] == [
        ("paper", 2, True),
        ("video", 1, False),
    ]
    assert "priority" not in facets  # no entry has one, so there is nothing to choose
    assert contents.shown_count == 2 and contents.total_count == 3


def test_a_single_value_is_worth_filtering_when_some_rows_lack_it():
    guide = GuideFactory()
    section = SectionFactory(guide=guide)
    EntryFactory(section=section, priority=Priority.MUST)
    EntryFactory(section=section)
    facets = {
        facet.name: facet for facet in selectors.guide_contents(guide=guide, filters={}).facets
    }
    assert "priority" in facets
    assert "kind" not in facets  # every entry is an article


def test_filters_drop_sections_left_empty_but_keep_ancestors_of_matches():
    guide = GuideFactory()
    chapter = SectionFactory(guide=guide, title="Chapter")
    EntryFactory(
        section=SectionFactory(parent=chapter, tier=2), resource=ResourceFactory(title="Tier two")
    )
    EntryFactory(section=SectionFactory(guide=guide, title="Other", tier=1))

    contents = selectors.guide_contents(guide=guide, filters={"tier": "2"})

    assert [section.title for section in contents.sections] == ["Chapter"]
    assert shown_titles(contents) == ["Tier two"]


def test_guide_under_one_heading_lists_its_subheadings_as_contents():
    guide = GuideFactory()
    root = SectionFactory(guide=guide)
    children = [SectionFactory(parent=root) for _ in range(3)]
    contents = selectors.guide_contents(guide=guide, filters={})
    assert contents.contents == children


# --- Overview --------------------------------------------------------------------------------
def test_overview_counts_only_what_a_learner_can_see():
    guide = GuideFactory()
    visible = SectionFactory(guide=guide)
    hidden = SectionFactory(guide=guide, is_published=False)
    SectionFactory(parent=hidden)
    EntryFactory(section=visible)
    EntryFactory(section=visible, is_published=False)
    EntryFactory(section=hidden)
    GuideFactory(is_published=False)

    overview = selectors.catalog_overview()

    [summary] = overview.guides
    assert (summary.guide, summary.section_count, summary.resource_count) == (guide, 1, 1)


# --- Topics ----------------------------------------------------------------------------------
def test_topic_contents_lists_each_resource_once_with_its_first_entry_per_guide():
    topic = TopicFactory()
    resource = ResourceFactory(topics=[topic])
    guide = GuideFactory()
    first = EntryFactory(section=SectionFactory(guide=guide), resource=resource)
    EntryFactory(section=SectionFactory(guide=guide), resource=resource)
    elsewhere = EntryFactory(resource=resource)

    contents = selectors.topic_contents(topic=topic, filters={})
    page = selectors.topic_page(resource_ids=contents.resource_ids, page_number=1)

    assert contents.resource_ids == (resource.id,) and page.object_list == [resource]
    assert page.object_list[0].guide_entries == [first, elsewhere]


def test_topic_pages_follow_title_then_id_and_take_any_page_number(monkeypatch):
    monkeypatch.setattr(selectors, "TOPIC_PAGE_SIZE", 2)
    topic = TopicFactory()
    same = [listed_resource(title="Same", topics=[topic]) for _ in range(3)]
    first = listed_resource(title="A first", topics=[topic])
    ids = selectors.topic_contents(topic=topic, filters={}).resource_ids
    assert ids == (first.id, *sorted(r.id for r in same))  # a tie never reorders between pages

    def page(number):
        return [r.id for r in selectors.topic_page(resource_ids=ids, page_number=number)]

    assert page(1) + page("2") == list(ids)
    assert page(99) == page(0) == page(-1) == page(2)  # out of range: the last page
    assert page("x") == page("") == page(None) == page(1)  # not a number: the first


# --- Search ----------------------------------------------------------------------------------
def titles(queryset):
    return [resource.title for resource in queryset]


def test_search_of_nothing_finds_nothing():
    listed_resource()
    assert titles(selectors.search_resources("")) == []


def test_search_ignores_case_and_requires_every_word():
    listed_resource(
        title="Speculative Decoding", author="Leviathan", description="Draft models guess tokens."
    )
    listed_resource(title="Decoding strategies", author="Someone", description="Beam search.")
    assert titles(selectors.search_resources("DECODING leviathan")) == ["Speculative Decoding"]


@sqlite_only
def test_sqlite_search_puts_title_matches_first():
    listed_resource(title="A survey", description="Covers attention in depth.")
    listed_resource(title="Zero to attention")
    assert titles(selectors.search_resources("attention")) == ["Zero to attention", "A survey"]


@postgresql_only
def test_postgres_search_ranks_title_above_author_above_description():
    listed_resource(title="Notes", author="Kernel Club", description="Misc.")
    listed_resource(title="A survey", author="Someone", description="All about kernels.")
    listed_resource(title="Writing fast kernels", author="Someone", description="Misc.")
    assert titles(selectors.search_resources("kernel")) == [
        "Writing fast kernels",
        "Notes",
        "A survey",
    ]


@postgresql_only
def test_postgres_search_stems_words():
    listed_resource(title="A Visual Guide to Quantization")
    assert titles(selectors.search_resources("quantizing")) == ["A Visual Guide to Quantization"]


@postgresql_only
def test_postgres_search_understands_websearch_syntax():
    listed_resource(title="Paged attention for serving")
    listed_resource(title="Attention for training")
    assert titles(selectors.search_resources("attention -training")) == [
        "Paged attention for serving"
    ]
    assert titles(selectors.search_resources('"attention for training"')) == [
        "Attention for training"
    ]


@postgresql_only
def test_postgres_search_still_finds_half_typed_words():
    listed_resource(title="FlashAttention-2")
    assert titles(selectors.search_resources("flashatt")) == ["FlashAttention-2"]


@postgresql_only
@pytest.mark.parametrize(
    "query", ["a:* & !b", "(((", "&|!:*()", "注意力", "🚀", "' OR 1=1 --", "the"]
)
def test_postgres_search_survives_odd_input(query):
    listed_resource(title="Something")
    list(selectors.search_resources(query))
