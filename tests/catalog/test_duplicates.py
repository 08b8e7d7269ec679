"""One document, one resource: the bundled catalog has no split duplicates, and the planner folds them."""

import json
import re
from collections import defaultdict
from urllib.parse import urlsplit

import pytest

from apps.catalog.importer.fixtures import FIXTURE_PATH
from apps.catalog.importer.parser import parse_guide
from apps.catalog.importer.planner import _Planner, stable_uuid
from apps.catalog.importer.urls import normalize_url, same_page_key

HOST_ALIASES = {"hf.co": "huggingface.co", "youtu.be": "youtube.com"}


def normalized_title(title: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", title.lower()))


def site(url: str | None) -> str:
    """The host, and on hosts shared by many authors (``medium.com/@a``) the author's ``@`` segment."""
    if not url:
        return ""
    parts = urlsplit(url)
    host = (parts.hostname or "").removeprefix("www.")
    first = parts.path.strip("/").split("/")[0]
    return HOST_ALIASES.get(host, host) + (f"/{first}" if first.startswith("@") else "")


@pytest.fixture(scope="module")
def catalog():
    objects = json.loads(FIXTURE_PATH.read_text(encoding="utf-8"))
    resources = [o["fields"] for o in objects if o["model"] == "catalog.resource"]
    links = defaultdict(list)
    for o in objects:
        if o["model"] == "catalog.resourcelink":
            links[o["fields"]["resource"][0]].append(o["fields"])
    entries = [o["fields"] for o in objects if o["model"] == "catalog.entry"]
    return resources, links, entries


def _shared(resources, key):
    groups = defaultdict(list)
    for resource in resources:
        if (value := key(resource)) is not None:
            groups[value].append(resource["title"])
    return {value: titles for value, titles in groups.items() if len(titles) > 1}


def test_no_two_resources_share_a_normalized_url_or_page(catalog):
    resources, _, _ = catalog
    with_url = [r for r in resources if r["url"]]
    assert _shared(with_url, lambda r: normalize_url(r["url"])) == {}
    # the same page (blind to www/case/slash/index.html) where one URL only adds query
    # parameters or an anchor to the other's; two YouTube videos (?v=a, ?v=b) are two pages
    pages = defaultdict(list)
    for resource in with_url:
        pages[same_page_key(resource["url"])].append(resource["url"])
    sections = [
        (url, base)
        for urls in pages.values()
        for url in urls
        for base in urls
        if url != base
        and set(filter(None, urlsplit(base).query.split("&")))
        <= set(filter(None, urlsplit(url).query.split("&")))
        and not urlsplit(url).fragment.startswith("/")
    ]
    assert sections == []


def test_no_two_resources_share_a_normalized_title_on_one_site(catalog):
    resources, _, _ = catalog
    assert _shared(resources, lambda r: (normalized_title(r["title"]), site(r["url"]))) == {}


def test_the_known_split_duplicates_are_one_resource_each(catalog):
    resources, links, _ = catalog
    playbooks = [r for r in resources if "ultrascale-playbook" in (r["url"] or "")]
    assert [r["url"] for r in playbooks] == [
        "https://huggingface.co/spaces/nanotron/ultrascale-playbook"
    ]
    # the survivor keeps its uuid; the variants it absorbed are its extra links
    assert playbooks[0]["uuid"] == str(stable_uuid("resource", f"url:{playbooks[0]['url']}"))
    assert {link["url"] for link in links[playbooks[0]["uuid"]]} == {
        "https://huggingface.co/spaces/nanotron/ultrascale-playbook?section=first_steps:_training_on_one_gpu",
        "https://huggingface.co/spaces/nanotron/ultrascale-playbook?section=high_level_overview",
    }
    mml = [r for r in resources if "mml" in (r["url"] or "") or "Mathematics for" in r["title"]]
    assert [(r["title"], r["url"], r["kind"]) for r in mml] == [
        ("Mathematics for Machine Learning", "https://mml-book.github.io/book/mml-book.pdf", "book")
    ]


def test_no_description_is_made_of_other_links_labels(catalog):
    resources, links, entries = catalog
    labels_on_lines = defaultdict(set)  # resource uuid → labels of the other links on its lines
    for entry in entries:
        labels = set(re.findall(r"\[([^\]]+)\]\(", entry["raw"]))
        labels_on_lines[entry["resource"][0]] |= labels
    offenders = []
    for resource in resources:
        description = normalized_title(resource["description"])
        if not description:
            continue
        others = {
            normalized_title(label)
            for label in labels_on_lines[resource["uuid"]]
            | {link["label"] for link in links[resource["uuid"]]}
        } - {normalized_title(resource["title"])}
        rest = description
        for label in sorted(others, key=len, reverse=True):
            rest = rest.replace(label, " ") if label else rest
        if others and len(rest.split()) < 2 and rest != description:
            offenders.append((resource["title"], resource["description"]))
    assert offenders == []


def plan(text: str):
    planner = _Planner()
    planner.add_guide(parse_guide(text), slug="g", title="G")
    return planner.finish()


def test_a_url_that_only_adds_a_section_is_the_same_resource():
    result = plan(
        "# G\n## A\n"
        "- [Playbook, part 2](https://Example.com/book/?section=two#intro)\n"
        "- [The Playbook](https://www.example.com/book/index.html) - Someone. The whole book.\n"
        "- [Other page](https://example.com/book/other)\n"
        "- [Video one](https://www.youtube.com/watch?v=aaa&list=L)\n"
        "- [Video two](https://www.youtube.com/watch?v=bbb)\n"
        "- [SPA post](https://example.com/#/post)\n"
        "- [SPA home](https://example.com/)\n"
    )
    by_title = {r.title: r for r in result.resources}
    assert set(by_title) == {
        "The Playbook",
        "Other page",
        "Video one",
        "Video two",
        "SPA post",
        "SPA home",
    }
    book = by_title["The Playbook"]
    assert book.url == "https://www.example.com/book/index.html"
    assert [link.label for link in book.links] == ["Playbook, part 2"]
    assert [e.resource.title for e in result.entries][:2] == ["The Playbook", "The Playbook"]


def test_a_bare_link_to_a_book_is_the_book_named_in_full():
    result = plan(
        "# G\n## Books\n- https://mml-book.github.io/book/mml-book.pdf\n\n"
        "Books reading list and order\n\n```\nPhase 1: Foundations (8-10 weeks)\n"
        '1. "Mathematics for Machine Learning" (2 weeks)\n   - Focus on optimization chapters\n```\n'
    )
    books = [r for r in result.resources if r.kind == "book"]
    assert [(b.title, b.url) for b in books] == [
        ("Mathematics for Machine Learning", "https://mml-book.github.io/book/mml-book.pdf")
    ]


def test_a_descriptions_made_of_the_other_links_on_the_line_is_dropped():
    result = plan(
        "# G\n## A\n"
        "- [ ] [Speculative decoding](https://a.example/spec), ([basic introduction](https://b.example/intro)), and\n"
        "- [ ] [AI System co-design](https://c.example/) at Meta\n"
    )
    by_title = {r.title: r for r in result.resources}
    assert by_title["Speculative decoding"].description == ""
    assert by_title["AI System co-design"].description == "at Meta"
