"""A learner's own resources (`/my/resources/`, `learning:own-*`): links they saved themselves,
private to them, with the same statuses, dates and notes as catalog resources (their Progress,
written by apps.progress.services). The save page is also the bookmarklet's target.

Every view takes the row through `_own_for_user`, so another learner's row is a 404; htmx swaps
the list or one row, and every form works as a plain POST with a redirect without JavaScript.
"""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.validators import URLValidator
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRedirect

from apps.catalog.importer.urls import normalize_url
from apps.catalog.models import Kind, url_key
from apps.catalog.selectors import visible_resource_for_url
from apps.core.reversing import reverse_cached
from apps.learning import scope as scopes
from apps.progress import selectors as progress_selectors
from apps.progress import services
from apps.progress.models import OwnResource, Status, Suggestion

STATUS_BUTTONS = [
    (Status.NOT_STARTED, Status.NOT_STARTED.label),
    (Status.IN_PROGRESS, Status.IN_PROGRESS.label),
    (Status.DONE, Status.DONE.label),
    (Status.SKIPPED, Status.SKIPPED.label),
]


class OwnEditForm(forms.Form):
    title = forms.CharField(max_length=300, required=False, label=gettext_lazy("Title"))
    kind = forms.ChoiceField(
        label=gettext_lazy("Kind"),
        choices=[("", gettext_lazy("Guess from the link")), *Kind.choices],
        required=False,
    )
    author = forms.CharField(
        max_length=300, required=False, label=gettext_lazy("Author / publisher")
    )
    note = forms.CharField(
        max_length=10_000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        label=gettext_lazy("Note"),
    )


class OwnSaveForm(OwnEditForm):
    url = forms.CharField(
        max_length=2000,
        label=gettext_lazy("Link"),
        validators=[URLValidator(schemes=["http", "https"])],
        error_messages={"required": gettext_lazy("Give the link's address.")},
    )
    field_order = ["url", "title", "kind", "author", "note"]


class OwnStatusForm(forms.Form):
    status = forms.ChoiceField(choices=Status.choices)


def _own_for_user(request, pk) -> OwnResource:
    """The learner's own row, or 404: nobody else's is ever found."""
    return get_object_or_404(
        OwnResource.objects.select_related("resource"), pk=pk, user=request.user
    )


class RowLinks:
    """A row's form addresses, reversed once per process (apps.core.reversing): `{% url %}` for
    each of a page's 50 rows cost a third of its rendering."""

    def __init__(self, own):
        pk = own.pk
        self.edit = reverse_cached("learning:own-edit", pk)
        self.status = reverse_cached("learning:own-status", pk)
        self.suggest = reverse_cached("learning:own-suggest", pk)
        self.delete = reverse_cached("learning:own-delete", pk)
        # The row menu's "Add to my path…", as a catalog row's menu has it (apps.paths.views).
        self.add_to_path = (
            f"{reverse_cached('paths:own-add-resource')}?resource={own.resource.uuid}"
        )


def _with_links(rows):
    return [(row, RowLinks(row.own)) for row in rows]


def _list_context(request, *, form=None):
    own_page = progress_selectors.own_page(
        user=request.user, page_number=request.GET.get("page") or 1
    )
    return {
        "form": form or OwnSaveForm(),
        "own_page": own_page,
        "own_rows": _with_links(own_page.rows),
        "status_buttons": STATUS_BUTTONS,
        "suggestion": Suggestion,
        "bookmarklet": _bookmarklet(request),
        "nav_current": "own",
    }


def _bookmarklet(request) -> str:
    """The `javascript:` link a learner drags to their bookmarks bar: it only navigates to our save
    page with the page's address and title, so it runs under any page's CSP and ours."""
    save = request.build_absolute_uri(reverse("learning:own-save"))
    return (
        "javascript:location.href='"
        + save
        + "?url='+encodeURIComponent(location.href)+'&title='+encodeURIComponent(document.title)"
    )


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@vary_on_headers("HX-Request")
def own_list(request):
    """The learner's own resources and the form to add one (POST saves it)."""
    if request.method == "POST":
        return _save(request)
    return render(request, "learning/own/own_list.html", _list_context(request))


def _save(request):
    form = OwnSaveForm(request.POST)
    if not form.is_valid():
        context = _list_context(request, form=form)
        if request.htmx:  # htmx swaps only 2xx answers: the errors come back with the list
            return render(request, "learning/own/own_list.html#own-main", context)
        return render(request, "learning/own/own_list.html", context, status=422)
    data = form.cleaned_data
    try:
        saved = services.own_resource_save(
            user=request.user,
            url=data["url"],
            title=data["title"],
            kind=data["kind"],
            author=data["author"],
            note=data["note"] or None,
        )
    except services.OwnResourceError as error:
        form.add_error(None, str(error))
        return render(
            request, "learning/own/own_list.html", _list_context(request, form=form), status=422
        )
    if saved.catalog is not None:
        messages.info(
            request,
            _("“%(title)s” is in the catalog: tick it there.") % {"title": saved.catalog.title},
        )
        if request.htmx:  # the whole page changes: htmx navigates rather than swap a page in
            return HttpResponseClientRedirect(saved.catalog.get_absolute_url())
        return redirect(saved.catalog.get_absolute_url())
    if request.htmx:
        context = _list_context(request) | {"saved": saved}
        return render(request, "learning/own/own_list.html#own-main", context)
    message = (
        _("Saved “%(title)s” in your resources.")
        if saved.created
        else _("Updated “%(title)s” in your resources.")
    )
    messages.success(request, message % {"title": saved.own.title})
    return redirect(f"{reverse('learning:own-list')}#own-{saved.own.pk}")


@login_required
@require_http_methods(["GET", "HEAD"])
def own_save(request):
    """The bookmarklet's page: the link prefilled (its title from the page it was on, else a guess
    from the URL); a link in the catalog is shown with its tick instead, one already saved with
    its row. Saving posts to `own-list`."""
    url, title = request.GET.get("url", "")[:2000], request.GET.get("title", "")[:300]
    context = {"url": url, "catalog": None, "own": None, "tick_scope": scopes.NOTEBOOK}
    if url:
        catalog = visible_resource_for_url(url)
        if catalog is not None:
            context["catalog"] = catalog
            context["statuses"] = progress_selectors.statuses_for(user=request.user)
        else:
            context["own"] = OwnResource.objects.filter(
                user=request.user, resource__url_key=url_key(normalize_url(url))
            ).first()
    guessed = services.own_suggestions(url) if url and not context["own"] else {}
    context["form"] = OwnSaveForm(
        initial={
            "url": url,
            "title": title or guessed.get("title", ""),
            "kind": guessed.get("kind"),
        }
    )
    return render(request, "learning/own/own_save.html", context)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@vary_on_headers("HX-Request")
def own_edit(request, pk):
    own = _own_for_user(request, pk)
    row = progress_selectors.progress_row(user=request.user, resource=own.resource)
    if request.method == "POST":
        form = OwnEditForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                services.own_resource_update(
                    own=own,
                    title=data["title"],
                    kind=data["kind"],
                    author=data["author"],
                    note=data["note"],
                )
            except services.OwnResourceError as error:
                form.add_error(None, str(error))
            else:
                if request.htmx:
                    return _row_response(request, own.pk)
                messages.success(request, _("Saved “%(title)s”.") % {"title": own.title})
                return redirect(f"{reverse('learning:own-list')}#own-{own.pk}")
        status = 422
    else:
        form = OwnEditForm(
            initial={
                "title": own.title,
                "kind": own.kind,
                "author": own.author,
                "note": row.note if row else "",
            }
        )
        status = 200
    template = "learning/own/own_edit.html"
    if request.htmx:
        template += "#own-edit-form"
    return render(request, template, {"own": own, "form": form}, status=status)


def _row_response(request, pk):
    row = next(r for r in progress_selectors.own_rows(user=request.user, pks=[pk]))
    return render(
        request,
        "learning/own/own_list.html#own-row",
        {
            "row": row,
            "links": RowLinks(row.own),
            "status_buttons": STATUS_BUTTONS,
            "suggestion": Suggestion,
        },
    )


@login_required
@require_POST
def own_status(request, pk):
    own = _own_for_user(request, pk)
    form = OwnStatusForm(request.POST)
    if not form.is_valid():
        return _refused(request, _("Choose a status."), own)
    services.progress_set_status(
        user=request.user, resource=own.resource, status=form.cleaned_data["status"]
    )
    if request.htmx:
        return _row_response(request, own.pk)
    return redirect(f"{reverse('learning:own-list')}#own-{own.pk}")


@login_required
@require_POST
def own_suggest(request, pk):
    own = _own_for_user(request, pk)
    services.own_resource_suggest(own=own)
    if request.htmx:
        return _row_response(request, own.pk)
    messages.success(request, _("“%(title)s” was offered to the curators.") % {"title": own.title})
    return redirect(f"{reverse('learning:own-list')}#own-{own.pk}")


@login_required
@require_POST
def own_delete(request, pk):
    own = _own_for_user(request, pk)
    title = own.title
    services.own_resource_delete(own=own)
    if request.htmx:
        # The row goes (an empty swap); the list's "Saved N" is swapped out of band, so the page
        # counts what a reload would.
        total = progress_selectors.own_count(user=request.user)
        return render(
            request,
            "learning/own/own_list.html#own-count",
            {"own_page": {"total": total}, "oob": True},
        )
    messages.success(request, _("Removed “%(title)s” from your resources.") % {"title": title})
    return redirect("learning:own-list")


def _refused(request, message, own):
    if request.htmx:
        return HttpResponse(message, status=422, content_type="text/plain; charset=utf-8")
    messages.error(request, message)
    return redirect(f"{reverse('learning:own-list')}#own-{own.pk}")
