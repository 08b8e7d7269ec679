"""Following a path (`paths:`); the path pages themselves are learner pages (`learning:`)."""

from django.urls import path

from apps.paths import views

app_name = "paths"

urlpatterns = [
    path("paths/<slug:slug>/follow/", views.path_follow_view, name="path-follow"),
]
