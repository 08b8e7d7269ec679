"""The weekly mail: each member who asked for it (off by default, per membership) gets one mail
per group per week saying what the group finished in the week just ended (Monday to Sunday, in
the site's TIME_ZONE) and its next up on each path and guide. Members who hide their progress are
in no one's mail. Sent as mail jobs (apps.core.mail); each (membership, week) is claimed once
(services.weekly_mail_claim) in the transaction that writes its mail, so a second run, a retry or
a second worker sends nothing twice."""

from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from apps.groups.models import Membership
from apps.groups.selectors import group_week, week_start_of
from apps.groups.services import weekly_mail_claim


def week_ended(now) -> tuple:
    """(Monday, start, end) of the last whole week before `now`, in the site's time zone."""
    zone = timezone.get_default_timezone()
    with timezone.override(zone):
        this_monday = week_start_of(timezone.localdate(now))
    start = this_monday - timedelta(days=7)
    return start.date(), start, this_monday


def _language_of(user) -> str:
    """The language the member reads the site in (their saved one), else the site's: a job has no
    browser to ask."""
    try:
        saved = user.preferences.language
    except ObjectDoesNotExist:
        saved = ""
    return saved if saved in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def weekly_mails_send(*, now=None) -> int:
    """Send every due weekly mail; how many were sent."""
    monday, start, end = week_ended(now or timezone.now())
    due = (
        Membership.objects.filter(weekly_mail=True, user__is_active=True)
        .exclude(user__email="")
        .exclude(mailed_week__gte=monday)
        .select_related("group", "user__preferences")
        .order_by("group_id", "pk")
    )
    sent, weeks = 0, {}
    for membership in due:
        group = membership.group
        if group.pk not in weeks:
            weeks[group.pk] = group_week(group=group, since=start, until=end)
        finishes, boards = weeks[group.pk]
        with transaction.atomic():
            if not weekly_mail_claim(membership=membership, week=monday):
                continue
            language = _language_of(membership.user)
            context = {
                "group": group,
                "finishes": finishes,
                "boards": boards,
                "start": start,
                "end": end - timedelta(days=1),
                "group_url": settings.SITE_URL + group.get_absolute_url(),
                "settings_url": settings.SITE_URL
                + reverse("groups:group-settings", args=[group.uuid]),
                "site_name": settings.SITE_NAME,
            }
            with translation.override(language):
                subject = _("[%(site)s] This week in %(group)s") % {
                    "site": settings.SITE_NAME,
                    "group": group.name,
                }
                body = render_to_string("groups/weekly_mail.txt", context)
            send_mail(subject, body, None, [membership.user.email])
            sent += 1
    return sent
