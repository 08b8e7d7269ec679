"""The catalog's own URLs (`catalog:`): its Atom feeds. The pages that show the catalog with a
learner's progress are the learner pages' (`learning:`)."""

from django.urls import path

from apps.catalog import feeds

app_name = "catalog"

urlpatterns = [
    path("feed/", feeds.CatalogFeed(), name="feed"),
    path("guides/<slug:slug>/feed/", feeds.GuideFeed(), name="guide-feed"),
    path("topics/<slug:slug>/feed/", feeds.TopicFeed(), name="topic-feed"),
]
