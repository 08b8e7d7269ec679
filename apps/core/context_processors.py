"""What the layout (base.html) shows on every page: URLs that cannot change while the process
runs, reversed and looked up in the static manifest once instead of on every request, and the
layout's parts made from them (`chrome`)."""

from functools import cached_property, lru_cache

from django.contrib.messages import get_messages
from django.middleware.csrf import get_token
from django.templatetags.static import static
from django.urls import get_script_prefix, reverse
from django.utils.functional import SimpleLazyObject
from django_htmx.jinja import htmx_script

from apps.core.html import engine_template, render_shared, slots_html

LAYOUT_PARTS = "includes/layout_parts.html"
ACCOUNT_NAV = "includes/account_nav.html"
MESSAGES = "includes/messages.html"

_PARTS = ("head", "brand", "nav", "search", "footer")  # the partials of LAYOUT_PARTS

# The nav item marked current, by the name of the page's URL.
NAV_SECTIONS = {
    "home": "guides",
    "guide-detail": "guides",
    "topic-list": "topics",
    "topic-detail": "topics",
    "path-list": "paths",
    "path-detail": "paths",
}


def layout(request):
    """`layout` (not "site": allauth puts the Sites framework's current site under that name) and
    `chrome`. The page's `csrf_token` becomes the chrome's, read only if the page shows it: Django
    masks the token anew on every read, and the layout's account corner shows it beside the page's
    own forms (this processor runs after Django's built-in one, so its value wins)."""
    chrome = Chrome(request, get_script_prefix())
    return {
        "layout": chrome.urls,
        "chrome": chrome,
        "csrf_token": SimpleLazyObject(lambda: chrome.csrf_token),
    }


@lru_cache(maxsize=8)
def _layout(script_prefix: str) -> dict:  # reversed URLs start with the prefix the app is mounted at
    return {
        "home": reverse("catalog:home"),
        "topics": reverse("catalog:topic-list"),
        "paths": reverse("paths:path-list"),
        "search": reverse("catalog:search"),
        "account": reverse("accounts:account"),
        "login": reverse("account_login"),
        "logout": reverse("account_logout"),
        "logo": static("img/logo.svg"),
        "css": static("css/app.css"),
        "shortcuts": static("js/shortcuts.js"),
        "htmx": htmx_script(minified=True),  # no nonce: the CSP allows our own scripts, no inline ones
    }


class Chrome:
    """The layout's parts for one request (includes/layout_parts.html): each is rendered once per
    process, script prefix and current nav item, so a page pays a lookup for it, not a render.
    The account corner is filled per request, and only when the page shows it, since it reads the
    CSRF token (reading it makes the response set the CSRF cookie)."""

    def __init__(self, request, script_prefix: str):
        self._request, self._prefix = request, script_prefix
        self.urls = _layout(script_prefix)

    def __getitem__(self, name):
        """`{{ chrome.head }}` and the like: the template engine looks a name up as an item first."""
        if name in _PARTS:
            return self._parts[name]
        return getattr(self, name)

    @cached_property
    def _parts(self) -> dict:
        match = self._request.resolver_match
        current = NAV_SECTIONS.get(match.url_name) if match else None
        return _parts(engine_template(LAYOUT_PARTS), self._prefix, current)

    @property
    def messages(self):
        """The messages waiting for this request (marked as shown), or "" when there are none,
        as most requests have none."""
        messages = get_messages(self._request)
        return render_shared(MESSAGES, {"messages": messages}) if messages else ""

    @cached_property
    def csrf_token(self) -> str:
        return get_token(self._request)

    @property
    def account(self):
        urls, user = self.urls, self._request.user
        if not user.is_authenticated:
            return slots_html(f"{ACCOUNT_NAV}#signed-out", login_url=urls["login"])
        return slots_html(
            f"{ACCOUNT_NAV}#signed-in",
            account_url=urls["account"],
            email=user.email,
            name=user.email or user.get_username(),
            logout_url=urls["logout"],
            csrf_token=self.csrf_token,
        )


@lru_cache(maxsize=32)
def _parts(template, script_prefix: str, current: str | None) -> dict:
    """Keyed by the loaded template too, so an edited file (the development server reloads it)
    brings new parts with it."""
    context = {"layout": _layout(script_prefix), "current": current}
    return {name: render_shared(f"{LAYOUT_PARTS}#{name}", context) for name in _PARTS}
