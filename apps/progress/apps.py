from django.apps import AppConfig


class ProgressConfig(AppConfig):
    name = "apps.progress"
    verbose_name = "Learner progress"

    def ready(self):
        from apps.progress import signals  # noqa: F401 - connects the login handler
