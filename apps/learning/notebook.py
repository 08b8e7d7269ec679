"""The learner's own notes and in-progress resources on one page, searchable (`?q=`); htmx swaps
the results as they type, and the form works as a plain GET without JavaScript."""

from django.contrib.auth.decorators import login_required
from django.views.decorators.http import require_safe
from django.views.decorators.vary import vary_on_headers

from apps.catalog.forms import SearchForm
from apps.learning import scope as scopes
from apps.learning.views import _page_or_fragment
from apps.progress import selectors as progress_selectors


@login_required
@require_safe
@vary_on_headers("HX-Request")
def my_notes(request):
    form = SearchForm(request.GET)
    query = form.query()
    context = {
        "form": form,
        "query": query,
        "truncated": form.truncated,
        "book": progress_selectors.notebook(user=request.user, query=query),
        "tick_scope": scopes.NOTEBOOK,
    }
    return _page_or_fragment(request, "progress/notebook.html", "notebook-results", context)
