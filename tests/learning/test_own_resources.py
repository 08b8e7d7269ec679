"""A learner's own resources: the page, its htmx fragments, the no-JS path, the save page the
bookmarklet opens, privacy (another learner and a visitor get nothing), the title job and the
joining of a link that is (or becomes) a catalog resource."""

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.urls import reverse

from apps.catalog.models import Resource
from apps.catalog.selectors import visible_resources
from apps.progress import services
from apps.progress.models import OwnResource, Progress, Status, Suggestion
from tests.conftest import page_queries
from tests.factories import listed_resource

LIST = reverse("learning:own-list")
SAVE = reverse("learning:own-save")
PAPER = "https://example.org/papers/attention-is-all?utm_source=x"


def _save(client, url=PAPER, **fields):
    return client.post(LIST, {"url": url, "kind": "", **fields})


# --- saving ---------------------------------------------------------------------------------
def test_a_learner_saves_a_link_without_javascript(learner_client, learner):
    response = _save(learner_client, title="Attention", author="Vaswani", note="read §3")
    own = OwnResource.objects.get(user=learner)
    assert response.status_code == 302
    assert response["Location"] == f"{LIST}#own-{own.pk}"
    assert (own.title, own.author) == ("Attention", "Vaswani")
    assert own.resource.url == "https://example.org/papers/attention-is-all"  # normalized
    assert not visible_resources().filter(pk=own.resource_id).exists()  # in no guide
    assert Progress.objects.get(user=learner, resource=own.resource).note == "read §3"
    page = learner_client.get(LIST)
    assert "Attention" in page.text and "read §3" in page.text


def test_htmx_save_answers_the_list_fragment(learner_client, learner):
    response = learner_client.post(
        LIST, {"url": PAPER, "title": "Attention"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    assert 'id="own-main"' in response.text and "<html" not in response.text
    assert "Saved “Attention” in your resources." in response.text
    # said in the fragment, not kept for the next page as well
    assert "Saved “Attention”" not in learner_client.get(LIST).text


def test_htmx_save_of_a_catalog_link_sends_the_browser_to_its_page(learner_client):
    resource = listed_resource(url="https://example.org/papers/attention-is-all")
    response = learner_client.post(LIST, {"url": PAPER}, headers={"HX-Request": "true"})
    assert response["HX-Redirect"] == resource.get_absolute_url()
    assert not OwnResource.objects.exists()


def test_bad_link_is_refused_with_a_message_and_saves_nothing(learner_client):
    response = _save(learner_client, url="not a link")
    assert response.status_code == 422
    assert "Enter a valid URL" in response.text
    htmx = learner_client.post(LIST, {"url": "ftp://x.org/a"}, headers={"HX-Request": "true"})
    assert htmx.status_code == 200 and "Enter a valid URL" in htmx.text
    assert not OwnResource.objects.exists()
    assert not Resource.objects.exists()


def test_empty_title_and_kind_are_guessed_from_the_url(learner):
    saved = services.own_resource_save(user=learner, url="https://www.youtube.com/watch?v=abc")
    assert saved.own.kind == "video"
    assert saved.own.title == "YouTube video abc"


def test_saving_the_same_link_twice_keeps_one_row(learner):
    first = services.own_resource_save(user=learner, url=PAPER, title="One")
    again = services.own_resource_save(
        user=learner, url="https://EXAMPLE.org/papers/attention-is-all/", title="Two"
    )
    assert again.own.pk == first.own.pk and not again.created
    assert OwnResource.objects.get().title == "Two"
    assert Resource.objects.count() == 1


def test_two_learners_saving_one_link_share_one_resource_row(learner, other_learner):
    mine = services.own_resource_save(user=learner, url=PAPER, title="Mine")
    theirs = services.own_resource_save(user=other_learner, url=PAPER, title="Theirs")
    assert mine.own.resource_id == theirs.own.resource_id
    # the learners' words are on their own rows, never on the shared one
    assert mine.own.resource.title not in {"Mine", "Theirs"}


def test_a_catalog_link_is_not_saved_twice(learner_client, learner):
    resource = listed_resource(url="https://example.org/papers/attention-is-all")
    response = _save(learner_client, note="on the catalog row")
    assert response.status_code == 302
    assert response["Location"] == resource.get_absolute_url()
    assert not OwnResource.objects.exists()
    assert Progress.objects.get(user=learner).resource == resource


# --- status, edit, delete, suggest ---------------------------------------------------------
@pytest.fixture
def own(learner):
    return services.own_resource_save(user=learner, url=PAPER, title="Attention").own


def test_status_has_dates_and_streak_credit_like_a_catalog_tick(learner_client, learner, own):
    response = learner_client.post(
        reverse("learning:own-status", args=[own.pk]),
        {"status": "done"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    assert f'id="own-{own.pk}"' in response.text and "<html" not in response.text
    row = Progress.objects.get(user=learner, resource=own.resource)
    assert row.status == Status.DONE and row.completed_at and row.started_at
    assert learner.activities.get().status == Status.DONE
    from apps.progress.selectors import activity_year

    assert activity_year(user=learner).current_streak == 1


def test_status_without_javascript_redirects_to_the_row(learner_client, own):
    response = learner_client.post(
        reverse("learning:own-status", args=[own.pk]), {"status": "in_progress"}
    )
    assert response["Location"] == f"{LIST}#own-{own.pk}"
    bad = learner_client.post(reverse("learning:own-status", args=[own.pk]), {"status": "x"})
    assert bad.status_code == 302
    assert Progress.objects.get().status == Status.IN_PROGRESS


def test_edit_page_and_htmx_edit(learner_client, learner, own):
    url = reverse("learning:own-edit", args=[own.pk])
    assert "Attention" in learner_client.get(url).text
    response = learner_client.post(
        url,
        {"title": "Attention (2017)", "kind": "paper", "author": "", "note": "n"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200 and f'id="own-{own.pk}"' in response.text
    own.refresh_from_db()
    assert (own.title, own.kind) == ("Attention (2017)", "paper")
    refused = learner_client.post(url, {"title": " ", "kind": "paper"})
    assert refused.status_code == 422 and "needs a title" in refused.text
    own.refresh_from_db()
    assert own.title == "Attention (2017)"


def test_delete_removes_the_row_its_progress_and_the_unlisted_link(learner_client, learner, own):
    services.progress_set_status(user=learner, resource=own.resource, status="done")
    response = learner_client.post(reverse("learning:own-delete", args=[own.pk]))
    assert response["Location"] == LIST
    assert not OwnResource.objects.exists()
    assert not Progress.objects.exists() and not learner.activities.exists()
    assert not Resource.objects.exists()


def test_htmx_delete_counts_what_a_reload_shows(learner_client, learner, own):
    """The row goes with an empty swap; "Saved N" is swapped out of band to the reload's count."""
    services.own_resource_save(user=learner, url="https://example.org/second", title="Second")
    before = learner_client.get(LIST).text
    assert 'id="own-count">2</span>' in before
    response = learner_client.post(
        reverse("learning:own-delete", args=[own.pk]), headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    assert response.text.strip() == (
        '<span class="chip__count" id="own-count" hx-swap-oob="true">1</span>'
    )
    assert 'id="own-count">1</span>' in learner_client.get(LIST).text


def test_delete_keeps_the_link_another_learner_saved(learner, other_learner, own):
    services.own_resource_save(user=other_learner, url=PAPER)
    services.own_resource_delete(own=own)
    assert Resource.objects.count() == 1


def test_suggest_marks_the_row_pending(learner_client, own):
    response = learner_client.post(
        reverse("learning:own-suggest", args=[own.pk]), headers={"HX-Request": "true"}
    )
    assert "Suggested to the curators" in response.text
    own.refresh_from_db()
    assert own.suggestion == Suggestion.PENDING


# --- privacy --------------------------------------------------------------------------------
def test_another_learner_sees_nothing_and_changes_nothing(client, other_learner, own):
    client.force_login(other_learner)
    assert "Attention" not in client.get(LIST).text
    for name in ("own-edit", "own-status", "own-suggest", "own-delete"):
        url = reverse(f"learning:{name}", args=[own.pk])
        assert (
            client.post(url, {"status": "done", "title": "Mine now", "kind": "paper"}).status_code
            == 404
        )
    assert client.get(reverse("learning:own-edit", args=[own.pk])).status_code == 404
    own.refresh_from_db()
    assert own.title == "Attention" and own.suggestion == ""
    assert not Progress.objects.exists()
    save_page = client.get(SAVE, {"url": PAPER}).text
    assert f"#own-{own.pk}" not in save_page and "already" not in save_page


def test_a_visitor_is_sent_to_sign_in(visitor, own):
    for url in (LIST, SAVE, reverse("learning:own-edit", args=[own.pk])):
        response = visitor.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    response = visitor.post(reverse("learning:own-delete", args=[own.pk]))
    assert response.status_code == 302
    assert OwnResource.objects.exists()


def test_own_links_are_on_no_catalog_page(client, learner, own):
    assert (
        client.get(reverse("learning:resource-detail", args=[own.resource.uuid])).status_code == 404
    )
    assert "Attention" not in client.get(reverse("learning:search"), {"q": "attention"}).text


# --- the save page (the bookmarklet's target) ---------------------------------------------
def test_save_page_is_prefilled_from_the_bookmarklet(learner_client):
    response = learner_client.get(SAVE, {"url": PAPER, "title": "Attention Is All You Need"})
    assert response.status_code == 200
    assert 'value="Attention Is All You Need"' in response.text
    assert 'value="https://example.org/papers/attention-is-all?utm_source=x"' in response.text


def test_save_page_shows_a_catalog_link_with_its_tick(learner_client):
    resource = listed_resource(url="https://example.org/papers/attention-is-all", title="AIAYN")
    response = learner_client.get(SAVE, {"url": PAPER, "title": "whatever"})
    assert "This link is in the catalog" in response.text
    assert f'id="tick-{resource.uuid}"' in response.text
    assert 'action="/my/resources/"' not in response.text  # no form to save it twice


def test_save_page_says_when_the_link_is_saved_already(learner_client, own):
    response = learner_client.get(SAVE, {"url": PAPER})
    assert "in <a" in response.text and f"#own-{own.pk}" in response.text


def test_the_bookmarklet_only_navigates_to_the_save_page(learner_client):
    text = learner_client.get(LIST).text
    assert 'href="javascript:location.href=&#x27;http://testserver/my/resources/save/?url=' in text


# --- joining the catalog -------------------------------------------------------------------
def test_a_link_listed_later_keeps_the_learners_progress(learner_client, learner, own):
    services.progress_set_status(user=learner, resource=own.resource, status="done")
    from tests.factories import EntryFactory

    EntryFactory(resource=own.resource)
    text = learner_client.get(LIST).text
    assert "In the catalog now" in text
    assert Progress.objects.filter(user=learner).count() == 1
    resource_page = learner_client.get(own.resource.get_absolute_url())
    assert resource_page.status_code == 200


def test_a_guide_imported_later_that_lists_the_link_joins_it(learner_client, learner, own):
    from apps.catalog.importer import apply_import, plan_import

    services.progress_set_status(user=learner, resource=own.resource, status="done")
    markdown = "# Papers\n\n## Attention\n\n- [Attention Is All You Need](" + PAPER + ")\n"
    apply_import(plan_import(markdown, guide_slug="papers", title="Papers"))
    from apps.catalog.models import Guide

    Guide.objects.filter(slug="papers").update(is_published=True)
    assert Resource.objects.count() == 1  # the importer matched the link's one row
    resource = Resource.objects.get()
    assert resource.pk == own.resource_id
    page = learner_client.get(resource.get_absolute_url())
    assert page.status_code == 200
    assert "In the catalog now" in learner_client.get(LIST).text
    assert Progress.objects.get(user=learner).status == Status.DONE


def test_a_sync_that_adds_the_link_to_a_guide_joins_it(learner_client, learner, own):
    from apps.catalog.importer import apply_import, plan_import
    from apps.catalog.importer.sync import apply_sync
    from apps.catalog.models import Guide

    before = "# Papers\n\n## Attention\n\n- [Another paper](https://example.org/another)\n"
    after = before + "- [Attention Is All You Need](" + PAPER + ")\n"
    apply_import(plan_import(before, guide_slug="papers", title="Papers"))
    Guide.objects.filter(slug="papers").update(is_published=True)
    services.progress_set_status(user=learner, resource=own.resource, status="in_progress")
    apply_sync(plan_import(after, guide_slug="papers", title="Papers"))
    assert Resource.objects.filter(url_key=own.resource.url_key).count() == 1
    assert visible_resources().filter(pk=own.resource_id).exists()
    assert "In the catalog now" in learner_client.get(LIST).text
    assert Progress.objects.get(user=learner).resource_id == own.resource_id


def test_a_merge_moves_the_own_row_and_progress(learner, own):
    from apps.curation.services import resource_merge

    survivor = listed_resource(url="https://example.org/other")
    services.progress_set_status(user=learner, resource=own.resource, status="in_progress")
    resource_merge(survivor=survivor, duplicates=[own.resource])
    own.refresh_from_db()
    assert own.resource == survivor
    assert Progress.objects.get(user=learner).resource == survivor


def test_a_merge_of_two_saved_links_keeps_one_own_row(learner, own):
    from apps.curation.services import resource_merge

    other = services.own_resource_save(user=learner, url="https://example.org/mirror").own
    services.progress_set_status(user=learner, resource=other.resource, status="done")
    resource_merge(survivor=own.resource, duplicates=[other.resource])
    assert list(OwnResource.objects.filter(user=learner)) == [own]
    assert Progress.objects.get(user=learner).status == Status.DONE


# --- the title job --------------------------------------------------------------------------
@pytest.fixture
def titled_page(allow_loopback):
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            body = b"<html><head><title>A Real Title</title></head></html>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}/posts/some-slug"
    server.shutdown()


def test_the_job_replaces_a_guessed_title_with_the_pages(
    learner, titled_page, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        saved = services.own_resource_save(user=learner, url=titled_page)
    saved.own.refresh_from_db()
    assert saved.own.title == "A Real Title"


def test_on_the_database_queue_the_worker_improves_the_title(
    learner, titled_page, run_jobs, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        saved = services.own_resource_save(user=learner, url=titled_page)
    saved.own.refresh_from_db()
    assert saved.own.title != "A Real Title"  # queued, not run yet: the guess meanwhile
    run_jobs()
    saved.own.refresh_from_db()
    assert saved.own.title == "A Real Title"


def test_the_job_keeps_a_title_the_learner_typed(
    learner, titled_page, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        saved = services.own_resource_save(user=learner, url=titled_page, title="My words")
    assert not callbacks  # nothing to improve: no job
    assert OwnResource.objects.get(pk=saved.own.pk).title == "My words"


# --- query counts ---------------------------------------------------------------------------
def test_list_queries_do_not_grow_with_rows(learner_client, learner):
    services.own_resource_save(user=learner, url="https://example.org/a")
    _, warm_one = page_queries(learner_client, LIST)
    for n in range(15):
        saved = services.own_resource_save(user=learner, url=f"https://example.org/n{n}")
        services.progress_set_status(user=learner, resource=saved.own.resource, status="done")
    _, warm_many = page_queries(learner_client, LIST)
    assert warm_many == warm_one == 5  # session, user, content tokens, the count, the rows


def test_the_list_pages_by_fifty_newest_first(learner_client, learner):
    for n in range(55):
        services.own_resource_save(user=learner, url=f"https://example.org/p{n}", title=f"Link {n}")
    first = learner_client.get(LIST).text
    assert "Link 54" in first and "Link 5<" in first and "Link 4<" not in first
    assert 'rel="next"' in first
    assert '<span class="chip__count" id="own-count">55</span>' in first
    second = learner_client.get(LIST, {"page": 2}).text
    assert "Link 4<" in second and "Link 54" not in second and 'rel="prev"' in second
    assert learner_client.get(LIST, {"page": "x"}).status_code == 200
    _, warm = page_queries(learner_client, LIST, {"page": 2})
    assert warm == 5


# --- search ---------------------------------------------------------------------------------
def test_search_shows_my_own_results_beside_the_catalogs(learner_client, learner, client, own):
    listed_resource(title="Attention in the catalog")
    page = learner_client.get(reverse("learning:search"), {"q": "attention"}).text
    assert "In your own resources" in page and f"#own-{own.pk}" in page
    assert "Attention in the catalog" in page
    fragment = learner_client.get(
        reverse("learning:search"), {"q": "attention"}, headers={"HX-Request": "true"}
    ).text
    assert f"#own-{own.pk}" in fragment


def test_search_never_shows_another_learners_own_results(client, other_learner, own):
    client.force_login(other_learner)
    page = client.get(reverse("learning:search"), {"q": "attention"}).text
    assert "In your own resources" not in page and f"#own-{own.pk}" not in page
