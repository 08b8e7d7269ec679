"""A learner's progress as files (`progress:`): export and import."""

from django.urls import path, re_path

from apps.progress import views

app_name = "progress"

urlpatterns = [
    re_path(r"^progress/export\.(?P<fmt>md|csv|json)$", views.progress_export, name="export"),
    path("progress/import/", views.progress_import, name="import"),
]
