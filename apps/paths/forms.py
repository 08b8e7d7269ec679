from django import forms


class FollowForm(forms.Form):
    action = forms.ChoiceField(choices=[("follow", "Follow"), ("unfollow", "Unfollow")])
    hours_per_week = forms.IntegerField(
        required=False, min_value=1, max_value=168, label="Hours per week"
    )
