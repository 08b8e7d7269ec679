from django.apps import AppConfig
from django.utils.autoreload import file_changed


class CoreConfig(AppConfig):
    name = "apps.core"

    def ready(self):
        from apps.core import checks  # noqa: F401 - registers the self-hosting system checks

        file_changed.connect(_template_edited)


def _template_edited(sender, file_path, **kwargs):
    """The development server reloads an edited template without restarting; pages rendered
    from the old one must go with it. (Returns None: Django decides about the reload.)"""
    if file_path.suffix == ".html":
        from apps.core.content import memos_clear

        memos_clear()
