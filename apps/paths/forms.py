from django import forms
from django.utils.translation import gettext_lazy as _


class FollowForm(forms.Form):
    action = forms.ChoiceField(choices=[("follow", _("Follow")), ("unfollow", _("Unfollow"))])
    hours_per_week = forms.IntegerField(
        required=False, min_value=1, max_value=168, label=_("Hours per week")
    )


class OwnPathForm(forms.Form):
    title = forms.CharField(max_length=200, label=_("Title"))
    description = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 3}), label=_("Description")
    )
    notes = forms.CharField(
        required=False,
        label=_("Notes"),
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Only you see these, even when the path is published."),
    )
    hours_per_week = forms.IntegerField(
        required=False, min_value=1, max_value=168, label=_("Hours per week")
    )
    slug = forms.SlugField(
        required=False,
        max_length=100,
        label=_("Link"),
        help_text=_("Letters, digits and dashes: the path's address when published."),
    )
    published = forms.BooleanField(
        required=False, label=_("Published: anyone with the link sees it")
    )


class OwnPathNewForm(forms.Form):
    title = forms.CharField(max_length=200, label=_("Title"))


class OwnStepForm(forms.Form):
    title = forms.CharField(max_length=300, label=_("Title"))
    effort_hours = forms.IntegerField(
        required=False, min_value=1, max_value=10000, label=_("Estimate (hours)")
    )


class OwnMoveForm(forms.Form):
    action = forms.ChoiceField(
        choices=[
            ("up", _("Up")),
            ("down", _("Down")),
            ("remove", _("Remove")),
            ("to_step", _("Move to")),
        ]
    )
    step = forms.UUIDField(required=False)


class OwnAddForm(forms.Form):
    resource = forms.UUIDField()
    step = forms.UUIDField(required=False)
