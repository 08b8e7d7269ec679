from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps
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


# Imported as a module: an AppConfig class named in this module would be a candidate for
# apps.curation's own config.
class CurationAdminConfig(admin_apps.AdminConfig):
    """Django's admin (autodiscovery included) with the curators' site as ``admin.site``: the
    documented way to replace the default site (INSTALLED_APPS names this in place of
    "django.contrib.admin")."""

    default = False  # apps.curation's own config stays CurationConfig
    default_site = "apps.curation.admin.CurationAdminSite"
