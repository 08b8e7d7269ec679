"""The learner pages' URLs (`learning:`): every page that shows a learner's progress on the
catalog, and the tick. Following a path (`paths:`) and progress files (`progress:`) are served
by their own apps' urls.py."""

from django.urls import path

from apps.learning import notebook, own, quick, views

app_name = "learning"

urlpatterns = [
    path("", views.home, name="home"),
    path("guides/", views.guide_list, name="guide-list"),
    path("guides/<slug:slug>/", views.guide_detail, name="guide-detail"),
    path("resources/<uuid:uuid>/", views.resource_detail, name="resource-detail"),
    path("topics/", views.topic_list, name="topic-list"),
    path("topics/<slug:slug>/", views.topic_detail, name="topic-detail"),
    path("search/", views.search, name="search"),
    path("dashboard/", views.dashboard, name="dashboard"),
    path("dashboard/notes/", notebook.my_notes, name="notebook"),
    path("whats-new/", views.whats_new, name="whats-new"),
    path("whats-new/seen/", views.whats_new_seen, name="whats-new-seen"),
    path("progress/<uuid:resource_uuid>/", views.progress_set, name="progress-set"),
    path("progress/<uuid:resource_uuid>/note/", views.progress_note, name="progress-note"),
    path("my/resources/", own.own_list, name="own-list"),
    path("my/resources/save/", own.own_save, name="own-save"),
    path("my/resources/<int:pk>/", own.own_edit, name="own-edit"),
    path("my/resources/<int:pk>/status/", own.own_status, name="own-status"),
    path("my/resources/<int:pk>/suggest/", own.own_suggest, name="own-suggest"),
    path("my/resources/<int:pk>/delete/", own.own_delete, name="own-delete"),
    path("sections/<uuid:uuid>/mark/", quick.section_mark, name="section-mark"),
    path("progress/reset/<str:kind>/<str:key>/", quick.progress_reset_view, name="progress-reset"),
    path("progress/undo/<str:token>/", quick.progress_undo, name="progress-undo"),
    path("pins/<str:kind>/<str:key>/", quick.pin_toggle, name="pin"),
    path("paths/", views.path_list, name="path-list"),
    path("paths/<slug:slug>/", views.path_detail, name="path-detail"),
]
