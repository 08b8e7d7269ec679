"""The importer on every peculiar shape of the five guides, dedupe, topics, coverage and bad input."""

import re
from decimal import Decimal

import pytest

from apps.catalog.importer import (
    CatalogImportError,
    apply_import,
    normalize_url,
    parse_guide,
    plan_import,
)
from apps.catalog.importer.planner import plan_catalog
from apps.catalog.importer.sources import GUIDE_SOURCES, SOURCES_DIR
from apps.catalog.models import Entry, Guide, Kind, Priority, Resource, ResourceLink, Section

PLAN_BOOKS = [
    "Understanding Deep Learning",
    "Deep Learning with PyTorch",
    "Mathematics for Machine Learning",
    "Build a Large Language Model",
    "Dive into Deep Learning",
    "Professional CUDA C Programming",
    "Programming Massively Parallel Processors",
    "Parallel Programming Concepts",
    "Alice's Adventures in a differentiable wonderland",
    "Deep Learning",
]


def source_text(slug: str) -> str:
    return (SOURCES_DIR / f"{slug}.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def guides():
    return {
        source.slug: parse_guide((SOURCES_DIR / f"{source.slug}.md").read_bytes())
        for source in GUIDE_SOURCES
    }


@pytest.fixture(scope="module")
def plan():
    return plan_catalog()


def items_titled(guide, title):
    return [item for item in guide.items() if item.title == title]


def section(guide, title):
    return next(s for s in guide.walk() if s.title == title)


# --- 000 / 001: checklists, pseudo-headings, MUST/MAYBE, ratings, multi-link items ------------


def test_mojibake_is_repaired_before_parsing(guides):
    assert guides["ai-cheatsheet"].description.endswith("researchers 🧠💻")
    assert "ðŸ" not in guides["ai-engineering-awesome"].description
    assert "covering LLM serving" in guides["ai-inference-engineering"].description
    assert "systems — covering" in guides["ai-inference-engineering"].description


def test_bold_bullet_label_and_plain_pseudo_headings_become_sibling_sections(guides):
    deep_dive = section(guides["ai-cheatsheet"], "Deep dive into AI concepts [Learn step-by-step]")
    assert [child.title for child in deep_dive.children] == [
        "GPU architecture",
        "GPU programming concepts",
        "Transformer",
        "Attention",
        "Quantization",
        "Post-training",
        "Optimizations",
        "Software tools AI",
        "Insights",
    ]
    assert deep_dive.description.startswith("Listed only high-quality resources.")
    assert section(guides["ai-cheatsheet"], "GPU architecture").description.startswith(
        "Current SOTA AI/LLM workloads"
    )
    awesome = guides["ai-engineering-awesome"]
    assert [
        c.title for c in section(awesome, "Core AI engineering papers you MUST read").children
    ] == [
        "Kernel level and memory system engineering",
        "Algorithms for Kernel development",
        "Training engineering",
        "Others",
    ]
    assert section(awesome, "Scheduling / Routing").items


def test_table_of_contents_bullets_do_not_become_sections_or_items(guides):
    titles = [s.title for s in guides["ai-engineering-awesome"].walk()]
    assert "Contents" not in titles
    assert titles.count("Core AI engineering papers you MUST read") == 1
    assert "Table of contents" not in [s.title for s in guides["ai-inference-engineering"].walk()]


def test_must_group_and_maybe_heading_set_priority(guides):
    cheatsheet = guides["ai-cheatsheet"]
    must = [item.title for item in cheatsheet.items() if item.priority == Priority.MUST]
    assert must == [
        "CSE223",
        "CME 295",
        "AI Engineering Silicon Cheatsheet",
        "The Ultra-Scale Playbook",
        "Llama visualization",
    ]
    maybe = section(cheatsheet, "MAYBE guides you may go through")
    assert maybe.priority == Priority.MAYBE and all(
        item.priority == Priority.MAYBE for item in maybe.items
    )
    papers = section(guides["ai-engineering-awesome"], "Training engineering")
    assert all(item.priority == Priority.MUST for item in papers.items)


def test_ratings_are_read_and_removed_from_the_note(guides):
    cse223 = items_titled(guides["ai-cheatsheet"], "CSE223")[0]
    assert cse223.rating == Decimal("10")
    assert (
        "rating" not in cse223.note
        and cse223.note == "ML Sys course by Prof Hao Zhang by UC San Diego"
    )
    playbook = items_titled(guides["ai-engineering-awesome"], "The Ultra-Scale Playbook")[0]
    assert playbook.rating == Decimal("8.5")


def test_items_without_a_link_are_concepts(guides):
    concepts = [
        item
        for item in section(guides["ai-cheatsheet"], "Attention").items
        if item.kind == Kind.CONCEPT
    ]
    assert len(concepts) == 4
    ring = next(c for c in concepts if c.title.startswith("Ring Attention"))
    assert (
        ring.url is None and ring.note == "Handles large sequence length, Flex Attention, Masking"
    )


def test_flash_attention_item_keeps_every_link_with_a_label(guides):
    flash = items_titled(guides["ai-engineering-awesome"], "FlashAttention")[0]
    assert flash.url == "https://gordicaleksa.medium.com/eli5-flash-attention-5c44017022ad"
    assert [(link.label, link.url) for link in flash.links[1:]] == [
        ("paper1", "https://arxiv.org/abs/2205.14135"),
        ("paper for v2", "https://arxiv.org/abs/2307.08691"),
        ("paper for v3", "https://tridao.me/blog/2024/flash3/"),
        ("Implementation", "https://github.com/Dao-AILab/flash-attention"),
    ]


def test_generic_link_text_gives_way_to_the_items_own_words(guides):
    paper = section(guides["ai-engineering-awesome"], "Algorithms for Kernel development").items[1]
    assert paper.title == "Flash Attention"
    assert paper.url == "https://arxiv.org/abs/2205.14135"
    parallelism = items_titled(guides["ai-cheatsheet"], "5D parallelism (PP, SP, DP, TP, CP, EP)")
    assert parallelism and parallelism[0].links[1].label == "parallelism"


def test_url_with_parentheses_survives_intact(guides, plan):
    url = "https://huggingface.co/spaces/hesamation/primer-llm-embedding?section=bert_(bidirectional_encoder_representations_from_transformers)"
    embedding = items_titled(guides["ai-engineering-awesome"], "Embedding")[0]
    assert embedding.url == url
    assert embedding.links[1].label == "RoPE paper"
    assert url in {r.url for r in plan.resources}


def test_image_tags_are_not_resources(guides, plan):
    urls = {link.url for item in guides["ai-engineering-awesome"].items() for link in item.links}
    assert not any("user-attachments" in url for url in urls)
    assert not any("user-attachments" in (r.url or "") for r in plan.resources)


def test_blog_prefix_makes_a_site_and_by_author_is_read(guides):
    openvino = items_titled(
        guides["ai-engineering-awesome"], "OpenVINO optimizations and engineering"
    )[0]
    assert openvino.kind == Kind.SITE and openvino.author == "Intel"
    scaling = items_titled(guides["ai-engineering-awesome"], "Scaling a model")[0]
    assert scaling.author == "Jax (Google)" and scaling.rating == Decimal("7")


# --- 002: numbered topics × tiers, "Title - Author. Description." ------------------------------


def test_inference_guide_has_eighteen_numbered_topics_with_tiers(guides):
    guide = guides["ai-inference-engineering"]
    numbered = [s for s in guide.sections if s.number]
    assert [s.number for s in numbered] == [str(n) for n in range(1, 19)]
    fundamentals = numbered[0]
    assert fundamentals.title == "LLM Inference Fundamentals"
    tier1 = fundamentals.children[0]
    assert (tier1.title, tier1.tier) == ("Tier 1", 1)
    assert len(tier1.items) == 8 and all(item.tier == 1 for item in tier1.items)
    assert [len(child.items) for child in fundamentals.children] == [8, 3, 1]


def test_author_and_description_are_split_off_the_title(guides):
    guide = guides["ai-inference-engineering"]
    arithmetic = items_titled(guide, "Transformer Inference Arithmetic")[0]
    assert arithmetic.author == "kipply"
    assert arithmetic.description.startswith("Breaks down the compute and memory costs")
    inferact = items_titled(guide, "Inferact")[0]
    assert inferact.author == "" and inferact.description.startswith("Founded by vLLM creators")
    mimo = items_titled(guide, "MiMo-V2-Flash: Efficient Reasoning and Agentic Foundation Model")[0]
    assert mimo.links[1].label == "vLLM recipe"


def test_purpose_and_how_to_read_become_the_guide_description(guides):
    description = guides["ai-inference-engineering"].description
    assert description.startswith("A curated collection of resources")
    assert '1. Read "Tier 1" for all topics first' in description


# --- 003: comment-wrapped front matter, bare URLs, [DONE], broken URL, book plan -------------


def test_front_matter_inside_an_html_comment_gives_the_title(guides):
    blogs = guides["future-blogs-to-write"]
    assert blogs.title == "Future blogs to write"
    assert blogs.front_matter["layout"] == "blog"
    assert blogs.sections[0].title == "Evolution of LLMs"


def test_done_marks_are_read(guides):
    done = [item.title for item in guides["future-blogs-to-write"].items() if item.done]
    assert done == ["Timeline and family tree", "A Brief History of Large Language Models"]


def test_space_broken_url_is_repaired_and_flagged(guides, plan):
    item = items_titled(guides["future-blogs-to-write"], "Things we learned about LLMs in 2024")[0]
    assert item.url == "https://simonwillison.net/2024/Dec/31/llms-in-2024/"
    resource = next(
        r for r in plan.resources if r.url == "https://simonwillison.net/2024/Dec/31/llms-in-2024"
    )
    assert "simonwil lison" in resource.url_issue
    assert any("simonwil lison" in warning for warning in plan.warnings)


def test_bare_urls_get_titles_from_the_line_or_the_url(guides):
    blogs = guides["future-blogs-to-write"]
    papers = section(blogs, "Papers to read").items
    assert papers[0].title == "Large Batch Training of Convolutional Networks"
    assert papers[0].url == "https://arxiv.org/pdf/1708.03888v3"
    assert items_titled(blogs, "srush/GPU-Puzzles")  # a bare repository link: owner/repo
    assert not items_titled(blogs, "github.com/srush/GPU-Puzzles")
    challenge = items_titled(blogs, "Challenge by unsloth")[0]
    assert challenge.url.startswith(
        "https://colab.research.google.com/drive/1JqKqA1XWeLHvnYAc0wzrR4JBCnq43HyH"
    )
    assert items_titled(blogs, "Foundations of Deep RL")[0].kind == Kind.VIDEO


def test_curly_brace_aside_describes_the_next_section(guides):
    cuda = section(guides["future-blogs-to-write"], "CUDA & optimising GPUs")
    assert cuda.description.startswith("I believe the below can be clubbed together")


def test_empty_bullets_are_ignored(guides):
    assert all(item.title.strip() for item in guides["future-blogs-to-write"].items())


def test_phased_book_plan_becomes_sections_with_books(guides):
    plan_section = section(guides["future-blogs-to-write"], "Books reading list and order")
    phases = [child for child in plan_section.children if child.phase]
    assert [(p.phase, p.title, p.effort) for p in phases] == [
        ("Phase 1", "Deep Learning & PyTorch Foundations", "8-10 weeks"),
        ("Phase 2", "LLM Focus", "6-8 weeks"),
        ("Phase 3", "Systems & Optimization", "8-10 weeks"),
    ]
    udl = phases[0].items[0]
    assert (udl.title, udl.kind, udl.author, udl.effort, udl.url) == (
        "Understanding Deep Learning",
        Kind.BOOK,
        "Prince",
        "4-5 weeks",
        None,
    )
    assert udl.description.startswith("Focus: Modern implementation + theory")
    optional = section(guides["future-blogs-to-write"], "Optional/Reference Materials").items
    assert [(b.title, b.author) for b in optional] == [
        ("Alice's Adventures in a differentiable wonderland", ""),
        ("Deep Learning", "Goodfellow"),
    ]
    timeline = section(guides["future-blogs-to-write"], "Project Integration Timeline").items
    assert timeline[0].note == "Weeks 1-10" and len(timeline) == 4
    extra = section(guides["future-blogs-to-write"], "Additional Resources to Consider").items
    assert [item.kind for item in extra] == [Kind.DOCS, Kind.DOCS, Kind.DOCS, Kind.REPO]


def test_ordered_book_list_maps_onto_the_phase_plan_books(guides, plan):
    order = next(
        p for p in guides["future-blogs-to-write"].paths if p.title == "Book reading order"
    )
    assert [step.label for step in order.steps][:2] == [
        "MML",
        "DL with PyTorch + Dive into DL (in parallel)",
    ]
    assert [[i.title for i in step.items] for step in order.steps] == [
        ["Mathematics for Machine Learning"],
        ["Deep Learning with PyTorch", "Dive into Deep Learning"],
        ["Understanding Deep Learning"],
        ["Build a Large Language Model"],
        ["Professional CUDA C Programming"],
        ["Programming Massively Parallel Processors"],
        ["Parallel Programming Concepts"],
    ]
    blogs = next(g for g in plan.guides if g.slug == "future-blogs-to-write")
    phase_books = {e.resource.uuid for e in blogs.entries if e.section.phase}
    ordered = next(p for p in plan.paths if p.kind == "book-order")
    assert len(ordered.resources) == 8 and set(ordered.resources) == phase_books


# --- 004: a table of sections and written reading paths ---------------------------------------


def test_field_notes_table_rows_become_sections_holding_one_chapter(guides):
    notes = guides["ai-infra-field-notes"]
    assert len(notes.sections) == 17
    assert [s.number for s in notes.sections] == [f"{n:02d}" for n in range(1, 17)] + ["A"]
    attention = notes.sections[4]
    assert attention.title == "Attention Optimization"
    (chapter,) = attention.items
    assert (chapter.kind, chapter.title, chapter.url) == (
        Kind.CHAPTER,
        "Attention Optimization",
        None,
    )
    assert chapter.description.startswith("FlashAttention v1/v2/v3")


def test_field_notes_reading_paths_are_parsed(guides):
    assert [path.as_tuple() for path in guides["ai-infra-field-notes"].paths] == [
        ("Kernel development", ["01", "03", "04", "09", "05", "15"]),
        ("Inference optimization", ["01", "05", "06", "08", "07", "10"]),
        ("Training optimization", ["01", "04", "07", "14", "12"]),
        ("Frontier topics", ["15", "16"]),
    ]


def test_field_notes_prose_is_the_guide_description(guides):
    description = guides["ai-infra-field-notes"].description
    assert description.startswith("Field notes from an AI infrastructure engineer")
    assert "- Kernel engineers writing CUDA/HIP/Triton kernels" in description
    assert "- Familiarity with C/C++ and Python" in description
    assert "中文 | English" not in description


# --- the plan: dedupe, topics, paths, coverage --------------------------------------------------


def test_same_url_in_several_guides_is_one_resource(plan):
    cse = [r for r in plan.resources if r.url == "https://hao-ai-lab.github.io/cse234-w25"]
    assert len(cse) == 1
    guides_listing = {g.slug for g in plan.guides for e in g.entries if e.resource is cse[0]}
    assert guides_listing == {"ai-cheatsheet", "ai-engineering-awesome"}
    scaling = next(r for r in plan.resources if r.url == "https://jax-ml.github.io/scaling-book")
    assert (
        scaling.title == "How To Scale Your Model"
    )  # 002's fuller line wins over 001's "Scaling a model"
    assert scaling.author == "JAX Team"


def test_every_resource_has_a_topic(plan):
    assert all(resource.topics for resource in plan.resources)
    by_title = {r.title: r for r in plan.resources if r.kind == Kind.CHAPTER}
    assert "quantization-compression" in by_title["Quantization"].topics
    assert "attention-memory" in by_title["Attention Optimization"].topics


def test_reading_paths_cover_the_guides_orders(plan):
    kinds = {(p.guide, p.kind) for p in plan.paths}
    assert kinds == {
        ("ai-cheatsheet", "must-first"),
        ("ai-engineering-awesome", "must-first"),
        ("ai-inference-engineering", "tier-order"),
        ("future-blogs-to-write", "phased-plan"),
        ("future-blogs-to-write", "book-order"),
        *(("ai-infra-field-notes", "reading-path"),),
    }
    tiers = next(p for p in plan.paths if p.kind == "tier-order")
    assert [step.title for step in tiers.steps] == ["Tier 1", "Tier 2", "Tier 3"]
    assert len(tiers.resources) == len(set(tiers.resources))
    kernel = next(p for p in plan.paths if p.slug == "ai-infra-field-notes-kernel-development")
    assert [s.title for s in kernel.steps][:2] == [
        "01 GPU Architecture & AI Systems",
        "03 Kernel Programming",
    ]
    assert len(kernel.resources) == 6
    phased = next(p for p in plan.paths if p.kind == "phased-plan")
    assert [(s.phase, s.effort) for s in phased.steps] == [
        ("Phase 1", "8-10 weeks"),
        ("Phase 2", "6-8 weeks"),
        ("Phase 3", "8-10 weeks"),
        ("Optional", ""),
    ]


def _urls_in(text: str) -> set[str]:
    """Every non-image URL in a source, found with a deliberately simple regex (not the parser's)."""
    text = re.sub(r"<img[^>]*>", "", text)
    text = re.sub(r"\]\(([^)]*)\)", lambda m: "](" + re.sub(r"\s+", "", m.group(1)) + ")", text)
    found = set()
    for url in re.findall(r"https?://[^\s<>\"'\]]+", text):
        while url and (
            url[-1] in ".,;:!?*" or (url[-1] == ")" and url.count(")") > url.count("("))
        ):
            url = url[:-1]
        found.add(normalize_url(url))
    return found


def test_every_url_in_the_sources_is_in_the_catalog(plan):
    in_sources = set().union(*(_urls_in(source_text(s.slug)) for s in GUIDE_SOURCES))
    in_catalog = {r.url for r in plan.resources if r.url} | {
        link.url for r in plan.resources for link in r.links
    }
    assert len(in_sources) > 450
    assert in_sources - in_catalog == set()


def test_every_checklist_item_table_row_and_book_is_in_the_catalog(plan):
    for slug in ("ai-cheatsheet", "ai-engineering-awesome"):
        checklist = [
            line.strip() for line in source_text(slug).splitlines() if line.startswith("- [ ]")
        ]
        imported = [e for g in plan.guides if g.slug == slug for e in g.entries]
        # one entry per line, or several when a line names several resources (one link, one resource)
        assert list(dict.fromkeys(e.raw for e in imported)) == checklist
    rows = [
        line
        for line in source_text("ai-infra-field-notes").splitlines()
        if re.match(r"^\| (\d\d|A) \|", line)
    ]
    chapters = [r for r in plan.resources if r.kind == Kind.CHAPTER]
    assert len(rows) == len(chapters) == 17
    books = {r.title for r in plan.resources if r.kind == Kind.BOOK}
    assert set(PLAN_BOOKS) <= books
    # the guide's bare link to the MML PDF is the book it names in full: one resource
    mml = next(r for r in plan.resources if r.title == "Mathematics for Machine Learning")
    assert mml.url == "https://mml-book.github.io/book/mml-book.pdf"


# --- database: plan_import / apply_import ------------------------------------------------------


GUIDE_A = """# Guide A
## Basics
- [ ] [Transformer Inference Arithmetic](https://kipp.ly/transformer-inference-arithmetic/?utm_source=a): costs
- [ ] KV cache
"""
GUIDE_B = """# Guide B
## More
- [Transformer Inference Arithmetic](https://KIPP.ly/transformer-inference-arithmetic) - kipply. The article.
- [Other](https://example.com/other/)
"""


@pytest.mark.django_db
def test_import_dedupes_url_variants_across_guides():
    apply_import(plan_import(GUIDE_A, guide_slug="guide-a"))
    plan_b = plan_import(GUIDE_B, guide_slug="guide-b")
    assert [r.title for r in plan_b.matched_resources] == ["Transformer Inference Arithmetic"]
    assert [r.title for r in plan_b.new_resources] == ["Other"]
    apply_import(plan_b)
    arithmetic = Resource.objects.get(url="https://kipp.ly/transformer-inference-arithmetic")
    assert set(arithmetic.entries.values_list("section__guide__slug", flat=True)) == {
        "guide-a",
        "guide-b",
    }
    assert Resource.objects.count() == 3
    assert arithmetic.topics.exists()


@pytest.mark.django_db
def test_import_writes_the_guide_tree():
    result = apply_import(plan_import(GUIDE_A, guide_slug="guide-a", title="Guide A!"))
    guide = Guide.objects.get(slug="guide-a")
    assert guide.title == "Guide A!" and result.guide == guide
    basics = Section.objects.get(guide=guide, title="Basics")
    entries = list(Entry.objects.filter(section=basics).order_by("position"))
    assert [e.resource.kind for e in entries] == [Kind.ARTICLE, Kind.CONCEPT]
    assert entries[0].note == "costs" and entries[0].raw.startswith("- [ ] [Transformer")
    assert result.counts["entries"] == 2


@pytest.mark.django_db
def test_reimporting_a_guide_needs_replace_and_keeps_resources():
    apply_import(plan_import(GUIDE_A, guide_slug="guide-a"))
    resource_ids = set(Resource.objects.values_list("pk", flat=True))
    with pytest.raises(CatalogImportError, match="already exists"):
        apply_import(plan_import(GUIDE_A, guide_slug="guide-a"))
    apply_import(plan_import(GUIDE_A, guide_slug="guide-a"), replace=True)
    assert set(Resource.objects.values_list("pk", flat=True)) == resource_ids
    assert Entry.objects.count() == 2


@pytest.mark.django_db
def test_replacing_a_guide_keeps_when_its_entries_were_added():
    from datetime import timedelta

    from django.utils import timezone

    apply_import(plan_import(GUIDE_A, guide_slug="guide-a"))
    long_ago = timezone.now() - timedelta(days=90)
    Entry.objects.update(added_at=long_ago)
    apply_import(
        plan_import(GUIDE_A + "- [ ] [New one](https://example.com/new)\n", guide_slug="guide-a"),
        replace=True,
    )
    dates = dict(Entry.objects.values_list("resource__title", "added_at"))
    assert dates.pop("New one") > timezone.now() - timedelta(minutes=1)
    assert set(dates.values()) == {long_ago}  # What's new and the feeds see one addition


@pytest.mark.django_db
def test_import_adds_missing_extra_links_but_never_edits_a_resource():
    apply_import(plan_import("# A\n## S\n- [ ] [Main](https://example.com/main)\n", guide_slug="a"))
    Resource.objects.filter(url="https://example.com/main").update(title="Curated title")
    apply_import(
        plan_import(
            "# B\n## S\n- [ ] [Main v2](https://example.com/main), [slides](https://example.com/s)\n",
            guide_slug="b",
        )
    )
    resource = Resource.objects.get(url="https://example.com/main")
    assert resource.title == "Curated title"
    assert list(resource.links.values_list("url", "label")) == [("https://example.com/s", "slides")]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "empty"),
        (b"   \n\n  ", "empty"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary"),
        (b"\xff\xfe\xfa\xfb not utf-8", "UTF-8"),
        ("Just a paragraph of prose.\nAnother one.\n", "No reading-list items"),
    ],
)
@pytest.mark.django_db
def test_bad_input_raises_a_clear_error_and_writes_nothing(data, message):
    with pytest.raises(CatalogImportError, match=message):
        plan_import(data, guide_slug="bad")
    assert (
        not Guide.objects.exists()
        and not Resource.objects.exists()
        and not ResourceLink.objects.exists()
    )


@pytest.mark.django_db
def test_invalid_slug_and_missing_title_are_refused():
    with pytest.raises(CatalogImportError, match="slug"):
        plan_import(GUIDE_A, guide_slug="Not A Slug")
    with pytest.raises(CatalogImportError, match="no title"):
        plan_import("- [ ] [x](https://example.com/x)\n", guide_slug="untitled")


@pytest.mark.django_db
def test_failed_apply_rolls_back_everything(monkeypatch):
    plan = plan_import(GUIDE_A, guide_slug="guide-a")

    def explode(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(Entry, "save", explode)
    with pytest.raises(RuntimeError):
        apply_import(plan)
    assert (
        not Guide.objects.exists()
        and not Resource.objects.exists()
        and not Section.objects.exists()
    )


@pytest.mark.django_db
def test_import_guide_command_dry_run_writes_nothing(tmp_path, capsys):
    from django.core.management import call_command

    path = tmp_path / "guide.md"
    path.write_text(GUIDE_A, encoding="utf-8")
    call_command("import_guide", str(path), slug="guide-a", dry_run=True)
    out = capsys.readouterr().out
    assert "1 sections, 2 entries" in out and "Dry run" in out
    assert not Guide.objects.exists()
    call_command("import_guide", str(path), slug="guide-a")
    assert Guide.objects.filter(slug="guide-a").exists()


YEARS = """# Years
## Papers
| Date | Title | Paper |
|---|---|---|
| 2024.05 | DeepSeek-V2: A Strong MoE Model(@DeepSeek-AI) | [[pdf]](https://arxiv.org/pdf/2405.04434) |
| 2023 | Efficient Memory Management for LLM Serving | [[pdf]](https://arxiv.org/pdf/2309.06180) |
## Reading
- [Attention Is All You Need](https://arxiv.org/abs/1706.03762) (Oct 04, 2017)
- [Undated](https://example.org/undated) - An essay.
- Deep Learning (2016): Goodfellow, Bengio and Courville.
"""


@pytest.mark.django_db
def test_the_lists_dates_are_stored_as_the_resources_year():
    apply_import(plan_import(YEARS, guide_slug="years"))
    years = dict(Resource.objects.values_list("title", "year"))
    assert years == {
        "DeepSeek-V2: A Strong MoE Model": 2024,
        "Efficient Memory Management for LLM Serving": 2023,
        "Attention Is All You Need": 2017,
        "Undated": None,
        "Deep Learning": 2016,
    }
    assert Resource.objects.get(year=2024).author == "DeepSeek-AI"


@pytest.mark.django_db
def test_an_import_fills_an_empty_year_and_never_overwrites_one():
    dated = Resource.objects.create(
        title="Attention Is All You Need", url="https://arxiv.org/abs/1706.03762", year=2018
    )
    undated = Resource.objects.create(
        title="Efficient Memory Management", url="https://arxiv.org/pdf/2309.06180"
    )
    result = apply_import(plan_import(YEARS, guide_slug="years"))
    dated.refresh_from_db()
    undated.refresh_from_db()
    assert dated.year == 2018  # the curator's year stays
    assert undated.year == 2023  # the list's year fills the gap
    assert result.counts["years_added"] == 1
    assert "1 year filled in" in result.counts_text()
