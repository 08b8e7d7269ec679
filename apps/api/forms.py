"""The token page's form."""

from django import forms
from django.utils.translation import gettext_lazy as _

from apps.api.models import ApiToken


class TokenForm(forms.Form):
    name = forms.CharField(
        label=_("Name"),
        max_length=ApiToken._meta.get_field("name").max_length,
        help_text=_("What will use it, e.g. “laptop script” or “Obsidian”."),
    )
