from django import forms
from django.utils.translation import gettext_lazy as _

from apps.catalog.models import Guide
from apps.groups.models import INVITE_DAYS
from apps.paths.models import LearningPath


class GroupForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100)
    description = forms.CharField(
        label=_("Description"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    paths = forms.ModelMultipleChoiceField(
        label=_("Paths"),
        queryset=LearningPath.objects.published(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    guides = forms.ModelMultipleChoiceField(
        label=_("Guides"),
        queryset=Guide.objects.published(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )


class InviteForm(forms.Form):
    days = forms.IntegerField(
        label=_("Works for (days)"), min_value=1, max_value=90, initial=INVITE_DAYS
    )
    max_uses = forms.IntegerField(
        label=_("At most this many joins"),
        min_value=1,
        max_value=1000,
        required=False,
        help_text=_("Empty: no limit."),
    )


class VisibilityForm(forms.Form):
    """The state the member wants, not "toggle": a retry or a double click converges."""

    hidden = forms.TypedChoiceField(choices=[("1", "1"), ("0", "0")], coerce=lambda v: v == "1")


class MembershipForm(forms.Form):
    progress_hidden = forms.BooleanField(
        label=_("Hide my progress from the group"),
        required=False,
        help_text=_("The others see “hidden” instead of your bars, and nothing you finish."),
    )
    weekly_mail = forms.BooleanField(
        label=_("Send me the group’s week by mail on Mondays"), required=False
    )
