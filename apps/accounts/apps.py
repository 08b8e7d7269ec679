from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "apps.accounts"
    label = "accounts"
    verbose_name = "Accounts"

    def ready(self):
        from apps.accounts import timezones  # noqa: F401 - timezones copies the saved zone at log-in
