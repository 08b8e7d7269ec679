"""Create the Curators group with the catalog permissions (see apps/curation/permissions.py)."""

from django.db import migrations


def create_curators_group(apps, schema_editor):
    from apps.curation.permissions import sync_curator_permissions

    sync_curator_permissions(apps=apps, using=schema_editor.connection.alias)


def delete_curators_group(apps, schema_editor):
    from apps.curation.permissions import CURATORS_GROUP

    apps.get_model("auth", "Group").objects.using(schema_editor.connection.alias).filter(name=CURATORS_GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("catalog", "0001_initial"),
    ]

    operations = [migrations.RunPython(create_curators_group, delete_curators_group)]
