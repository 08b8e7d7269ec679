from django.apps import AppConfig


class PathsConfig(AppConfig):
    name = "apps.paths"
    verbose_name = "Learning paths"

    def ready(self):
        from apps.paths import signals  # noqa: F401 - restores followed paths on an import
