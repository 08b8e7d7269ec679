"""allauth’s adapters, with three changes: a superuser made with ``createsuperuser`` needs no
confirmation mail to sign in, and a social provider that is not configured (no
GITHUB_CLIENT_ID/SECRET) is a page that does not exist, not a server error; and a study group's
invite link opened before signing in is where signing in or up lands. (allauth's mail goes
through EMAIL_BACKEND, which makes each a job: apps.core.mail.)"""

from allauth.account.adapter import DefaultAccountAdapter
from allauth.socialaccount.adapter import DefaultSocialAccountAdapter
from allauth.socialaccount.models import SocialApp
from django.http import Http404
from django.utils.translation import gettext as _

from apps.accounts import services
from apps.groups import invites as group_invites


class AccountAdapter(DefaultAccountAdapter):
    def pre_login(self, request, user, **kwargs):
        """A superuser made on the server (``manage.py createsuperuser``) signs in to /admin/
        without confirming the address the operator typed (see ``services``)."""
        services.superuser_email_adopt(user=user)
        return super().pre_login(request, user, **kwargs)

    def get_login_redirect_url(self, request):
        """A study group's invite link opened before signing in waits in the session: logging
        in, or signing up and confirming the address in the same browser, lands on it."""
        return group_invites.pending_join_url(request) or super().get_login_redirect_url(request)

    def get_signup_redirect_url(self, request):
        return group_invites.pending_join_url(request) or super().get_signup_redirect_url(request)


class ProviderNotConfigured(Http404, SocialApp.DoesNotExist):
    """A 404 to Django; still the DoesNotExist allauth's own callers may catch."""


class SocialAccountAdapter(DefaultSocialAccountAdapter):
    def get_app(self, request, provider, client_id=None):
        try:
            return super().get_app(request, provider, client_id=client_id)
        except SocialApp.DoesNotExist:
            raise ProviderNotConfigured(
                _("Sign-in with %(provider)s is not set up on this site.") % {"provider": provider}
            ) from None
