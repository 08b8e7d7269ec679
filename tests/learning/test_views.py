"""The learner pages (apps.learning.views): the catalog pages' content, htmx fragments, filters,
hidden objects, 404s, query counts; the path pages; the tick, the note and the dashboard."""

import re
from html import unescape

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from apps.catalog.models import Kind, LinkStatus, Priority
from apps.paths.models import PathFollow, PathStep, StepResource
from apps.paths.selectors import path_detail
from apps.progress.models import Progress, Status
from apps.progress.services import progress_set_note, progress_set_status
from tests.conftest import page_queries
from tests.factories import (
    PASSWORD,
    EntryFactory,
    GuideFactory,
    ResourceFactory,
    ResourceLinkFactory,
    SectionFactory,
    TopicFactory,
    UserFactory,
    listed_resource,
)
from tests.progress.conftest import build_guide

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def html(response) -> str:
    return response.content.decode()


def grow_guide(guide, *, sections, entries_per_section, topic=None):
    """A guide of nested sections full of entries, each resource with a link and a topic."""
    for _ in range(sections):
        parent = SectionFactory(guide=guide)
        child = SectionFactory(parent=parent, tier=2)
        for section in (parent, child):
            for _ in range(entries_per_section):
                resource = ResourceFactory(topics=[topic] if topic else None)
                ResourceLinkFactory(resource=resource)
                EntryFactory(section=section, resource=resource, priority=Priority.MUST)


# --- Layout ----------------------------------------------------------------------------------
def test_layout_has_landmarks_skip_link_search_and_sign_in(client):
    page = html(client.get(reverse("learning:home")))
    assert 'href="#main"' in page and 'id="main"' in page
    assert "<header" in page and "<nav" in page and "<footer" in page
    assert 'role="search"' in page and 'name="q"' in page
    assert reverse("account_login") in page and "Sign in" in page


def test_layout_shows_email_and_logout_form_to_signed_in_user(client):
    user = UserFactory(email="ada@example.com")
    client.force_login(user)
    page = html(client.get(reverse("learning:home")))
    assert "ada@example.com" in page
    assert f'action="{reverse("account_logout")}" method="post"' in page
    assert "Sign in" not in page


def test_pages_have_no_inline_scripts_or_styles(client):
    entry = EntryFactory()
    for url in (
        reverse("learning:home"),
        entry.section.guide.get_absolute_url(),
        entry.resource.get_absolute_url(),
    ):
        page = html(client.get(url))
        assert "style=" not in page and "<style" not in page
        assert "<script>" not in page and "<script " + "src" in page


# --- Home ------------------------------------------------------------------------------------
def test_home_lists_guides_with_section_and_resource_counts(client):
    guide = GuideFactory(title="Inference Engineering", description="Serving LLMs fast.")
    section = SectionFactory(guide=guide)
    SectionFactory(parent=section)
    resource = ResourceFactory()
    EntryFactory(section=section, resource=resource)
    EntryFactory(
        section=SectionFactory(guide=guide), resource=resource
    )  # same resource twice: counted once
    EntryFactory(section=section)
    topic = TopicFactory(title="Quantization")
    resource.topics.add(topic)
    EntryFactory(section=section, resource=ResourceFactory(topics=[topic], is_published=False))
    ResourceFactory(topics=[topic])  # in no guide: hidden, not counted

    response = client.get(reverse("learning:home"))

    page = html(response)
    assert response.status_code == 200
    assert "Inference Engineering" in page and "Serving LLMs fast." in page
    assert "3 sections" in page and "2 resources" in page
    assert "Quantization" in page
    [summary] = response.context["overview"].guides
    assert (summary.section_count, summary.resource_count) == (3, 2)
    assert response.context["overview"].topics[0].resource_count == 1


def test_home_hides_unpublished_guides_and_topics(client):
    GuideFactory(title="Draft guide", is_published=False)
    TopicFactory(title="Draft topic", is_published=False)
    page = html(client.get(reverse("learning:home")))
    assert "Draft guide" not in page and "Draft topic" not in page


def test_home_with_empty_catalog_explains_how_to_seed(client):
    assert "manage.py seed" in html(client.get(reverse("learning:home")))


def test_home_query_count_does_not_grow_with_catalog(client):
    grow_guide(GuideFactory(), sections=1, entries_per_section=1, topic=TopicFactory())
    small = page_queries(client, reverse("learning:home"))
    for _ in range(3):
        grow_guide(GuideFactory(), sections=3, entries_per_section=4, topic=TopicFactory())
    # Cold or warm, the same with four guides as with one; warm: only the content token.
    assert page_queries(client, reverse("learning:home")) == small and small[1] == 1


# --- Guide page ------------------------------------------------------------------------------
@pytest.fixture
def guide():
    """Two chapters; the second has a Tier 1 and a Tier 2 subsection."""
    guide = GuideFactory(slug="inference", title="Inference Engineering")
    basics = SectionFactory(guide=guide, title="Basics", number="01")
    serving = SectionFactory(guide=guide, title="Serving", number="02")
    tier1 = SectionFactory(parent=serving, title="Tier 1", tier=1)
    tier2 = SectionFactory(parent=serving, title="Tier 2", tier=2)
    EntryFactory(
        section=basics,
        resource=ResourceFactory(
            title="Attention Is All You Need", kind=Kind.PAPER, author="Vaswani et al."
        ),
        priority=Priority.MUST,
        rating=10,
        note="Start here.",
        marked_done=True,
    )
    EntryFactory(
        section=basics,
        resource=ResourceFactory(title="A concept with no link", url=None, kind=Kind.CONCEPT),
    )
    EntryFactory(
        section=tier1, resource=ResourceFactory(title="vLLM paged attention", kind=Kind.ARTICLE)
    )
    EntryFactory(
        section=tier2, resource=ResourceFactory(title="SGLang radix cache", kind=Kind.PAPER)
    )
    return guide


def test_guide_page_shows_sections_in_order_with_headings_by_depth(client, guide):
    page = html(client.get(guide.get_absolute_url()))
    assert (
        page.index("Basics")
        < page.index("Serving")
        < page.index(">Tier 1<")
        < page.index(">Tier 2<")
    )
    basics, serving = guide.sections.filter(parent=None).order_by("position")
    assert f'<h2 class="guide-section__title" id="{basics.anchor}">' in page
    assert f'href="#{serving.anchor}"' in page
    assert '<h3 class="guide-section__title" id="section-' in page


def test_guide_heading_is_shared_yet_follows_a_curators_edit(client, guide):
    guide.description = "Serve models.\n\nFast & cheap."
    guide.source_url = "https://example.com/inference"
    guide.save()
    page = html(client.get(guide.get_absolute_url()))
    assert '<h1 class="page-header__title">Inference Engineering</h1>' in page
    assert "<p>Serve models.</p>\n<p>Fast &amp; cheap.</p>" in page  # Markdown
    assert "<span>4 entries</span>" in page and 'href="https://example.com/inference"' in page
    guide.title = "Inference, revised"
    guide.save()  # moves the content version: the heading rendered once per version is made again
    page = html(client.get(guide.get_absolute_url()))
    assert '<h1 class="page-header__title">Inference, revised</h1>' in page
    assert '<span aria-current="page">Inference, revised</span>' in page


def test_guide_page_shows_each_entry_with_its_annotation(client, guide):
    entry = guide.sections.get(title="Basics").entries.get(
        resource__title="Attention Is All You Need"
    )
    resource = entry.resource
    ResourceLinkFactory(
        resource=resource, url="https://github.com/example/transformer", label="Code"
    )

    page = html(client.get(guide.get_absolute_url()))

    assert f'id="entry-{entry.uuid}"' in page
    assert f'href="{resource.url}" rel="noopener noreferrer"' in page
    assert 'target="_blank"' not in page
    assert "Paper" in page and "Must read" in page and "10/10" in page and "Done by author" in page
    assert "Vaswani et al." in page and resource.description in page and "Start here." in page
    assert 'href="https://github.com/example/transformer"' in page and ">Code<" in page
    assert f'href="{resource.get_absolute_url()}"' in page


def test_resource_without_url_links_to_its_catalog_page(client, guide):
    resource = guide.sections.get(title="Basics").entries.get(resource__url=None).resource
    page = html(client.get(guide.get_absolute_url()))
    assert (
        f'<a class="row__link" href="{resource.get_absolute_url()}">A concept with no link</a>'
        in page
    )


def test_entry_rows_keep_the_row_actions_slot(client, guide):
    response = client.get(guide.get_absolute_url())
    assert "catalog/includes/row_actions.html" in [t.name for t in response.templates]
    assert "catalog/includes/entry_row.html" in [t.name for t in response.templates]


def test_guide_filters_by_tier_inherited_from_the_heading(client, guide):
    page = html(client.get(guide.get_absolute_url(), {"tier": "1"}))
    assert "vLLM paged attention" in page
    assert "SGLang radix cache" not in page and "Attention Is All You Need" not in page
    assert "Basics" not in page  # a section with nothing left is dropped
    assert "Showing 1 of 4 entries" in page


def test_guide_filters_combine_priority_and_kind(client, guide):
    page = html(client.get(guide.get_absolute_url(), {"priority": "must", "kind": "paper"}))
    assert "Attention Is All You Need" in page
    assert "SGLang radix cache" not in page and "vLLM paged attention" not in page


def test_guide_filter_links_work_without_javascript_and_are_htmx_enhanced(client, guide):
    page = html(client.get(guide.get_absolute_url(), {"kind": "paper"}))
    href = f"{guide.get_absolute_url()}?kind=paper&amp;tier=2"
    assert (
        f'href="{href}" hx-get="{href}" hx-target="#guide-entries" hx-swap="outerHTML" hx-push-url="true"'
        in page
    )
    # The active filter is marked, and "Clear filters" goes back to the bare page.
    assert f'href="{guide.get_absolute_url()}?kind=paper"' in page and 'aria-current="true"' in page
    assert "Clear filters" in page


def test_guide_htmx_request_gets_only_the_entries_fragment(client, guide):
    response = client.get(guide.get_absolute_url(), {"tier": "2"}, **HTMX)
    page = html(response)
    assert response.status_code == 200
    assert page.lstrip().startswith('<div id="guide-entries"')
    assert "<html" not in page and "<header" not in page and "Contents" not in page
    assert "SGLang radix cache" in page and "vLLM paged attention" not in page
    assert "HX-Request" in response["Vary"]


def test_guide_history_restore_gets_the_whole_page(client, guide):
    response = client.get(guide.get_absolute_url(), HTTP_HX_HISTORY_RESTORE_REQUEST="true", **HTMX)
    assert "<html" in html(response)


@pytest.mark.parametrize(
    "params, ignored",
    [
        ({"tier": "abc"}, "tier"),
        ({"tier": "7"}, "tier"),
        ({"kind": "nope"}, "kind"),
        ({"priority": "<script>"}, "priority"),
    ],
)
def test_invalid_guide_filter_is_reported_and_ignored(client, guide, params, ignored):
    response = client.get(guide.get_absolute_url(), params)
    page = html(response)
    assert response.status_code == 200
    assert f"Ignored the {ignored} filter" in page
    assert "Attention Is All You Need" in page and "SGLang radix cache" in page
    assert "<script>" not in page.split('id="guide-entries"')[1]


def test_invalid_filter_is_dropped_but_valid_one_still_applies(client, guide):
    page = html(client.get(guide.get_absolute_url(), {"tier": "abc", "kind": "paper"}))
    assert "Ignored the tier filter" in page
    assert "SGLang radix cache" in page and "vLLM paged attention" not in page
    assert "tier=abc" not in page  # the bad value does not stick to the links


def test_filter_with_no_match_offers_a_way_back(client, guide):
    page = html(client.get(guide.get_absolute_url(), {"kind": "video"}))
    assert "No entries match these filters" in page


def test_unpublished_entries_resources_and_sections_are_hidden(client, guide):
    serving = guide.sections.get(title="Serving")
    serving.is_published = False  # hides its subsections and their entries too
    serving.save()
    basics = guide.sections.get(title="Basics")
    EntryFactory(
        section=basics, resource=ResourceFactory(title="Withdrawn entry"), is_published=False
    )
    EntryFactory(
        section=basics, resource=ResourceFactory(title="Withdrawn resource", is_published=False)
    )
    hidden = SectionFactory(guide=guide, title="Hidden chapter", is_published=False)
    EntryFactory(section=hidden, resource=ResourceFactory(title="Under a hidden heading"))

    page = html(client.get(guide.get_absolute_url()))

    assert "Attention Is All You Need" in page
    for text in (
        "Serving",
        "vLLM paged attention",
        "SGLang radix cache",
        "Withdrawn",
        "Hidden chapter",
        "Under a hidden",
    ):
        assert text not in page


def test_unpublished_guide_is_a_404(client):
    guide = GuideFactory(is_published=False)
    assert client.get(guide.get_absolute_url()).status_code == 404


def test_unknown_guide_is_the_styled_404(client):
    response = client.get(reverse("learning:guide-detail", args=["no-such-guide"]))
    assert response.status_code == 404
    assert "Not found" in html(response) and "Back to the guides" in html(response)


def test_guide_query_count_does_not_grow_with_entries(client):
    small, large = GuideFactory(), GuideFactory()
    grow_guide(small, sections=1, entries_per_section=1)
    grow_guide(large, sections=6, entries_per_section=8)
    few = page_queries(client, small.get_absolute_url())
    many = page_queries(client, large.get_absolute_url(), {"tier": "2", "priority": "must"})
    # Cold or warm, 48 entries cost what one does; warm: only the content token (the guide and
    # its rows come from this worker's memo).
    assert many == few and few[1] == 1


# --- Resource page ---------------------------------------------------------------------------
def test_resource_page_shows_details_links_placements_and_topics(client, guide):
    resource = ResourceFactory(
        title="FlashAttention",
        author="Tri Dao",
        description="IO-aware exact attention.",
        kind=Kind.PAPER,
        topics=[
            TopicFactory(title="Attention"),
            TopicFactory(title="Hidden topic", is_published=False),
        ],
    )
    ResourceLinkFactory(
        resource=resource, url="https://github.com/Dao-AILab/flash-attention", label="Code"
    )
    EntryFactory(
        section=guide.sections.get(title="Tier 2"), resource=resource, note="Read after vLLM."
    )
    EntryFactory(
        section=SectionFactory(guide=GuideFactory(title="Other guide"), priority=Priority.MAYBE),
        resource=resource,
    )
    EntryFactory(
        section=SectionFactory(guide=GuideFactory(title="Draft guide", is_published=False)),
        resource=resource,
    )

    page = html(client.get(resource.get_absolute_url()))

    assert "FlashAttention" in page and "Tri Dao" in page and "IO-aware exact attention." in page
    assert f'href="{resource.url}" rel="noopener noreferrer"' in page
    assert 'href="https://github.com/Dao-AILab/flash-attention"' in page
    assert (
        "Inference Engineering" in page
        and "Serving › Tier 2" in unescape(page)
        and "Tier 2" in page
    )
    assert "Read after vLLM." in page
    assert "Other guide" in page and "Maybe" in page
    assert "Draft guide" not in page
    assert "Attention" in page and "Hidden topic" not in page


def test_a_resources_year_shows_beside_its_author_on_its_page_and_in_rows(client, guide):
    topic = TopicFactory(title="Attention")
    dated = ResourceFactory(
        title="FlashAttention", author="Tri Dao", year=2022, kind=Kind.PAPER, topics=[topic]
    )
    undated = ResourceFactory(title="Roofline", author="", year=None, topics=[topic])
    alone = ResourceFactory(title="Alone", author="", year=1998)
    for resource in (dated, undated, alone):
        EntryFactory(section=guide.sections.get(title="Basics"), resource=resource)

    page = unescape(html(client.get(dated.get_absolute_url())))
    assert (
        '<p class="page-header__meta">Tri Dao · <span class="page-header__year">2022</span>' in page
    )
    assert '<span class="page-header__year">1998</span>' in html(
        client.get(alone.get_absolute_url())
    )
    assert "page-header__meta" not in html(client.get(undated.get_absolute_url()))
    guide_pages = [
        client.get(guide.get_absolute_url()),
        client.get(guide.get_absolute_url(), **HTMX),
    ]
    topic_pages = [  # the topic lists the two of them on it, "Alone" is on no topic
        client.get(topic.get_absolute_url()),
        client.get(topic.get_absolute_url(), {"kind": "paper"}, **HTMX),
    ]
    for response, dated_rows in [*((r, 2) for r in guide_pages), *((r, 1) for r in topic_pages)]:
        rows = unescape(html(response))
        assert (
            '<span class="row__author">Tri Dao</span><span class="row__year">· 2022</span>' in rows
        )
        assert '<span class="row__year">1998</span>' in rows or dated_rows == 1
        assert rows.count('class="row__year"') == dated_rows


def test_broken_link_gets_a_health_note(client):
    resource = listed_resource(link_status=LinkStatus.BROKEN, link_status_code=404)
    page = html(client.get(resource.get_absolute_url()))
    assert "looked broken" in page and "HTTP 404" in page and "web.archive.org" in page


def test_healthy_link_gets_no_health_note(client):
    response = client.get(listed_resource(link_status=LinkStatus.OK).get_absolute_url())
    assert response.status_code == 200 and "looked broken" not in html(response)


# A fixed unknown UUID, not uuid4(): every pytest-xdist worker must collect the same test ids.
@pytest.mark.parametrize(
    "path",
    [
        "/resources/not-a-uuid/",
        "/resources/1234/",
        "/resources/00000000-0000-4000-8000-000000000000/",
    ],
)
def test_unknown_or_malformed_resource_uuid_is_the_styled_404(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert "Not found" in html(response)


def test_unpublished_resource_is_a_404(client):
    assert client.get(ResourceFactory(is_published=False).get_absolute_url()).status_code == 404


def test_resource_query_count_is_constant(client):
    resource = ResourceFactory(topics=[TopicFactory()])
    EntryFactory(resource=resource)
    small = page_queries(client, resource.get_absolute_url())
    for _ in range(4):
        EntryFactory(resource=resource, section=SectionFactory(parent=SectionFactory()))
        ResourceLinkFactory(resource=resource)
        resource.topics.add(TopicFactory())
    # Cold or warm, five placements, links and topics cost what one does; warm: the token only.
    assert page_queries(client, resource.get_absolute_url()) == small and small[1] == 1


# --- Topics ----------------------------------------------------------------------------------
def test_topic_list_shows_published_topics_with_counts(client):
    topic = TopicFactory(title="Quantization", description="Fewer bits.")
    listed_resource(topics=[topic]), listed_resource(topics=[topic])
    ResourceFactory(topics=[topic])  # in no guide: hidden, not counted
    TopicFactory(title="Secret", is_published=False)
    page = html(client.get(reverse("learning:topic-list")))
    assert "Quantization" in page and "Fewer bits." in page and "2 resources" in page
    assert "Secret" not in page


def test_topic_page_lists_resources_from_every_guide_with_guide_badges(client, guide):
    topic = TopicFactory(title="Attention")
    paper = ResourceFactory(title="FlashAttention", kind=Kind.PAPER, topics=[topic])
    entry = EntryFactory(section=guide.sections.get(title="Basics"), resource=paper)
    other = EntryFactory(
        section=SectionFactory(guide=GuideFactory(title="Cheatsheet")), resource=paper
    )
    listed_resource(title="A video on attention", kind=Kind.VIDEO, topics=[topic])
    listed_resource(title="Withdrawn", topics=[topic], is_published=False)
    ResourceFactory(title="Listed nowhere", topics=[topic])
    ResourceFactory(title="Off topic")

    page = html(client.get(topic.get_absolute_url()))

    assert f'id="resource-{paper.uuid}"' in page
    assert page.count(f'id="resource-{paper.uuid}"') == 1  # once, however many guides list it
    assert f'href="{guide.get_absolute_url()}#entry-{entry.uuid}"' in page
    assert f"#entry-{other.uuid}" in page and "Cheatsheet" in page
    assert "A video on attention" in page
    assert "Withdrawn" not in page and "Off topic" not in page and "Listed nowhere" not in page


def test_topic_kind_filter_and_its_fragment(client):
    topic = TopicFactory()
    listed_resource(title="The paper", kind=Kind.PAPER, topics=[topic])
    listed_resource(title="The video", kind=Kind.VIDEO, topics=[topic])

    page = html(client.get(topic.get_absolute_url(), {"kind": "video"}, **HTMX))

    assert page.lstrip().startswith('<div id="topic-resources"')
    assert "<html" not in page
    assert "The video" in page and "The paper" not in page
    assert 'hx-target="#topic-resources"' in page


def test_topic_invalid_kind_is_reported_and_ignored(client):
    topic = TopicFactory()
    listed_resource(title="The paper", kind=Kind.PAPER, topics=[topic])
    page = html(client.get(topic.get_absolute_url(), {"kind": "podcast"}))
    assert "Ignored the kind filter" in page and "The paper" in page


def test_unknown_or_unpublished_topic_is_a_404(client):
    assert client.get(reverse("learning:topic-detail", args=["nope"])).status_code == 404
    assert client.get(TopicFactory(is_published=False).get_absolute_url()).status_code == 404


def test_topic_query_count_does_not_grow(client):
    topic = TopicFactory()
    grow_guide(GuideFactory(), sections=1, entries_per_section=1, topic=topic)
    small = page_queries(client, topic.get_absolute_url())
    grow_guide(GuideFactory(), sections=3, entries_per_section=5, topic=topic)
    assert page_queries(client, topic.get_absolute_url()) == small and small[1] == 1  # the token
    grow_guide(GuideFactory(), sections=4, entries_per_section=5, topic=topic)
    assert page_queries(client, topic.get_absolute_url(), {"kind": "article"}) == small


def test_topic_list_query_count(client):
    listed_resource(topics=[TopicFactory()])
    small = page_queries(client, reverse("learning:topic-list"))
    for _ in range(5):
        listed_resource(topics=[TopicFactory()])
    # Cold or warm, six topics cost what one does; warm: the token.
    assert page_queries(client, reverse("learning:topic-list")) == small and small[1] == 1


# --- Search ----------------------------------------------------------------------------------
@pytest.fixture
def library():
    section = SectionFactory(guide=GuideFactory(title="Inference guide"))
    for title, author, description in [
        ("FlashAttention", "Tri Dao", "Fast and memory-efficient exact attention."),
        ("PagedAttention in vLLM", "Kwon et al.", "Virtual memory for the KV cache."),
        (
            "A Visual Guide to Quantization",
            "Maarten Grootendorst",
            "Quantizing LLM weights to 4 bits.",
        ),
        ("GPU kernels for everyone", "Tri Dao", "Writing Triton kernels."),
    ]:
        EntryFactory(
            section=section,
            resource=ResourceFactory(title=title, author=author, description=description),
        )
    ResourceFactory(title="Unpublished attention trick", is_published=False)


def result_titles(response):
    return [resource.title for resource in response.context["page"].object_list]


def test_search_matches_title_author_and_description(client, library):
    assert result_titles(client.get(reverse("learning:search"), {"q": "vllm"})) == [
        "PagedAttention in vLLM"
    ]
    assert set(result_titles(client.get(reverse("learning:search"), {"q": "tri dao"}))) == {
        "FlashAttention",
        "GPU kernels for everyone",
    }
    assert result_titles(client.get(reverse("learning:search"), {"q": "KV cache"})) == [
        "PagedAttention in vLLM"
    ]


def test_search_needs_every_word(client, library):
    assert result_titles(client.get(reverse("learning:search"), {"q": "tri dao triton"})) == [
        "GPU kernels for everyone"
    ]


def test_search_hides_unpublished_and_shows_guide_badges(client, library):
    page = html(client.get(reverse("learning:search"), {"q": "attention"}))
    assert "Unpublished attention trick" not in page
    assert "FlashAttention" in page and "Inference guide" in page


def test_empty_search_shows_a_prompt_and_no_results(client, library):
    for params in ({}, {"q": ""}, {"q": "   "}):
        response = client.get(reverse("learning:search"), params)
        assert response.status_code == 200
        assert "results" not in response.context
        assert "Type a word or two" in html(response) and 'class="rows"' not in html(response)


def test_search_without_results_says_so(client, library):
    page = html(client.get(reverse("learning:search"), {"q": "zzzzzz"}))
    assert "0 results" in page and "Nothing matches" in page


def test_long_search_is_truncated_with_a_message(client, library):
    response = client.get(reverse("learning:search"), {"q": "attention " + "x" * 500})
    assert response.status_code == 200
    assert len(response.context["query"]) == 200
    assert "only its first 200 characters" in html(response)


@pytest.mark.parametrize(
    "query",
    [
        '"flash',
        "attention & | ! : * ( )",
        "a:* & !b",
        "\x00attention",
        "at\x00tention",
        "注意力",
        "🚀 attention",
        "%_%",
        "' OR 1=1 --",
        "\\",
    ],
)
def test_odd_search_input_never_errors(client, library, query):
    response = client.get(reverse("learning:search"), {"q": query})
    assert response.status_code == 200
    assert "\x00" not in html(response)


def test_nul_byte_in_query_string_is_harmless(client, library):
    assert client.get("/search/?q=%00").status_code == 200
    assert client.get("/search/?q=flash%00attention").status_code == 200


def test_search_paginates_and_copes_with_bad_page_numbers(client):
    section = SectionFactory()
    for n in range(25):
        EntryFactory(section=section, resource=ResourceFactory(title=f"Attention note {n:02}"))
    first = client.get(reverse("learning:search"), {"q": "attention"})
    assert len(result_titles(first)) == 20 and "Next" in html(first) and "page=2" in html(first)
    second = client.get(reverse("learning:search"), {"q": "attention", "page": "2"})
    assert len(result_titles(second)) == 5
    for page in ("abc", "0", "-1", "999", "1e9", "\x00"):
        response = client.get(reverse("learning:search"), {"q": "attention", "page": page})
        assert response.status_code == 200 and response.context["page"].number in (1, 2)


def test_search_htmx_request_gets_only_the_results_fragment(client, library):
    response = client.get(reverse("learning:search"), {"q": "quantization"}, **HTMX)
    page = html(response)
    assert page.lstrip().startswith('<div id="search-results"')
    assert "<html" not in page and 'name="q"' not in page  # not the search form itself
    assert "A Visual Guide to Quantization" in page
    assert "HX-Request" in response["Vary"]


def test_search_page_form_works_without_javascript_and_searches_live(client):
    page = html(client.get(reverse("learning:search")))
    assert f'action="{reverse("learning:search")}" method="get"' in page
    assert (
        'hx-trigger="input changed delay:300ms from:#search-q, search from:#search-q, change from:.search-form__filters"'
        in page
    )
    assert (
        'hx-target="#search-results"' in page
        and '<select name="kind">' in page
        and '<select name="guide">' in page
    )


def test_search_query_count_is_constant(client):
    section = SectionFactory()
    for n in range(2):
        EntryFactory(section=section, resource=ResourceFactory(title=f"Attention {n}"))
    small = page_queries(client, reverse("learning:search"), {"q": "attention"})
    for n in range(30):
        resource = ResourceFactory(title=f"More attention {n}")
        EntryFactory(section=SectionFactory(), resource=resource)
        EntryFactory(section=section, resource=resource)
    # Cold or warm, a second page of 32 results costs what 2 results do; warm: the token only.
    large = page_queries(client, reverse("learning:search"), {"q": "attention", "page": "2"})
    assert large == small and small[1] == 1


def tick_url(resource):
    return reverse("learning:progress-set", args=[resource.uuid])


def test_tick_without_javascript_saves_and_redirects_back(client, learner, catalog):
    client.force_login(learner)
    resource = catalog["resources"][0]
    response = client.post(tick_url(resource), {"status": "done", "next": "/guides/alpha/?tier=1"})
    assert response.status_code == 302 and response["Location"] == "/guides/alpha/?tier=1"
    assert Progress.objects.get(user=learner, resource=resource).status == Status.DONE


def test_tick_refuses_an_offsite_next(client, learner, catalog):
    client.force_login(learner)
    resource = catalog["resources"][0]
    response = client.post(tick_url(resource), {"status": "done", "next": "https://evil.example/"})
    assert response["Location"] == resource.get_absolute_url()


def test_htmx_tick_returns_the_tick_and_every_bar_of_the_guide_page(client, learner, catalog):
    client.force_login(learner)
    guide, shared = catalog["guide"], catalog["shared"]
    entries = list(shared.entries.filter(section__guide=guide).order_by("section__position"))
    assert len(entries) == 2  # the shared resource sits in both sections of this guide
    response = client.post(
        tick_url(shared),
        {"status": "done", "scope": f"guide:{guide.uuid}", "slot": str(entries[0].uuid)},
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert f'id="tick-{entries[0].uuid}"' in html and 'aria-checked="true"' in html
    # The other tick of the same resource on the page is refreshed out of band.
    assert f'id="tick-{entries[1].uuid}" ' in html and html.count('hx-swap-oob="true"') >= 3
    assert f'id="bar-guide-{guide.uuid}"' in html
    for entry in entries:  # compact, as the page shows them
        assert f'id="bar-section-{entry.section.uuid}" class="bar bar--compact"' in html
        assert f'id="bar-section-{entry.section.parent.uuid}" class="bar bar--compact"' in html
    # 1 of the guide's 7 distinct resources is done.
    assert 'value="1"' in html and "1/7 · 14%" in unescape(html)
    assert f'id="bar-guide-{guide.uuid}" class="bar"' in html


def test_htmx_tick_reads_what_its_bars_need_with_its_write(client, learner, catalog):
    """The bars a tick refreshes show the write itself, read in the write's round trip."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(learner)
    guide, resources = catalog["guide"], catalog["resources"]
    scope = f"guide:{guide.uuid}"
    client.post(
        tick_url(resources[1]), {"status": "done", "scope": scope}, HTTP_HX_REQUEST="true"
    )  # builds the memo
    with CaptureQueriesContext(connection) as queries:
        response = client.post(
            tick_url(resources[0]), {"status": "done", "scope": scope}, HTTP_HX_REQUEST="true"
        )
    assert "2/7 · 29%" in unescape(response.content.decode())  # this tick and the earlier one
    # The session, its user, the token; the write in one transaction (savepoint, the row locked,
    # written, its activity, release); then the learner's statuses. (The day's count is gone: the
    # heatmap reads the rows' own dates.)
    assert len(queries) == 3 + 5 + 1


def test_htmx_tick_on_the_dashboard_refreshes_its_guide_and_section_bars_as_shown(
    client, learner, catalog
):
    client.force_login(learner)
    resource, guide = catalog["resources"][0], catalog["guide"]
    page = client.get(reverse("learning:dashboard")).content.decode()
    top = resource.entries.get().section.parent
    for dom_id in (f"bar-guide-{guide.uuid}", f"bar-section-{top.uuid}"):
        assert f'id="{dom_id}" class="bar bar--compact"' in page
    html = client.post(
        tick_url(resource), {"status": "done", "scope": "dashboard"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert 'id="bar-overall" class="bar" hx-swap-oob="true"' in html and "1/10 · 10%" in unescape(
        html
    )
    assert f'id="bar-guide-{guide.uuid}" class="bar bar--compact" hx-swap-oob="true"' in html
    assert f'id="bar-section-{top.uuid}" class="bar bar--compact" hx-swap-oob="true"' in html
    # overall; both guides; every top section; the in-progress and recently completed lists;
    # the sentence counting what is done, and the streaks with the heatmap; What's new's block
    # and its "nothing new" line
    assert html.count('hx-swap-oob="true"') == 1 + 2 + 3 + 2 + 2 + 2
    assert 'id="dashboard-whats-new" hx-swap-oob="true"' in html
    assert 'id="dashboard-whats-new-none" hx-swap-oob="true"' in html
    assert 'id="dashboard-overall" hx-swap-oob="true">1 of 10 resources done' in html
    assert 'id="dashboard-activity" hx-swap-oob="true"' in html
    assert "<strong>1</strong> day current streak" in html
    assert 'id="dashboard-recent" hx-swap-oob="true"' in html and resource.title in html


def test_htmx_tick_learns_its_slot_from_the_button_that_sent_it(client, learner, catalog):
    """A page's ticks post its one shared form; htmx names the clicked button (HX-Trigger)."""
    client.force_login(learner)
    guide, shared = catalog["guide"], catalog["shared"]
    first, second = shared.entries.filter(section__guide=guide).order_by("section__position")
    page = client.get(guide.get_absolute_url()).content.decode()
    assert f'id="tick-btn-{second.uuid}"' in page and page.count('<form id="tick-form"') == 1
    response = client.post(
        tick_url(shared),
        {"status": "done", "scope": f"guide:{guide.uuid}"},
        HTTP_HX_REQUEST="true",
        HTTP_HX_TRIGGER=f"tick-btn-{second.uuid}",
    )
    html = response.content.decode()
    assert response.status_code == 200 and html.startswith(f'<span id="tick-{second.uuid}" ')
    assert (
        f'id="tick-btn-{second.uuid}"' in html and f'<span id="tick-{first.uuid}" ' in html
    )  # the other, out of band


@pytest.mark.parametrize("trigger", ["tick-btn-<b>x</b>", "tick-btn-" + "x" * 121])
def test_htmx_tick_with_a_forged_slot_changes_nothing(client, learner, catalog, trigger):
    client.force_login(learner)
    resource = catalog["resources"][0]
    response = client.post(
        tick_url(resource), {"status": "done"}, HTTP_HX_REQUEST="true", HTTP_HX_TRIGGER=trigger
    )
    assert response.status_code == 400 and "<b>" not in response.content.decode()
    assert not Progress.objects.exists()


def test_retried_htmx_tick_converges(client, learner, catalog):
    client.force_login(learner)
    resource = catalog["resources"][1]
    for _ in range(3):
        client.post(tick_url(resource), {"status": "done"}, HTTP_HX_REQUEST="true")
    assert Progress.objects.filter(user=learner, resource=resource, status=Status.DONE).count() == 1
    client.post(tick_url(resource), {"status": "not_started"}, HTTP_HX_REQUEST="true")
    assert not Progress.objects.filter(user=learner, resource=resource).exists()


def test_get_never_changes_anything(client, learner, catalog):
    client.force_login(learner)
    response = client.get(tick_url(catalog["resources"][0]) + "?status=done")
    assert response.status_code == 405
    assert not Progress.objects.exists()


def test_writes_need_the_csrf_token(learner, catalog):
    client = Client(enforce_csrf_checks=True)
    client.force_login(learner)
    response = client.post(tick_url(catalog["resources"][0]), {"status": "done"})
    assert response.status_code == 403
    assert not Progress.objects.exists()


def test_invalid_status_gives_a_message_and_changes_nothing(client, learner, catalog):
    client.force_login(learner)
    response = client.post(tick_url(catalog["resources"][0]), {"status": "toggle"})
    assert response.status_code == 302
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        "That status is not valid; nothing was changed."
    ]
    assert not Progress.objects.exists()
    response = client.post(
        tick_url(catalog["resources"][0]), {"status": "toggle"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 400 and response["Content-Type"].startswith(
        "text/plain"
    )  # shown by shortcuts.js
    assert response.content.decode() == "That status is not valid; nothing was changed."


def test_a_tick_lands_on_the_row_as_it_is_when_written(client, learner, catalog):
    """No read first: a note another request added after this page was shown survives a
    "not started" that, on the row as the page knew it, would have removed the row."""
    client.force_login(learner)
    resource = catalog["resources"][0]
    progress_set_status(user=learner, resource=resource, status=Status.DONE)
    progress_set_note(user=learner, resource=resource, note="keep me")  # another tab, in between
    response = client.post(tick_url(resource), {"status": "not_started"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    row = Progress.objects.get(user=learner, resource=resource)
    assert (row.status, row.note, row.started_at, row.completed_at) == (
        Status.NOT_STARTED,
        "keep me",
        None,
        None,
    )


def test_unknown_or_unpublished_resource_is_a_404(client, learner, catalog):
    client.force_login(learner)
    resource = catalog["resources"][0]
    resource.is_published = False
    resource.save()
    assert client.post(tick_url(resource), {"status": "done"}).status_code == 404
    assert (
        client.post(
            "/progress/00000000-0000-0000-0000-000000000000/", {"status": "done"}
        ).status_code
        == 404
    )


def test_anonymous_tick_asks_to_sign_in_then_applies_it(client, learner, catalog):
    resource = catalog["resources"][2]
    response = client.post(tick_url(resource), {"status": "done", "next": "/guides/alpha/"})
    assert response.status_code == 302
    assert (
        response["Location"].startswith(reverse("account_login"))
        and "next=/guides/alpha/" in response["Location"]
    )
    assert not Progress.objects.exists()
    htmx = client.post(
        tick_url(resource), {"status": "done", "next": "/guides/alpha/"}, HTTP_HX_REQUEST="true"
    )
    assert htmx["HX-Redirect"].startswith(reverse("account_login"))

    login = client.post(
        reverse("account_login") + "?next=/guides/alpha/",
        {"login": learner.email, "password": PASSWORD},
    )
    assert login.status_code == 302 and login["Location"] == "/guides/alpha/"
    assert Progress.objects.get(user=learner, resource=resource).status == Status.DONE


def test_resource_page_shows_the_learners_own_row_in_a_constant_query_count(
    client, learner, other_learner, catalog
):
    resource = catalog["resources"][0]
    progress_set_status(user=learner, resource=resource, status=Status.DONE, note="my private note")
    progress_set_status(
        user=other_learner, resource=resource, status=Status.SKIPPED, note="not mine"
    )
    client.force_login(learner)
    html = client.get(resource.get_absolute_url()).content.decode()
    assert "my private note" in html and "not mine" not in html
    assert 'aria-pressed="true">Done</button>' in html and 'aria-checked="true"' in html
    # Warm: the session, its user, the token, and the learner's row.
    assert page_queries(client, resource.get_absolute_url())[1] == 4
    client.force_login(other_learner)
    assert (
        'aria-pressed="true">Skipped</button>'
        in client.get(resource.get_absolute_url()).content.decode()
    )


def test_one_user_cannot_change_or_see_another_users_progress(
    client, learner, other_learner, catalog
):
    resource = catalog["resources"][0]
    progress_set_status(user=learner, resource=resource, status=Status.DONE, note="my private note")
    client.force_login(other_learner)
    client.post(tick_url(resource), {"status": "not_started"})
    client.post(reverse("learning:progress-note", args=[resource.uuid]), {"note": "eve was here"})
    mine = Progress.objects.get(user=learner, resource=resource)
    assert (mine.status, mine.note) == (Status.DONE, "my private note")
    for fmt in ("json", "csv", "md"):
        body = client.get(reverse("progress:export", args=[fmt])).content.decode()
        assert "my private note" not in body
    exported = client.get(reverse("progress:export", args=["json"])).json()["progress"]
    assert [(item["status"], item["note"]) for item in exported] == [
        ("not_started", "eve was here")
    ]
    assert "[x]" not in client.get(reverse("progress:export", args=["md"])).content.decode()


def test_dashboard_shows_overall_and_guide_progress(client, learner, catalog):
    progress_set_status(user=learner, resource=catalog["shared"], status=Status.DONE)
    progress_set_status(user=learner, resource=catalog["resources"][0], status=Status.DONE)
    client.force_login(learner)
    html = client.get(reverse("learning:dashboard")).content.decode()
    # 10 distinct resources in all (6 + 3 + the shared one); 2 done.
    assert "2 of 10 resources done" in html
    assert f'id="bar-guide-{catalog["guide"].uuid}"' in html and "2/7" in html
    assert f'id="bar-guide-{catalog["other_guide"].uuid}"' in html and "1/4" in html
    assert "current streak" in html and "<svg" in html


def test_dashboard_lists_next_up_in_progress_and_recently_completed(client, learner, catalog):
    """The lists' rows are filled into shapes of the page's partials: each row shows its own
    resource, status and time, and a title is escaped."""
    first, second, third, fourth = catalog["resources"][:4]
    first.title = "Tokens <b>& friends</b>"
    first.save()
    progress_set_status(user=learner, resource=first, status=Status.IN_PROGRESS)
    progress_set_status(user=learner, resource=second, status=Status.DONE)
    progress_set_status(
        user=learner, resource=fourth, status=Status.DONE
    )  # the latest change: alpha
    client.force_login(learner)
    html = client.get(reverse("learning:dashboard")).content.decode()

    next_up = html.split('id="continue-heading"')[1].split("<h3>In progress</h3>")[0]
    assert "Next in <a" in next_up and ">Alpha</a>" in next_up
    titles = [resource.title for resource in (first, third)]  # alpha's unfinished, in order
    assert [
        unescape(title)
        for title in re.findall(r'class="tick-box"[^>]*aria-label="Done: ([^"]*)"', next_up)
    ][:2] == titles
    assert (
        "tick tick--in_progress" in next_up and "Tokens &lt;b&gt;&amp; friends&lt;/b&gt;" in next_up
    )
    assert "· alpha part 0 tier 1</span>" in next_up and second.title not in next_up

    in_progress = html.split("<h3>In progress</h3>")[1].split("</ul>")[0]
    assert (
        f'<a href="{first.get_absolute_url()}">Tokens &lt;b&gt;&amp; friends&lt;/b&gt;</a>'
        in in_progress
    )
    # naturaltime: "now" within the second, "N seconds ago" on a slow machine.
    assert re.search(r"· started (now|\d+\xa0seconds? ago)</span>", in_progress)
    assert second.title not in in_progress
    recent = html.split('id="recent-heading"')[1].split("</section>")[0]
    assert re.findall(r'<li><a href="([^"]*)">', recent) == [
        fourth.get_absolute_url(),
        second.get_absolute_url(),
    ]
    assert recent.count("· now</span>") == 2


def test_dashboard_heatmap_sums_up_the_learners_year(client, learner, catalog):
    for resource in catalog["resources"][:2]:
        progress_set_status(user=learner, resource=resource, status=Status.DONE)
    client.force_login(learner)
    html = client.get(reverse("learning:dashboard")).content.decode()
    figure = html.split('<figure class="heatmap">')[1].split("</figure>")[0]
    today = timezone.localdate()
    assert '<desc id="heatmap-desc">2 things started or finished on 1 day.</desc>' in figure
    assert (
        f"2 things started or finished on 1 active day in the last year; busiest day {today.day} {today:%b %Y} (2).</span>"
        in figure
    )
    weeks_back = today.weekday() + 1 + 52 * 7  # from a Sunday, 53 columns
    assert (
        figure.count("<rect ") == weeks_back + 1 + 5 and 'class="hm hm-4"><title>2 on ' in figure
    )  # and the legend's 5


def test_dashboard_lists_say_so_when_empty(client, learner, catalog):
    client.force_login(learner)
    html = client.get(reverse("learning:dashboard")).content.decode()
    assert "Tick something in a guide" in html and "Nothing completed yet." in html
    assert "<h3>In progress</h3>" not in html and 'class="mini-row"' not in html


def test_dashboard_links_follow_a_renamed_resource(client, learner, catalog):
    client.force_login(learner)
    started, finished = catalog["resources"][:2]
    progress_set_status(user=learner, resource=started, status=Status.IN_PROGRESS)
    progress_set_status(user=learner, resource=finished, status=Status.DONE)
    assert (
        f'<a href="{started.get_absolute_url()}">{started.title}</a>'
        in client.get(reverse("learning:dashboard")).content.decode()
    )
    started.title, finished.title = "Attention \u2014 revisited", "Zur\u00fcck & weiter"
    started.save()
    finished.save()
    html = client.get(reverse("learning:dashboard")).content.decode()
    assert f'<a href="{started.get_absolute_url()}">Attention \u2014 revisited</a>' in html
    assert f'<a href="{finished.get_absolute_url()}">Zur\u00fcck &amp; weiter</a>' in html


def test_dashboard_query_count_does_not_grow_with_rows(client, learner, catalog):
    client.force_login(learner)
    for resource in catalog["resources"][:2]:
        progress_set_status(user=learner, resource=resource, status=Status.DONE)
    small = page_queries(client, reverse("learning:dashboard"))
    build_guide("gamma", n_sections=4, per_section=10)
    for resource in catalog["resources"][2:] + catalog["other_resources"]:
        progress_set_status(user=learner, resource=resource, status=Status.DONE)
    # Warm: the session, its user, the token, then the learner's rows (statuses, latest started
    # and done, latest changed), their activity days, followed paths, their own paths (none
    # here: no steps read), What's new "seen up to" and their pins (quick.dashboard_pins).
    assert page_queries(client, reverse("learning:dashboard")) == small == (small[0], 3 + 6)


def test_guide_page_with_progress_keeps_a_constant_query_count(client, learner, catalog):
    from apps.catalog.models import Entry, Resource

    client.force_login(learner)
    guide = catalog["guide"]
    progress_set_status(user=learner, resource=catalog["resources"][0], status=Status.DONE)
    html = client.get(guide.get_absolute_url()).content.decode()
    assert f'id="bar-guide-{guide.uuid}"' in html and 'aria-checked="true"' in html
    small = page_queries(client, guide.get_absolute_url())

    section = guide.sections.filter(parent__isnull=False).first()
    for i in range(30):
        resource = Resource.objects.create(title=f"More {i}", url=f"https://example.com/more/{i}")
        Entry.objects.create(section=section, resource=resource, position=100 + i)
        progress_set_status(
            user=learner, resource=resource, status=Status.DONE if i % 2 else Status.SKIPPED
        )
    # Warm: the session, its user, the token, and the learner's statuses.
    assert page_queries(client, guide.get_absolute_url()) == small == (small[0], 4)


def test_a_status_click_on_the_resource_page_saves_the_note_typed_with_it(client, learner, catalog):
    resource = catalog["resources"][0]
    client.force_login(learner)
    page = client.get(resource.get_absolute_url()).content.decode()
    # The checkbox, the status buttons and the note are one form: the checkbox's.
    [form] = re.findall(r'<form id="tick-form".*?</form>', page, re.DOTALL)
    assert 'name="note"' in form and 'id="status-in_progress"' in form and "Save note" in form
    assert page.count('id="tick-form"') == 1 and 'form="tick-form"' in page
    response = client.post(
        tick_url(resource),
        {"status": "in_progress", "scope": "resource", "note": "  typed, not saved yet  "},
        HTTP_HX_REQUEST="true",
    )
    assert response["HX-Retarget"] == "#my-progress"
    assert ">typed, not saved yet</textarea>" in response.content.decode()
    row = Progress.objects.get(user=learner, resource=resource)
    assert (row.status, row.note) == (Status.IN_PROGRESS, "typed, not saved yet")
    # Without JavaScript the checkbox posts the whole form: the note comes along.
    response = client.post(
        tick_url(resource) + f"?slot={resource.uuid}",
        {"status": "done", "scope": "resource", "note": "changed", "next": "/"},
    )
    assert response.status_code == 302 and response["Location"] == "/#my-progress"
    row.refresh_from_db()
    assert (row.status, row.note) == (Status.DONE, "changed")


def test_a_tick_without_a_note_field_leaves_the_note_alone(client, learner, catalog):
    resource = catalog["resources"][0]
    progress_set_note(user=learner, resource=resource, note="kept")
    client.force_login(learner)
    client.post(tick_url(resource), {"status": "done", "scope": "guide:x"}, HTTP_HX_REQUEST="true")
    assert Progress.objects.get(user=learner, resource=resource).note == "kept"


def test_a_too_long_note_with_a_status_changes_nothing_and_says_why(client, learner, catalog):
    resource = catalog["resources"][0]
    client.force_login(learner)
    data = {"status": "done", "scope": "resource", "note": "x" * 10_001}
    response = client.post(tick_url(resource), data, HTTP_HX_REQUEST="true")
    assert response.status_code == 400 and "at most 10,000 characters" in response.content.decode()
    response = client.post(tick_url(resource), data | {"next": resource.get_absolute_url()})
    assert response.status_code == 302
    assert "at most 10,000 characters" in str(list(get_messages(response.wsgi_request))[0])
    assert not Progress.objects.filter(user=learner).exists()


def test_save_note_over_htmx_swaps_the_block_with_the_note_saved(client, learner, catalog):
    resource = catalog["resources"][0]
    client.force_login(learner)
    url = reverse("learning:progress-note", args=[resource.uuid])
    response = client.post(url, {"note": "mine"}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response["HX-Retarget"] == "#my-progress" and ">mine</textarea>" in html
    assert "Note saved." in html and "<html" not in html
    assert Progress.objects.get(user=learner, resource=resource).note == "mine"
    response = client.post(url, {"note": "y" * 10_001}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert Progress.objects.get(user=learner, resource=resource).note == "mine"


def test_unpublished_resources_are_never_shown_on_a_path(client, learner, catalog, learning_path):
    hidden = catalog["resources"][0]
    hidden.is_published = False
    hidden.save()
    html = client.get(reverse("learning:path-detail", args=["kernels"])).content.decode()
    assert hidden.title not in html and catalog["resources"][1].title in html
    assert path_detail(path=learning_path, user=learner).tally.total == 3


def test_unpublished_or_unknown_path_is_a_404(client, learning_path):
    learning_path.is_published = False
    learning_path.save()
    assert client.get(reverse("learning:path-detail", args=["kernels"])).status_code == 404
    assert client.get(reverse("learning:path-detail", args=["nope"])).status_code == 404
    assert "Kernel development" not in client.get(reverse("learning:path-list")).content.decode()


def test_path_heading_is_shared_yet_follows_a_curators_edit(
    client, learner, catalog, learning_path
):
    client.force_login(learner)
    page = unescape(client.get(learning_path.get_absolute_url()).content.decode())
    assert (
        f'<a href="{reverse("learning:path-list")}">Paths</a>' in page
        and "<h1>Kernel development</h1>" in page
    )
    assert (
        "2 steps · 4 resources" in page
        and f'from <a href="{catalog["guide"].get_absolute_url()}">' in page
    )
    learning_path.title, learning_path.description = "Kernels, revised", "Write your own."
    learning_path.save()  # moves the content version: the heading rendered once per version is made again
    page = unescape(client.get(learning_path.get_absolute_url()).content.decode())
    assert "<h1>Kernels, revised</h1>" in page and '<p class="lede">Write your own.</p>' in page
    assert '<span aria-current="page">Kernels, revised</span>' in page


def test_path_list_shows_length_effort_and_my_progress(client, learner, catalog, learning_path):
    progress_set_status(user=learner, resource=catalog["shared"], status=Status.DONE)
    client.force_login(learner)
    html = client.get(reverse("learning:path-list")).content.decode()
    assert "2 steps · 4 resources" in unescape(html) and "hour" in html
    assert f'id="bar-path-{learning_path.uuid}"' in html and "1/4" in html


def test_path_page_query_count_is_constant(client, learner, catalog, learning_path):
    client.force_login(learner)
    url = reverse("learning:path-detail", args=["kernels"])
    small = page_queries(client, url)
    _, more = build_guide("gamma", n_sections=3, per_section=8)
    for position, resource in enumerate(more, start=1):
        step = PathStep.objects.create(
            path=learning_path, position=10 + position, title=f"Extra {position}"
        )
        StepResource.objects.create(step=step, resource=resource, position=1)
        progress_set_status(user=learner, resource=resource, status=Status.DONE)
    # Cold or warm, 26 steps cost what two do; warm: the session, its user, the token, then the
    # learner's statuses and follows.
    assert page_queries(client, url) == small and small[1] == 5


def test_ticking_on_a_path_page_refreshes_path_step_bars_and_next_up(
    client, learner, catalog, learning_path
):
    client.force_login(learner)
    item = StepResource.objects.get(step__position=1, resource=catalog["resources"][0])
    response = client.post(
        reverse("learning:progress-set", args=[item.resource.uuid]),
        {"status": "done", "scope": f"path:{learning_path.uuid}", "slot": str(item.uuid)},
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert f'id="bar-path-{learning_path.uuid}"' in html and "1/4" in html
    assert f'id="bar-step-{item.step.uuid}"' in html
    assert f'id="next-up-{learning_path.uuid}"' in html and catalog["shared"].title in html


def test_dashboard_shows_each_followed_path_with_its_bar_next_up_and_pace(
    client, learner, catalog, learning_path
):
    """The followed path's row is filled into its partial's shape: link, compact bar, next up
    (the path page's own markup) and, with a weekly pace, the finish date."""
    client.force_login(learner)
    progress_set_status(user=learner, resource=catalog["resources"][0], status=Status.DONE)
    PathFollow.objects.create(user=learner, path=learning_path, hours_per_week=3)
    html = client.get(reverse("learning:dashboard")).content.decode()
    row = html.split('class="plain-list followed-paths">')[1].split("</ul>")[0]
    assert f'<h3><a href="{learning_path.get_absolute_url()}">Kernel development</a></h3>' in row
    assert f'id="bar-path-{learning_path.uuid}" class="bar bar--compact"' in row and "1/4" in row
    assert (
        f'id="next-up-{learning_path.uuid}"' in row
        and unescape(row).count(catalog["shared"].title) == 1
    )
    assert "At 3 h/week: finish around " in row and (" ahead by " in row or " behind by " in row)

    PathFollow.objects.filter(user=learner).update(hours_per_week=None)
    row = (
        client.get(reverse("learning:dashboard"))
        .content.decode()
        .split('class="plain-list followed-paths">')[1]
    )
    assert "h/week" not in row.split("</ul>")[0]


def test_step_numbers_are_labelled_apart_from_the_guides_chapter_numbers(client, catalog):
    from apps.paths.models import LearningPath

    path = LearningPath.objects.create(slug="notes", title="Notes path", guide=catalog["guide"])
    step = PathStep.objects.create(path=path, position=2, title="03 Kernel Programming")
    StepResource.objects.create(step=step, resource=catalog["resources"][0], position=1)
    html = client.get(path.get_absolute_url()).content.decode()
    assert '<span class="step-number">Step 2</span>' in html and "03 Kernel Programming" in html
    assert '<span class="step-number">2</span>' not in html
    assert "· Step 2: 03 Kernel Programming" in html  # next up names it the same way
