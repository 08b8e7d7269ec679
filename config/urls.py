"""Root URL configuration."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("", include("apps.accounts.urls")),
    path("", include("apps.api.urls")),
    path("", include("apps.core.urls")),
    path("", include("apps.progress.urls")),
    path("", include("apps.paths.urls")),
    path("", include("apps.groups.urls")),
    path("", include("apps.learning.urls")),
    path("", include("apps.catalog.urls")),
]

handler404 = "apps.core.views.page_not_found"
# Not a Django hook: allauth renders its rate-limit (429) responses through it.
handler429 = "apps.accounts.views.rate_limited"
