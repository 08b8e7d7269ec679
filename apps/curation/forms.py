"""Forms behind the curators' admin pages: action choices, merge, markdown import."""

from django import forms
from django.conf import settings
from django.contrib.admin.widgets import AdminFileWidget
from django.template.defaultfilters import filesizeformat

from apps.catalog.importer.reshape import merge_choices, split_choices
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
    title = forms.CharField(
        max_length=200,
        required=False,
        label="Guide title",
        help_text="Leave it empty to use the list's own title (its first heading).",
    )

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
        return read_upload(upload)


def read_upload(upload) -> str:
    """An uploaded reading list's text; ValidationError (a clear reason) if it is too large,
    empty, binary or not UTF-8."""
    if upload.size > MAX_IMPORT_BYTES:
        raise forms.ValidationError(
            f"The file is {filesizeformat(upload.size)}; the limit is {filesizeformat(MAX_IMPORT_BYTES)}."
        )
    return source_text(upload.read(), what="The file")


def source_text(data: bytes, *, what: str = "The source") -> str:
    """``data`` (an upload or a fetched URL) as text, refused with a clear reason when it is not a reading list's text."""
    if len(data) > MAX_IMPORT_BYTES:
        raise forms.ValidationError(
            f"{what} is larger than {filesizeformat(MAX_IMPORT_BYTES)}; nothing was changed."
        )
    if not data.strip():
        raise forms.ValidationError(f"{what} is empty.")
    if b"\x00" in data[:8192]:
        raise forms.ValidationError("This looks like a binary file, not a markdown reading list.")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise forms.ValidationError(
            f"{what} is not UTF-8 text (undecodable byte at position {error.start}). Save it as UTF-8 and try again."
        ) from None


class ImportConfirmForm(forms.Form):
    """The preview's "Import" button: the same source again, re-planned against the catalog as it is now."""

    text = forms.CharField(widget=forms.HiddenInput, strip=False, max_length=MAX_IMPORT_BYTES)
    source_name = forms.CharField(widget=forms.HiddenInput, required=False, max_length=200)
    guide_slug = forms.SlugField(widget=forms.HiddenInput, max_length=80)
    title = forms.CharField(widget=forms.HiddenInput, max_length=200, required=False)


class ImportChoicesForm(forms.Form):
    """The preview's merge and split choices, one checkbox per entry or extra link of the plan.

    ``split``: ``"<entry uuid>:<link uuid>"``, that extra link becomes its own resource
    listed right after the entry; ``merge``: an entry's uuid, it joins the entry above it
    (its links become extra links there). The choices come from the plan of the same
    source, so a stale or forged value is refused. ``retitle``: a matched resource's uuid, the
    import renames it to the list's better title (applied only where that is still a fix when
    the import runs; the "keep titles" button applies none).
    """

    split = forms.MultipleChoiceField(required=False, widget=forms.CheckboxSelectMultiple)
    merge = forms.MultipleChoiceField(required=False, widget=forms.CheckboxSelectMultiple)
    retitle = forms.MultipleChoiceField(required=False, widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args, plan, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["split"].choices = [(value, value) for value in split_choices(plan)]
        self.fields["merge"].choices = [(value, value) for value in merge_choices(plan)]
        self.fields["retitle"].choices = [
            (str(resource.uuid), str(resource.uuid)) for resource in plan.matched_resources
        ]
        self.keep_titles = self.data.get("confirm") == KEEP_TITLES

    def retitled_keys(self, plan) -> set[str]:
        """The planned keys of the resources the curator kept ticked for renaming."""
        if self.keep_titles:
            return set()
        ticked = set(self.cleaned_data["retitle"])
        return {resource.key for resource in plan.resources if str(resource.uuid) in ticked}


# The preview's second Import button: import, keeping every catalog title as it is.
KEEP_TITLES = "keep-titles"


class GuideSyncForm(forms.Form):
    """Where a guide's newer version comes from: its remembered URL, or an uploaded file."""

    source_url = forms.CharField(
        required=False,
        max_length=500,
        label="Source URL",
        help_text="The guide's remembered source; an http(s) address of the markdown file.",
        widget=forms.URLInput(attrs={"class": "vURLField"}),
    )
    file = forms.FileField(
        required=False,
        widget=AdminFileWidget,
        label="…or upload a newer file",
        help_text="A .md or .txt file, UTF-8, at most 1 MB. Used instead of the URL; its name becomes the guide's source.",
    )

    def clean(self):
        cleaned = super().clean()
        upload, url = cleaned.get("file"), (cleaned.get("source_url") or "").strip()
        if upload:
            cleaned["source"] = read_upload(upload)
            cleaned["source_name"] = upload.name[:200]  # Guide.source_name's length
        elif not url and not self.errors:
            raise forms.ValidationError("Give the source URL or upload the file.")
        elif url and not url.lower().startswith(("http://", "https://")):
            raise forms.ValidationError(f"“{url}” is not an http(s) URL.")
        cleaned["source_url"] = url
        return cleaned


class SyncConfirmForm(forms.Form):
    """The sync preview's "Apply" button: the previewed source again, diffed and applied against the guide as it is now."""

    text = forms.CharField(widget=forms.HiddenInput, strip=False, max_length=MAX_IMPORT_BYTES)
    source_name = forms.CharField(widget=forms.HiddenInput, required=False, max_length=200)
    source_url = forms.CharField(widget=forms.HiddenInput, required=False, max_length=500)

    def clean_source_url(self):
        url = self.cleaned_data["source_url"]
        if url and not url.lower().startswith(("http://", "https://")):
            raise forms.ValidationError("The source URL is not an http(s) URL.")
        return url
