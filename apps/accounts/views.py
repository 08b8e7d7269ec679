"""The account page: email addresses, password, language, time zone, data export and account
deletion; the language switcher; sign-up through an invite link, and the rate-limit page.

Sign-up, log-in, email and password management are allauth's views (restyled through
templates/allauth/); these views only ever act on ``request.user`` — no URL here carries
a user id, so nobody can reach anyone else's account through them.
"""

from allauth.account.models import EmailAddress
from allauth.account.views import SignupView
from allauth.core import ratelimit
from allauth.mfa.models import Authenticator
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.decorators import method_decorator
from django.utils.http import content_disposition_header, url_has_allowed_host_and_scheme
from django.utils.translation import get_language_info
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_GET, require_POST

from apps.accounts import languages, profiles, ratelimits, services, timezones
from apps.accounts.forms import AccountDeleteForm, LanguageForm, PublicProfileForm, TimeZoneForm
from apps.accounts.models import Invite, PublicProfile
from apps.core import security
from apps.learning.account_data import account_data_export
from apps.paths.selectors import followed_paths_export
from apps.progress import exports


def _render_account(request, *, delete_form, time_zone_form=None, language_form=None, status=200):
    browser_zone = timezones.browser_zone_name(request)
    context = {
        "language_form": language_form
        or LanguageForm(initial={"language": request.session.get(languages.SESSION_KEY, "")}),
        "time_zone_form": time_zone_form
        or TimeZoneForm(
            initial={"time_zone": request.session.get(timezones.SESSION_KEY, "")},
            browser_zone=browser_zone,
        ),
        "email_addresses": EmailAddress.objects.filter(user=request.user).order_by(
            "-primary", "email"
        ),
        "delete_form": delete_form,
        "public_profile": PublicProfile.objects.filter(user=request.user).first(),
        "authenticator_types": set(
            Authenticator.objects.filter(user=request.user).values_list("type", flat=True)
        ),
        "mfa_required": security.staff_second_factor_required(request.user),
    }
    return render(request, "accounts/account.html", context, status=status)


@never_cache
@login_required
@require_GET
def account(request):
    return _render_account(request, delete_form=AccountDeleteForm(user=request.user))


@never_cache
@login_required
@require_POST
def time_zone(request):
    form = TimeZoneForm(request.POST, browser_zone=timezones.browser_zone_name(request))
    if not form.is_valid():
        return _render_account(
            request,
            delete_form=AccountDeleteForm(user=request.user),
            time_zone_form=form,
            status=400,
        )
    name = form.cleaned_data["time_zone"]
    services.preferences_save(user=request.user, time_zone=name)
    timezones.remember_time_zone(request, name)
    if name:
        messages.success(request, _("Your days are now counted in %(zone)s.") % {"zone": name})
    else:
        messages.success(request, _("Your days are now counted in your browser’s time zone."))
    return redirect("accounts:account")


@never_cache
@require_POST
def language(request):
    """Choose the interface's language (the footer's switcher and the account page's form): saved
    on the account when signed in, in Django's language cookie for everyone; then back to `next`."""
    form = LanguageForm(request.POST)
    if not form.is_valid():
        if request.user.is_authenticated:
            return _render_account(
                request,
                delete_form=AccountDeleteForm(user=request.user),
                language_form=form,
                status=400,
            )
        return render(request, "accounts/language_refused.html", {"form": form}, status=400)
    code, target = form.cleaned_data["language"], form.cleaned_data["next"]
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = reverse("accounts:account" if request.user.is_authenticated else "learning:home")
    if request.user.is_authenticated:
        services.preferences_save(user=request.user, language=code)
        languages.remember_language(request, code)
        with translation.override(code or translation.get_language()):  # said in the new one
            messages.success(
                request,
                _("Language saved: %(language)s.")
                % {"language": get_language_info(code)["name_local"]}
                if code
                else _("Language saved: your browser's."),
            )
    response = redirect(target)
    if code:
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            code,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            secure=settings.LANGUAGE_COOKIE_SECURE,
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
    else:
        response.delete_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
    return response


@never_cache
@login_required
@require_GET
def data_export(request):
    """Everything the learner recorded, as a JSON download they can keep or import elsewhere."""
    data = exports.user_data_export(request.user)
    data["followed_paths"] = followed_paths_export(user=request.user)
    data |= account_data_export(user=request.user)  # own paths, pins, What's new
    profile = PublicProfile.objects.filter(user=request.user).first()
    if profile:  # the learner's choice of public page is theirs to take along too
        data["public_profile"] = {"address": profile.slug, "public": profile.is_public}
    response = JsonResponse(data, json_dumps_params={"indent": 2, "ensure_ascii": False})
    filename = f"syllabus-export-{timezone.localdate():%Y-%m-%d}.json"
    response["Content-Disposition"] = content_disposition_header(
        as_attachment=True, filename=filename
    )
    return response


@never_cache
@login_required
@require_POST
def account_delete(request):
    # The password field is a password oracle for whoever sits at a signed-in
    # browser, so it shares allauth's re-authentication rate limit (per user).
    if not ratelimit.consume(request, action="reauthenticate", user=request.user):
        return ratelimit.respond_429(request)
    form = AccountDeleteForm(request.POST, user=request.user)
    if not form.is_valid():
        return _render_account(request, delete_form=form)
    try:
        services.account_delete(user=request.user)
    except services.AccountError as exc:
        form.add_error(None, str(exc))
        return _render_account(request, delete_form=form)
    logout(request)
    messages.success(
        request, _("Your account and everything you recorded in it have been deleted.")
    )
    return redirect("learning:home")


def rate_limited(request):
    """allauth's 429 page (wired as ``handler429`` in config/urls.py), in the site's layout,
    saying how long the visitor really has to wait (``Retry-After`` too)."""
    actions = ratelimits.actions_for(request)
    wait = ratelimits.wait_seconds(request, actions)
    context = {
        "wait": ratelimits.wait_phrase(wait) if wait else "",
        "is_signup": "signup" in actions,
    }
    response = render(request, "accounts/rate_limited.html", context, status=429)
    if wait:
        response["Retry-After"] = str(wait)
    return response


@method_decorator(sensitive_post_parameters("password1", "password2"), name="dispatch")
@method_decorator(never_cache, name="dispatch")
class InviteSignupView(SignupView):
    """allauth's sign-up through an admin's invite link (``Invite``): not counted by the
    per-address sign-up limit, each account made taking one of the link's uses. A link that
    expired, was revoked or is used up says so (410) and signs nobody up."""

    template_name = "accounts/invite_signup.html"

    def dispatch(self, request, *args, token, **kwargs):
        self.invite = get_object_or_404(Invite, token=token)
        refusal = self.invite.refusal(now=timezone.now())
        if refusal:
            return self._refuse(refusal)
        # SignupView's own dispatch is skipped: it is only its sign-up rate limit (the
        # decorators worth keeping are on this class).
        return super(SignupView, self).dispatch(request, *args, **kwargs)

    def _refuse(self, refusal):
        return render(
            self.request, "accounts/invite_refused.html", {"refusal": refusal}, status=410
        )

    def form_valid(self, form):
        with transaction.atomic():
            try:
                services.invite_use(invite=self.invite)
            except services.InviteRefused as exc:
                return self._refuse(str(exc))
            return super().form_valid(form)

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "invite": self.invite}


@never_cache
@login_required
def public_profile_settings(request):
    """The learner's public page: its address and whether it is published (off by default)."""
    profile = PublicProfile.objects.filter(user=request.user).first()
    if request.method == "POST":
        form = PublicProfileForm(request.POST, user=request.user)
        if form.is_valid():
            try:
                profile = profiles.profile_save(user=request.user, **form.cleaned_data)
            except IntegrityError:  # taken between the form's check and the write
                form.add_error("slug", _("That address was just taken; choose another."))
            else:
                if profile and profile.is_public:
                    messages.success(
                        request,
                        _("Your page is public at %(address)s.")
                        % {"address": profile.get_absolute_url()},
                    )
                else:
                    messages.success(
                        request, _("Your page is not public: its address shows nothing.")
                    )
                return redirect("accounts:public-profile-settings")
        status = 400
    else:
        initial = {"slug": profile.slug, "is_public": profile.is_public} if profile else {}
        form = PublicProfileForm(initial=initial, user=request.user)
        status = 200
    return render(
        request,
        "accounts/public_profile_settings.html",
        {"form": form, "profile": profile},
        status=status,
    )


@require_GET
def public_profile(request, slug):
    """A learner's published page: per-guide progress and streak, never notes. A 404 unless the
    learner has turned it on."""
    profile = get_object_or_404(
        PublicProfile.objects.select_related("user", "user__preferences"),
        slug=slug.lower(),
        is_public=True,
        user__is_active=True,
    )
    return render(request, "accounts/public_profile.html", profiles.public_page(profile))
