"""Catalog pages."""

from django.shortcuts import render

from apps.catalog.models import Guide


def home(request):
    return render(request, "catalog/home.html", {"guides": Guide.objects.published()})
