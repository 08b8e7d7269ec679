"""Autocomplete fields that hold up (apps.core.admin_autocomplete): the guarded widgets and field
are what Django's public hooks build, and an out-of-range id is refused, not a 500."""

import pytest
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.test import RequestFactory

from apps.catalog.models import Entry, Resource
from apps.core.admin_autocomplete import (
    _GuardedMultipleChoice,
    _GuardedSelect,
    _GuardedSelectMultiple,
)
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_autocomplete_fields_get_the_guarded_widgets_as_built():
    request = RequestFactory().get("/admin/")
    request.user = UserFactory(is_staff=True, is_superuser=True)
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
