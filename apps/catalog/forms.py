"""Forms that parse the catalog pages' query strings (filters and search).

They never make a page fail: a bad value is reported and ignored, the rest still applies.
"""

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from apps.catalog.models import Kind, Priority

SEARCH_MAX_LENGTH = 200
TIER_CHOICES = [("1", _("Tier 1")), ("2", _("Tier 2")), ("3", _("Tier 3"))]


def ignored_filter_message(label: str, value: str) -> str:
    """The sentence a page shows for a filter value it ignored (every list's filters, the
    learner's status filter too): names the filter and the value, cut to 40 characters."""
    return gettext("Ignored the %(filter)s filter “%(value)s”: it is not one of the choices.") % {
        "filter": str(label).lower(),
        "value": value[:40],
    }


class CatalogFilterForm(forms.Form):
    """Optional filters: each field is independent, so one bad value only drops that filter."""

    def cleaned_filters(self) -> dict[str, str]:
        """The valid, non-empty filters as strings, ready for querystrings and selectors."""
        self.is_valid()
        return {name: value for name, value in self.cleaned_data.items() if value}

    def ignored_messages(self) -> list[str]:
        """One sentence per rejected filter, naming the value that was ignored."""
        self.is_valid()
        return [
            ignored_filter_message(self.fields[name].label, self.data.get(name, ""))
            for name in self.errors
        ]


class GuideFilterForm(CatalogFilterForm):
    tier = forms.ChoiceField(label=_("Tier"), choices=TIER_CHOICES, required=False)
    priority = forms.ChoiceField(label=_("Priority"), choices=Priority.choices, required=False)
    kind = forms.ChoiceField(label=_("Kind"), choices=Kind.choices, required=False)


class TopicFilterForm(CatalogFilterForm):
    kind = forms.ChoiceField(label=_("Kind"), choices=Kind.choices, required=False)


class SearchQueryField(forms.CharField):
    """Free text as typed: NUL bytes and other control characters are dropped rather than refused."""

    def to_python(self, value):
        value = super().to_python(value)
        return "".join(ch if ch.isprintable() else " " for ch in value).strip()


class SearchForm(forms.Form):
    q = SearchQueryField(label=_("Search"), required=False)
    kind = forms.ChoiceField(
        label=_("Kind"), choices=[("", _("Any kind")), *Kind.choices], required=False
    )
    guide = forms.ChoiceField(label=_("Guide"), choices=[("", _("Any guide"))], required=False)
    truncated = False  # set by clean_q when the query was cut to SEARCH_MAX_LENGTH

    def __init__(self, *args, guides=(), **kwargs):
        """`guides`: (slug, title) of the published guides a search may be narrowed to."""
        super().__init__(*args, **kwargs)
        self.fields["guide"].choices = [("", _("Any guide")), *guides]

    def clean_q(self):
        query = " ".join(self.cleaned_data["q"].split())
        self.truncated = len(query) > SEARCH_MAX_LENGTH
        return query[:SEARCH_MAX_LENGTH].strip()

    def query(self) -> str:
        self.is_valid()
        return self.cleaned_data.get("q", "")

    def filters(self) -> dict[str, str]:
        """The valid, chosen filters ("kind", "guide"); a bad value is left out (see ignored_messages)."""
        self.is_valid()
        return {
            name: self.cleaned_data[name]
            for name in ("kind", "guide")
            if self.cleaned_data.get(name)
        }

    def ignored_messages(self) -> list[str]:
        self.is_valid()
        return [
            ignored_filter_message(self.fields[name].label, self.data.get(name, ""))
            for name in ("kind", "guide")
            if name in self.errors
        ]
