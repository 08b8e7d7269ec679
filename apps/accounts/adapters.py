"""allauth's social-account adapter, with one change: a provider that is not configured (no
GITHUB_CLIENT_ID/SECRET) is a page that does not exist, not a server error."""

from allauth.socialaccount.adapter import DefaultSocialAccountAdapter
from allauth.socialaccount.models import SocialApp
from django.http import Http404


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
