"""Autocomplete fields in Django admin that hold up, for any app's ModelAdmins (needs only Django):

- ``AutocompleteGuard`` (a ModelAdmin or inline mixin): autocomplete widgets that re-render a form
  posted with a malformed id, many-to-many ids out of the column's range refused, and a blank
  ``_to_field`` read as none (Django looks up a field named "" and answers 500);
- a ModelAdmin's ``autocomplete_label(obj)`` (rows fetched with its ``autocomplete_select_related``)
  names its objects in other admins' autocomplete fields, and ``LabelledAutocompleteJsonView``
  (the curators' admin site's autocomplete view) serves the same labels to the search box.
"""

from django import forms
from django.contrib.admin.exceptions import NotRegistered
from django.contrib.admin.views.autocomplete import AutocompleteJsonView
from django.contrib.admin.widgets import AutocompleteSelect, AutocompleteSelectMultiple
from django.core.exceptions import ValidationError


class _GuardedAutocomplete:
    """Django's autocomplete widget looks the posted ids up to show them again, and a value that
    is not an id (`abc` for an integer key) raises there: a 500 on the form's error page. Values
    that are not ids are left out of that lookup; the form still refuses them."""

    def optgroups(self, name, value, attr=None):
        remote = self.field.remote_field.model._meta
        target = remote.get_field(
            getattr(self.field.remote_field, "field_name", None) or remote.pk.name
        )
        readable = []
        for item in value:
            try:
                target.run_validators(target.to_python(item))  # the type, and the column's range
            except (ValidationError, ValueError, TypeError, OverflowError):
                continue
            readable.append(item)
        return super().optgroups(name, readable, attr)


class _GuardedSelect(_GuardedAutocomplete, AutocompleteSelect):
    pass


class _GuardedSelectMultiple(_GuardedAutocomplete, AutocompleteSelectMultiple):
    pass


class AutocompleteGuard:
    """For a ModelAdmin or inline with ``autocomplete_fields`` (see _GuardedAutocomplete).

    A foreign key shown as an autocomplete is labelled by the target's ModelAdmin when it has
    ``autocomplete_label(obj)`` (rows fetched with its ``autocomplete_select_related``), as the
    search box's results are (see LabelledAutocompleteJsonView)."""

    def get_object(self, request, object_id, from_field=None):
        return super().get_object(request, object_id, from_field or None)

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if "widget" not in kwargs and db_field.name in self.get_autocomplete_fields(request):
            kwargs["widget"] = _GuardedSelect(db_field, self.admin_site, using=kwargs.get("using"))
        formfield = super().formfield_for_foreignkey(db_field, request, **kwargs)
        if formfield is not None and isinstance(formfield.widget, AutocompleteSelect):
            try:
                target = self.admin_site.get_model_admin(db_field.remote_field.model)
            except NotRegistered:
                target = None
            label = getattr(target, "autocomplete_label", None)
            if label is not None:
                formfield.label_from_instance = label
                formfield.queryset = formfield.queryset.select_related(
                    *getattr(target, "autocomplete_select_related", ())
                )
        return formfield

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        if "widget" not in kwargs and db_field.name in self.get_autocomplete_fields(request):
            kwargs["widget"] = _GuardedSelectMultiple(
                db_field, self.admin_site, using=kwargs.get("using")
            )
        kwargs.setdefault("form_class", _GuardedMultipleChoice)
        return super().formfield_for_manytomany(db_field, request, **kwargs)


class _GuardedMultipleChoice(forms.ModelMultipleChoiceField):
    """Django checks each posted id's type but not its range, then looks them all up at once:
    40 digits overflow SQLite's integer there (a 500). Out-of-range ids are refused first."""

    def clean(self, value):
        model = self.queryset.model._meta
        target = model.get_field(self.to_field_name) if self.to_field_name else model.pk
        for item in value if isinstance(value, (list, tuple, set, frozenset)) else ():
            try:
                target.run_validators(target.to_python(item))
            except (ValidationError, ValueError, TypeError, OverflowError):
                raise ValidationError(
                    self.error_messages["invalid_pk_value"],
                    code="invalid_pk_value",
                    params={"pk": item},
                ) from None
        return super().clean(value)


class LabelledAutocompleteJsonView(AutocompleteJsonView):
    """Django's autocomplete results, each labelled by its ModelAdmin's ``autocomplete_label(obj)``
    when it has one (a section: "Guide › Parent › Section", where its own title alone is one of
    many "Tier 2"), the rows fetched with ``autocomplete_select_related`` in the same query."""

    def get_queryset(self):
        queryset = super().get_queryset()
        related = getattr(self.model_admin, "autocomplete_select_related", ())
        return queryset.select_related(*related) if related else queryset

    def serialize_result(self, obj, to_field_name):
        result = super().serialize_result(obj, to_field_name)
        label = getattr(self.model_admin, "autocomplete_label", None)
        if label is not None:
            result["text"] = label(obj)
        return result
