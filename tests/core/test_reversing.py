"""apps.core.reversing: model links are reversed once, yet follow the prefix and the URLconf."""

import pytest
from django.test import override_settings
from django.urls import clear_script_prefix, reverse, set_script_prefix

from tests.factories import ResourceFactory

pytestmark = pytest.mark.django_db


def test_a_link_is_what_reverse_gives_under_every_script_prefix():
    resource = ResourceFactory()
    expected = reverse("learning:resource-detail", args=[resource.uuid])
    assert resource.get_absolute_url() == expected
    set_script_prefix("/syllabus/")
    try:
        assert resource.get_absolute_url() == "/syllabus" + expected
    finally:
        clear_script_prefix()
    assert resource.get_absolute_url() == expected


@override_settings(ROOT_URLCONF="tests.core.urls_elsewhere")
def test_a_link_follows_another_urlconf():
    resource = ResourceFactory()
    assert resource.get_absolute_url() == f"/elsewhere/resources/{resource.uuid}/"
