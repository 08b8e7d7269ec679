"""What a security test of the app found, each closed: the admin's sign-in is allauth's (rate
limited), GitHub's unconfigured sign-in is a 404, personal responses are never cached, the
learner's data export keeps everything, CSV cells are no formulas, the email is escaped, a
followed path cannot be deleted, and production cookies carry the __Host- prefix."""

import csv
import io
import json

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.urls import reverse

from apps.catalog.models import Resource
from apps.paths.models import LearningPath, PathFollow
from apps.progress.exports import progress_csv
from apps.progress.models import Status
from apps.progress.services import progress_set_status
from tests.core.test_production_settings import SECRET, run_python
from tests.factories import UserFactory, listed_resource

pytestmark = pytest.mark.django_db
PASSWORD = "a sturdy passphrase 42"


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def staff(db):
    user = get_user_model().objects.create_superuser(
        username="root", email="root@example.com", password=PASSWORD
    )
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def _signed_in(client):
    return "_auth_user_id" in client.session


# --- 2. the admin's sign-in is allauth's, with its rate limits --------------------------------


def test_admin_login_page_sends_visitors_to_allauths_sign_in(client, staff):
    response = client.get("/admin/login/?next=/admin/")
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login") + "?next=")
    # Posting a correct password to the admin's own form signs nobody in.
    response = client.post("/admin/login/", {"username": "root", "password": PASSWORD})
    assert response.status_code == 302 and not _signed_in(client)


def test_staff_sign_in_is_rate_limited_like_everyones(client, staff):
    login = reverse("account_login")
    pages = [
        client.post(login, {"login": staff.email, "password": "wrong"}).content.decode()
        for _ in range(30)
    ]
    assert "are not correct" in pages[0] and "Too many failed login attempts" in pages[-1]
    response = client.post(login, {"login": staff.email, "password": PASSWORD})
    assert not _signed_in(client), "the right password after 30 wrong ones is refused"
    assert (
        response.status_code == 429 or "Too many failed login attempts" in response.content.decode()
    )
    assert client.get("/admin/").status_code == 302


def test_staff_signs_in_through_allauth_and_reaches_the_admin(client, staff):
    response = client.post(
        reverse("account_login"), {"login": staff.email, "password": PASSWORD, "next": "/admin/"}
    )
    assert response.status_code == 302 and _signed_in(client)
    assert client.get("/admin/").status_code == 200
    assert client.get("/admin/login/").status_code == 302  # the admin's login sends them on


def test_a_signed_in_learner_is_refused_the_admins_login(client):
    client.force_login(UserFactory())
    assert client.get("/admin/login/").status_code == 403


# --- 5. GitHub not configured: 404, not 500 ---------------------------------------------------


@pytest.mark.parametrize(
    "path", ["/accounts/github/login/", "/accounts/github/login/callback/?code=x&state=y"]
)
@pytest.mark.parametrize("method", ["get", "post"])
def test_unconfigured_github_sign_in_is_not_found(client, settings, path, method):
    settings.SOCIALACCOUNT_PROVIDERS = {}
    assert getattr(client, method)(path).status_code == 404


# --- 6. all my data holds rows on unpublished resources ---------------------------------------


def test_all_my_data_keeps_progress_and_notes_on_unpublished_resources(client):
    learner = UserFactory()
    resource = Resource.objects.create(title="Later withdrawn", url="https://example.com/withdrawn")
    progress_set_status(user=learner, resource=resource, status=Status.DONE, note="my own words")
    Resource.objects.filter(pk=resource.pk).update(is_published=False)
    client.force_login(learner)
    data = json.loads(client.get(reverse("accounts:data-export")).content)
    [row] = data["progress"]
    assert (row["resource"], row["note"], row["status"]) == (
        str(resource.uuid),
        "my own words",
        "done",
    )
    assert [activity["resource"] for activity in data["activity"]] == [str(resource.uuid)]
    # The progress exports keep showing what a learner can see.
    assert (
        "Later withdrawn"
        not in client.get(reverse("progress:export", args=["csv"])).content.decode()
    )


# --- 7. CSV export: no formulas ----------------------------------------------------------------


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_csv_cells_never_start_a_formula(start):
    learner = UserFactory()
    resource = listed_resource(
        title=f'{start}HYPERLINK("http://evil")', url="https://example.com/f"
    )
    progress_set_status(user=learner, resource=resource, status=Status.DONE, note=f"{start}1+1")
    rows = list(csv.reader(io.StringIO(progress_csv(learner))))
    for cell in rows[1]:
        assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), cell
    assert rows[1][1] == f'\'{start}HYPERLINK("http://evil")' and rows[1][7] == f"'{start}1+1"


# --- 8. the learner's own email is escaped -----------------------------------------------------


def test_account_page_escapes_the_email(client):
    email = '"<img/src/onerror=alert(1)>"@example.com'
    learner = UserFactory(email=email)
    client.force_login(learner)
    for url in (reverse("accounts:account"), reverse("learning:dashboard")):
        html = client.get(url).content.decode()
        assert "<img/src/onerror" not in html, url
        assert "&lt;img/src/onerror=alert(1)&gt;" in html, url


# --- 9. personal responses are never stored ---------------------------------------------------


def _personal_urls(resource):
    return [
        reverse("learning:dashboard"),
        resource.get_absolute_url(),
        reverse("progress:import"),
        reverse("accounts:account"),
        reverse("accounts:data-export"),
        *(reverse("progress:export", args=[fmt]) for fmt in ("md", "csv", "json")),
        reverse("learning:home"),
    ]


def test_every_response_to_a_signed_in_learner_is_no_store(client):
    learner = UserFactory()
    resource = listed_resource(title="A paper", url="https://example.com/paper")
    client.force_login(learner)
    for url in _personal_urls(resource):
        response = client.get(url)
        assert response.status_code == 200, url
        cache_control = response["Cache-Control"]
        assert "no-store" in cache_control and "private" in cache_control, (url, cache_control)
    # The tick's htmx fragment, and its no-JavaScript redirect.
    url = reverse("learning:progress-set", args=[resource.uuid])
    fragment = client.post(url, {"status": "done"}, headers={"HX-Request": "true"})
    assert fragment.status_code == 200 and "no-store" in fragment["Cache-Control"]
    redirect = client.post(url, {"status": "in_progress"})
    assert redirect.status_code == 302 and "no-store" in redirect["Cache-Control"]


def test_visitors_pages_stay_cacheable(client):
    response = client.get(reverse("learning:home"))
    assert response.status_code == 200
    assert "no-store" not in response.get("Cache-Control", "")


# --- 10. a followed path cannot be deleted, and its followers are not shown -------------------


@pytest.fixture
def followed_path(db):
    path = LearningPath.objects.create(slug="kernels", title="Kernel development")
    for follower in ("fay@example.com", "gus@example.com"):
        PathFollow.objects.create(user=UserFactory(email=follower), path=path)
    return path


def test_a_followed_path_is_refused_deletion_with_counts_not_names(client, staff, followed_path):
    client.force_login(staff)
    url = reverse("admin:paths_learningpath_delete", args=[followed_path.pk])
    html = client.get(url).content.decode()
    assert "followed by 2 learners" in html
    assert "fay@example.com" not in html and "gus@example.com" not in html
    client.post(url, {"post": "yes"})
    assert (
        LearningPath.objects.filter(pk=followed_path.pk).exists()
        and PathFollow.objects.count() == 2
    )


def test_the_delete_selected_action_refuses_a_followed_path_too(client, staff, followed_path):
    client.force_login(staff)
    lonely = LearningPath.objects.create(slug="lonely", title="Nobody follows")
    data = {"action": "delete_selected", "_selected_action": [followed_path.pk, lonely.pk]}
    html = client.post(reverse("admin:paths_learningpath_changelist"), data).content.decode()
    assert "followed by 2 learners" in html and "fay@example.com" not in html
    client.post(reverse("admin:paths_learningpath_changelist"), {**data, "post": "yes"})
    assert LearningPath.objects.count() == 2 and PathFollow.objects.count() == 2


def test_a_path_nobody_follows_can_still_be_deleted(client, staff):
    path = LearningPath.objects.create(slug="lonely", title="Nobody follows")
    client.force_login(staff)
    response = client.post(
        reverse("admin:paths_learningpath_delete", args=[path.pk]), {"post": "yes"}
    )
    assert response.status_code == 302 and not LearningPath.objects.exists()


# --- 11. production cookies and Permissions-Policy --------------------------------------------

COOKIE_NAMES = "from django.conf import settings; print(settings.SESSION_COOKIE_NAME, settings.CSRF_COOKIE_NAME)"


def test_production_cookies_carry_the_host_prefix():
    result = run_python(COOKIE_NAMES, DEBUG="false", SECRET_KEY=SECRET)
    assert result.stdout.split() == ["__Host-sessionid", "__Host-csrftoken"], result.stderr


def test_cookies_keep_plain_names_when_they_cannot_be_secure():
    result = run_python(COOKIE_NAMES, DEBUG="false", SECRET_KEY=SECRET, SECURE_COOKIES="false")
    assert result.stdout.split() == ["sessionid", "csrftoken"], result.stderr


def test_every_response_has_a_permissions_policy(client):
    for url in (reverse("learning:home"), "/healthz", "/no-such-page/"):
        policy = client.get(url)["Permissions-Policy"]
        assert "camera=()" in policy and "geolocation=()" in policy and "microphone=()" in policy
        # Passkeys (allauth.mfa) on our own pages only, never from a frame of another site.
        assert "publickey-credentials-get=(self)" in policy
        assert "publickey-credentials-create=(self)" in policy


# --- found by the malformed-input test -------------------------------------------------------


@pytest.mark.parametrize(
    "next_value", ["account_login", "%FF", '{"a"', "javascript:alert(1)", "//evil.example/"]
)
def test_a_next_that_is_not_a_path_here_goes_back_to_the_resource(client, next_value):
    learner = UserFactory()
    resource = listed_resource(title="A paper", url="https://example.com/paper")
    client.force_login(learner)
    response = client.post(
        reverse("learning:progress-note", args=[resource.uuid]),
        {"note": "mine", "next": next_value},
    )
    assert response.status_code == 302 and response["Location"] == resource.get_absolute_url()
    response = client.post(
        reverse("learning:progress-set", args=[resource.uuid]),
        {"status": "done", "next": next_value},
    )
    assert response.status_code == 302 and response["Location"] == resource.get_absolute_url()


@pytest.mark.parametrize("bad_id", ["abc", "9" * 40, "-1", "%00"])
def test_an_admin_form_posted_with_a_malformed_autocomplete_id_shows_its_errors(
    client, staff, bad_id
):
    client.force_login(staff)
    before = Resource.objects.count()
    response = client.post(
        reverse("admin:catalog_resourcelink_add"),
        {"resource": bad_id, "url": "https://example.com/x"},
    )
    assert response.status_code == 200 and "errorlist" in response.content.decode()
    assert Resource.objects.count() == before


def test_a_blank_to_field_on_an_admin_change_page_is_no_server_error(client, staff):
    resource = Resource.objects.create(title="A paper", url="https://example.com/paper")
    client.force_login(staff)
    url = reverse("admin:catalog_resource_change", args=[resource.pk])
    assert client.get(url + "?_to_field=").status_code == 200


def test_an_admin_form_posted_with_an_out_of_range_many_to_many_id_shows_its_errors(client, staff):
    client.force_login(staff)
    before = Resource.objects.count()
    data = {"title": "New", "kind": "paper", "topics": "9" * 40}
    response = client.post(reverse("admin:catalog_resource_add"), data)
    assert (
        response.status_code == 200
        and f"“{'9' * 40}” is not a valid value." in response.content.decode()
    )
    assert Resource.objects.count() == before
