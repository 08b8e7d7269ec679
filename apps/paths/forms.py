from django import forms


class FollowForm(forms.Form):
    action = forms.ChoiceField(choices=[("follow", "Follow"), ("unfollow", "Unfollow")])
    hours_per_week = forms.IntegerField(
        required=False, min_value=1, max_value=168, label="Hours per week"
    )


class OwnPathForm(forms.Form):
    title = forms.CharField(max_length=200)
    description = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 3}))
    notes = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Only you see these, even when the path is published.",
    )
    hours_per_week = forms.IntegerField(
        required=False, min_value=1, max_value=168, label="Hours per week"
    )
    slug = forms.SlugField(
        required=False,
        max_length=100,
        label="Link",
        help_text="Letters, digits and dashes: the path's address when published.",
    )
    published = forms.BooleanField(required=False, label="Published: anyone with the link sees it")


class OwnPathNewForm(forms.Form):
    title = forms.CharField(max_length=200)


class OwnStepForm(forms.Form):
    title = forms.CharField(max_length=300)
    effort_hours = forms.IntegerField(
        required=False, min_value=1, max_value=10000, label="Estimate (hours)"
    )


class OwnMoveForm(forms.Form):
    action = forms.ChoiceField(
        choices=[("up", "Up"), ("down", "Down"), ("remove", "Remove"), ("to_step", "Move to")]
    )
    step = forms.UUIDField(required=False)


class OwnAddForm(forms.Form):
    resource = forms.UUIDField()
    step = forms.UUIDField(required=False)
