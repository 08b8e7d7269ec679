"""`reverse` for the links a page repeats: each model link is reversed once per process.

A dashboard or a search page links a dozen resources, and `reverse` costs more than the rest of
such a row's rendering. What it returns depends only on the URLconf, the script prefix the app
is mounted at, the view name and the arguments, so all of them are the key.
"""

from functools import lru_cache

from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse


def reverse_cached(viewname: str, *args) -> str:
    """`reverse(viewname, args=args)`, remembered; `args` must be hashable (slugs, uuids, ints)."""
    return _reversed(get_urlconf() or settings.ROOT_URLCONF, get_script_prefix(), viewname, args)


@lru_cache(maxsize=8192)  # every resource, guide, topic and path of a large catalog
def _reversed(urlconf, script_prefix, viewname, args) -> str:
    return reverse(viewname, urlconf=urlconf, args=args)
