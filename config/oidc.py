"""The one OpenID Connect server settings.py configures from OIDC_* (Authentik, Keycloak,
Authelia, Pocket ID …): allauth's ``openid_connect`` provider entry, and the origin the sign-in
form's redirect goes to, which the CSP's form-action must allow."""

from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured


def oidc_provider_settings(
    *, provider_id: str, name: str, server_url: str, client_id: str, secret: str
) -> tuple[dict, list[str]]:
    """(SOCIALACCOUNT_PROVIDERS["openid_connect"], [the server's origin]).

    ``server_url`` is the issuer (allauth appends /.well-known/openid-configuration) or the
    discovery document's own URL. The authorization endpoint is assumed on the same origin, as
    it is on all four servers the README names."""
    parts = urlsplit(server_url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ImproperlyConfigured(
            f"OIDC_SERVER_URL must be https://HOST/… (the issuer's URL), got {server_url!r}"
        )
    if not provider_id.replace("-", "").replace("_", "").isalnum():
        raise ImproperlyConfigured(
            f"OIDC_PROVIDER_ID must be letters, digits, - or _ (it is part of the callback URL), "
            f"got {provider_id!r}"
        )
    entry = {
        "APPS": [
            {
                "provider_id": provider_id,
                "name": name,
                "client_id": client_id,
                "secret": secret,
                "settings": {
                    "server_url": server_url,
                    # Proof key for the code exchange: all four servers support it.
                    "oauth_pkce_enabled": True,
                    "fetch_userinfo": True,
                },
            }
        ],
    }
    return entry, [f"{parts.scheme}://{parts.netloc}"]
