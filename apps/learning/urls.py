"""The learner-facing URLs, under the namespaces their names have always had (`catalog:`,
`progress:`, `paths:`); config/urls.py includes each list under its namespace."""

from django.urls import path, re_path

from apps.learning import notebook, views
from apps.paths import views as path_views
from apps.progress import views as progress_views

catalog_urls = [
    path("", views.home, name="home"),
    path("guides/", views.guide_list, name="guide-list"),
    path("guides/<slug:slug>/", views.guide_detail, name="guide-detail"),
    path("resources/<uuid:uuid>/", views.resource_detail, name="resource-detail"),
    path("topics/", views.topic_list, name="topic-list"),
    path("topics/<slug:slug>/", views.topic_detail, name="topic-detail"),
    path("search/", views.search, name="search"),
]

progress_urls = [
    path("dashboard/", views.dashboard, name="dashboard"),
    path("dashboard/notes/", notebook.my_notes, name="notebook"),
    path("progress/<uuid:resource_uuid>/", views.progress_set, name="set"),
    path("progress/<uuid:resource_uuid>/note/", views.progress_note, name="note"),
    re_path(
        r"^progress/export\.(?P<fmt>md|csv|json)$", progress_views.progress_export, name="export"
    ),
    path("progress/import/", progress_views.progress_import, name="import"),
]

paths_urls = [
    path("paths/", views.path_list, name="path-list"),
    path("paths/<slug:slug>/", views.path_detail, name="path-detail"),
    path("paths/<slug:slug>/follow/", path_views.path_follow_view, name="path-follow"),
]
