"""System checks for self-hosters: `migrate` (the compose migrate service), `check` and gunicorn's
start (config/gunicorn.py logs them) report a configuration that runs but does not work. What
needs a network round trip (the cache, the mail server) is not here but in apps.core.health:
/healthz probes the cache, gunicorn's start the mail server."""

import os

from django.conf import settings
from django.core.checks import Error, Tags, Warning, register

from apps.core import health

# Read by config/gunicorn.py, which gunicorn validates only once web starts: checking them here
# stops `migrate` first, so an upgrade that would crash-loop web leaves the running one alone.
GUNICORN_NUMBERS = {
    "WEB_CONCURRENCY": 1,
    "GUNICORN_THREADS": 1,
    "GUNICORN_MAX_REQUESTS": 0,
    "PORT": 1,
}

MAIL_GOES_NOWHERE = (
    "apps.core.mail.ConsoleBackend",
    "django.core.mail.backends.console.EmailBackend",
    "django.core.mail.backends.locmem.EmailBackend",
)


@register(Tags.compatibility)
def gunicorn_numbers(app_configs, **kwargs):
    errors = []
    for name, least in GUNICORN_NUMBERS.items():
        raw = os.environ.get(name, "").strip()
        if raw and not (raw.isdigit() and int(raw) >= least):
            errors.append(
                Error(
                    f"{name} must be a whole number of at least {least}, got {raw!r}.",
                    hint="Fix it in .env; web (gunicorn) would not start with it.",
                    id="syllabus.E001",
                )
            )
    return errors


@register(Tags.compatibility)
def mail_goes_somewhere(app_configs, **kwargs):
    if settings.DEBUG or settings.EMAIL_DELIVERY_BACKEND not in MAIL_GOES_NOWHERE:
        return []
    return [
        Warning(
            f"Mail goes nowhere: EMAIL_URL is {settings.EMAIL_URL!r}, so confirmation and password-reset "
            f"mails are only printed to the log, and with ACCOUNT_EMAIL_VERIFICATION="
            f"{settings.ACCOUNT_EMAIL_VERIFICATION} new learners cannot finish signing up.",
            hint="Set EMAIL_URL=smtp://USER:PASSWORD@HOST:587 (or smtps://...:465) and DEFAULT_FROM_EMAIL in .env.",
            id="syllabus.W001",
        )
    ]


@register(Tags.compatibility)
def site_url_host_allowed(app_configs, **kwargs):
    if settings.DEBUG:
        return []
    problem = health.host_problem()
    if problem is None:
        return []
    return [
        Warning(
            problem.message,
            hint="Set ALLOWED_HOSTS in .env to include it; /healthz answers 503 until then.",
            id="syllabus.W002",
        )
    ]
