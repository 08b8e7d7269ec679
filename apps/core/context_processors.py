"""What the layout (base.html) shows on every page: URLs that cannot change while the process
runs, reversed and looked up in the static manifest once per script prefix, and the nav item of
the page's section."""

from functools import lru_cache

from django.templatetags.static import static
from django.urls import get_script_prefix, reverse
from django_htmx.jinja import htmx_script

# The nav item marked current, by the name of the page's URL.
NAV_SECTIONS = {
    "home": "guides",
    "guide-list": "guides",
    "guide-detail": "guides",
    "topic-list": "topics",
    "topic-detail": "topics",
    "path-list": "paths",
    "path-detail": "paths",
}


def layout(request):
    """`layout` (not "site": allauth puts the Sites framework's current site under that name)
    and `nav_current`."""
    match = request.resolver_match
    return {
        "layout": _layout(get_script_prefix()),
        "nav_current": NAV_SECTIONS.get(match.url_name) if match else None,
    }


@lru_cache(maxsize=8)
def _layout(
    script_prefix: str,
) -> dict:  # reversed URLs start with the prefix the app is mounted at
    return {
        "home": reverse("catalog:home"),
        "guides": reverse("catalog:guide-list"),
        "signup": reverse("account_signup"),
        "topics": reverse("catalog:topic-list"),
        "paths": reverse("paths:path-list"),
        "search": reverse("catalog:search"),
        "account": reverse("accounts:account"),
        "login": reverse("account_login"),
        "logout": reverse("account_logout"),
        "logo": static("img/logo.svg"),
        "css": static("css/app.css"),
        "shortcuts": static("js/shortcuts.js"),
        "timezone": static("js/timezone.js"),
        "htmx": htmx_script(
            minified=True
        ),  # no nonce: the CSP allows our own scripts, no inline ones
    }
