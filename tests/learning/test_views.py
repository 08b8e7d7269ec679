"""The learner pages (apps.learning.views): the catalog pages' content, htmx fragments, filters, hidden objects, 404s, query counts."""

import uuid
from html import unescape

import pytest
from django.urls import reverse

from apps.catalog.models import Kind, LinkStatus, Priority
from tests.conftest import page_queries
from tests.factories import (
    EntryFactory,
    GuideFactory,
    ResourceFactory,
    ResourceLinkFactory,
    SectionFactory,
    TopicFactory,
    UserFactory,
    listed_resource,
)

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


def test_broken_link_gets_a_health_note(client):
    resource = listed_resource(link_status=LinkStatus.BROKEN, link_status_code=404)
    page = html(client.get(resource.get_absolute_url()))
    assert "looked broken" in page and "HTTP 404" in page and "web.archive.org" in page


def test_healthy_link_gets_no_health_note(client):
    response = client.get(listed_resource(link_status=LinkStatus.OK).get_absolute_url())
    assert response.status_code == 200 and "looked broken" not in html(response)


@pytest.mark.parametrize(
    "path", ["/resources/not-a-uuid/", "/resources/1234/", f"/resources/{uuid.uuid4()}/"]
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
