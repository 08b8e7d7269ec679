"""Forms behind the curators' admin pages: action choices, merge, markdown import."""

from django import forms
from django.conf import settings
from django.contrib.admin.widgets import AdminFileWidget
from django.template.defaultfilters import filesizeformat

from apps.catalog.models import Kind, Topic

MAX_IMPORT_BYTES = settings.IMPORT_MAX_BYTES  # see settings: it fits Django's upload limit


class KindChoiceForm(forms.Form):
    kind = forms.ChoiceField(
        choices=Kind.choices, help_text="Every selected resource gets this kind."
    )


class TopicChoiceForm(forms.Form):
    topic = forms.ModelChoiceField(queryset=Topic.objects.order_by("title"), empty_label=None)


class MergeForm(forms.Form):
    survivor = forms.TypedChoiceField(
        widget=forms.RadioSelect,
        coerce=int,
        label="Keep",
        help_text="The others are merged into it, then deleted.",
    )

    def __init__(self, *args, resources, **kwargs):
        super().__init__(*args, **kwargs)
        self.resources = {resource.pk: resource for resource in resources}
        self.fields["survivor"].choices = [(resource.pk, resource.title) for resource in resources]

    def clean_survivor(self):
        return self.resources[self.cleaned_data["survivor"]]


class GuideImportForm(forms.Form):
    """A markdown reading list, uploaded or pasted, and the guide it becomes.

    The source is checked here (size, binary, UTF-8, empty) so a bad file is refused with a
    clear reason before the importer sees it; ``cleaned_data["source"]`` is the text.
    """

    file = forms.FileField(
        required=False, widget=AdminFileWidget, help_text="A .md or .txt file, UTF-8, at most 1 MB."
    )
    text = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 12, "class": "vLargeTextField"}),
        label="…or paste it",
        max_length=MAX_IMPORT_BYTES,
    )
    guide_slug = forms.SlugField(
        max_length=80, label="Guide slug", help_text="Its address: /guides/<slug>/."
    )
    title = forms.CharField(max_length=200, label="Guide title")

    def clean(self):
        cleaned = super().clean()
        upload, text = cleaned.get("file"), cleaned.get("text") or ""
        if upload and text.strip():
            raise forms.ValidationError("Upload a file or paste the text, not both.")
        if upload:
            cleaned["source"] = self._read(upload)
            cleaned["source_name"] = upload.name
        elif text.strip():
            if len(text.encode("utf-8", "surrogatepass")) > MAX_IMPORT_BYTES:
                raise forms.ValidationError(
                    f"The text is larger than {filesizeformat(MAX_IMPORT_BYTES)}; nothing was imported."
                )
            if "\x00" in text:
                raise forms.ValidationError(
                    "This looks like binary data, not a markdown reading list."
                )
            cleaned["source"] = text
            cleaned["source_name"] = ""
        elif not self.errors:
            raise forms.ValidationError("Upload a markdown file or paste its text.")
        return cleaned

    def _read(self, upload) -> str:
        if upload.size > MAX_IMPORT_BYTES:
            raise forms.ValidationError(
                f"The file is {filesizeformat(upload.size)}; the limit is {filesizeformat(MAX_IMPORT_BYTES)}."
            )
        data = upload.read()
        if not data.strip():
            raise forms.ValidationError("The file is empty.")
        if b"\x00" in data[:8192]:
            raise forms.ValidationError(
                "This looks like a binary file, not a markdown reading list."
            )
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise forms.ValidationError(
                f"The file is not UTF-8 text (undecodable byte at position {error.start}). Save it as UTF-8 and try again."
            ) from None


class ImportConfirmForm(forms.Form):
    """The preview's "Import" button: the same source again, re-planned against the catalog as it is now."""

    text = forms.CharField(widget=forms.HiddenInput, strip=False, max_length=MAX_IMPORT_BYTES)
    source_name = forms.CharField(widget=forms.HiddenInput, required=False, max_length=200)
    guide_slug = forms.SlugField(widget=forms.HiddenInput, max_length=80)
    title = forms.CharField(widget=forms.HiddenInput, max_length=200)
