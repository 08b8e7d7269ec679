"""Quick actions on many resources at once: mark a whole section done or skipped, reset a guide's
or a path's progress (with undo), pin a guide or a path to the dashboard.

The writes are apps.progress.services' (progress_set_many, progress_reset, progress_restore);
this module only knows which resources a section, guide or path holds (the catalog's and the
paths' selectors) and where to go back to. Every action is a plain form post answered with a
redirect; to htmx, with a client redirect to the same place, so the page's numbers are those a
reload shows.
"""

import secrets
import uuid as uuid_module

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import prefetch_related_objects
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from apps.catalog import selectors
from apps.catalog.models import Guide
from apps.core.content import published_get
from apps.learning.models import Pin
from apps.learning.services import pin_set
from apps.learning.widgets import Bar
from apps.paths import selectors as path_selectors
from apps.progress.models import Status
from apps.progress.selectors import Tally
from apps.progress.services import progress_reset, progress_restore, progress_set_many

UNDO_SESSION_KEY = "progress_undo"
UNDO_KEEP = 5  # the learner's latest resets that can be undone
UNDO_SECONDS = 24 * 3600


def _back(request, fallback):
    target = request.POST.get("next", "")
    allowed = target.startswith("/") and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    url = target if allowed else fallback
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


def _uuid(value):
    try:
        return uuid_module.UUID(str(value))
    except ValueError:
        raise Http404("Not a valid key.") from None


@login_required
@require_POST
def section_mark(request, uuid):
    """Every resource of a visible section (its subsections too) done or skipped."""
    tree = selectors.visible_tree()
    section = next((s for s in tree.visible.values() if s.uuid == _uuid(uuid)), None)
    if section is None:
        raise Http404("No such section.")
    fallback = f"{section.guide.get_absolute_url()}#{section.anchor}"
    status = request.POST.get("status")
    if status not in (Status.DONE, Status.SKIPPED):
        messages.error(request, _("A section can be marked done or skipped; nothing was changed."))
        return _back(request, fallback)
    ids = selectors.guide_structure().section_resources.get(section.id, frozenset())
    resources = [r for pk, r in selectors.visible_resources_by_id().items() if pk in ids]
    changed = progress_set_many(user=request.user, resources=resources, status=status)
    message = (
        ngettext(
            "“%(title)s”: %(count)s resource marked done.",
            "“%(title)s”: %(count)s resources marked done.",
            changed,
        )
        if status == Status.DONE
        else ngettext(
            "“%(title)s”: %(count)s resource marked skipped.",
            "“%(title)s”: %(count)s resources marked skipped.",
            changed,
        )
    )
    messages.success(request, message % {"title": section.title, "count": changed})
    return _back(request, fallback)


def _reset_target(kind, key, user):
    """(title, page URL, resource ids) of what a reset names: a guide, a curated path, or one's own
    path; Http404 for anything the learner may not see."""
    if kind == "guide":
        guide = published_get(Guide, slug=key)
        ids = selectors.guide_structure().guide_resources.get(guide.id, frozenset())
        return guide.title, guide.get_absolute_url(), ids
    if kind == "path":
        path = path_selectors.published_path(slug=key)
        view = path_selectors.path_outline(path)
        return (
            path.title,
            path.get_absolute_url(),
            {i.resource_id for s in view.steps for i, _ in s.items},
        )
    if kind == "own":
        path = path_selectors.own_path_for_owner(user=user, uuid=_uuid(key))
        view = path_selectors.own_path_outline(path, user=user)
        return (
            path.title,
            path.get_absolute_url(),
            {i.resource_id for s in view.steps for i, _ in s.items},
        )
    raise Http404("Nothing to reset here.")


@login_required
@require_POST
def progress_reset_view(request, kind, key):
    title, page, ids = _reset_target(kind, key, request.user)
    snapshot = progress_reset(user=request.user, resource_ids=ids)
    token = secrets.token_urlsafe(12)
    undos = [u for u in request.session.get(UNDO_SESSION_KEY, []) if u["token"] != token]
    undos.append(
        {
            "token": token,
            "title": title,
            "page": page,
            "rows": snapshot,
            "at": timezone.now().timestamp(),
        }
    )
    request.session[UNDO_SESSION_KEY] = undos[-UNDO_KEEP:]
    url = reverse("learning:progress-undo", args=[token])
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@login_required
@require_http_methods(["GET", "POST"])
def progress_undo(request, token):
    """The page after a reset: what it changed, and the button that puts it back."""
    undos = request.session.get(UNDO_SESSION_KEY, [])
    undo = next((u for u in undos if u["token"] == token), None)
    if undo is None or timezone.now().timestamp() - undo["at"] > UNDO_SECONDS:
        messages.info(request, _("That reset can no longer be undone."))
        return redirect("learning:dashboard")
    if request.method == "POST":
        restored = progress_restore(user=request.user, snapshot=undo["rows"])
        request.session[UNDO_SESSION_KEY] = [u for u in undos if u["token"] != token]
        messages.success(
            request,
            ngettext(
                "Undone: %(count)s resource of “%(title)s” back as it was.",
                "Undone: %(count)s resources of “%(title)s” back as they were.",
                restored,
            )
            % {"count": restored, "title": undo["title"]},
        )
        return HttpResponseClientRedirect(undo["page"]) if request.htmx else redirect(undo["page"])
    return render(request, "progress/undo.html", {"undo": undo, "count": len(undo["rows"])})


@login_required
@require_POST
def pin_toggle(request, kind, key):
    """Pin a guide or a path (curated or one's own) to the dashboard, or unpin it."""
    pinned = request.POST.get("pinned") == "1"
    if kind == "guide":
        target = {"guide": published_get(Guide, slug=key)}
    elif kind == "path":
        target = {"path": path_selectors.published_path(slug=key)}
    elif kind == "own":
        target = {"own_path": path_selectors.own_path_for_owner(user=request.user, uuid=_uuid(key))}
    else:
        raise Http404("Nothing to pin here.")
    pin_set(user=request.user, pinned=pinned, **target)
    (what,) = target.values()
    message = (
        _("“%(title)s” is pinned to your dashboard.")
        if pinned
        else _("“%(title)s” is no longer on your dashboard.")
    )
    messages.success(request, message % {"title": what.title})
    return _back(request, what.get_absolute_url())


def dashboard_pins(*, user, statuses) -> list[dict]:
    """The learner's pins, oldest first, each with its tally from `statuses`: three queries (the
    pins with their guide or path; own paths' steps and items) whatever their number."""
    pins = list(
        Pin.objects.filter(user=user)
        .select_related("guide", "path", "own_path")
        .order_by("pinned_at", "pk")
    )
    structure = selectors.guide_structure()
    own = [pin.own_path for pin in pins if pin.own_path_id]
    if own:
        prefetch_related_objects(own, path_selectors.own_steps_prefetch(owner=user))
    curated = {path.id: path for path in path_selectors.published_paths()}
    shown = []
    for pin in pins:
        if pin.guide_id:
            if not pin.guide.is_published:
                continue
            ids = structure.guide_resources.get(pin.guide_id, frozenset())
            tally, kind, key = Tally.of(ids, statuses), "guide", pin.guide.slug
        elif pin.path_id:
            if pin.path_id not in curated:
                continue
            view = path_selectors.path_outline(curated[pin.path_id])
            ids = {item.resource_id for step in view.steps for item, _ in step.items}
            tally, kind, key = Tally.of(ids, statuses), "path", pin.path.slug
        else:
            view = path_selectors.own_path_view(path=pin.own_path, user=user, statuses=statuses)
            tally, kind, key = view.tally, "own", str(pin.own_path.uuid)
        shown.append(
            {
                "target": pin.target,
                "kind": kind,
                "tally": tally,
                "bar": Bar(f"bar-pin-{kind}-{pin.target.uuid}", pin.target.title, tally, True),
                "unpin": reverse("learning:pin", args=[kind, key]),
            }
        )
    return shown
