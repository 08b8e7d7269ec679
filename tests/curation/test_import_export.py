"""Importing a markdown reading list from the admin (preview, then confirm) and exporting guides."""

import io
import zipfile

import pytest
from django.contrib.admin.models import ADDITION, CHANGE, LogEntry
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from apps.catalog.models import Entry, Guide, Resource, Section
from apps.curation import views as curation_views
from apps.curation.exports import guide_to_markdown
from tests.factories import GuideFactory, ResourceFactory, ResourceLinkFactory
from tests.factories import NumberedEntryFactory as EntryFactory
from tests.factories import NumberedSectionFactory as SectionFactory

pytestmark = pytest.mark.django_db

IMPORT_URL = "/admin/catalog/guide/import/"

READING_LIST = """# Inference reading list

## Attention
- [ ] [Attention Is All You Need](https://arxiv.org/abs/1706.03762) - Vaswani et al. The transformer paper.
- [ ] [The Illustrated Transformer](https://jalammar.github.io/illustrated-transformer/)

## GPUs
- [ ] [Making Deep Learning Go Brrrr](https://horace.io/brrr_intro.html) - Horace He. Compute, memory, overhead.
"""


def counts():
    return (
        Guide.objects.count(),
        Section.objects.count(),
        Entry.objects.count(),
        Resource.objects.count(),
    )


@pytest.fixture
def known_resource(db):
    return ResourceFactory(
        title="Attention (curated title)", url="https://arxiv.org/abs/1706.03762"
    )


def preview(client, **data):
    return client.post(IMPORT_URL, {"guide_slug": "inference", "title": "Inference", **data})


def confirm_data(response):
    form = response.context["confirm"]
    return {**{name: form[name].value() for name in form.fields}, "confirm": "Import"}


def test_guide_list_links_to_the_import_page(curator_client):
    assert reverse("admin:catalog_guide_import") == IMPORT_URL
    html = curator_client.get(reverse("admin:catalog_guide_changelist")).content.decode()
    assert f'href="{IMPORT_URL}"' in html
    assert curator_client.get(IMPORT_URL).status_code == 200


def test_preview_shows_what_would_be_created_and_writes_nothing(curator_client, known_resource):
    before = counts()
    response = preview(curator_client, text=READING_LIST)
    assert response.status_code == 200
    assert response.templates[0].name == "curation/guide_import_preview.html"
    assert counts() == before
    shown = response.context["preview"]
    assert [r.title for r in shown.new_resources] == [
        "The Illustrated Transformer",
        "Making Deep Learning Go Brrrr",
    ]
    assert [match.resource.url for match in shown.matched] == [known_resource.url]
    html = response.content.decode()
    assert "2</strong> sections" in html and "3</strong> entries" in html
    assert reverse("admin:catalog_resource_change", args=[known_resource.pk]) in html
    assert "in catalog" in html and "Making Deep Learning Go Brrrr" in html


def test_confirm_applies_the_import_reusing_known_resources_and_logs_it(
    curator_client, curator, known_resource
):
    response = curator_client.post(
        IMPORT_URL, confirm_data(preview(curator_client, text=READING_LIST))
    )
    guide = Guide.objects.get(slug="inference")
    assert response.status_code == 302 and response["Location"] == reverse(
        "admin:catalog_guide_change", args=[guide.pk]
    )
    assert guide.title == "Inference"
    assert Entry.objects.filter(section__guide=guide).count() == 3
    assert Resource.objects.count() == 3
    known_resource.refresh_from_db()
    assert known_resource.title == "Attention (curated title)"  # matched, not overwritten
    assert known_resource.suggested_title == ""  # a curated title is not second-guessed
    assert known_resource.entries.get().section.guide == guide
    guide_log = LogEntry.objects.get(object_id=str(guide.pk), content_type__model="guide")
    assert guide_log.action_flag == ADDITION and guide_log.user == curator
    assert "3 entries, 2 new resources, 1 already in the catalog" in guide_log.change_message
    assert (
        LogEntry.objects.filter(content_type__model="resource", action_flag=ADDITION).count() == 2
    )


def test_an_uploaded_file_imports_like_pasted_text(curator_client):
    upload = SimpleUploadedFile("list.md", READING_LIST.encode(), content_type="text/markdown")
    response = preview(curator_client, file=upload)
    assert (
        response.status_code == 200
        and response.context["confirm"]["source_name"].value() == "list.md"
    )
    curator_client.post(IMPORT_URL, confirm_data(response))
    assert Guide.objects.get(slug="inference").source_name == "list.md"


@pytest.mark.parametrize(
    ("upload", "message"),
    [
        (b"", "The submitted file is empty."),
        (b"   \n\n", "The file is empty."),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary file"),
        ("# Liste\n- [ ] [Café](https://example.com/café)\n".encode("latin-1"), "not UTF-8"),
        (b"# A title\n" + b"x" * (1024 * 1024), "the limit is 1.0"),
        (b"Just a paragraph of prose, with no links and no list at all.\n", ""),
    ],
    ids=["empty", "blank", "binary", "latin-1", "too-big", "nothing-recognizable"],
)
def test_a_bad_file_gets_a_clear_error_and_writes_nothing(curator_client, upload, message):
    before = counts()
    response = preview(curator_client, file=SimpleUploadedFile("list.md", upload))
    assert response.status_code == 200
    assert response.templates[0].name == "curation/guide_import.html"
    errors = " ".join(str(e) for e in response.context["form"].errors.values())
    assert errors and message in errors
    assert counts() == before
    assert (
        'class="errornote"' in response.content.decode() or "errorlist" in response.content.decode()
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"text": ""}, "Upload a markdown file or paste its text."),
        ({"text": READING_LIST, "guide_slug": "Not A Slug"}, "Enter a valid “slug”"),
        (
            {
                "text": READING_LIST,
                "file": SimpleUploadedFile("a.md", b"# x\n- [a](https://a.example)"),
            },
            "not both",
        ),
    ],
)
def test_bad_form_input_is_refused(curator_client, data, message):
    response = preview(curator_client, **data)
    assert response.status_code == 200
    assert message in " ".join(str(e) for e in response.context["form"].errors.values())


def test_a_taken_slug_is_refused_at_preview(curator_client):
    GuideFactory(slug="inference")
    response = preview(curator_client, text=READING_LIST)
    assert "already exists" in str(response.context["form"].errors)


def test_confirm_after_the_slug_was_taken_meanwhile_writes_nothing(curator_client):
    data = confirm_data(preview(curator_client, text=READING_LIST))
    GuideFactory(slug="inference")
    before = counts()
    response = curator_client.post(IMPORT_URL, data)
    assert response.status_code == 200 and "Nothing was imported" in str(
        response.context["form"].errors
    )
    assert counts() == before


def test_a_failure_while_applying_leaves_nothing_behind(curator_client, monkeypatch):
    data = confirm_data(preview(curator_client, text=READING_LIST))

    def fail(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(curation_views, "log_change_many", fail)
    with pytest.raises(RuntimeError):
        curator_client.post(IMPORT_URL, data)
    assert counts() == (0, 0, 0, 0)


def test_staff_without_add_permissions_cannot_import(client, curator):
    from django.contrib.auth.models import Permission

    curator.groups.clear()
    curator.user_permissions.add(
        *Permission.objects.filter(codename__startswith="view_", content_type__app_label="catalog")
    )
    client.force_login(curator)
    assert client.get(IMPORT_URL).status_code == 403
    assert (
        "Import markdown"
        not in client.get(reverse("admin:catalog_guide_changelist")).content.decode()
    )


# --- Export ------------------------------------------------------------------------------------
def build_guide():
    guide = GuideFactory(slug="inference", title="Inference", description="What to read.")
    top = SectionFactory(guide=guide, title="Attention")
    child = SectionFactory(guide=guide, parent=top, title="Papers", number="01")
    other = SectionFactory(guide=guide, title="GPUs")
    attention = ResourceFactory(
        title="Attention Is All You Need",
        url="https://arxiv.org/abs/1706.03762",
        author="Vaswani",
        year=2017,
        description="",
    )
    EntryFactory(
        section=child,
        resource=attention,
        raw="- [ ] [Attention paper](https://arxiv.org/pdf/1706.03762)",
    )
    flash = ResourceFactory(title="FlashAttention", url=None, author="", description="")
    EntryFactory(section=child, resource=flash, raw="* [DONE] FlashAttention", marked_done=True)
    concept = ResourceFactory(
        title="Roofline model", url=None, author="Williams", year=2009, description=""
    )
    EntryFactory(section=other, resource=concept, note="Know it cold")
    linked = ResourceFactory(
        title="Brrr", url="https://horace.io/brrr_intro.html", author="", description=""
    )
    ResourceLinkFactory(resource=linked, url="https://horace.io/slides.pdf", label="Slides")
    EntryFactory(section=other, resource=linked)
    return guide


def test_export_writes_sections_as_headings_and_entries_as_checklist_lines():
    assert guide_to_markdown(build_guide()) == (
        "# Inference\n\n"
        "What to read.\n\n"
        "## Attention\n\n"
        "### 01 Papers\n\n"
        "- [ ] [Attention Is All You Need](https://arxiv.org/abs/1706.03762) (2017) - Vaswani.\n"
        "- [x] [DONE] FlashAttention\n\n"
        "## GPUs\n\n"
        "- [ ] Roofline model (2009): Williams. Know it cold.\n"
        "- [ ] [Brrr](https://horace.io/brrr_intro.html) ([Slides](https://horace.io/slides.pdf))\n"
    )


def test_export_writes_curators_edits_not_the_source_line():
    guide = build_guide()
    resource = guide.sections.get(title="Papers").entries.first().resource
    resource.title, resource.url = "Attention (renamed)", "https://example.org/attention"
    resource.save()
    markdown = guide_to_markdown(guide)
    assert (
        "- [ ] [Attention (renamed)](https://example.org/attention) (2017) - Vaswani." in markdown
    )
    assert "Attention paper" not in markdown


@pytest.mark.django_db
def test_export_then_import_is_a_round_trip():
    from apps.catalog.importer import parse_guide

    guide = build_guide()
    parsed = parse_guide(guide_to_markdown(guide))
    exported = [
        (
            item.title,
            item.url,
            item.author,
            item.year,
            [(link.label, link.url) for link in item.links[1:]],
            item.done,
        )
        for item in parsed.items()
    ]
    assert exported == [
        (
            "Attention Is All You Need",
            "https://arxiv.org/abs/1706.03762",
            "Vaswani",
            2017,
            [],
            False,
        ),
        ("FlashAttention", None, "", None, [], True),
        ("Roofline model", None, "", 2009, [], False),
        (
            "Brrr",
            "https://horace.io/brrr_intro.html",
            "",
            None,
            [("Slides", "https://horace.io/slides.pdf")],
            False,
        ),
    ]


def test_an_exported_guide_imports_back_to_the_same_shape(curator_client):
    guide = build_guide()
    markdown = guide_to_markdown(guide)
    response = curator_client.post(
        IMPORT_URL, {"guide_slug": "copy", "title": "Copy", "text": markdown}
    )
    plan = response.context["preview"].plan
    assert [f"{s.number} {s.title}".strip() for s in plan.guides[0].sections] == [
        "Attention",
        "01 Papers",
        "GPUs",
    ]
    assert len(plan.entries) == 4


@pytest.mark.django_db
def test_an_exported_guide_imported_into_an_empty_catalog_has_the_same_years():
    from apps.catalog.importer import apply_import, plan_import
    from apps.catalog.models import Guide, Resource

    guide = build_guide()
    markdown = guide_to_markdown(guide)
    before = sorted(Resource.objects.values_list("title", "url", "year"), key=str)
    Guide.objects.all().delete()
    Resource.objects.all().delete()
    apply_import(plan_import(markdown, guide_slug="inference"))
    assert sorted(Resource.objects.values_list("title", "url", "year"), key=str) == before
    assert guide_to_markdown(Guide.objects.get(slug="inference")).count("(2017)") == 1


def test_export_link_downloads_markdown(curator_client):
    guide = build_guide()
    response = curator_client.get(reverse("admin:catalog_guide_export", args=[guide.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/markdown; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="inference.md"'
    assert response.content.decode().startswith("# Inference\n")


def test_export_action_zips_several_guides(curator_client):
    guides = [build_guide(), GuideFactory(slug="other", title="Other")]
    response = curator_client.post(
        reverse("admin:catalog_guide_changelist"),
        {"action": "export_markdown", "_selected_action": [g.pk for g in guides]},
    )
    assert response["Content-Type"] == "application/zip"
    names = zipfile.ZipFile(io.BytesIO(response.content)).namelist()
    assert sorted(names) == ["inference.md", "other.md"]


def test_export_of_a_missing_guide_is_404(curator_client):
    assert (
        curator_client.get(reverse("admin:catalog_guide_export", args=[999999])).status_code == 404
    )


def test_an_empty_title_takes_the_lists_own_heading(curator_client):
    response = preview(curator_client, text=READING_LIST, title="")
    assert response.status_code == 200 and response.context["preview"].guide.title == (
        "Inference reading list"
    )
    assert curator_client.post(IMPORT_URL, confirm_data(response)).status_code == 302
    assert Guide.objects.get(slug="inference").title == "Inference reading list"
    untitled = preview(
        curator_client, text="- [vLLM](https://github.com/vllm-project/vllm)", title=""
    )
    assert "The guide has no title" in untitled.content.decode()


def test_an_import_renames_a_poor_imported_title_the_file_names_better(curator_client, curator):
    poor = ResourceFactory(title="arXiv 1706.03762", url="https://arxiv.org/abs/1706.03762")
    response = preview(curator_client, text=READING_LIST)
    shown = response.context["preview"]
    assert [(m.resource.title, m.planned.title) for m in shown.title_fixes] == [
        ("arXiv 1706.03762", "Attention Is All You Need")
    ]
    html = response.content.decode()
    assert f'name="retitle" value="{shown.title_fixes[0].retitle_value}"' in html
    assert "Title fixes" in html and "1</strong> title fixes" in html
    assert Resource.objects.get(pk=poor.pk).title == "arXiv 1706.03762"  # a preview writes nothing
    data = {**confirm_data(response), "retitle": [shown.title_fixes[0].retitle_value]}
    assert curator_client.post(IMPORT_URL, data).status_code == 302
    poor.refresh_from_db()
    assert (poor.title, poor.suggested_title) == ("Attention Is All You Need", "")
    log = LogEntry.objects.get(content_type__model="guide", action_flag=ADDITION)
    assert "1 poor titles improved" in log.change_message
    rename = LogEntry.objects.get(object_id=str(poor.pk), action_flag=CHANGE)
    assert rename.user == curator and "“arXiv 1706.03762” → “Attention Is All You Need”" in (
        rename.change_message
    )


def test_an_unticked_title_fix_leaves_the_catalog_title_and_offers_a_suggestion(curator_client):
    poor = ResourceFactory(title="arXiv 1706.03762", url="https://arxiv.org/abs/1706.03762")
    response = preview(curator_client, text=READING_LIST)
    assert curator_client.post(IMPORT_URL, confirm_data(response)).status_code == 302  # no retitle
    poor.refresh_from_db()
    # kept, with the list's title left as a suggestion to accept or dismiss later
    assert (poor.title, poor.suggested_title) == ("arXiv 1706.03762", "Attention Is All You Need")


def test_keeping_every_catalog_title_applies_no_title_fix(curator_client):
    poor = ResourceFactory(title="arXiv 1706.03762", url="https://arxiv.org/abs/1706.03762")
    response = preview(curator_client, text=READING_LIST)
    value = response.context["preview"].title_fixes[0].retitle_value
    data = {**confirm_data(response), "retitle": [value], "confirm": "keep-titles"}
    assert curator_client.post(IMPORT_URL, data).status_code == 302
    poor.refresh_from_db()
    assert poor.title == "arXiv 1706.03762"
    assert Guide.objects.filter(slug="inference").exists()


def test_a_title_a_curator_chose_is_never_renamed_only_offered_a_suggestion(
    curator_client, curator
):
    chosen = ResourceFactory(title="Paper", url="https://arxiv.org/abs/1706.03762")
    LogEntry.objects.log_actions(
        user_id=curator.pk,
        queryset=[chosen],
        action_flag=CHANGE,
        change_message="Changed title: “arXiv 1706.03762” → “Paper”.",
    )
    response = preview(curator_client, text=READING_LIST)
    shown = response.context["preview"]
    assert shown.title_fixes == [] and shown.matched[0].suggested
    html = response.content.decode()
    assert "importing offers that as its title suggestion" in html
    forged = {**confirm_data(response), "retitle": [str(shown.matched[0].planned.uuid)]}
    assert curator_client.post(IMPORT_URL, forged).status_code == 302
    chosen.refresh_from_db()
    assert (chosen.title, chosen.suggested_title) == ("Paper", "Attention Is All You Need")


def test_preview_shows_the_catalog_resource_a_row_goes_to_and_flags_duplicate_rows(
    curator_client,
):
    blog = ResourceFactory(
        title="FlashAttention explained", url="https://example.com/blog/flash-attention"
    )
    ResourceLinkFactory(
        resource=blog, url="https://github.com/Dao-AILab/flash-attention", label="GitHub"
    )
    known = ResourceFactory(title="The transformer", url="https://arxiv.org/abs/1706.03762")
    text = """# Kernels

## Attention
- [Attention Is All You Need](https://arxiv.org/pdf/1706.03762)
- [flash-attention](https://github.com/Dao-AILab/flash-attention) - Fast and memory-efficient exact attention.
- [Attention Is All You Need](https://arxiv.org/abs/1706.03762v2)
"""
    response = preview(curator_client, text=text)
    shown = response.context["preview"]
    rows = [
        (e.resource.url, e.catalog and e.catalog.resource, e.duplicate) for e in shown.guide.entries
    ]
    assert rows == [
        ("https://arxiv.org/abs/1706.03762", known, ""),
        # the blog post only mentions the repository: the row is a new resource, not the post
        ("https://github.com/Dao-AILab/flash-attention", None, ""),
        ("https://arxiv.org/abs/1706.03762", known, "twice in this section"),
    ]
    html = response.content.decode()
    assert "1</strong> duplicate rows" in html and "duplicate: twice in this section" in html
    admin_url = reverse("admin:catalog_resource_change", args=[known.pk])
    assert f'<a href="{admin_url}" class="catalog-match">The transformer</a>' in html
    assert "FlashAttention explained" not in html


def test_a_learner_or_visitor_cannot_see_the_import_preview(client, learner):
    response = client.post(IMPORT_URL, {"guide_slug": "x", "title": "X", "text": READING_LIST})
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    client.force_login(learner)
    response = client.post(IMPORT_URL, {"guide_slug": "x", "title": "X", "text": READING_LIST})
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert counts() == (0, 0, 0, 0)


HOSTILE_SHAPES = """# Agents
[![Stars](https://img.shields.io/github/stars/x/y)](https://github.com/x/y)

* [Contents](#agents)

## Papers
| Date | Institute | Paper |
|---|---|---|
| 2017-06 | Google | [Attention Is All You Need](https://arxiv.org/pdf/1706.03762.pdf) |

<details><summary>Frameworks</summary>

- [TRL](https://github.com/huggingface/trl) - Post-training with Unsloth and [Axolotl](https://github.com/axolotl-ai-cloud/axolotl)
</details>
"""


def test_preview_lists_what_it_skipped_each_entry_links_and_a_better_title_from_the_file(
    curator_client,
):
    ResourceFactory(title="arXiv 1706.03762", url="https://arxiv.org/abs/1706.03762")
    response = preview(curator_client, text=HOSTILE_SHAPES)
    assert response.status_code == 200
    shown = response.context["preview"]
    assert shown.skipped == ["1 badges", "1 in-page or relative links"]
    html = response.content.decode()
    assert "Skipped, and why" in html and "1 badges" in html
    assert "draft" in html
    # the table row became a paper with its institute; the file's title fixes the matched resource's
    assert "Renamed to “Attention Is All You Need” (see Title fixes)" in html
    # one link, one resource: Axolotl is its own entry, not a further link of TRL
    titles = [entry.resource.title for entry in shown.guide.entries]
    assert titles == ["Attention Is All You Need", "TRL", "Axolotl"]
    assert "<summary>" not in html.split("Sections and entries")[1].split("</table>")[0].replace(
        "&lt;", "<"
    )


def test_an_applied_import_is_a_draft_until_published(curator_client):
    curator_client.post(IMPORT_URL, confirm_data(preview(curator_client, text=READING_LIST)))
    guide = Guide.objects.get(slug="inference")
    assert guide.is_published is False
    assert curator_client.get(f"/guides/{guide.slug}/").status_code == 404
    Guide.objects.filter(pk=guide.pk).update(is_published=True)  # publishing: the separate step
    assert curator_client.get(f"/guides/{guide.slug}/").status_code == 200


# --- Merge and split in the preview --------------------------------------------------------------
SHAPED_LIST = """# Kernels
## GPUs
- [Brrr](https://horace.io/brrr_intro.html) ([Slides](https://horace.io/slides.pdf)) ([code](https://github.com/x/brrr))
- [Triton tutorial](https://triton-lang.org/tutorials) - Read with the puzzles.
- [Triton puzzles](https://github.com/srush/Triton-Puzzles) - Do them after the tutorial.
"""


def test_preview_offers_split_per_extra_link_and_merge_per_entry_with_one_above(curator_client):
    response = preview(curator_client, text=SHAPED_LIST)
    brrr, tutorial, puzzles = response.context["preview"].guide.entries
    html = response.content.decode()
    for link in brrr.resource.links:
        assert f'name="split" value="{brrr.uuid}:{link.uuid}"' in html
    assert f'name="merge" value="{tutorial.uuid}"' in html
    assert f'name="merge" value="{puzzles.uuid}"' in html
    assert f'name="merge" value="{brrr.uuid}"' not in html  # nothing above it in its section
    assert html.count('name="split"') == 2 and html.count('name="merge"') == 2


def test_confirm_applies_the_curators_split_and_merge(curator_client):
    response = preview(curator_client, text=SHAPED_LIST)
    brrr, _, puzzles = response.context["preview"].guide.entries
    slides = next(link for link in brrr.resource.links if link.label == "Slides")
    data = {
        **confirm_data(response),
        "split": [f"{brrr.uuid}:{slides.uuid}"],
        "merge": [str(puzzles.uuid)],
    }
    assert curator_client.post(IMPORT_URL, data).status_code == 302
    guide = Guide.objects.get(slug="inference")
    entries = Entry.objects.filter(section__guide=guide).select_related("resource")
    assert [(e.position, e.resource.title, e.resource.url) for e in entries] == [
        (1, "Brrr", "https://horace.io/brrr_intro.html"),
        (2, "Brrr: Slides", "https://horace.io/slides.pdf"),
        (3, "Triton tutorial", "https://triton-lang.org/tutorials"),
    ]
    brrr_resource, _, tutorial_resource = (e.resource for e in entries)
    assert list(brrr_resource.links.values_list("url", flat=True)) == ["https://github.com/x/brrr"]
    assert list(tutorial_resource.links.values_list("url", "label")) == [
        ("https://github.com/srush/Triton-Puzzles", "Triton puzzles")
    ]
    assert not Resource.objects.filter(url="https://github.com/srush/Triton-Puzzles").exists()


def test_a_forged_merge_choice_imports_nothing(curator_client):
    data = {**confirm_data(preview(curator_client, text=SHAPED_LIST)), "merge": ["not-an-entry"]}
    before = counts()
    response = curator_client.post(IMPORT_URL, data)
    assert response.status_code == 200
    assert "merge and split choices" in str(response.context["form"].errors)
    assert counts() == before


def test_a_list_with_more_links_than_an_import_reads_is_refused_before_it_is_read(
    curator_client, monkeypatch
):
    from apps.catalog.importer import parser

    def not_read(*args, **kwargs):
        raise AssertionError("the list was parsed")

    monkeypatch.setattr(parser, "_Parser", not_read)
    links = parser.MAX_LINKS + 1
    text = "# A huge list\n\n" + "".join(f"- https://s.io/{n}\n" for n in range(links))
    before = counts()
    response = preview(curator_client, text=text)
    assert response.status_code == 200
    assert response.templates[0].name == "curation/guide_import.html"
    errors = " ".join(str(e) for e in response.context["form"].errors.values())
    assert f"This list holds {links:,} links; an import reads at most 5,000." in errors
    assert counts() == before


def test_a_list_at_the_link_limit_is_read():
    from apps.catalog.importer import parser

    text = "# A big list\n\n" + "".join(f"- https://s.io/{n}\n" for n in range(parser.MAX_LINKS))
    assert sum(1 for _ in parser.parse_guide(text).items()) == parser.MAX_LINKS


def test_the_previews_queries_do_not_grow_with_matched_resources_and_title_fixes(curator_client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def queries_with(count):
        Resource.objects.all().delete()
        for number in range(count):
            ResourceFactory(
                title=f"arXiv 2401.0000{number}", url=f"https://arxiv.org/abs/2401.0000{number}"
            )
        text = "# Papers\n" + "".join(
            f"- [Paper number {number} on attention](https://arxiv.org/abs/2401.0000{number})\n"
            for number in range(count)
        )
        with CaptureQueriesContext(connection) as captured:
            response = preview(curator_client, text=text, guide_slug=f"papers-{count}")
        assert len(response.context["preview"].title_fixes) == count
        return len(captured)

    queries_with(1)  # warms the content-type cache
    assert queries_with(2) == queries_with(6)


def test_a_title_a_curator_set_in_the_admin_is_not_renamed_by_a_later_import(curator_client):
    from tests.curation.admin_forms import change_form_data

    resource = ResourceFactory(title="arXiv 1706.03762", url="https://arxiv.org/abs/1706.03762")
    change_url = reverse("admin:catalog_resource_change", args=[resource.pk])
    page = curator_client.get(change_url)
    saved = curator_client.post(change_url, change_form_data(page, title="Transformer paper"))
    assert saved.status_code == 302
    resource.refresh_from_db()
    assert resource.title == "Transformer paper"
    # a poor title now, yet the curator's: an import offers its title, never renames it
    resource.title = "Paper"
    resource.save()
    response = preview(curator_client, text=READING_LIST)
    assert response.context["preview"].title_fixes == []
    curator_client.post(IMPORT_URL, confirm_data(response))
    resource.refresh_from_db()
    assert (resource.title, resource.suggested_title) == ("Paper", "Attention Is All You Need")


def test_the_preview_shows_the_year_a_row_gives_beside_its_author(curator_client):
    response = curator_client.post(
        IMPORT_URL,
        {
            "guide_slug": "dated",
            "title": "Dated",
            "text": "# Dated\n\n## Papers\n\n"
            "- [Attention Is All You Need](https://arxiv.org/abs/1706.03762) (2017) - Vaswani.\n",
        },
    )
    page = response.content.decode()
    assert '<span class="quiet">by Vaswani</span> <span class="quiet">(2017)</span>' in page
    assert not Resource.objects.filter(year=2017).exists()  # a preview writes nothing
