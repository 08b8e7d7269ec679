from django.apps import AppConfig
from django.db.models.signals import post_migrate


class CoreConfig(AppConfig):
    name = "apps.core"

    def ready(self):
        post_migrate.connect(_install_content_triggers, sender=self)


def _install_content_triggers(sender, using, **kwargs):
    from apps.core.content import content_triggers_install, memo

    content_triggers_install(using=using)
    memo.clear()
