"""Following a path, and a learner's own paths (`paths:`); the curated path pages themselves are
learner pages (`learning:`)."""

from django.urls import path

from apps.paths import views

app_name = "paths"

urlpatterns = [
    path("paths/<slug:slug>/follow/", views.path_follow_view, name="path-follow"),
    path("paths/<slug:slug>/copy/", views.curated_copy, name="path-copy"),
    path("my/paths/", views.own_list, name="own-list"),
    path("my/paths/add/", views.own_add_resource, name="own-add-resource"),
    path("my/paths/<uuid:uuid>/", views.own_detail, name="own-detail"),
    path("my/paths/<uuid:uuid>/edit/", views.own_edit, name="own-edit"),
    path("my/paths/<uuid:uuid>/delete/", views.own_delete, name="own-delete"),
    path("my/paths/<uuid:uuid>/steps/", views.own_step_add, name="own-step-add"),
    path(
        "my/paths/<uuid:uuid>/steps/<uuid:step_uuid>/",
        views.own_step_change,
        name="own-step-change",
    ),
    path("my/paths/<uuid:uuid>/items/", views.own_item_add, name="own-item-add"),
    path(
        "my/paths/<uuid:uuid>/items/<uuid:item_uuid>/",
        views.own_item_change,
        name="own-item-change",
    ),
    path("p/<slug:slug>/", views.own_published, name="own-published"),
    path("p/<slug:slug>/copy/", views.own_copy, name="own-copy"),
]
