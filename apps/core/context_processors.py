"""What the layout (base.html) shows on every page: URLs that cannot change while the process
runs, reversed and looked up in the static manifest once per script prefix, the nav item of
the page's section, and the site's name and address (SITE_NAME, SITE_URL) that mail signs with."""

from functools import lru_cache

from django.conf import settings
from django.templatetags.static import static
from django.urls import get_script_prefix, reverse
from django_htmx.jinja import htmx_script

# The nav item marked current, by the name of the page's URL. Home is the catalog for visitors and
# a signed-in learner's dashboard (apps.learning.views.home), so it is marked by who asks.
NAV_SECTIONS = {
    "dashboard": "dashboard",
    "notebook": "dashboard",
    "whats-new": "dashboard",
    "guide-list": "guides",
    "guide-detail": "guides",
    "topic-list": "topics",
    "topic-detail": "topics",
    "path-list": "paths",
    "path-detail": "paths",
    "group-list": "groups",
    "group-create": "groups",
    "group-detail": "groups",
    "group-activity": "groups",
    "group-settings": "groups",
    "group-edit": "groups",
    "group-invites": "groups",
    "group-members": "groups",
}


def layout(request):
    """`layout` (not "site": allauth puts the Sites framework's current site under that name)
    and `nav_current`."""
    match = request.resolver_match
    current = NAV_SECTIONS.get(match.url_name) if match else None
    if match and match.url_name == "home":
        current = "dashboard" if request.user.is_authenticated else "guides"
    return {
        "layout": _layout(get_script_prefix()),
        "nav_current": current,
        # allauth's mails (templates/account/email/) sign with these, not the request's host.
        "site_name": settings.SITE_NAME,
        "site_url": settings.SITE_URL,
    }


@lru_cache(maxsize=8)
def _layout(
    script_prefix: str,
) -> dict:  # reversed URLs start with the prefix the app is mounted at
    return {
        "home": reverse("learning:home"),
        "guides": reverse("learning:guide-list"),
        "dashboard": reverse("learning:dashboard"),
        "signup": reverse("account_signup"),
        "topics": reverse("learning:topic-list"),
        "paths": reverse("learning:path-list"),
        "search": reverse("learning:search"),
        "catalog_feed": reverse("catalog:feed"),
        "whats_new": reverse("learning:whats-new"),
        "groups": reverse("groups:group-list"),
        "account": reverse("accounts:account"),
        "language": reverse("accounts:language"),
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
