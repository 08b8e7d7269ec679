"""The learner pages' own forms."""

from django import forms


class SeenForm(forms.Form):
    """What's new's "Mark as seen": the moment the block was shown, so what was added after it
    stays new."""

    seen_up_to = forms.DateTimeField()
