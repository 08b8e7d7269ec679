from django.urls import include, path

urlpatterns = [path("elsewhere/", include("config.urls"))]
