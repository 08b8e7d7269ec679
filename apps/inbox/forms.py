"""The inbox admin's forms: a feed added by hand, the section accepted items go to."""

from django import forms

from apps.catalog.models import Section
from apps.inbox.discovery import feed_from_url
from apps.inbox.models import Feed


class SectionChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj):
        return f"{obj.guide.title} › {obj}"


class AcceptForm(forms.Form):
    section = SectionChoiceField(
        queryset=Section.objects.select_related("guide").order_by(
            "guide__position", "guide__title", "position"
        ),
        required=False,
        empty_label="Each item's suggested section",
        help_text="Each accepted item becomes a resource listed by a draft entry at the end of "
        "this section: learners see it once you publish the entry.",
    )


class SuggestionAcceptForm(forms.Form):
    section = SectionChoiceField(
        queryset=Section.objects.select_related("guide").order_by(
            "guide__position", "guide__title", "position"
        ),
        help_text="Each accepted link gets a draft entry at the end of this section: learners "
        "see it once you publish the entry.",
    )


class FeedForm(forms.ModelForm):
    """A feed's URL, or a page that names its feed (a GitHub repository, a YouTube channel or
    playlist, an arXiv listing): the feed's URL is stored."""

    class Meta:
        model = Feed
        fields = ["url", "kind", "enabled", "resource", "section"]

    def clean(self):
        cleaned = super().clean()
        url = cleaned.get("url")
        found = feed_from_url(url) if url else None
        if found is not None and found.url != url:
            cleaned["url"], cleaned["kind"] = found.url, found.kind
        return cleaned
