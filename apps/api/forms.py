"""The token page's form."""

from django import forms

from apps.api.models import ApiToken


class TokenForm(forms.Form):
    name = forms.CharField(
        label="Name",
        max_length=ApiToken._meta.get_field("name").max_length,
        help_text="What will use it, e.g. “laptop script” or “Obsidian”.",
    )
