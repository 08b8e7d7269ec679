from django.db import models


class ContentVersion(models.Model):
    """One row whose token changes, inside the writing transaction, whenever any table a learner's
    catalog pages are built from changes. Database triggers keep it (see apps.core.content), so
    bulk updates, raw SQL and imports move it as surely as the admin does."""

    id = models.PositiveSmallIntegerField(primary_key=True, default=1, editable=False)
    token = models.CharField(max_length=64)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=models.Q(id=1), name="content_version_single_row")
        ]

    def __str__(self):
        return self.token


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
