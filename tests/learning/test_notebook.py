"""The learner's notes and in-progress page: their own rows only, searchable, as a page and as
the fragment htmx swaps, linked from the dashboard."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from apps.progress.models import Status
from apps.progress.services import progress_set_note, progress_set_status

pytestmark = pytest.mark.django_db

URL = reverse("learning:notebook")


def signed_in(person) -> Client:
    client = Client()
    client.force_login(person)
    return client


def listed(html, section) -> list[str]:
    """The resource uuids listed in a section ("started" or "note"), in order."""
    return re.findall(rf'<li class="row" id="{section}-([0-9a-f-]+)"', html)


@pytest.fixture
def book(learner, other_learner, catalog):
    r = catalog["resources"]
    progress_set_status(user=learner, resource=r[0], status=Status.IN_PROGRESS)
    progress_set_status(user=learner, resource=r[1], status=Status.IN_PROGRESS)
    progress_set_note(user=learner, resource=r[1], note="Section 3 explains the KV cache")
    progress_set_note(
        user=learner, resource=r[2], note="Ask about <script>alert(1)</script> tiling"
    )
    progress_set_status(user=learner, resource=r[3], status=Status.DONE)
    # Eve's rows, which Ada must never see.
    progress_set_status(user=other_learner, resource=r[4], status=Status.IN_PROGRESS)
    progress_set_note(user=other_learner, resource=r[5], note="Eve's secret plan")
    return r


def test_the_page_lists_the_learners_notes_and_in_progress(learner, book):
    html = signed_in(learner).get(URL).content.decode()
    assert set(listed(html, "started")) == {str(book[0].uuid), str(book[1].uuid)}
    assert listed(html, "note") == [str(book[2].uuid), str(book[1].uuid)]  # latest change first
    assert "Section 3 explains the KV cache" in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "<script>alert(1)" not in html
    assert str(book[3].uuid) not in html  # done, no note
    assert "Eve&#x27;s secret plan" not in html and "secret plan" not in html
    assert str(book[4].uuid) not in html and str(book[5].uuid) not in html


def test_the_other_learner_sees_only_theirs(other_learner, book):
    html = signed_in(other_learner).get(URL).content.decode()
    assert listed(html, "started") == [str(book[4].uuid)] and listed(html, "note") == [
        str(book[5].uuid)
    ]
    assert "KV cache" not in html and "tiling" not in html


def test_search_matches_every_word_in_title_author_or_note_ignoring_case(learner, book):
    client = signed_in(learner)
    html = client.get(URL, {"q": "kv CACHE"}).content.decode()
    assert listed(html, "note") == [str(book[1].uuid)] and listed(html, "started") == [
        str(book[1].uuid)
    ]
    assert "match “kv CACHE”" in html
    by_title = client.get(URL, {"q": book[0].title}).content.decode()
    assert listed(by_title, "started") == [str(book[0].uuid)] and listed(by_title, "note") == []
    assert "No note matches." in by_title
    # Another learner's words find nothing of theirs.
    nothing = client.get(URL, {"q": "secret"}).content.decode()
    assert listed(nothing, "note") == listed(nothing, "started") == []


def test_search_reads_words_as_the_catalog_search_does(learner, book):
    """British and American spellings, joined and split words: the catalog search's word forms."""
    progress_set_note(user=learner, resource=book[0], note="Optimize the tiling; see the KV-cache")
    client = signed_in(learner)
    for query in ("optimise", "OPTIMISE tiling", "kvcache", "kv-cache"):
        html = client.get(URL, {"q": query}).content.decode()
        assert str(book[0].uuid) in listed(html, "note"), query
    html = client.get(URL, {"q": "optimisation"}).content.decode()
    assert listed(html, "note") == []


def test_search_as_htmx_swaps_only_the_results(learner, book):
    response = signed_in(learner).get(URL, {"q": "tiling"}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert html.lstrip().startswith('<div id="notebook-results"')
    assert listed(html, "note") == [str(book[2].uuid)]
    assert "HX-Request" in response["Vary"]


def test_odd_searches_never_fail(learner, book):
    client = signed_in(learner)
    for query in ("\x00", "a" * 5000, "   ", "%", "(("):
        assert client.get(URL, {"q": query}).status_code == 200


def test_visitors_are_sent_to_sign_in(book):
    response = Client().get(URL)
    assert response.status_code == 302 and response["Location"].startswith(reverse("account_login"))


def test_empty_states_and_the_dashboard_link(learner, catalog):
    client = signed_in(learner)
    html = client.get(URL).content.decode()
    assert "No notes yet." in html and "Nothing in progress." in html
    assert f'href="{URL}"' in client.get(reverse("learning:dashboard")).content.decode()


def test_an_unpublished_resource_is_left_out(learner, book):
    book[1].is_published = False
    book[1].save()
    html = signed_in(learner).get(URL).content.decode()
    assert str(book[1].uuid) not in html and "KV cache" not in html


def test_the_page_reads_the_learners_rows_once_however_many(learner, catalog):
    from tests.conftest import page_queries
    from tests.progress.conftest import build_guide

    client = signed_in(learner)
    progress_set_note(user=learner, resource=catalog["resources"][0], note="one")
    small = page_queries(client, URL, {"q": "one"})
    _, more = build_guide("gamma", n_sections=3, per_section=10)
    for index, resource in enumerate(more):
        progress_set_status(user=learner, resource=resource, status=Status.IN_PROGRESS)
        progress_set_note(user=learner, resource=resource, note=f"note {index} one")
    # Warm: the session, its user, the content token and the learner's rows.
    assert page_queries(client, URL, {"q": "one"}) == small and small[1] == 4
    html = client.get(URL, {"q": "one"}).content.decode()
    assert len(listed(html, "note")) == 31 and len(listed(html, "started")) == 30


def test_a_long_note_is_shortened_here_and_whole_on_its_page(learner, catalog):
    progress_set_note(user=learner, resource=catalog["resources"][0], note="word " * 2000)
    html = signed_in(learner).get(URL).content.decode()
    assert "word " * 100 in html and "word " * 200 not in html and "…" in html
