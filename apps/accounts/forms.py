"""Forms of the account page."""

from django import forms
from django.utils.html import format_html


class AccountDeleteForm(forms.Form):
    """Asks the signed-in user to type their email address (and password, if they have one).

    Typing the address guards against a misclick; the password guards against someone
    at an unattended, signed-in browser. Accounts created through GitHub have no usable
    password, so for them the typed address is the whole confirmation.
    """

    confirm = forms.CharField(
        label="Type your email address to confirm",
        max_length=254,
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "none", "spellcheck": "false"}
        ),
    )
    password = forms.CharField(
        label="Your password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        # Escaped here: allauth's field element renders help text as HTML (`|safe`).
        self.fields["confirm"].help_text = format_html(
            "Type {} exactly as shown.", self.expected_confirmation
        )
        if not user.has_usable_password():
            del self.fields["password"]

    @property
    def expected_confirmation(self) -> str:
        return self.user.email or self.user.get_username()

    def clean_confirm(self):
        typed = self.cleaned_data["confirm"].strip()
        if typed.casefold() != self.expected_confirmation.casefold():
            raise forms.ValidationError(
                "That is not your email address, so nothing was deleted.", code="mismatch"
            )
        return typed

    def clean_password(self):
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(
                "That password is not correct, so nothing was deleted.", code="password"
            )
        return password
