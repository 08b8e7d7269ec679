"""The weekly mail: opted-in members only, the group's week, once per week however often the job
runs."""

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from apps.groups.mail import week_ended, weekly_mails_send
from apps.groups.models import Membership
from apps.progress.models import Progress, Status
from apps.progress.services import progress_set_status

pytestmark = pytest.mark.django_db


def _last_week(resource, user):
    progress_set_status(user=user, resource=resource, status=Status.DONE)
    _, start, _ = week_ended(timezone.now())
    Progress.objects.filter(user=user, resource=resource).update(
        completed_at=start + timedelta(days=2)
    )


def test_the_job_mails_opted_in_members_once_a_week(group, learner, bob, catalog, run_jobs):
    from apps.groups.tasks import send_weekly_mails

    Membership.objects.filter(user=bob).update(weekly_mail=True)
    _last_week(catalog["resources"][0], learner)
    send_weekly_mails.enqueue()
    run_jobs()  # the weekly job, then the mail job it enqueued
    run_jobs()
    [message] = mail.outbox
    assert message.to == ["bob@example.com"]
    assert "Kernel club" in message.subject
    assert "ada finished “alpha 0.0”" in message.body
    assert "Next up on Kernel development" in message.body
    assert "/groups/" in message.body
    send_weekly_mails.enqueue()
    run_jobs()
    run_jobs()
    assert len(mail.outbox) == 1, "one mail per member per week"


def test_off_by_default_and_hidden_members_are_in_no_mail(group, learner, bob, catalog):
    assert weekly_mails_send() == 0
    Membership.objects.filter(user=learner).update(weekly_mail=True)
    Membership.objects.filter(user=bob).update(progress_hidden=True)
    _last_week(catalog["resources"][1], bob)
    assert weekly_mails_send() == 1
    [message] = mail.outbox
    assert "bob" not in message.body and "Nobody finished" in message.body


def test_next_week_mails_again(group, bob):
    Membership.objects.filter(user=bob).update(weekly_mail=True)
    now = timezone.now()
    assert weekly_mails_send(now=now) == 1
    assert weekly_mails_send(now=now) == 0
    assert weekly_mails_send(now=now + timedelta(days=7)) == 1


def test_the_job_is_on_the_schedule():
    from apps.core.scheduler import schedule

    assert any(e.task_path == "apps.groups.tasks.send_weekly_mails" for e in schedule())


def test_each_member_reads_it_in_their_saved_language(group, learner, bob, catalog):
    from apps.accounts.models import Preferences

    Membership.objects.filter(user__in=[learner, bob]).update(weekly_mail=True)
    Preferences.objects.update_or_create(user=bob, defaults={"language": "zh-hans"})
    _last_week(catalog["resources"][0], learner)
    assert weekly_mails_send() == 2
    by_member = {message.to[0]: message for message in mail.outbox}
    chinese, english = by_member["bob@example.com"], by_member[learner.email]
    assert "本周" in chinese.subject and "This week" not in chinese.subject
    assert "This week in Kernel club" in english.subject
    assert "finished “alpha 0.0”" in english.body and "finished" not in chinese.body
