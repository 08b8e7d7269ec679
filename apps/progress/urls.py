from django.urls import path, re_path

from apps.progress import views

app_name = "progress"

urlpatterns = [
    path("dashboard/", views.dashboard, name="dashboard"),
    path("progress/<uuid:resource_uuid>/", views.progress_set, name="set"),
    path("progress/<uuid:resource_uuid>/note/", views.progress_note, name="note"),
    re_path(r"^progress/export\.(?P<fmt>md|csv|json)$", views.progress_export, name="export"),
    path("progress/import/", views.progress_import, name="import"),
]
