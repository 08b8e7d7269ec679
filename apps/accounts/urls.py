from django.urls import path

from apps.accounts import views

app_name = "accounts"

urlpatterns = [
    path("account/", views.account, name="account"),
    path("account/time-zone/", views.time_zone, name="time-zone"),
    path("language/", views.language, name="language"),
    path("account/export.json", views.data_export, name="data-export"),
    path("account/delete/", views.account_delete, name="delete"),
    path("account/public-page/", views.public_profile_settings, name="public-profile-settings"),
    path("u/<slug:slug>/", views.public_profile, name="public-profile"),
    path("invite/<slug:token>/", views.InviteSignupView.as_view(), name="invite-signup"),
]
