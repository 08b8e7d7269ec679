"""Root URL configuration."""

from django.contrib import admin
from django.urls import include, path

from apps.learning.urls import catalog_urls, paths_urls, progress_urls

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("", include("apps.accounts.urls")),
    path("", include("apps.core.urls")),
    path("", include((progress_urls, "progress"))),
    path("", include((paths_urls, "paths"))),
    path("", include((catalog_urls, "catalog"))),
]

handler404 = "apps.core.views.page_not_found"
# Not a Django hook: allauth renders its rate-limit (429) responses through it.
handler429 = "apps.accounts.views.rate_limited"
