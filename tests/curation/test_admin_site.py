"""The curators' admin site (apps.curation.admin): made the default site the documented way (an
AdminConfig naming it), rather than attributes patched onto the live admin.site."""

import pytest
from django.apps import apps
from django.contrib import admin

from apps.curation.admin import CurationAdminSite

pytestmark = pytest.mark.django_db


def test_the_default_site_is_the_curators_site_with_nothing_patched_on_the_instance():
    assert isinstance(admin.site, CurationAdminSite)
    assert apps.get_app_config("admin").default_site == "apps.curation.admin.CurationAdminSite"
    site = admin.site._wrapped  # the site behind Django's lazy admin.site
    assert {"login", "autocomplete_view", "site_header", "site_title"}.isdisjoint(vars(site))
    assert site.site_header == "Syllabus curation"
