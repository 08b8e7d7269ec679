"""Input of progress writes and imports, validated before any service is called."""

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from apps.progress.models import Status
from apps.progress.services import UNDONE

MAX_IMPORT_BYTES = settings.IMPORT_MAX_BYTES  # see settings: it fits Django's upload limit


class StatusForm(forms.Form):
    status = forms.ChoiceField(choices=[*Status.choices, (UNDONE, _("Not done"))])
    # Where the control sits, so the response can refresh that page's bars (see views.progress_set).
    scope = forms.CharField(required=False, max_length=120)
    slot = forms.SlugField(required=False, max_length=120)


class NoteForm(forms.Form):
    note = forms.CharField(
        required=False, max_length=10_000, widget=forms.Textarea(attrs={"rows": 4})
    )


class ImportForm(forms.Form):
    file = forms.FileField(
        required=False,
        help_text=_("A Markdown checklist (.md), or a Syllabus JSON or CSV export; at most 1 MB."),
    )
    text = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 10}), label=_("…or paste it here")
    )  # its size is checked in bytes, in clean()

    def clean(self):
        cleaned = super().clean()
        upload = cleaned.get("file")
        if upload:
            if upload.size > MAX_IMPORT_BYTES:
                raise forms.ValidationError(
                    _("That file is larger than 1 MB; nothing was imported.")
                )
            try:
                cleaned["content"] = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                raise forms.ValidationError(
                    _("That file is not UTF-8 text; nothing was imported.")
                ) from None
        else:
            cleaned["content"] = cleaned.get("text") or ""
            if len(cleaned["content"].encode("utf-8", "surrogatepass")) > MAX_IMPORT_BYTES:
                raise forms.ValidationError(
                    _("That text is larger than 1 MB; nothing was imported.")
                )
        if not cleaned["content"].strip():
            raise forms.ValidationError(_("Choose a file or paste a checklist to import."))
        return cleaned
