"""The study groups' jobs."""

from django.tasks import task

from apps.groups.mail import weekly_mails_send


@task
def send_weekly_mails() -> int:
    """Scheduled on Monday mornings (config/schedule.py): the weekly mail of every member who
    asked for it, once per membership and week (apps.groups.mail)."""
    return weekly_mails_send()
