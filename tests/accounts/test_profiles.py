"""The opt-in public profile: off by default, a validated address of the learner's choosing, a
page with per-guide progress and streak (never notes, never the email address), and a 404 the
moment it is turned off."""

import pytest
from django.test import Client
from django.urls import reverse

from apps.accounts.models import PublicProfile
from apps.progress.models import Status
from apps.progress.services import progress_set_note, progress_set_status
from tests.progress.conftest import build_guide

pytestmark = pytest.mark.django_db

SETTINGS = reverse("accounts:public-profile-settings")


def page_url(slug):
    return reverse("accounts:public-profile", args=[slug])


def signed_in(person) -> Client:
    client = Client()
    client.force_login(person)
    return client


@pytest.fixture
def ada(learner):
    user = learner
    guide, resources = build_guide("alpha")  # 6 resources
    progress_set_status(user=user, resource=resources[0], status=Status.DONE)
    progress_set_status(user=user, resource=resources[1], status=Status.DONE)
    progress_set_status(user=user, resource=resources[2], status=Status.SKIPPED)
    progress_set_note(user=user, resource=resources[0], note="My private thoughts on attention")
    user.guide = guide
    return user


def publish(client, slug, on=True):
    data = {"slug": slug} | ({"is_public": "on"} if on else {})
    return client.post(SETTINGS, data)


def test_off_by_default(ada):
    assert not PublicProfile.objects.exists()
    html = signed_in(ada).get(reverse("accounts:account")).content.decode()
    assert "Set up a public page" in html
    assert Client().get(page_url("ada")).status_code == 404


def test_the_owner_publishes_and_a_visitor_sees_progress_and_streak_but_never_notes(ada):
    response = publish(signed_in(ada), "Ada-Lovelace")
    assert response.status_code == 302
    profile = PublicProfile.objects.get(user=ada)
    assert profile.slug == "ada-lovelace" and profile.is_public

    response = Client().get(page_url("ada-lovelace"))
    html = response.content.decode()
    assert response.status_code == 200
    assert ada.guide.title in html and f'id="bar-guide-{ada.guide.uuid}"' in html
    assert "2/5" in html  # 2 done of 6, one skipped
    assert "current streak" in html and "longest streak" in html
    assert "private thoughts" not in html and "note" not in html.lower().replace("noindex", "")
    assert ada.email not in html
    # The address is read case-insensitively.
    assert Client().get(page_url("ADA-Lovelace")).status_code == 200


def test_turning_it_off_makes_the_address_a_404_at_once(ada):
    client = signed_in(ada)
    publish(client, "ada")
    assert Client().get(page_url("ada")).status_code == 200
    response = publish(client, "ada", on=False)
    assert response.status_code == 302 and not PublicProfile.objects.get(user=ada).is_public
    assert Client().get(page_url("ada")).status_code == 404
    assert client.get(page_url("ada")).status_code == 404  # the owner too: it is off
    # Clearing the address turns it off as well.
    publish(client, "ada")
    client.post(SETTINGS, {"slug": "", "is_public": "on"})
    assert Client().get(page_url("ada")).status_code == 200  # refused: publishing needs an address
    client.post(SETTINGS, {"slug": ""})
    assert Client().get(page_url("ada")).status_code == 404


@pytest.mark.parametrize(
    ("slug", "message"),
    [
        ("admin", "is reserved"),
        ("Dashboard", "is reserved"),
        ("ab", "3 to 40"),
        ("a" * 41, "at most 40"),
        ("-ada", "3 to 40"),
        ("ada--x", "3 to 40"),
        ("ada x", "3 to 40"),
        ("ada/../x", "3 to 40"),
        ("ädä", "3 to 40"),
        ("ada\x00x", "3 to 40"),
    ],
)
def test_bad_addresses_are_refused_with_a_message_and_change_nothing(ada, slug, message):
    response = publish(signed_in(ada), slug)
    assert response.status_code == 400 and message in response.content.decode()
    assert not PublicProfile.objects.exists()


def test_a_taken_address_is_refused(ada, other_learner):
    publish(signed_in(other_learner), "learner")
    response = publish(signed_in(ada), "Learner")
    assert response.status_code == 400 and "is taken" in response.content.decode()
    assert PublicProfile.objects.get(slug="learner").user == other_learner
    # Keeping one's own address is fine.
    assert publish(signed_in(other_learner), "learner", on=False).status_code == 302


def test_another_learner_cannot_change_someone_elses_page(ada, other_learner):
    publish(signed_in(ada), "ada")
    # Eve's settings only ever act on Eve: posting Ada's address is "taken", not a takeover.
    response = publish(signed_in(other_learner), "ada", on=False)
    assert response.status_code == 400
    assert PublicProfile.objects.get(slug="ada").is_public
    assert Client().get(page_url("ada")).status_code == 200


def test_settings_need_sign_in(ada):
    response = Client().get(SETTINGS)
    assert response.status_code == 302 and response["Location"].startswith(reverse("account_login"))
    assert Client().post(SETTINGS, {"slug": "x-y-z", "is_public": "on"}).status_code == 302
    assert not PublicProfile.objects.exists()


def test_a_deactivated_or_deleted_learners_page_is_gone(ada):
    publish(signed_in(ada), "ada")
    ada.is_active = False
    ada.save()
    assert Client().get(page_url("ada")).status_code == 404
    ada.delete()
    assert not PublicProfile.objects.exists()


def test_the_settings_page_shows_the_state(ada):
    client = signed_in(ada)
    assert "Not public" in client.get(SETTINGS).content.decode()
    publish(client, "ada")
    html = client.get(SETTINGS).content.decode()
    assert "Anyone with the link" in html and 'value="ada"' in html and "checked" in html
    assert "/u/ada/" in client.get(reverse("accounts:account")).content.decode()


def test_the_data_export_holds_the_learners_public_page_choice(ada, other_learner):
    publish(signed_in(other_learner), "eve")
    client = signed_in(ada)
    assert "public_profile" not in client.get(reverse("accounts:data-export")).json()
    publish(client, "ada", on=False)
    data = client.get(reverse("accounts:data-export")).json()
    assert data["public_profile"] == {"address": "ada", "public": False}


def test_the_public_page_query_count_does_not_grow_with_progress(ada):
    from tests.conftest import page_queries

    publish(signed_in(ada), "ada")
    visitor = Client()
    small = page_queries(visitor, page_url("ada"))
    _, more = build_guide("beta", n_sections=3, per_section=10)
    for resource in more:
        progress_set_status(user=ada, resource=resource, status=Status.DONE)
    # Warm: the content token, the profile with its user, the statuses and the active days.
    assert page_queries(visitor, page_url("ada")) == small and small[1] == 4
