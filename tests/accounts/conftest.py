"""The account tests' cache: allauth's rate limits must not carry from test to test."""

import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    """allauth counts attempts in the default cache; a locmem cache would carry them from test to test."""
    cache.clear()
    yield
    cache.clear()
