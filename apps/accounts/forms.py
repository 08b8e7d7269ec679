"""Forms of sign-up, the account page and the public profile's settings."""

import re

from allauth.account.adapter import get_adapter
from allauth.account.forms import SignupForm as AllauthSignupForm
from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.hashers import make_password
from django.utils.html import format_html
from django.utils.translation import get_language_info
from django.utils.translation import gettext_lazy as _

from apps.accounts.models import PublicProfile


class SignupForm(AllauthSignupForm):
    """allauth's sign-up, answering an address that already has an account exactly as a new one.

    allauth's enumeration prevention (``ACCOUNT_PREVENT_ENUMERATION``, with mandatory
    verification) already mails the owner "an account already exists" instead of saying so on
    the page. Two differences remained: a new account's password is hashed (hundreds of
    milliseconds with PBKDF2) and a known address's is not, and the "Confirmation email sent"
    message is left out when allauth's per-address mail limit holds the mail back (as it
    does for an address that signed up minutes ago). Here the known address's password is
    hashed too, and the message is always given.
    """

    def try_save(self, request):
        if not self.account_already_exists:
            return super().try_save(request)
        make_password(self.cleaned_data.get("password1"))  # the work a new account costs
        user, response = super().try_save(request)
        email = self.cleaned_data["email"]
        storage = messages.get_messages(request)
        given = any(email in str(message) for message in storage)
        storage.used = False  # looking is not showing: keep them for the next page
        if not given:  # allauth's own message, as its sign-up of a new address gives it
            get_adapter(request).add_message(
                request,
                messages.INFO,
                "account/messages/email_confirmation_sent.txt",
                {"email": email, "login": False, "signup": True},
            )
        return user, response


class AccountDeleteForm(forms.Form):
    """Asks the signed-in user to type their email address (and password, if they have one).

    Typing the address guards against a misclick; the password guards against someone
    at an unattended, signed-in browser. Accounts created through GitHub have no usable
    password, so for them the typed address is the whole confirmation.
    """

    confirm = forms.CharField(
        label=_("Type your email address to confirm"),
        max_length=254,
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "none", "spellcheck": "false"}
        ),
    )
    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        # Escaped here: allauth's field element renders help text as HTML (`|safe`).
        self.fields["confirm"].help_text = format_html(
            _("Type {} exactly as shown."), self.expected_confirmation
        )
        if not user.has_usable_password():
            del self.fields["password"]

    @property
    def expected_confirmation(self) -> str:
        return self.user.email or self.user.get_username()

    def clean_confirm(self):
        typed = self.cleaned_data["confirm"].strip()
        if typed.casefold() != self.expected_confirmation.casefold():
            raise forms.ValidationError(
                _("That is not your email address, so nothing was deleted."), code="mismatch"
            )
        return typed

    def clean_password(self):
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(
                _("That password is not correct, so nothing was deleted."), code="password"
            )
        return password


# Addresses a profile may not take: the site's own paths, and words that would read as the site's.
RESERVED_SLUGS = frozenset(
    [
        "about",
        "account",
        "accounts",
        "admin",
        "administrator",
        "api",
        "app",
        "assets",
        "auth",
        "dashboard",
        "delete",
        "edit",
        "export",
        "guide",
        "guides",
        "healthz",
        "help",
        "home",
        "import",
        "index",
        "login",
        "logout",
        "me",
        "media",
        "mine",
        "moderator",
        "new",
        "notes",
        "null",
        "official",
        "path",
        "paths",
        "privacy",
        "profile",
        "profiles",
        "progress",
        "public",
        "resource",
        "resources",
        "root",
        "search",
        "settings",
        "signin",
        "signout",
        "signup",
        "sitemap",
        "staff",
        "static",
        "support",
        "syllabus",
        "system",
        "terms",
        "topic",
        "topics",
        "u",
        "undefined",
        "user",
        "users",
        "www",
    ]
)
SLUG_PATTERN = (
    r"[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){2,39}"  # 3–40: letters, digits, single hyphens inside
)


class PublicProfileForm(forms.Form):
    slug = forms.CharField(
        label=_("Address"),
        max_length=40,
        required=False,
        help_text=_(
            "3 to 40 lower-case letters, digits and hyphens; your page is at /u/your-address/."
        ),
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "none", "spellcheck": "false"}
        ),
    )
    is_public = forms.BooleanField(
        label=_("Publish my page (your per-guide progress and streak; never your notes)"),
        required=False,
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_slug(self):
        slug = self.cleaned_data["slug"].strip().lower()
        if not slug:
            return ""
        if not re.fullmatch(SLUG_PATTERN, slug):
            raise forms.ValidationError(
                _(
                    "Use 3 to 40 lower-case letters, digits and single hyphens, starting and ending with a letter or digit."
                )
            )
        if slug in RESERVED_SLUGS:
            raise forms.ValidationError(
                _("“%(slug)s” is reserved; choose another address.") % {"slug": slug}
            )
        if PublicProfile.objects.filter(slug=slug).exclude(user=self.user).exists():
            raise forms.ValidationError(
                _("“%(slug)s” is taken; choose another address.") % {"slug": slug}
            )
        return slug

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("is_public") and not cleaned.get("slug") and "slug" not in self.errors:
            self.add_error("slug", _("Choose an address to publish your page at."))
        return cleaned


class TimeZoneForm(forms.Form):
    """The zone a learner's days are counted in; blank follows their browser."""

    time_zone = forms.ChoiceField(label=_("Time zone"), required=False)

    def __init__(self, *args, browser_zone="", **kwargs):
        from apps.accounts.timezones import zone_names

        super().__init__(*args, **kwargs)
        browser = (
            _("Your browser's (%(zone)s)") % {"zone": browser_zone}
            if browser_zone
            else _("Your browser's")
        )
        self.fields["time_zone"].choices = [("", browser), *((name, name) for name in zone_names())]


class LanguageForm(forms.Form):
    """The interface's language; blank follows the browser. `next`: where to go back to."""

    language = forms.ChoiceField(label=_("Language"), required=False)
    next = forms.CharField(required=False, max_length=2000, widget=forms.HiddenInput)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Each language named in itself: a reader who cannot read the current one finds theirs.
        self.fields["language"].choices = [
            ("", _("Your browser's")),
            *((code, get_language_info(code)["name_local"]) for code, _name in settings.LANGUAGES),
        ]
