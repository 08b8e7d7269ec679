"""The curators' admin site (apps.curation.admin): Django's documented way to replace the default
site, and Django's public hooks for the guarded autocomplete widgets, rather than attributes
patched onto live objects."""

import pytest
from django.apps import apps
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.test import RequestFactory

from apps.catalog.models import Entry, Resource
from apps.curation.admin import CurationAdminSite
from apps.curation.admin.base import (
    _GuardedMultipleChoice,
    _GuardedSelect,
    _GuardedSelectMultiple,
)

pytestmark = pytest.mark.django_db


def test_the_default_site_is_the_curators_site_with_nothing_patched_on_the_instance():
    assert isinstance(admin.site, CurationAdminSite)
    assert apps.get_app_config("admin").default_site == "apps.curation.admin.CurationAdminSite"
    site = admin.site._wrapped  # the site behind Django's lazy admin.site
    assert {"login", "autocomplete_view", "site_header", "site_title"}.isdisjoint(vars(site))
    assert site.site_header == "Syllabus curation"


def test_autocomplete_fields_get_the_guarded_widgets_as_built(superuser):
    request = RequestFactory().get("/admin/")
    request.user = superuser
    entry_admin = admin.site.get_model_admin(Entry)
    resource_field = entry_admin.formfield_for_foreignkey(
        Entry._meta.get_field("resource"), request
    )
    assert type(resource_field.widget) is _GuardedSelect
    resource_admin = admin.site.get_model_admin(Resource)
    topics = resource_admin.formfield_for_manytomany(Resource._meta.get_field("topics"), request)
    assert type(topics) is _GuardedMultipleChoice and type(topics.widget) is _GuardedSelectMultiple


def test_an_out_of_range_id_in_a_many_to_many_is_refused_not_a_500():
    field = _GuardedMultipleChoice(queryset=Resource.objects.none())
    with pytest.raises(ValidationError) as refused:
        field.clean(["9" * 40])
    assert refused.value.code == "invalid_pk_value"
