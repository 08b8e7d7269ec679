from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.autoreload import file_changed


class CoreConfig(AppConfig):
    name = "apps.core"

    def ready(self):
        from apps.core import checks  # noqa: F401 - registers the self-hosting system checks

        post_migrate.connect(_install_content_triggers, sender=self)
        file_changed.connect(_template_edited)


# apps.core.content reads a model, so it is imported once the app registry is ready.
def _install_content_triggers(sender, using, **kwargs):
    from apps.core.content import content_triggers_install, memos_clear

    content_triggers_install(using=using)
    memos_clear()


def _template_edited(sender, file_path, **kwargs):
    """The development server reloads an edited template without restarting; pages rendered
    from the old one must go with it. (Returns None: Django decides about the reload.)"""
    if file_path.suffix == ".html":
        from apps.core.content import memos_clear

        memos_clear()
