"""The token page (under the account pages): a learner's tokens, a form to make one — its
secret shown once, in the answer to that form — and a revoke button per token. Only ever the
signed-in learner's own tokens: another's uuid is a 404."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from apps.api import services
from apps.api.forms import TokenForm
from apps.api.models import ApiToken


def _render(request, *, form, secret="", created=None, status=200):
    context = {
        "form": form,
        "tokens": ApiToken.objects.filter(user=request.user),
        "secret": secret,
        "created": created,
        "max_tokens": services.MAX_TOKENS,
    }
    return render(request, "api/tokens.html", context, status=status)


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def tokens(request):
    if request.method == "GET":
        return _render(request, form=TokenForm())
    form = TokenForm(request.POST)
    if form.is_valid():
        try:
            token, secret = services.token_create(user=request.user, name=form.cleaned_data["name"])
        except services.TokenError as exc:
            form.add_error("name", str(exc))
        else:
            # Rendered, not redirected: the secret is in this answer only (never stored, never
            # in a session), and `no-store` keeps it out of every cache.
            return _render(request, form=TokenForm(), secret=secret, created=token, status=201)
    return _render(request, form=form, status=400)


@never_cache
@login_required
@require_POST
def token_revoke(request, uuid):
    try:
        token = services.token_revoke(user=request.user, uuid=uuid)
    except ApiToken.DoesNotExist:
        raise Http404("No token of yours has this id.") from None
    messages.success(request, _("Revoked “%(name)s”: it no longer works.") % {"name": token.name})
    return redirect("api:tokens")
