from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.autoreload import file_changed


class CoreConfig(AppConfig):
    name = "apps.core"

    def ready(self):
        # checks registers the self-hosting system checks; jobs records and retries failed jobs.
        from apps.core import checks, jobs  # noqa: F401

        jobs.connect()

        file_changed.connect(_template_edited)
        post_migrate.connect(_tokens_restore, sender=self)


def _template_edited(sender, file_path, **kwargs):
    """The development server reloads an edited template without restarting; pages rendered
    from the old one must go with it. (Returns None: Django decides about the reload.)"""
    if file_path.suffix == ".html":
        from apps.core.content import memos_clear

        memos_clear()


def _tokens_restore(sender, using, **kwargs):
    """`flush` (and a test's teardown) empties the content tokens but keeps their triggers: give
    the watched tables their rows back (apps.core.content.tokens_restore)."""
    from apps.core.content import tokens_restore

    tokens_restore(using)
