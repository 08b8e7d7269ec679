"""A learner's days are their own: streaks and the heatmap count in their time zone (saved on the
account page, else their browser's cookie, else TIME_ZONE), activated per request."""

from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.http import HttpResponse
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone

from apps.accounts.models import Preferences, PublicProfile
from apps.accounts.timezones import COOKIE_NAME, SESSION_KEY, TimeZoneMiddleware
from apps.progress.models import Status
from apps.progress.selectors import activity_year
from apps.progress.services import progress_set_status
from tests.factories import ResourceFactory

pytestmark = pytest.mark.django_db

LOS_ANGELES = ZoneInfo("America/Los_Angeles")


def _active_days(year):
    return [day for day, count in year.days if count]


def test_a_finish_at_half_past_eleven_at_night_counts_on_that_local_day(learner):
    # 23:30 in Los Angeles on 2 March is 07:30 UTC on 3 March.
    late = datetime(2026, 3, 2, 23, 30, tzinfo=LOS_ANGELES)
    progress_set_status(user=learner, resource=ResourceFactory(), status=Status.DONE, at=late)

    here = activity_year(user=learner, zone=LOS_ANGELES, today=date(2026, 3, 3))
    assert _active_days(here) == [date(2026, 3, 2)]
    assert here.current_streak == 1
    assert _active_days(activity_year(user=learner, zone=UTC, today=date(2026, 3, 3))) == [
        date(2026, 3, 3)
    ]


def test_the_active_zone_is_what_the_heatmap_counts_in(learner):
    late = datetime(2026, 3, 2, 23, 30, tzinfo=LOS_ANGELES)
    progress_set_status(user=learner, resource=ResourceFactory(), status=Status.DONE, at=late)
    with timezone.override(LOS_ANGELES):
        assert _active_days(activity_year(user=learner, today=date(2026, 3, 3))) == [
            date(2026, 3, 2)
        ]


def _zone_seen(request):
    seen = []

    def view(request):
        seen.append(timezone.get_current_timezone_name())
        return HttpResponse()

    TimeZoneMiddleware(view)(request)
    return seen[0]


@pytest.fixture
def request_with_session():
    from importlib import import_module

    from django.conf import settings

    def make(cookie=None, saved=None):
        request = RequestFactory().get("/")
        request.session = import_module(settings.SESSION_ENGINE).SessionStore()
        if saved is not None:
            request.session[SESSION_KEY] = saved
        if cookie is not None:
            request.COOKIES[COOKIE_NAME] = cookie
        return request

    return make


def test_the_middleware_takes_the_saved_zone_then_the_browsers_then_the_sites(
    request_with_session, settings
):
    assert _zone_seen(request_with_session()) == settings.TIME_ZONE
    assert _zone_seen(request_with_session(cookie="Asia/Tokyo")) == "Asia/Tokyo"
    assert (
        _zone_seen(request_with_session(cookie="Asia/Tokyo", saved="Europe/Paris"))
        == "Europe/Paris"
    )
    # Blank saved: the browser's.
    assert _zone_seen(request_with_session(cookie="Asia/Tokyo", saved="")) == "Asia/Tokyo"
    # A cookie is anyone's to write: what no zone is called is ignored.
    for junk in ("Mars/Olympus", "../../etc/passwd", "x" * 5000, ""):
        assert _zone_seen(request_with_session(cookie=junk)) == settings.TIME_ZONE
    assert timezone.get_current_timezone_name() == settings.TIME_ZONE  # deactivated after


def test_the_account_page_names_the_browsers_zone_and_saves_a_chosen_one(learner_client, learner):
    learner_client.cookies[COOKIE_NAME] = "Asia/Tokyo"
    page = learner_client.get(reverse("accounts:account")).content.decode()
    assert "Your browser&#x27;s (Asia/Tokyo)" in page

    response = learner_client.post(reverse("accounts:time-zone"), {"time_zone": "Europe/Paris"})
    assert response.status_code == 302
    assert Preferences.objects.get(user=learner).time_zone == "Europe/Paris"
    assert learner_client.session[SESSION_KEY] == "Europe/Paris"
    page = learner_client.get(reverse("accounts:account")).content.decode()
    assert '<option value="Europe/Paris" selected>' in page

    learner_client.post(reverse("accounts:time-zone"), {"time_zone": ""})
    assert Preferences.objects.get(user=learner).time_zone == ""


def test_an_unknown_zone_is_refused_and_nothing_saved(learner_client, learner):
    response = learner_client.post(reverse("accounts:time-zone"), {"time_zone": "Mars/Olympus"})
    assert response.status_code == 400
    assert not Preferences.objects.filter(user=learner).exists()


def test_saving_a_zone_needs_a_signed_in_learner(client):
    response = client.post(reverse("accounts:time-zone"), {"time_zone": "Europe/Paris"})
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))
    assert not Preferences.objects.exists()


def test_the_saved_zone_follows_the_learner_to_a_new_sign_in(client, learner, password):
    Preferences.objects.create(user=learner, time_zone="Asia/Kolkata")
    assert client.login(username=learner.username, password=password)
    assert client.session[SESSION_KEY] == "Asia/Kolkata"


def test_the_dashboard_counts_in_the_browsers_zone(learner_client, learner):
    # Finished at 23:30 yesterday in Los Angeles (already today in UTC in the small hours).
    now = timezone.now().astimezone(LOS_ANGELES)
    yesterday = now.date().toordinal() - 1
    late = datetime.combine(date.fromordinal(yesterday), datetime.min.time(), LOS_ANGELES).replace(
        hour=23, minute=30
    )
    progress_set_status(user=learner, resource=ResourceFactory(), status=Status.DONE, at=late)
    learner_client.cookies[COOKIE_NAME] = "America/Los_Angeles"
    year = learner_client.get(reverse("learning:dashboard")).context["year"]
    assert _active_days(year) == [date.fromordinal(yesterday)]


def test_the_public_page_counts_in_its_learners_saved_zone(client, learner):
    Preferences.objects.create(user=learner, time_zone="America/Los_Angeles")
    PublicProfile.objects.create(user=learner, slug="me", is_public=True)
    late = datetime(2026, 3, 2, 23, 30, tzinfo=LOS_ANGELES)
    progress_set_status(user=learner, resource=ResourceFactory(), status=Status.DONE, at=late)
    client.cookies[COOKIE_NAME] = (
        "Asia/Tokyo"  # the visitor's zone does not move the learner's days
    )
    year = client.get(reverse("accounts:public-profile", args=["me"])).context["year"]
    assert _active_days(year) == [date(2026, 3, 2)]
