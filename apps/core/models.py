from django.db import models


class ContentVersion(models.Model):
    """One row per content table (and per column with a token of its own, `table.column`) whose
    token changes, inside the writing transaction, whenever that table changes. Database triggers
    keep them (see apps.core.content), so bulk updates, raw SQL and imports move them as surely as
    the admin does."""

    name = models.CharField(max_length=100, primary_key=True)
    token = models.CharField(max_length=64)

    def __str__(self):
        return f"{self.name} {self.token}"


class Seeded(models.Model):
    """An object `manage.py seed` has loaded from a bundled fixture (or found already there), by
    model and uuid: the seed never creates it again, so what a curator deletes (or merges away)
    stays deleted however often the seed runs."""

    model = models.CharField(max_length=100)  # app_label.model_name, as the fixture names it
    uuid = models.UUIDField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["model", "uuid"], name="seeded_once_per_object")
        ]

    def __str__(self):
        return f"{self.model} {self.uuid}"
