"""Malformed values sent to every URL parameter, query string and form field of the app, as a
visitor, a learner and a curator: no answer is a 5xx, and a refused write changes nothing.

Nothing here is hand-listed per view. URL patterns come from the resolver (every converter and
regular-expression group gets each malformed value); pages and their forms are found by
crawling from the start pages as each persona (every <form>, its method, action and fields);
query strings carry the page's own GET fields plus the parameters views commonly read.
"""

import hashlib
import re
from collections import deque
from html.parser import HTMLParser
from urllib.parse import quote, urlsplit

import pytest
from django.apps import apps
from django.contrib.auth.models import Group
from django.contrib.messages import ERROR
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from apps.curation.permissions import CURATORS_GROUP, sync_curator_permissions
from apps.paths.models import PathFollow
from apps.progress.models import Status
from apps.progress.services import progress_set_status
from tests.factories import UserFactory
from tests.paths.conftest import learning_path  # noqa: F401 - shared fixture
from tests.progress.conftest import catalog  # noqa: F401 - shared fixture

pytestmark = pytest.mark.django_db

# Each is sent as raw form/query/path text: percent sequences stay as written, so "%FF" is an
# invalid UTF-8 byte and "%00" a NUL on the wire.
MALFORMED = [
    "x" * 5000,
    "%00",
    "a%00b",
    "%C3%28%FF%FE",
    "%ED%A0%80",  # an encoded UTF-16 surrogate: invalid UTF-8
    "-1",
    "9" * 40,
    "2147483648",
    "1e309",
    "not-a-uuid",
    "00000000-0000-0000-0000-000000000000",
    "[" * 2000 + "]" * 2000,
    "%7B%22a%22%3A" + "%5B" * 2000,  # {"a": then 2000 [
    "%27%20OR%20%271%27%3D%271",  # ' OR '1'='1
    "%3Cscript%3Ealert(1)%3C%2Fscript%3E",
    "..%2F..%2F..%2Fetc%2Fpasswd",
    "%E2%80%AE%EF%BB%BF",  # right-to-left override, byte-order mark
    "",
]
# Query parameters views read, beyond the fields of the page's own GET forms.
COMMON_PARAMS = [
    "q",
    "page",
    "next",
    "sort",
    "o",
    "p",
    "e",
    "kind",
    "topic",
    "tier",
    "status",
    "scope",
    "slot",
    "guide",
    "format",
    "_changelist_filters",
    "all",
    "is_popup",
    "_to_field",
    "term",
    "app_label",
    "model_name",
    "field_name",
]
# Pages whose forms end the persona's session or delete what later requests need: their refusal
# is tested elsewhere; here they would only stop the crawl.
SKIP_ACTIONS = re.compile(
    r"/logout/|/delete/|/accounts/(password|email|reauthenticate)|/account/delete/"
)
MAX_PAGES = {"visitor": 25, "learner": 30, "curator": 26}
# How many of the malformed values each form, page and route gets, by turns (so every value
# reaches every kind of target): all of them for the site's own pages; the admin's many heavy
# pages get a rotating third, to keep the suite's run short.
PER_TARGET = {"visitor": len(MALFORMED), "learner": len(MALFORMED), "curator": 4}
FORMSET_COUNTS = ("-TOTAL_FORMS", "-INITIAL_FORMS", "-MIN_NUM_FORMS", "-MAX_NUM_FORMS")
# Fields of one form malformed one by one (the admin's inline forms have dozens: by turns).
FIELDS_ALONE = {"visitor": 100, "learner": 100, "curator": 12}


def _values(values, index, count):
    """`count` of `values`, starting at the `index`th target's turn."""
    return [
        values[(index * count + offset) % len(values)] for offset in range(min(count, len(values)))
    ]


# A refused write says so: a 4xx, an error message, or the page again with its errors.
ERROR_MARKS = ("errorlist", "notice--error", 'role="alert"', "errornote")


class _Forms(HTMLParser):
    """The links and forms of a page: forms as (method, action, {name: default value})."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links, self.forms, self._form = [], [], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
        elif tag == "form":
            self._form = ((attrs.get("method") or "get").lower(), attrs.get("action") or "", {})
            self.forms.append(self._form)
        elif (
            tag in ("input", "textarea", "select", "button")
            and self._form is not None
            and attrs.get("name")
        ):
            if attrs.get("type") in ("checkbox", "radio") and "checked" not in attrs:
                self._form[2].setdefault(attrs["name"], "")
            else:
                self._form[2].setdefault(attrs["name"], attrs.get("value") or "")

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None


# What a write could change: every row of the learners' data and of the catalog.
WATCHED = [
    "auth.User",
    "auth.Group",
    "account.EmailAddress",
    "socialaccount.SocialAccount",
    "progress.Progress",
    "progress.Activity",
    "paths.PathFollow",
    "paths.LearningPath",
    "paths.PathStep",
    "paths.StepResource",
    "catalog.Guide",
    "catalog.Section",
    "catalog.Entry",
    "catalog.Resource",
    "catalog.Topic",
]


def _snapshot():
    """Every row of the watched tables, as one digest."""
    digest = hashlib.sha256()
    for label in WATCHED:
        for row in apps.get_model(label).objects.order_by("pk").values_list():
            digest.update(repr(row).encode())
    return digest.hexdigest()


class Run:
    def __init__(self, persona, client, user):
        self.persona, self.client, self.user = persona, client, user
        self.requests, self.server_errors, self.failures = 0, 0, []

    def send(self, method, url, body=None, *, check_write=False):
        before = _snapshot() if check_write else None
        if method == "get":
            response = self.client.get(url)
        else:
            response = self.client.generic(
                "POST", url, body or "", content_type="application/x-www-form-urlencoded"
            )
        self.requests += 1
        if response.status_code >= 500:
            self.server_errors += 1
            self.failures.append(
                (self.persona, method, url[:200], (body or "")[:200], response.status_code)
            )
        elif check_write and self._refused(response) and _snapshot() != before:
            self.failures.append(
                (self.persona, method, url[:200], (body or "")[:200], "refused, yet wrote")
            )
        if self.user is not None and "_auth_user_id" not in self.client.session:
            self.client.force_login(self.user)  # a form that signs out (or a changed password)
        return response

    @staticmethod
    def _refused(response):
        if response.status_code >= 400:
            return True
        queued = getattr(getattr(response.wsgi_request, "_messages", None), "_queued_messages", [])
        if any(message.level == ERROR for message in queued):
            return True
        if response.status_code == 200 and response.get("Content-Type", "").startswith("text/html"):
            return any(mark in response.content.decode(errors="replace") for mark in ERROR_MARKS)
        return False


def _crawl(run, starts):
    """Pages reachable from `starts` (same site, GET), and the forms on them."""
    seen, pages, forms = set(), [], {}
    queue = deque(starts)
    while queue and len(pages) < MAX_PAGES[run.persona]:
        url = queue.popleft()
        key = re.sub(r"\d+", "N", urlsplit(url).path)  # one page per shape (/admin/x/N/change/)
        if key in seen:
            continue
        seen.add(key)
        response = run.send("get", url)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        pages.append(url)
        parser = _Forms()
        parser.feed(response.content.decode(errors="replace"))
        for href in parser.links:
            parts = urlsplit(href)
            if (
                not parts.netloc
                and href.startswith("/")
                and not href.startswith("/static/")
                and not SKIP_ACTIONS.search(parts.path)
            ):
                queue.append(href.split("#")[0])
        for method, action, fields in parser.forms:
            target = action or urlsplit(url).path
            if SKIP_ACTIONS.search(target) or not target.startswith("/"):
                continue
            forms.setdefault(
                (method, urlsplit(target).path, tuple(sorted(fields))), (target, fields)
            )
    return pages, forms


def _body(fields):
    """A urlencoded body, with each value sent as it is written (percent sequences raw)."""
    return "&".join(
        f"{quote(name, safe='')}={value.replace('&', '%26').replace('+', '%2B').replace('=', '%3D')}"
        for name, value in fields.items()
    )


def _fuzz_forms(run, forms):
    for number, (method, _path, _names) in enumerate(forms):
        target, defaults = forms[(method, _path, _names)]
        names = [name for name in defaults if name != "csrfmiddlewaretoken"]
        valid = {name: quote(value, safe="") for name, value in defaults.items()}
        # Every field malformed at once, but an admin formset's counts: Django caps them (at most
        # 2,000 forms are built, ~2 s of a curator's request), each is malformed alone below.
        counted = [name for name in names if not name.endswith(FORMSET_COUNTS)]
        for value in _values(MALFORMED, number, PER_TARGET[run.persona]):
            body = _body(valid | dict.fromkeys(counted, value))
            if method == "post":
                run.send("post", target, body, check_write=True)
            else:
                run.send("get", f"{target}?{body}")
        for index, name in enumerate(
            _values(names, number, FIELDS_ALONE[run.persona]) if names else []
        ):  # each alone
            for value in (MALFORMED[index % len(MALFORMED)],):
                body = _body(valid | {name: value})
                if method == "post":
                    run.send("post", target, body, check_write=True)
                else:
                    run.send("get", f"{target}?{body}")


def _fuzz_queries(run, pages, forms):
    get_fields = {name for (method, _, names) in forms if method == "get" for name in names}
    params = sorted(get_fields | set(COMMON_PARAMS))
    shapes = {}
    for url in pages:
        shapes.setdefault(re.sub(r"\d+", "N", urlsplit(url).path), url)
    for number, url in enumerate(shapes.values()):
        base = url.split("?")[0]
        for value in _values(MALFORMED, number, PER_TARGET[run.persona]):
            run.send("get", f"{base}?" + "&".join(f"{param}={value}" for param in params))


def _patterns(resolver=None, prefix=""):
    """(route text, pattern) of every URL pattern, includes flattened."""
    resolver = resolver or get_resolver()
    for pattern in resolver.url_patterns:
        text = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from _patterns(pattern, text)
        elif isinstance(pattern, URLPattern):
            yield text


_CONVERTER = re.compile(r"<(?:(\w+):)?(\w+)>")
_GROUP = re.compile(r"\(\?P<\w+>(?:[^()]|\([^()]*\))*\)")


def _urls_with(route, value):
    """`route` with every parameter replaced by `value` (None when the route has none)."""
    if not _CONVERTER.search(route) and not _GROUP.search(route):
        return None
    url = _CONVERTER.sub(value, route)
    url = _GROUP.sub(value, url)
    url = (
        url.replace("^", "")
        .replace("$", "")
        .replace("\\Z", "")
        .replace("\\.", ".")
        .replace("\\", "")
    )
    return "/" + url.lstrip("/")


# The malformed values a URL parameter gets (a path segment: no "/" unencoded).
MALFORMED_PATH = [
    "x" * 2000,
    "%00",
    "%C3%28%FF%FE",
    "-1",
    "9" * 40,
    "00000000-0000-0000-0000-000000000000",
    "%5B" * 500,
    "..%2F..%2Fetc",
]


def _fuzz_paths(run, admin):
    for number, route in enumerate(sorted(set(_patterns()))):
        if route.startswith("admin/") != admin:
            continue
        for value in _values(MALFORMED_PATH, number, 3) if admin else MALFORMED_PATH:
            url = _urls_with(route, value)
            if url is None:
                break
            run.send("get", url)
            if not admin:  # the admin's views share one lookup of the object id, GET or POST
                run.send("post", url, "", check_write=not SKIP_ACTIONS.search(url))


@pytest.fixture
def world(catalog, learning_path):  # noqa: F811
    sync_curator_permissions()
    learner = UserFactory(email="lea@example.com")
    progress_set_status(
        user=learner, resource=catalog["resources"][0], status=Status.DONE, note="mine"
    )
    PathFollow.objects.create(user=learner, path=learning_path)
    curator = UserFactory(email="cora@example.com", is_staff=True)
    curator.groups.add(Group.objects.get(name=CURATORS_GROUP))
    return {"visitor": None, "learner": learner, "curator": curator}


START = {
    "visitor": ["/", "/accounts/login/", "/accounts/signup/", "/search/?q=a"],
    "learner": ["/", "/dashboard/", "/account/", "/progress/import/", "/search/?q=a"],
    "curator": ["/admin/", "/admin/catalog/guide/import/"],
}


@pytest.mark.parametrize("persona", ["visitor", "learner", "curator"])
def test_no_malformed_input_gets_a_server_error_or_a_refused_write(world, persona, capsys):
    client = Client(raise_request_exception=False)
    user = world[persona]
    if user is not None:
        client.force_login(user)
    run = Run(persona, client, user)
    pages, forms = _crawl(run, START[persona])
    assert len(pages) >= 4 and forms, (pages, list(forms))
    _fuzz_forms(run, forms)
    _fuzz_queries(run, pages, forms)
    _fuzz_paths(run, admin=persona == "curator")
    with capsys.disabled():
        print(
            f"\n[malformed input] {persona}: {len(pages)} pages, {len(forms)} forms, "
            f"{run.requests} requests, {run.server_errors} answered 5xx"
        )
    assert run.failures == [], run.failures[:20]
