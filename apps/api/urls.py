"""The personal API (`api:`): its version 1 under /api/v1/ (`api:v1:`, apps.api.api) and the
account's token page, where a learner makes and revokes their tokens."""

from django.urls import path

from apps.api import views
from apps.api.api import api

app_name = "api"

urlpatterns = [
    path("account/tokens/", views.tokens, name="tokens"),
    path("account/tokens/<uuid:uuid>/revoke/", views.token_revoke, name="token-revoke"),
    path("api/v1/", api.urls),
]
