from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "apps.accounts"
    label = "accounts"
    verbose_name = "Accounts"

    def ready(self):
        # Each copies its saved preference into the session at log-in.
        from apps.accounts import languages, timezones  # noqa: F401
