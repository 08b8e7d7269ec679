"""Syllabus settings: one module, configured entirely from environment variables.

Every variable is documented in README.md ("Configuration") and .env.example.
DEBUG defaults to off; `make run` and the test suite turn it on explicitly.
"""

import json
import tomllib
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

from config.env import env_bool, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent
# One version, pyproject.toml's: CHANGELOG.md names what changed in each and how to upgrade.
with open(BASE_DIR / "pyproject.toml", "rb") as _pyproject:
    SYLLABUS_VERSION = tomllib.load(_pyproject)["project"]["version"]

DEBUG = env_bool("DEBUG", default=False)

SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. Set SECRET_KEY (or SECRET_KEY_FILE) to a long random string; "
            "e.g. python -c 'import secrets; print(secrets.token_urlsafe(50))'."
        )
    SECRET_KEY = "django-insecure-dev-only-key-never-used-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
SITE_URL = env_str("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
_site_url = urlsplit(SITE_URL)
if _site_url.scheme not in ("http", "https") or not _site_url.hostname:
    raise ImproperlyConfigured(
        f"SITE_URL must be http://HOST or https://HOST (no trailing path), got {SITE_URL!r}"
    )
# What the site calls itself in mail (greeting, signature, subject), not the host a request reached.
SITE_NAME = env_str("SITE_NAME", "Syllabus")

# --- Applications ---------------------------------------------------------------------------
DJANGO_APPS = [
    "apps.curation.apps.CurationAdminConfig",  # django.contrib.admin with the curators' site
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django.contrib.postgres",
]
THIRD_PARTY_APPS = [
    "django_htmx",
    "django_tasks_db",  # the database queue's table, its worker (db_worker) and its admin
    "allauth",
    "allauth.account",
    "allauth.socialaccount",
    "allauth.socialaccount.providers.github",
    # Any OpenID Connect server (Authentik, Keycloak, Authelia, Pocket ID): OIDC_* below.
    "allauth.socialaccount.providers.openid_connect",
    # Second factors (authenticator app, recovery codes) and passkeys: MFA_* below.
    "allauth.mfa",
    # Installed so that the API's docs page serves Swagger UI from our static files, never a CDN.
    "ninja",
]
LOCAL_APPS = [
    "apps.core",
    "apps.catalog",
    "apps.accounts",
    "apps.progress",
    "apps.paths",
    "apps.learning",
    "apps.groups",
    "apps.curation",
    "apps.inbox",
    "apps.api",
]
INSTALLED_APPS = DJANGO_APPS + THIRD_PARTY_APPS + LOCAL_APPS

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",  # static files: serves its own gzip/brotli
    # Pages and htmx fragments gzipped when the client accepts it (about 8x smaller), with
    # Django's BREACH mitigation; outside every middleware that reads or writes the body.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",  # makes the store, reads nothing yet
    # Lets a page read the content token once, however many shared parts it shows.
    "apps.core.content.ContentVersionMiddleware",
    # Django's LocaleMiddleware, asking the learner's saved language first: after the session
    # it reads, before CommonMiddleware.
    "apps.accounts.languages.LanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "apps.accounts.timezones.TimeZoneMiddleware",  # the learner's days: saved zone, else browser's
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "apps.core.context_processors.layout",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------
# SQLite file by default (zero setup); PostgreSQL whenever DATABASE_URL points at it.
DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=env_int("DB_CONN_MAX_AGE", 60),
        # Django's default: checking a kept connection costs every request one more round trip;
        # one the server dropped fails a single request and is opened again for the next.
        conn_health_checks=False,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL + a busy timeout let the dev server and a test's live server write without "database is locked".
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    # Progress's covering indexes (INCLUDE columns) are plain indexes on SQLite: still right.
    SILENCED_SYSTEM_CHECKS = ["models.W040"]

# --- Cache ----------------------------------------------------------------------------------
# Shared by every gunicorn worker, so allauth's login/signup rate limits really count.
# The database cache needs no extra service; point CACHE_URL at Redis on bigger installs.
_cache_url = env_str("CACHE_URL", "db://django_cache")
if _cache_url.startswith("redis://") or _cache_url.startswith("rediss://"):
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": _cache_url,
        }
    }
elif _cache_url.startswith("db://"):
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": _cache_url.removeprefix("db://") or "django_cache",
        }
    }
elif _cache_url == "locmem://":
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
else:
    raise ImproperlyConfigured(
        f"CACHE_URL must be db://TABLE, redis://… or locmem://, got {_cache_url!r}"
    )

# --- Auth (django-allauth) ------------------------------------------------------------------
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "/"
ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = env_str("ACCOUNT_EMAIL_VERIFICATION", "mandatory")
ACCOUNT_UNIQUE_EMAIL = True
# Sign-up and password reset answer a known address as an unknown one (the mail says which it
# was). Sign-up can hide it only while verification is mandatory.
ACCOUNT_PREVENT_ENUMERATION = True
ACCOUNT_FORMS = {"signup": "apps.accounts.forms.SignupForm"}
ACCOUNT_ADAPTER = "apps.accounts.adapters.AccountAdapter"
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_CONFIRM_EMAIL_ON_GET = False
ACCOUNT_LOGOUT_ON_GET = False
ACCOUNT_RATE_LIMITS = {
    "login_failed": env_str("RATE_LIMIT_LOGIN_FAILED", "10/m/ip,5/5m/key"),
    # A class of 30 behind one NAT signs up within the hour, mistakes included; a bigger group
    # takes an invite link (apps.accounts.invites), which this limit does not count.
    "signup": env_str("RATE_LIMIT_SIGNUP", "60/h/ip"),
    # Not allauth's: the progress import (apps.progress.views), a preview or a confirmation.
    "progress_import": env_str("RATE_LIMIT_PROGRESS_IMPORT", "10/m/user,60/h/user"),
    # Not allauth's: the personal API (apps.api.auth), every request. A learner's requests
    # (token or session) count per learner, a visitor's per address.
    "api": env_str("RATE_LIMIT_API", "120/m/user,60/m/ip"),
    "reset_password": "20/m/ip,5/m/key",
    "confirm_email": "1/3m/key",
}
ACCOUNT_EMAIL_SUBJECT_PREFIX = f"[{SITE_NAME}] "
# Links in mails (confirmation, password reset) use SITE_URL's scheme: http:// for a local trial
# without TLS, https:// behind the proxy.
ACCOUNT_DEFAULT_HTTP_PROTOCOL = _site_url.scheme
# Behind N reverse proxies, the client IP for rate limits is the Nth-from-last X-Forwarded-For
# entry; with 0 every visitor shares the proxy's address and one abuser locks everyone out.
ALLAUTH_TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)
SOCIALACCOUNT_EMAIL_AUTHENTICATION = True
SOCIALACCOUNT_PROVIDERS = {}
GITHUB_CLIENT_ID = env_str("GITHUB_CLIENT_ID")
GITHUB_CLIENT_SECRET = env_str("GITHUB_CLIENT_SECRET")
if GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET:
    SOCIALACCOUNT_PROVIDERS["github"] = {
        "APPS": [{"client_id": GITHUB_CLIENT_ID, "secret": GITHUB_CLIENT_SECRET}],
        "SCOPE": ["user:email"],
    }
# One OpenID Connect server, configured like GitHub: its button shows when all four are set. Its
# callback is SITE_URL/accounts/oidc/<OIDC_PROVIDER_ID>/login/callback/.
OIDC_PROVIDER_ID = env_str("OIDC_PROVIDER_ID", "sso")
OIDC_PROVIDER_NAME = env_str("OIDC_PROVIDER_NAME")
OIDC_SERVER_URL = env_str("OIDC_SERVER_URL").rstrip("/")
OIDC_CLIENT_ID = env_str("OIDC_CLIENT_ID")
OIDC_CLIENT_SECRET = env_str("OIDC_CLIENT_SECRET")
_oidc_form_action = []
if OIDC_PROVIDER_NAME and OIDC_SERVER_URL and OIDC_CLIENT_ID and OIDC_CLIENT_SECRET:
    from config.oidc import oidc_provider_settings

    SOCIALACCOUNT_PROVIDERS["openid_connect"], _oidc_form_action = oidc_provider_settings(
        provider_id=OIDC_PROVIDER_ID,
        name=OIDC_PROVIDER_NAME,
        server_url=OIDC_SERVER_URL,
        client_id=OIDC_CLIENT_ID,
        secret=OIDC_CLIENT_SECRET,
    )

# Second factors and passkeys (allauth.mfa): an authenticator app with recovery codes, and
# passkeys, which sign in (and sign up) without a password. A passkey is bound to the host name
# the browser reached (one of ALLOWED_HOSTS): serve the site under one name, over HTTPS or at
# http://localhost (browsers refuse WebAuthn elsewhere, and on a bare IP address).
MFA_SUPPORTED_TYPES = ["totp", "recovery_codes", "webauthn"]
MFA_PASSKEY_LOGIN_ENABLED = True
# Signing up with a passkey alone (no password) needs allauth's emailed code, not a link, to
# confirm the address in the same browser: turning it on switches every confirmation to a code.
MFA_PASSKEY_SIGNUP_ENABLED = env_bool("MFA_PASSKEY_SIGNUP_ENABLED", False)
ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED = MFA_PASSKEY_SIGNUP_ENABLED
MFA_TOTP_ISSUER = SITE_NAME
# A code from the step before or after is accepted too: phone clocks drift, and a code typed in
# its last seconds arrives in the next step.
MFA_TOTP_TOLERANCE = 1
# fido2 refuses an origin that is not HTTPS (http://localhost included, in some versions): for a
# local trial over plain HTTP only; production refuses to start with it.
MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN = env_bool("MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN", False)
if MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN and not DEBUG:
    raise ImproperlyConfigured(
        "MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN is for local development over plain HTTP (DEBUG=true); "
        "unset it and serve the site over HTTPS."
    )
# Curators and admins need a second factor (authenticator app or passkey) before any admin page:
# apps.curation's admin site sends one without to set it up. Off by default: see README.
REQUIRE_MFA_FOR_STAFF = env_bool("REQUIRE_MFA_FOR_STAFF", False)

# --- Email ----------------------------------------------------------------------------------
EMAIL_URL = env_str("EMAIL_URL", "console://")
# Seconds an SMTP connection may wait for the server: one that never answers holds the mail job
# this long, then it fails and is retried later (apps/core/mail.py).
_email_timeout = env_int("EMAIL_TIMEOUT", 10)
if _email_timeout < 1:
    raise ImproperlyConfigured(f"EMAIL_TIMEOUT must be at least 1 (seconds), got {_email_timeout}")
# Every mail the site sends (allauth's, send_mail's) is handed to a job, which sends it through
# EMAIL_DELIVERY_BACKEND, retried with backoff when the server fails (apps/core/mail.py).
EMAIL_BACKEND = "apps.core.mail.JobBackend"
if EMAIL_URL.startswith("console://"):
    # Django's, printing each line of a mail whole: a confirmation link stays one line to copy.
    EMAIL_DELIVERY_BACKEND = "apps.core.mail.ConsoleBackend"
elif EMAIL_URL.startswith("locmem://"):
    EMAIL_DELIVERY_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
elif EMAIL_URL.startswith(("smtp://", "smtps://")):
    from urllib.parse import unquote, urlsplit

    _email = urlsplit(EMAIL_URL)
    EMAIL_DELIVERY_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = _email.hostname or "localhost"
    try:
        EMAIL_PORT = _email.port or (465 if _email.scheme == "smtps" else 587)
    except ValueError:  # urllib's "Port could not be cast to integer value as '58x'"
        _netloc = _email.netloc.rpartition("@")[2]  # never the password in the message
        raise ImproperlyConfigured(
            f"EMAIL_URL has a port that is not a number from 1 to 65535 ({_netloc!r}); "
            "write it as smtp://USER:PASSWORD@HOST:587 or smtps://USER:PASSWORD@HOST:465."
        ) from None
    EMAIL_HOST_USER = unquote(_email.username or "")
    EMAIL_HOST_PASSWORD = unquote(_email.password or "") or env_str("EMAIL_HOST_PASSWORD")
    EMAIL_USE_SSL = _email.scheme == "smtps"
    EMAIL_USE_TLS = _email.scheme == "smtp" and env_bool("EMAIL_USE_TLS", True)
    EMAIL_TIMEOUT = _email_timeout
else:
    raise ImproperlyConfigured(
        f"EMAIL_URL must be console://, locmem://, smtp:// or smtps://, got {EMAIL_URL!r}"
    )
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", f"{SITE_NAME} <syllabus@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# --- Background jobs (Django's task framework: apps/core/jobs.py, config/schedule.py) ---------
# TASKS_BACKEND names the backend: the database queue by default (the worker: `manage.py worker`);
# `immediate` runs each job at once, in the process that enqueues it; any other value is a dotted
# path to a backend class (e.g. an RQ/Valkey one), given TASKS_OPTIONS as JSON.
_tasks_backend = env_str("TASKS_BACKEND", "database")
TASKS_BACKEND_ALIASES = {
    "database": "django_tasks_db.DatabaseBackend",
    "immediate": "django.tasks.backends.immediate.ImmediateBackend",
}
try:
    _tasks_options = json.loads(env_str("TASKS_OPTIONS", "{}"))
except ValueError as exc:
    raise ImproperlyConfigured(f"TASKS_OPTIONS must be a JSON object: {exc}") from None
if not isinstance(_tasks_options, dict):
    raise ImproperlyConfigured(f"TASKS_OPTIONS must be a JSON object, got {_tasks_options!r}")
TASKS = {
    "default": {
        "BACKEND": TASKS_BACKEND_ALIASES.get(_tasks_backend, _tasks_backend),
        "QUEUES": [],  # any queue name
        "OPTIONS": _tasks_options,
    }
}
# The one place the schedule is read: a list of (cron line, task path).
TASKS_SCHEDULE = "config.schedule.SCHEDULE"
# Finished jobs' rows are deleted by the scheduled prune_jobs: successful ones after this many
# days (a mail job's row holds its message), failed ones and their failure records after these.
JOBS_KEEP_DAYS = 7
JOBS_KEEP_FAILED_DAYS = 30

# --- Outbound fetches (apps/core/fetch.py: sync, link checks) --------------------------------
# One deadline in seconds for a whole fetch, redirects and body included.
FETCH_DEADLINE = env_int("FETCH_DEADLINE", 20)
# Loopback addresses are refused like every non-public one; the tests' local servers need them.
FETCH_ALLOW_LOOPBACK = False

# --- I18N -----------------------------------------------------------------------------------
# The interface speaks English and Simplified Chinese: the learner's saved choice, else the one a
# visitor picked, else the browser's Accept-Language (apps.accounts.languages). URLs carry no
# language prefix: feeds, the API and bookmarks keep one address.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("zh-hans", _("Simplified Chinese"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Dates as the project writes them in English ("27 Nov 2026"); other languages use Django's.
FORMAT_MODULE_PATH = ["config.formats"]
TIME_ZONE = env_str("TIME_ZONE", "UTC")
# Translation on costs no CPU time per request that can be told from noise (dashboard 21.3 ms on,
# 21.5 ms off, in process): the shared parts of a page (apps.core.content's memo, the stencils)
# are rendered once per language and content version, and only the per-learner layer translates
# per request (docs/BENCHMARKS.md, "Translation on").
USE_I18N = True
USE_TZ = True

# --- Static files (whitenoise: compressed, hashed, long-cached) -----------------------------
# The largest reading list or progress file an import reads, in bytes. An import's confirm step
# posts the text back as a form field (multipart, so never percent-encoded; browsers send each
# newline as CRLF): at most twice this, inside Django's DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB), so
# what an import's form accepts is never refused by Django afterwards.
IMPORT_MAX_BYTES = 1024 * 1024

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
# Hashed files (every {% static %} URL) get whitenoise's "max-age=315360000, public, immutable"
# whatever this says; this is for the few unhashed ones, which must not go stale after an upgrade.
WHITENOISE_MAX_AGE = 60 if not DEBUG else 0

# --- Security -------------------------------------------------------------------------------
# Strict CSP everywhere (dev too, so violations show up early): no inline script or style.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    # A sign-in form posts to us and is redirected to the provider: browsers check the redirect.
    "form-action": [CSP.SELF, "https://github.com", *_oidc_form_action],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "object-src": [CSP.NONE],
}
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Sessions are read from the cache, and kept in the database too when the cache is a separate
# service (Redis); with the default database cache, plain database sessions are one query already.
SESSION_ENGINE = (
    "django.contrib.sessions.backends.cached_db"
    if "redis" in CACHES["default"]["BACKEND"].lower()
    else "django.contrib.sessions.backends.db"
)
SESSION_COOKIE_HTTPONLY = True
if not DEBUG:
    # Behind a TLS-terminating proxy set SECURE_PROXY_SSL_HEADER=true (it must set X-Forwarded-Proto).
    if env_bool("SECURE_PROXY_SSL_HEADER", False):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # A site set to be served over plain HTTP (SITE_URL=http://… set, e.g. a LAN name) gets no
    # HTTPS redirect and no secure-only cookies unless asked; left unset, both stay on.
    _https = env_str("SITE_URL", "https://").startswith("https:")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", _https)
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", _https)
    CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", _https)
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)

# --- Hardening: headers, cookie names, providers --------------------------------------------
# Permissions-Policy on every response, and `Cache-Control: no-store, private` on every response
# to a signed-in user (apps.core.security).
MIDDLEWARE.append("apps.core.security.SecurityHeadersMiddleware")
PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in (
        "accelerometer",
        "autoplay",
        "camera",
        "display-capture",
        "encrypted-media",
        "fullscreen",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "picture-in-picture",
        "screen-wake-lock",
        "usb",
        "xr-spatial-tracking",
    )
)
# Passkeys (allauth.mfa): WebAuthn on our own pages, never in a frame from elsewhere.
PERMISSIONS_POLICY += ", publickey-credentials-create=(self), publickey-credentials-get=(self)"
# GitHub's sign-in URLs answer 404, not 500, when GitHub is not configured.
SOCIALACCOUNT_ADAPTER = "apps.accounts.adapters.SocialAccountAdapter"
if not DEBUG and SESSION_COOKIE_SECURE:
    # `__Host-`: the browser keeps these only if set over HTTPS, for this exact host, path / (no
    # subdomain or plain-HTTP page can plant or overwrite them). Needs secure cookies.
    SESSION_COOKIE_NAME = "__Host-sessionid"
    CSRF_COOKIE_NAME = "__Host-csrftoken"

# --- Logging: everything to stdout, for `docker compose logs` -------------------------------
# Either spelling works (gunicorn's `info` or Python's `INFO`); anything else stops the start.
_log_level = env_str("LOG_LEVEL", "INFO")
LOG_LEVEL = _log_level.strip().upper()
if LOG_LEVEL not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
    raise ImproperlyConfigured(
        f"LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, got {_log_level!r}"
    )
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "filters": {
        "no_traceback": {"()": "config.log_filters.NoTraceback"},
        "once_per_kind": {"()": "config.log_filters.OncePerKind"},
    },
    "handlers": {
        "stdout": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stdout",
            "formatter": "plain",
        },
        "stdout_one_line": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stdout",
            "formatter": "plain",
            "filters": ["no_traceback"],
        },
    },
    "root": {"handlers": ["stdout"], "level": LOG_LEVEL},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        # A Host missing from ALLOWED_HOSTS (the usual reverse-proxy mistake) says so in one line,
        # naming the host; without the traceback, so scanners cannot flood the log.
        "django.security.DisallowedHost": {"handlers": ["stdout_one_line"], "propagate": False},
        # A database or cache outage: one line a minute per kind, not a traceback per request
        # (a bug's traceback is still logged whole).
        "django.request": {"filters": ["once_per_kind"]},
        "syllabus.health": {"filters": ["once_per_kind"]},
        # A failed job is one line here and one from apps.core.jobs (retried or given up); its
        # traceback is in the admin (Jobs), not in the log, where a mail error's address would be.
        "django.tasks": {"filters": ["no_traceback"]},
    },
}
