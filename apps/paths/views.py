"""Following a path and setting its pace (the curated path pages themselves are learner pages,
apps.learning); a learner's own paths: their list, editor, page and published page."""

import uuid as uuid_module
from functools import wraps
from urllib.parse import quote

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from apps.paths import services
from apps.paths.forms import (
    FollowForm,
    OwnAddForm,
    OwnMoveForm,
    OwnPathForm,
    OwnPathNewForm,
    OwnStepForm,
)
from apps.paths.models import LearningPath, OwnStep, OwnStepItem
from apps.paths.selectors import (
    NOT_ADDABLE,
    addable_resource,
    own_path_for_owner,
    own_path_published,
    own_path_view,
    own_paths_for,
    published_path,
    resources_to_add,
)
from apps.paths.services import path_follow, path_unfollow


@require_POST
def path_follow_view(request, slug):
    path = get_object_or_404(LearningPath.objects.published(), slug=slug)
    if not request.user.is_authenticated:
        return redirect(f"{reverse('account_login')}?next={quote(path.get_absolute_url())}")
    form = FollowForm(request.POST)
    if not form.is_valid():
        messages.error(
            request,
            _("Hours per week must be a whole number from 1 to 168; nothing was changed."),
        )
    elif form.cleaned_data["action"] == "unfollow":
        path_unfollow(user=request.user, path=path)
        messages.success(
            request,
            _("You no longer follow “%(title)s”. Your progress is kept.") % {"title": path.title},
        )
    else:
        path_follow(
            user=request.user, path=path, hours_per_week=form.cleaned_data["hours_per_week"]
        )
        messages.success(
            request,
            _("You follow “%(title)s”; it shows on your dashboard.") % {"title": path.title},
        )
    return redirect(path)


# A learner's own paths. Every page and action looks the path up through _owners_path
# (selectors.own_path_for_owner: its owner only; anyone else gets a 404, a visitor the sign-in
# page) or selectors.own_path_published (a published one, read-only). What may be added to one is
# selectors.addable_resource's to say. Each action answers htmx with the
# editor's fragment and a plain form post with a redirect to the editor.


def _signed_in(request):
    if request.user.is_authenticated:
        return None
    return redirect(f"{reverse('account_login')}?next={quote(request.get_full_path())}")


def _owners_path(view):
    """`view(request, path, …)` for the own path at the URL's `uuid`: a visitor is sent to sign
    in, anyone but its owner gets a 404 (selectors.own_path_for_owner)."""

    @wraps(view)
    def wrapped(request, uuid, **kwargs):
        if refused := _signed_in(request):
            return refused
        return view(request, own_path_for_owner(user=request.user, uuid=uuid), **kwargs)

    return wrapped


def _editor(request, path):
    """The editor page, or to htmx its fragment (#own-editor)."""
    query = request.GET.get("q", "")
    view = own_path_view(path=path, user=request.user)
    context = {
        "path": path,
        "view": view,
        "form": OwnPathForm(
            initial={
                "title": path.title,
                "description": path.description,
                "notes": path.notes,
                "hours_per_week": path.hours_per_week,
                "slug": path.slug,
                "published": path.published,
            }
        ),
        "query": query,
        "found": resources_to_add(query=query, user=request.user),
        "in_path": {item.resource_id for step in view.steps for item, _ in step.items},
    }
    template = "paths/own_edit.html"
    if request.htmx and not request.htmx.history_restore_request:
        template += "#editor"
    return render(request, template, context)


def _done(request, path, message=None, *, error=None):
    if error:
        messages.error(request, _("%(error)s Nothing was changed.") % {"error": error})
    elif message:
        messages.success(request, message)
    if request.htmx:
        return _editor(request, path)  # htmx swaps 2xx only: the error is in the fragment
    return redirect(reverse("paths:own-edit", args=[path.uuid]))


@require_http_methods(["GET", "POST"])
def own_list(request):
    if refused := _signed_in(request):
        return refused
    if request.method == "POST":
        form = OwnPathNewForm(request.POST)
        if form.is_valid():
            path = services.own_path_create(user=request.user, title=form.cleaned_data["title"])
            messages.success(request, f"“{path.title}” is yours: add resources to it.")
            return redirect(reverse("paths:own-edit", args=[path.uuid]))
        messages.error(request, _("A path needs a title; nothing was changed."))
        return redirect(reverse("paths:own-list"))
    return render(
        request,
        "paths/own_list.html",
        {"paths": own_paths_for(user=request.user), "form": OwnPathNewForm()},
    )


@require_safe
@_owners_path
def own_detail(request, path):
    return render(
        request,
        "paths/own_detail.html",
        {"path": path, "view": own_path_view(path=path, user=request.user), "mine": True},
    )


@require_http_methods(["GET", "POST"])
@_owners_path
def own_edit(request, path):
    if request.method == "GET":
        return _editor(request, path)
    form = OwnPathForm(request.POST)
    if not form.is_valid():
        return _done(request, path, error=_first_error(form))
    try:
        services.own_path_update(path=path, **form.cleaned_data)
    except services.OwnPathError as error:
        path.refresh_from_db()
        return _done(request, path, error=str(error))
    return _done(request, path, "Saved.")


@require_POST
@_owners_path
def own_delete(request, path):
    services.own_path_delete(path=path)
    messages.success(request, f"“{path.title}” was deleted. Your progress is kept.")
    return redirect(reverse("paths:own-list"))


@require_POST
@_owners_path
def own_step_add(request, path):
    form = OwnStepForm(request.POST)
    if not form.is_valid():
        return _done(request, path, error=_first_error(form))
    services.own_step_add(path=path, **form.cleaned_data)
    return _done(request, path, _("Step added."))


@require_POST
@_owners_path
def own_step_change(request, path, step_uuid):
    step = get_object_or_404(OwnStep, path=path, uuid=step_uuid)
    action = request.POST.get("action")
    if action in ("up", "down"):
        services.own_step_move(step=step, by=-1 if action == "up" else 1)
        return _done(request, path)
    if action == "remove":
        services.own_step_remove(step=step)
        return _done(request, path, _("Step “%(title)s” removed.") % {"title": step.title})
    form = OwnStepForm(request.POST)
    if not form.is_valid():
        return _done(request, path, error=_first_error(form))
    services.own_step_update(step=step, **form.cleaned_data)
    return _done(request, path, _("Step saved."))


@require_POST
@_owners_path
def own_item_change(request, path, item_uuid):
    item = get_object_or_404(
        OwnStepItem.objects.select_related("step"), step__path=path, uuid=item_uuid
    )
    form = OwnMoveForm(request.POST)
    if not form.is_valid():
        return _done(request, path, error=_("Choose up, down, remove or a step to move to."))
    action = form.cleaned_data["action"]
    try:
        if action == "remove":
            services.own_item_remove(item=item)
        elif action == "to_step":
            to_step = get_object_or_404(OwnStep, path=path, uuid=form.cleaned_data["step"])
            services.own_item_move(item=item, to_step=to_step)
        else:
            services.own_item_move(item=item, by=-1 if action == "up" else 1)
    except services.OwnPathError as error:
        return _done(request, path, error=str(error))
    return _done(request, path)


@require_POST
@_owners_path
def own_item_add(request, path):
    form = OwnAddForm(request.POST)
    if not form.is_valid():
        return _done(request, path, error=_("Choose a resource to add."))
    resource = addable_resource(user=request.user, uuid=form.cleaned_data["resource"])
    if resource is None:
        return _done(request, path, error=NOT_ADDABLE)
    step = None
    if form.cleaned_data["step"]:
        step = get_object_or_404(OwnStep, path=path, uuid=form.cleaned_data["step"])
    services.own_item_add(path=path, resource=resource, step=step)
    return _done(request, path, _("Added “%(title)s”.") % {"title": resource.title})


@require_http_methods(["GET", "POST"])
def own_add_resource(request):
    """From a resource row's menu: choose which of one's paths (or a new one) gets `resource`."""
    if refused := _signed_in(request):
        return refused
    resource = addable_resource(
        user=request.user,
        uuid=_uuid_or_404(request.GET.get("resource") or request.POST.get("resource")),
    )
    if resource is None:
        messages.error(request, f"{NOT_ADDABLE} Nothing was changed.")
        return redirect(reverse("paths:own-list"))
    if request.method == "POST":
        chosen = request.POST.get("path", "")
        if chosen == "new":
            title = (
                request.POST.get("title", "").strip()
                or (_("My path: %(title)s") % {"title": resource.title})[:200]
            )
            try:
                path = services.own_path_create(user=request.user, title=title)
            except services.OwnPathError as error:
                messages.error(request, _("%(error)s Nothing was changed.") % {"error": error})
                return redirect(f"{reverse('paths:own-add-resource')}?resource={resource.uuid}")
        else:
            path = own_path_for_owner(user=request.user, uuid=_uuid_or_404(chosen))
        services.own_item_add(path=path, resource=resource)
        messages.success(
            request,
            _("Added “%(resource)s” to “%(path)s”.")
            % {"resource": resource.title, "path": path.title},
        )
        return redirect(reverse("paths:own-edit", args=[path.uuid]))
    return render(
        request,
        "paths/own_add.html",
        {"resource": resource, "paths": own_paths_for(user=request.user)},
    )


@require_POST
def own_copy(request, slug):
    """Copy someone's published own path into one's own."""
    if refused := _signed_in(request):
        return refused
    return _copied(request, own_path_published(slug=slug))


@require_POST
def curated_copy(request, slug):
    """Copy a curated path into one's own, as a start."""
    if refused := _signed_in(request):
        return refused
    return _copied(request, published_path(slug=slug))


def _copied(request, source):
    """Copy a path (published own or curated) into the learner's own and open its editor."""
    copy = services.own_path_copy(user=request.user, source=source)
    messages.success(request, f"“{copy.title}” is now yours to change.")
    return redirect(reverse("paths:own-edit", args=[copy.uuid]))


@require_safe
def own_published(request, slug):
    """A published own path, for anyone: its steps and, to a learner, their progress on it; never
    its owner's notes."""
    path = own_path_published(slug=slug)
    mine = request.user.is_authenticated and request.user.pk == path.owner_id
    return render(
        request,
        "paths/own_detail.html",
        {
            "path": path,
            "view": own_path_view(path=path, user=request.user),
            "mine": mine,
            "public": True,
        },
    )


def _first_error(form) -> str:
    for field, errors in form.errors.items():
        label = (
            form.fields[field].label or field.replace("_", " ").capitalize()
            if field in form.fields
            else ""
        )
        return f"{label}: {errors[0]}" if label else errors[0]
    return _("Check the form.")


def _uuid_or_404(value):
    try:
        return uuid_module.UUID(str(value))
    except ValueError:
        raise Http404("Not a valid key.") from None
