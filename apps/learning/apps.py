from django.apps import AppConfig


class LearningConfig(AppConfig):
    """The learner's pages: catalog, progress and paths shown together (see docs/ARCHITECTURE.md)."""

    name = "apps.learning"
    verbose_name = "Learner pages"

    def ready(self):
        from apps.learning import account_data  # noqa: F401 - restores own paths and pins on an import
