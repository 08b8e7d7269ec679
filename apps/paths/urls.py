from django.urls import path

from apps.paths import views

app_name = "paths"

urlpatterns = [
    path("paths/", views.path_list, name="path-list"),
    path("paths/<slug:slug>/", views.path_detail, name="path-detail"),
    path("paths/<slug:slug>/follow/", views.path_follow_view, name="path-follow"),
]
