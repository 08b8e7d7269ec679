"""The interface's language: the learner's saved choice (Preferences.language), else the one a
visitor picked with the switcher (Django's language cookie), else their browser's
Accept-Language, else LANGUAGE_CODE. URLs carry no language.

The saved choice is copied into the session at log-in and when saved (as the time zone is,
apps.accounts.timezones), so no request reads the Preferences row.
"""

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.core.exceptions import ObjectDoesNotExist
from django.dispatch import receiver
from django.middleware.locale import LocaleMiddleware
from django.utils import translation

SESSION_KEY = "language"  # the learner's saved language; absent or "" for their browser's


def language_named(code) -> str:
    """`code` when it is one of LANGUAGES, else "" (a session or form value is anyone's)."""
    if isinstance(code, str) and code in dict(settings.LANGUAGES):
        return code
    return ""


def saved_language(user) -> str:
    """`user`'s saved language, or "" (their browser's); reads Preferences unless select_related."""
    try:
        return language_named(user.preferences.language)
    except ObjectDoesNotExist:
        return ""


def remember_language(request, code: str) -> None:
    request.session[SESSION_KEY] = code


class LanguageMiddleware(LocaleMiddleware):
    """Django's LocaleMiddleware (cookie, then Accept-Language; `Vary: Accept-Language` and
    `Content-Language` on the response), with the learner's saved language before both."""

    def process_request(self, request):
        saved = language_named(request.session.get(SESSION_KEY))
        if not saved:
            return super().process_request(request)
        translation.activate(saved)
        request.LANGUAGE_CODE = saved
        return None


@receiver(user_logged_in)
def copy_saved_language_to_session(sender, request, user, **kwargs):
    if request is None or not hasattr(request, "session"):
        return
    remember_language(request, saved_language(user))
