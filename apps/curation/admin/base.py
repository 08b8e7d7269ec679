"""Building blocks for the curators' ModelAdmins (apps/catalog/admin.py and apps/paths/admin.py
import from here):

- ``CatalogModelAdmin``: publish / unpublish actions that write history, a "Recent changes"
  read-only field, saner defaults;
- ``PositionedInlineFormSet`` / ``PositionedForm``: positions typed into an inline (or a
  change form) are an *order*, not identities: rows are renumbered 1..n on save, so a
  curator moves a row by typing its new place, with no clash on the unique (parent, position);
- ``bulk_edit_action`` / ``form_action_page``: an action that asks for a choice first (kind, topic);
- ``log_change_many``: one history row per object touched by a bulk action or a service;
- ``CuratedModelAdmin``: history that says what changed, old → new (``change_message``), and
  autocomplete fields that hold up (``AutocompleteGuard``, apps/core/admin_autocomplete.py).
"""

from collections.abc import Callable, Iterable

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.admin.utils import construct_change_message
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import FieldDoesNotExist
from django.db import models, transaction
from django.forms.models import BaseInlineFormSet
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.utils.text import Truncator

from apps.catalog.positions import next_position, positions_park, positions_renumber
from apps.core.admin_autocomplete import AutocompleteGuard
from apps.curation.services import objects_set_published

RECENT_CHANGES_SHOWN = 8
CHANGE_VALUE_CHARS = 80  # a value longer than this is cut in the history ("…")


def log_change_many(request, objects: Iterable, message: str, action_flag: int = CHANGE) -> None:
    """Write one admin history row per object (a plain-text message, shown as written)."""
    objects = list(objects)
    if objects:
        LogEntry.objects.log_actions(
            user_id=request.user.pk,
            queryset=objects,
            action_flag=action_flag,
            change_message=message,
        )


def form_action_page(
    modeladmin,
    request,
    queryset,
    *,
    form_class: type[forms.Form],
    title: str,
    submit_label: str,
    apply: Callable[[forms.Form], None],
):
    """Run an action that needs a choice first: show ``form_class`` for the selected objects,
    then call ``apply(form)`` once it validates. Returns the page, or None to go back to the list."""
    form = form_class(request.POST) if "apply" in request.POST else form_class()
    if form.is_bound and form.is_valid():
        apply(form)
        return None
    opts = modeladmin.model._meta
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": title,
        "subtitle": None,
        "opts": opts,
        "form": form,
        "queryset": queryset,
        "objects": list(queryset[:50]),
        "count": queryset.count(),
        "action_name": request.POST.get("action", ""),
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        "submit_label": submit_label,
        "media": modeladmin.media + form.media,
    }
    return TemplateResponse(request, "curation/action_form.html", context)


def bulk_edit_action(
    modeladmin,
    request,
    queryset,
    *,
    form_class: type[forms.Form],
    title: str,
    submit_label: str,
    edit: Callable[[dict], list],
    describe: Callable[[dict], str],
):
    """An action that asks for one choice first, then applies ``edit(cleaned_data)`` (returning the
    objects it changed) and records ``describe(cleaned_data)`` in their history and in a message."""

    def apply(form):
        changed = edit(form.cleaned_data)
        what = describe(form.cleaned_data)
        log_change_many(request, changed, f"{what} (bulk action).")
        plural = modeladmin.model._meta.verbose_name_plural
        modeladmin.message_user(
            request, f"{what}: {len(changed)} {plural} changed.", messages.SUCCESS
        )

    return form_action_page(
        modeladmin,
        request,
        queryset,
        form_class=form_class,
        title=title,
        submit_label=submit_label,
        apply=apply,
    )


class UnixNewlinesField(forms.CharField):
    """Text as stored: browsers post ``\r\n``; reading it back as ``\n`` means an untouched
    form does not count as a change (no "Changed Description" in history)."""

    def to_python(self, value):
        value = super().to_python(value)
        return value.replace("\r\n", "\n").replace("\r", "\n") if isinstance(value, str) else value


# --- History: what changed, old → new --------------------------------------------------------
def change_message(form, formsets, add: bool):
    """The history line of an add/change form. Django's own (JSON, shown as "Changed Title.")
    for an add or a save that changed nothing ("No fields changed."); otherwise plain text
    with each changed field's old and new value: 'Changed title: “Old” → “New”.', a many-to-many
    field as the names added and removed, an inline's rows as added, changed (old → new) or
    deleted. Plain text is what LogEntry shows as written, as the bulk actions' lines are."""
    django_message = construct_change_message(form, formsets, add)
    if add or not django_message:
        return django_message
    parts = []
    values = _changed_values(form)
    if values:
        parts.append(f"Changed {'; '.join(values)}.")
    for formset in formsets or []:
        name = formset.model._meta.verbose_name
        forms_by_instance = {id(f.instance): f for f in formset.forms}
        parts += [f"Added {name} “{_cut(obj)}”." for obj in formset.new_objects]
        for obj, fields in formset.changed_objects:
            row_form = forms_by_instance.get(id(obj))
            changed = _changed_values(row_form) if row_form is not None else fields
            if changed:
                parts.append(f"Changed {name} “{_cut(obj)}”: {'; '.join(changed)}.")
        parts += [f"Deleted {name} “{_cut(obj)}”." for obj in formset.deleted_objects]
    return " ".join(parts) or django_message


def _changed_values(form) -> list[str]:
    """'title: “Old” → “New”' for each changed field of a bound, valid form."""
    described = []
    for name in form.changed_data:
        field = form.fields.get(name)
        if field is None or name not in form.cleaned_data:
            continue
        old, new = form[name].initial, form.cleaned_data[name]
        if isinstance(field, forms.ModelMultipleChoiceField):
            old_objects = {obj.pk: obj for obj in old or []}
            new_objects = {obj.pk: obj for obj in new or []}
            added = [new_objects[pk] for pk in new_objects.keys() - old_objects.keys()]
            removed = [old_objects[pk] for pk in old_objects.keys() - new_objects.keys()]
            moves = [
                f"{verb} {', '.join(sorted(f'“{_cut(obj)}”' for obj in objs))}"
                for verb, objs in (("added", added), ("removed", removed))
                if objs
            ]
            if moves:
                described.append(f"{_label(form, name)}: {', '.join(moves)}")
            continue
        described.append(
            f"{_label(form, name)}: {_shown(field, old, before=True)} → {_shown(field, new)}"
        )
    return described


def _label(form, name):
    try:
        return str(form._meta.model._meta.get_field(name).verbose_name)
    except (AttributeError, FieldDoesNotExist):
        return str(form.fields[name].label or name)


def _shown(field, value, *, before=False):
    """A field's value as the history quotes it: “text” (cut), a choice's label, a related
    object's name; “—” when blank."""
    if value is None or value == "" or value == []:
        return "—"
    if isinstance(field, forms.BooleanField):
        return "yes" if value else "no"
    if isinstance(field, forms.ModelChoiceField):
        if before and not isinstance(value, models.Model):  # the form's initial is the key
            key = field.to_field_name or "pk"
            value = field.queryset.model._default_manager.filter(**{key: value}).first() or value
    elif isinstance(field, forms.ChoiceField):
        value = dict(field.choices).get(value, value)
    return f"“{_cut(value)}”"


def _cut(value) -> str:
    return Truncator(str(value)).chars(CHANGE_VALUE_CHARS)


class CuratedModelAdmin(AutocompleteGuard, admin.ModelAdmin):
    """Every curator's ModelAdmin: guarded autocompletes, history with old → new values."""

    def construct_change_message(self, request, form, formsets, add=False):
        return change_message(form, formsets, add)


class CatalogModelAdmin(CuratedModelAdmin):
    """Defaults for every catalog model (they all have ``is_published``, ``created_at``, ``updated_at``)."""

    formfield_overrides = {
        models.TextField: {"form_class": UnixNewlinesField, "widget": forms.Textarea}
    }

    actions = ["publish", "unpublish"]
    list_per_page = 50
    show_full_result_count = False  # one COUNT less per changelist page on large tables
    save_on_top = True

    @admin.action(description="Publish selected %(verbose_name_plural)s", permissions=["change"])
    def publish(self, request, queryset):
        self._set_published(request, queryset, True)

    @admin.action(description="Unpublish selected %(verbose_name_plural)s", permissions=["change"])
    def unpublish(self, request, queryset):
        self._set_published(request, queryset, False)

    def _set_published(self, request, queryset, published):
        changed = objects_set_published(queryset=queryset, published=published)
        verb = "Published" if published else "Unpublished"
        log_change_many(request, changed, f"{verb} (bulk action).")
        self.message_user(
            request,
            f"{verb} {len(changed)} {self.model._meta.verbose_name_plural}.",
            messages.SUCCESS if changed else messages.INFO,
        )

    @admin.display(description="Recent changes")
    def recent_changes(self, obj):
        if obj is None or obj.pk is None:
            return "—"
        entries = (
            LogEntry.objects.filter(
                content_type=ContentType.objects.get_for_model(obj, for_concrete_model=False),
                object_id=str(obj.pk),
            )
            .select_related("user")
            .order_by("-action_time")[:RECENT_CHANGES_SHOWN]
        )
        return render_to_string(
            "curation/includes/recent_changes.html",
            {"entries": entries, "opts": obj._meta, "obj": obj},
        )


class PositionedForm(forms.ModelForm):
    """A model form whose ``position`` is optional (blank: at the end) and not checked against the
    unique (parent, position) constraint: the save renumbers the group instead (see below)."""

    position_field = "position"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields.get(self.position_field)
        if field is not None:
            field.required = False
            field.help_text = "Type the place it should take; the others shift. Blank: at the end."

    def _get_validation_exclusions(self):
        # Private Django API, stable since 1.x: the one place that decides which fields the
        # model's unique checks and constraints see, for the form and for its formset.
        exclusions = super()._get_validation_exclusions()
        exclusions.add(self.position_field)
        return exclusions


class PositionedInlineFormSet(BaseInlineFormSet):
    """An inline whose positions are renumbered 1..n on save in the order typed.

    A row typed onto a taken place takes it: moved up (or new), it goes before the row that
    held it; moved down, after it. A new row left blank goes last; rows the inline does not
    show keep their place among the others.
    """

    position_field = "position"

    def save(self, commit=True):
        touched = any(form.has_changed() for form in self.forms) or bool(self.deleted_forms)
        if not commit or not touched:
            return super().save(commit=commit)
        with transaction.atomic():
            group = self.model._default_manager.filter(**{self.fk.name: self.instance})
            before = dict(group.values_list("pk", self.position_field))
            # Park the group out of the way, and give each row this save writes its own
            # temporary place above the parked ones; the final numbers come after.
            parking = positions_park(
                group,
                count=len(self.forms),
                field_name=self.position_field,
                highest=max(before.values(), default=0),
            )
            wanted = {}
            for index, form in enumerate(self.forms):
                if not form.has_changed() or (self.can_delete and self._should_delete_form(form)):
                    continue
                typed = form.cleaned_data.get(
                    self.position_field, getattr(form.instance, self.position_field, None)
                )
                wanted[form] = typed
                setattr(form.instance, self.position_field, 2 * parking + index)
            saved = super().save(commit=True)
            typed_by_pk = {
                form.instance.pk: typed for form, typed in wanted.items() if form.instance.pk
            }
            rows = list(group.order_by("pk"))
            last = float("inf")

            def key(row):
                original = before.get(row.pk, last)
                typed = typed_by_pk.get(row.pk, original)
                typed = last if typed is None else typed
                return (typed, _tie_break(original, typed), original, row.pk)

            positions_renumber(rows=self.final_order(rows, key), field_name=self.position_field)
        return saved

    def final_order(self, rows, key):
        """The group's rows in their new order (subclasses reorder whole subtrees)."""
        return sorted(rows, key=key)


class PositionedAdminMixin:
    """For a ModelAdmin whose form is a PositionedForm: the typed position inserts the object at
    that place in its group (blank: at the end) and the group is renumbered 1..n; a group the
    object left (an entry moved to another section) is renumbered too."""

    position_field = "position"

    def position_group(self, obj):
        """The queryset of ``obj``'s siblings under the unique (parent, position) constraint."""
        raise NotImplementedError

    def save_model(self, request, obj, form, change):
        if self.position_field not in form.fields:
            return super().save_model(request, obj, form, change)
        wanted = form.cleaned_data.get(self.position_field)
        with transaction.atomic():
            old_group, original = None, float("inf")
            group = self.position_group(obj)
            if change:
                previous = type(obj)._default_manager.get(pk=obj.pk)
                old_group = self.position_group(previous)
                if group.filter(pk=obj.pk).exists():
                    original = getattr(previous, self.position_field)
            others = list(
                (group.exclude(pk=obj.pk) if obj.pk else group).order_by(self.position_field, "pk")
            )
            setattr(
                obj,
                self.position_field,
                next_position(group.exclude(pk=obj.pk), self.position_field),
            )
            super().save_model(request, obj, form, change)
            wanted = float("inf") if wanted is None else wanted
            rows = sorted(
                [
                    (getattr(row, self.position_field), 0, index, row)
                    for index, row in enumerate(others)
                ]
                + [(wanted, _tie_break(original, wanted) - 1, -1, obj)],
                key=lambda item: item[:3],
            )
            positions_renumber(rows=[item[3] for item in rows], field_name=self.position_field)
            if old_group is not None and original == float("inf"):  # it left that group
                positions_renumber(
                    rows=list(old_group.order_by(self.position_field, "pk")),
                    field_name=self.position_field,
                )


def _tie_break(original, typed) -> int:
    """Where a row typed onto a taken place goes among the rows already there: a row moved up
    (or new) goes before them, taking the place; a row moved down goes after them."""
    if typed < original:
        return 0
    return 2 if typed > original else 1
