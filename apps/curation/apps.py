from django.apps import AppConfig
from django.db.models.signals import post_migrate


class CurationConfig(AppConfig):
    """Curators' tools in Django admin: merge, import/export, link health, the Curators group."""

    name = "apps.curation"
    verbose_name = "Curation"

    def ready(self):
        from apps.curation.permissions import sync_curator_permissions_after_migrate

        # Re-sync after every migrate: picks up models added later (the paths app) and
        # recreates the group after a test database flush.
        post_migrate.connect(sync_curator_permissions_after_migrate, sender=self)
