from django.apps import AppConfig


class InboxConfig(AppConfig):
    """The curator inbox: feeds found in the catalog's own resources, read on a schedule, their
    new items offered to curators to accept (as draft entries) or dismiss."""

    name = "apps.inbox"
    verbose_name = "Inbox"
