"""The Curators group: staff who keep the catalog alive, and nothing else.

The group holds exactly the permissions of the models of the apps in
``CURATOR_APP_LABELS`` (view/add/change/delete, plus any custom ones those apps
define). It never holds user, group or progress permissions, so a curator can
neither see nor change accounts or anyone's progress.

The group is managed here, in code: ``sync_curator_permissions()`` runs from this
app's migration and again after every ``migrate`` (post_migrate), so an app added
later (added to ``apps.core.content.CONTENT_APPS``) is picked up without a new
migration here, and a permission granted to the group by hand is taken back.
"""

from django.apps import apps as global_apps
from django.contrib.auth.management import create_permissions
from django.db import DEFAULT_DB_ALIAS

from apps.core import content

CURATORS_GROUP = "Curators"
# The content apps and the learner data inside them have one owner, the content version's list
# (apps/core/content.py): what curators may edit is what learner pages are built from.
# Besides them, the curators' own tools with models: the inbox (feeds and the items they offer).
CURATOR_TOOL_APPS = ("inbox",)
CURATOR_APP_LABELS = [*content.CONTENT_APPS, *CURATOR_TOOL_APPS]
# Learner data inside those apps: who follows which path is not a curator's business.
LEARNER_MODELS = {model_name for _, model_name in content.LEARNER_MODELS}


def sync_curator_permissions(*, apps=global_apps, using=DEFAULT_DB_ALIAS):
    """Create the Curators group if needed and set its permissions to exactly those of
    CURATOR_APP_LABELS' models. Safe to re-run; works with a migration's historical ``apps``."""
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    labels = [
        label for label in CURATOR_APP_LABELS if _ensure_permissions(label, apps=apps, using=using)
    ]
    group, _ = Group.objects.using(using).get_or_create(name=CURATORS_GROUP)
    group.permissions.set(
        Permission.objects.using(using)
        .filter(content_type__app_label__in=labels)
        .exclude(content_type__model__in=LEARNER_MODELS)
    )
    return group


def sync_curator_permissions_after_migrate(
    sender, apps=global_apps, using=DEFAULT_DB_ALIAS, **kwargs
):
    try:
        apps.get_model("auth", "Group")
    except LookupError:  # auth not migrated in this database (router / partial migrate)
        return
    sync_curator_permissions(apps=apps, using=using)


def _ensure_permissions(app_label, *, apps, using):
    """Permissions are normally created after migrate; a data migration runs before, so create them now.
    Returns False when the app is not installed (yet)."""
    try:
        app_config = apps.get_app_config(app_label)
    except LookupError:
        return False
    # A migration's historical app configs have no models module, which create_permissions
    # takes for "nothing to do": flag it for the duration of the call.
    original = getattr(app_config, "models_module", None)
    app_config.models_module = original or True
    try:
        create_permissions(app_config, apps=apps, using=using, verbosity=0)
    finally:
        app_config.models_module = original
    return True
