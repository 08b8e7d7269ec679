"""allauth's adapters, with three changes: mail is sent after the response (``mail.py``), a
superuser made with ``createsuperuser`` needs no confirmation mail to sign in, and a
social provider that is not configured (no GITHUB_CLIENT_ID/SECRET) is a page that does not
exist, not a server error."""

from allauth.account.adapter import DefaultAccountAdapter
from allauth.core import context as allauth_context
from allauth.socialaccount.adapter import DefaultSocialAccountAdapter
from allauth.socialaccount.models import SocialApp
from django.contrib.sites.shortcuts import get_current_site
from django.http import Http404

from apps.accounts import services
from apps.accounts.mail import send_after_response


class AccountAdapter(DefaultAccountAdapter):
    def send_mail(self, template_prefix, email, context):
        """allauth's own, rendered now, sent once the response has gone (the same work and
        time for a sign-up with a known address as with a new one)."""
        request = allauth_context.request
        ctx = {"request": request, "email": email, "current_site": get_current_site(request)}
        ctx.update(context)
        send_after_response(self.render_mail(template_prefix, email, ctx), request=request)

    def pre_login(self, request, user, **kwargs):
        """A superuser made on the server (``manage.py createsuperuser``) signs in to /admin/
        without confirming the address the operator typed (see ``services``)."""
        services.superuser_email_adopt(user=user)
        return super().pre_login(request, user, **kwargs)


class ProviderNotConfigured(Http404, SocialApp.DoesNotExist):
    """A 404 to Django; still the DoesNotExist allauth's own callers may catch."""


class SocialAccountAdapter(DefaultSocialAccountAdapter):
    def get_app(self, request, provider, client_id=None):
        try:
            return super().get_app(request, provider, client_id=client_id)
        except SocialApp.DoesNotExist:
            raise ProviderNotConfigured(
                f"Sign-in with {provider} is not set up on this site."
            ) from None
