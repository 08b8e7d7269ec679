"""Admin for learning paths: curators build a path from ordered steps, each with ordered
resources (autocomplete), and reorder by typing positions. Follows are learner data: not here."""

from django.contrib import admin
from django.db.models import Count
from django.template.defaultfilters import pluralize

from apps.core.admin_autocomplete import AutocompleteGuard
from apps.curation.admin.base import (
    CatalogModelAdmin,
    CuratedModelAdmin,
    PositionedForm,
    PositionedInlineFormSet,
)
from apps.paths.models import LearningPath, PathStep, StepResource


class PathStepInline(AutocompleteGuard, admin.TabularInline):
    model = PathStep
    form = PositionedForm
    formset = PositionedInlineFormSet
    fields = ["position", "title", "phase", "effort", "effort_hours", "section"]
    autocomplete_fields = ["section"]
    extra = 0
    show_change_link = True
    verbose_name_plural = "steps (type positions to reorder; open a step to edit its resources)"


class StepResourceInline(AutocompleteGuard, admin.TabularInline):
    model = StepResource
    form = PositionedForm
    formset = PositionedInlineFormSet
    fields = ["position", "resource"]
    autocomplete_fields = ["resource"]
    extra = 1
    verbose_name_plural = "resources (type positions to reorder)"


@admin.register(LearningPath)
class LearningPathAdmin(CatalogModelAdmin):
    list_display = [
        "title",
        "slug",
        "guide",
        "step_count",
        "position",
        "is_published",
        "updated_at",
    ]
    list_filter = ["is_published", "guide"]
    list_select_related = ["guide"]
    search_fields = ["title", "slug", "description"]
    prepopulated_fields = {"slug": ["title"]}
    autocomplete_fields = ["guide"]
    inlines = [PathStepInline]
    readonly_fields = ["recent_changes"]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(n_steps=Count("steps"))

    def get_deleted_objects(self, objs, request):
        """Follows are learners' data, never a curator's to delete or to see: a path someone
        follows is refused (listed with how many follow it, never who); unpublish it instead.
        Both the delete page and the "delete selected" action ask this."""
        deleted, model_count, perms_needed, protected = super().get_deleted_objects(objs, request)
        followed = (
            LearningPath.objects.filter(pk__in=[obj.pk for obj in objs])
            .annotate(n_follows=Count("follows"))
            .filter(n_follows__gt=0)
            .order_by("title")
        )
        refused = [
            f"{path.title}: followed by {path.n_follows} learner{pluralize(path.n_follows)} "
            "(unpublish it instead; their follows stay)"
            for path in followed
        ]
        if refused:
            return [], {}, perms_needed, [*refused, *protected]
        return deleted, model_count, perms_needed, protected

    @admin.display(description="steps", ordering="n_steps")
    def step_count(self, obj):
        return obj.n_steps


@admin.register(PathStep)
class PathStepAdmin(CuratedModelAdmin):
    list_display = ["title", "path", "position", "phase", "effort"]
    list_filter = ["path"]
    list_select_related = ["path"]
    search_fields = ["title", "path__title", "description"]
    autocomplete_fields = ["path", "section"]
    inlines = [StepResourceInline]
