from django.apps import AppConfig


class PathsConfig(AppConfig):
    name = "apps.paths"
    verbose_name = "Learning paths"
