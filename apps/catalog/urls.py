from django.urls import path

from apps.catalog import views

app_name = "catalog"

urlpatterns = [
    path("", views.home, name="home"),
    path("guides/<slug:slug>/", views.guide_detail, name="guide-detail"),
    path("resources/<uuid:uuid>/", views.resource_detail, name="resource-detail"),
    path("topics/", views.topic_list, name="topic-list"),
    path("topics/<slug:slug>/", views.topic_detail, name="topic-detail"),
    path("search/", views.search, name="search"),
]
