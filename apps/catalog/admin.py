"""Django admin for the catalog, where curators keep it alive.

Wiring into the curators' admin: like every app's admin.py it builds on apps.curation and calls
its services, an import from a higher layer that import-linter exempts for admin modules only
(docs/ARCHITECTURE.md). Shared behaviour (publish actions with history, positions that renumber, recent changes)
lives in apps/curation/admin/base.py; the curators' bigger tools (merge, import/export,
link checks) in apps/curation. Changelists annotate their counts and select their
relations, so a page costs the same few queries however many rows it shows.
"""

from urllib.parse import urlsplit

from django import forms
from django.contrib import admin, messages
from django.db import models, transaction
from django.db.models import Count, IntegerField, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce
from django.forms import Textarea, ValidationError
from django.urls import path, reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.text import Truncator

from apps.catalog.importer.urls import bare_host, normalize_url
from apps.catalog.models import (
    Entry,
    Guide,
    Kind,
    LinkStatus,
    Resource,
    ResourceLink,
    Section,
    Topic,
    url_key,
)
from apps.catalog.positions import next_position, positions_renumber
from apps.core.admin_autocomplete import AutocompleteGuard
from apps.curation import views as curation_views
from apps.curation.admin.base import (
    CatalogModelAdmin,
    CuratedModelAdmin,
    PositionedAdminMixin,
    PositionedForm,
    PositionedInlineFormSet,
    UnixNewlinesField,
    bulk_edit_action,
    log_change_many,
)
from apps.curation.admin.linkcheck import can_check_links
from apps.curation.admin.linkcheck import start_run as start_link_check
from apps.curation.forms import KindChoiceForm, TopicChoiceForm
from apps.curation.services import (
    guide_sections_renumber,
    resources_accept_suggested_titles,
    resources_add_topic,
    resources_dismiss_suggested_titles,
    resources_remove_topic,
    resources_set_kind,
    section_depths_refresh,
    section_entries_renumber,
)

TOPICS_SHOWN = 2
# Notes in a row of an inline: a short box, not the change form's big one.
COMPACT_TEXT = {
    models.TextField: {
        "form_class": UnixNewlinesField,
        "widget": Textarea(attrs={"rows": 2, "cols": 40}),
    }
}
SECTION_LABEL_PART_CHARS = 50


def count_of(model, fk: str):
    """A correlated COUNT of ``model`` rows pointing at the outer row: no GROUP BY, no row blow-up
    when the changelist also filters across the same relation."""
    counts = (
        model.objects.filter(**{fk: OuterRef("pk")})
        .order_by()
        .values(fk)
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(counts, output_field=IntegerField()), Value(0))


def plural(count: int, singular: str, many: str = "") -> str:
    """ "1 guide", "2 guides", "3 entries" (with ``many``)."""
    return f"{count} {singular if count == 1 else many or singular + 's'}"


def renumber_report(model_admin, request, moved: dict, item: tuple, group: str, same_order=False):
    """Say what a renumber action did: how many ``item`` rows (singular, plural) moved in how
    many groups, and how many groups were already numbered 1…n."""
    changed = [count for count in moved.values() if count]
    already = len(moved) - len(changed)
    if not changed:
        model_admin.message_user(
            request,
            f"Positions already 1…n in {plural(already, group)}: nothing to change.",
            messages.INFO,
        )
        return
    message = f"Renumbered {plural(sum(changed), *item)} in {plural(len(changed), group)}"
    if already:
        message += f"; positions already 1…n in {plural(already, group)}"
    if same_order:
        message += f" (the order of the {item[1]} is the same: only gaps closed)"
    model_admin.message_user(request, message + ".", messages.SUCCESS)


# --- Filters ---------------------------------------------------------------------------------
class SectionOfGuideFilter(admin.SimpleListFilter):
    """Sections of the guide chosen in the guide filter (hidden until one is chosen: hundreds otherwise)."""

    title = "section"
    parameter_name = "section"
    guide_parameter = ""  # the guide filter's query parameter
    field_path = ""

    def lookups(self, request, model_admin):
        guide_id = request.GET.get(self.guide_parameter, "")
        if not guide_id.isdigit():
            return []
        return [
            (str(s.pk), str(s))
            for s in Section.objects.filter(guide_id=guide_id).order_by("position")
        ]

    def queryset(self, request, queryset):
        value = self.value()
        if value and value.isdigit():
            return queryset.filter(**{self.field_path: value}).distinct()
        return queryset


class ResourceSectionFilter(SectionOfGuideFilter):
    guide_parameter = "entries__section__guide__id__exact"
    field_path = "entries__section"


class EntrySectionFilter(SectionOfGuideFilter):
    guide_parameter = "section__guide__id__exact"
    field_path = "section"


class HasUrlFilter(admin.SimpleListFilter):
    title = "URL"
    parameter_name = "has_url"

    def lookups(self, request, model_admin):
        return [("yes", "Has a URL"), ("no", "Has no URL")]

    def queryset(self, request, queryset):
        if self.value() in ("yes", "no"):
            return queryset.filter(url__isnull=self.value() == "no")
        return queryset


class UrlIssueFilter(admin.SimpleListFilter):
    title = "URL issue"
    parameter_name = "url_issue"

    def lookups(self, request, model_admin):
        return [("yes", "Repaired on import"), ("no", "None")]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.exclude(url_issue="")
        if self.value() == "no":
            return queryset.filter(url_issue="")
        return queryset


class LinkHealthFilter(admin.SimpleListFilter):
    title = "link status"
    parameter_name = "link"
    ATTENTION = "attention"

    def lookups(self, request, model_admin):
        return [(self.ATTENTION, "Broken or unreachable"), *LinkStatus.choices]

    def queryset(self, request, queryset):
        if self.value() == self.ATTENTION:
            return queryset.filter(link_status__in=[LinkStatus.BROKEN, LinkStatus.ERROR])
        if self.value() in LinkStatus.values:
            return queryset.filter(link_status=self.value())
        return queryset


class TitleSuggestionFilter(admin.SimpleListFilter):
    title = "title suggestion"
    parameter_name = "suggestion"

    def lookups(self, request, model_admin):
        return [("yes", "Has one"), ("no", "None")]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.exclude(suggested_title="")
        if self.value() == "no":
            return queryset.filter(suggested_title="")
        return queryset


# --- Topic -----------------------------------------------------------------------------------
@admin.register(Topic)
class TopicAdmin(CatalogModelAdmin):
    list_display = ["title", "slug", "resource_count", "position", "is_published", "updated_at"]
    list_filter = ["is_published"]
    search_fields = ["title", "slug", "description"]
    prepopulated_fields = {"slug": ["title"]}
    readonly_fields = ["uuid", "created_at", "updated_at", "recent_changes"]
    fieldsets = [
        (None, {"fields": ["title", "slug", "description", "position", "is_published"]}),
        (
            "History",
            {
                "fields": ["recent_changes", "uuid", "created_at", "updated_at"],
                "classes": ["collapse"],
            },
        ),
    ]

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .annotate(resource_count=count_of(Resource.topics.through, "topic"))
        )

    @admin.display(description="resources", ordering="resource_count")
    def resource_count(self, obj):
        return obj.resource_count


# --- Guide -----------------------------------------------------------------------------------
class TopSectionsFormSet(PositionedInlineFormSet):
    """Top-level sections in the order typed, each carrying its subsections along, so positions
    stay in document order."""

    def final_order(self, rows, key):
        by_original = sorted(rows, key=lambda row: (key(row)[2], row.pk))
        children = {}
        for row in by_original:
            children.setdefault(row.parent_id, []).append(row)
        ordered, seen = [], set()

        def walk(section):
            seen.add(section.pk)
            ordered.append(section)
            for child in children.get(section.pk, []):
                if child.pk not in seen:
                    walk(child)

        for top in sorted(children.get(None, []), key=key):
            walk(top)
        return ordered + [row for row in by_original if row.pk not in seen]


class TopSectionInline(admin.TabularInline):
    model = Section
    form = PositionedForm
    formset = TopSectionsFormSet
    fields = ["position", "number", "title", "tier", "priority", "is_published"]
    extra = 0
    show_change_link = True
    verbose_name = "top-level section"
    verbose_name_plural = (
        "top-level sections (type positions to reorder; subsections follow their section)"
    )

    def get_queryset(self, request):
        return super().get_queryset(request).filter(parent__isnull=True)


@admin.register(Guide)
class GuideAdmin(CatalogModelAdmin):
    list_display = [
        "title",
        "slug",
        "section_count",
        "entry_count",
        "position",
        "is_published",
        "updated_at",
    ]
    list_filter = ["is_published"]
    search_fields = ["title", "slug", "description", "source_name"]
    prepopulated_fields = {"slug": ["title"]}
    readonly_fields = ["uuid", "created_at", "updated_at", "recent_changes", "last_fetch"]
    fieldsets = [
        (None, {"fields": ["title", "slug", "description", "position", "is_published"]}),
        (
            "Source",
            {
                "fields": [
                    "source_name",
                    "source_url",
                    "sync_schedule",
                    "last_fetch",
                    "source_note",
                ]
            },
        ),
        ("History", {"fields": ["recent_changes", "uuid", "created_at", "updated_at"]}),
    ]
    inlines = [TopSectionInline]
    actions = ["publish", "unpublish", "renumber_sections", "export_markdown"]

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .annotate(
                section_count=count_of(Section, "guide"),
                entry_count=count_of(Entry, "section__guide"),
            )
        )

    @admin.display(description="last fetch")
    def last_fetch(self, obj):
        """The source's last fetch (by the schedule or a curator's sync): when, and how it went."""
        status = getattr(obj, "source_status", None) if obj.pk else None
        if status is None or status.fetched_at is None:
            return "Never fetched."
        when = date_format(timezone.localtime(status.fetched_at), "DATETIME_FORMAT")
        if status.error:
            return f"{when}: failed: {status.error}"
        return f"{when}: {status.get_outcome_display().lower()}"

    @admin.display(description="sections", ordering="section_count")
    def section_count(self, obj):
        return obj.section_count

    @admin.display(description="entries", ordering="entry_count")
    def entry_count(self, obj):
        return obj.entry_count

    def get_urls(self):
        opts = self.opts
        return [
            path(
                "import/",
                self.admin_site.admin_view(curation_views.guide_import, cacheable=False),
                {"model_admin": self},
                name=f"{opts.app_label}_{opts.model_name}_import",
            ),
            path(
                "<path:object_id>/export/",
                self.admin_site.admin_view(curation_views.guide_export),
                {"model_admin": self},
                name=f"{opts.app_label}_{opts.model_name}_export",
            ),
            path(
                "<path:object_id>/sync/",
                self.admin_site.admin_view(curation_views.guide_sync, cacheable=False),
                {"model_admin": self},
                name=f"{opts.app_label}_{opts.model_name}_sync",
            ),
            *super().get_urls(),
        ]

    def has_import_permission(self, request):
        return curation_views.can_import(request.user)

    def changelist_view(self, request, extra_context=None):
        extra_context = {
            "has_import_permission": self.has_import_permission(request),
            **(extra_context or {}),
        }
        return super().changelist_view(request, extra_context)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        extra_context = {
            # "Sync with source…": the import's permissions plus changing this guide
            "has_sync_permission": self.has_import_permission(request)
            and self.has_change_permission(request),
            **(extra_context or {}),
        }
        return super().change_view(request, object_id, form_url, extra_context)

    @admin.action(
        description="Renumber sections 1…n in the order the guide page shows them",
        permissions=["change"],
    )
    def renumber_sections(self, request, queryset):
        moved = {guide: guide_sections_renumber(guide=guide) for guide in queryset}
        for guide, count in moved.items():
            if count:
                log_change_many(
                    request,
                    [guide],
                    f"Renumbered {plural(count, 'section')} 1…n in the order the guide page "
                    "shows them (each section followed by its subsections).",
                )
        renumber_report(self, request, moved, ("section", "sections"), "guide")

    @admin.action(description="Export selected guides as markdown", permissions=["view"])
    def export_markdown(self, request, queryset):
        return curation_views.guides_export_response(list(queryset.order_by("position", "title")))


# --- Section ---------------------------------------------------------------------------------
class SectionForm(PositionedForm):
    class Meta:
        model = Section
        fields = "__all__"

    def clean(self):
        cleaned = super().clean()
        parent, guide = (
            cleaned.get("parent"),
            cleaned.get("guide") or getattr(self.instance, "guide", None),
        )
        if parent is not None and guide is not None:
            if parent.guide_id != guide.pk:
                raise ValidationError(
                    {"parent": "The parent section must belong to the same guide."}
                )
            ancestor, seen = parent, set()
            while ancestor is not None and ancestor.pk not in seen:
                if self.instance.pk and ancestor.pk == self.instance.pk:
                    raise ValidationError(
                        {"parent": "A section cannot sit inside itself or one of its subsections."}
                    )
                seen.add(ancestor.pk)
                ancestor = ancestor.parent
        return cleaned


class EntryInline(AutocompleteGuard, admin.TabularInline):
    model = Entry
    form = PositionedForm
    formset = PositionedInlineFormSet
    fields = ["position", "resource", "tier", "priority", "rating", "note", "is_published"]
    autocomplete_fields = ["resource"]
    extra = 0
    show_change_link = True
    verbose_name_plural = "entries (type positions to reorder)"
    formfield_overrides = COMPACT_TEXT

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("resource")


@admin.register(Section)
class SectionAdmin(PositionedAdminMixin, CatalogModelAdmin):
    form = SectionForm
    list_display = [
        "__str__",
        "guide",
        "parent_title",
        "position",
        "tier",
        "priority",
        "entry_count",
        "is_published",
    ]
    list_display_links = ["__str__"]
    list_filter = ["guide", "tier", "priority", "is_published"]
    list_select_related = ["guide", "parent"]
    search_fields = ["title", "number", "description", "guide__title"]
    autocomplete_fields = ["guide", "parent"]
    ordering = ["guide__position", "guide__title", "position"]
    readonly_fields = ["uuid", "created_at", "updated_at", "recent_changes"]
    fieldsets = [
        (
            None,
            {
                "fields": [
                    "guide",
                    "parent",
                    "number",
                    "title",
                    "description",
                    "position",
                    "is_published",
                ]
            },
        ),
        (
            "The guide's annotation",
            {"fields": [("depth", "tier", "priority"), ("phase", "effort")]},
        ),
        (
            "History",
            {
                "fields": ["recent_changes", "uuid", "created_at", "updated_at"],
                "classes": ["collapse"],
            },
        ),
    ]
    inlines = [EntryInline]
    actions = ["publish", "unpublish", "renumber_entries"]
    # Sections at depth 3 or less are labelled from this one query; deeper ones read the rest.
    autocomplete_select_related = ["guide", "parent__parent__parent"]

    def autocomplete_label(self, section):
        """ "LLM Engineering › 05 Training › Tier 2": a section among many alike, in
        autocompletes (an entry's section, a subsection's parent, a path step's section)."""
        lineage, seen = [], set()
        while section is not None and section.pk not in seen:
            seen.add(section.pk)
            lineage.append(section)
            section = section.parent
        parts = [lineage[0].guide.title, *(str(s) for s in reversed(lineage))]
        return " › ".join(Truncator(part).chars(SECTION_LABEL_PART_CHARS) for part in parts)

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(entry_count=count_of(Entry, "section"))

    def get_readonly_fields(self, request, obj=None):
        # A section does not change guides: its subsections and the guide's order would not follow.
        # Depth follows from the parent.
        return [*super().get_readonly_fields(request, obj), "depth", *(["guide"] if obj else [])]

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if not change or "parent" in form.changed_data:
            section_depths_refresh(section=obj)

    def position_group(self, obj):
        return Section.objects.filter(guide_id=obj.guide_id)

    @admin.display(description="entries", ordering="entry_count")
    def entry_count(self, obj):
        return obj.entry_count

    @admin.display(description="parent", ordering="parent__position")
    def parent_title(self, obj):
        return Truncator(str(obj.parent)).chars(60) if obj.parent else "—"

    @admin.action(description="Renumber entries 1…n in their current order", permissions=["change"])
    def renumber_entries(self, request, queryset):
        moved = {section: section_entries_renumber(section=section) for section in queryset}
        for section, count in moved.items():
            if count:
                log_change_many(
                    request,
                    [section],
                    f"Renumbered {plural(count, 'entry', 'entries')} 1…n in their current order.",
                )
        # Entries keep their order: only gaps close, which learners never see.
        renumber_report(self, request, moved, ("entry", "entries"), "section", same_order=True)


# --- Entry -----------------------------------------------------------------------------------
class EntryForm(PositionedForm):
    class Meta:
        model = Entry
        fields = "__all__"


@admin.register(Entry)
class EntryAdmin(PositionedAdminMixin, CatalogModelAdmin):
    form = EntryForm
    list_display = [
        "resource_title",
        "guide",
        "section_title",
        "position",
        "tier",
        "priority",
        "rating",
        "is_published",
    ]
    list_filter = [
        "section__guide",
        EntrySectionFilter,
        "tier",
        "priority",
        "resource__kind",
        "marked_done",
        "is_published",
    ]
    list_select_related = ["section__guide", "resource"]
    search_fields = ["resource__title", "resource__url", "note", "raw", "section__title"]
    autocomplete_fields = ["section", "resource"]
    ordering = [
        "section__guide__position",
        "section__guide__title",
        "section__position",
        "position",
    ]
    readonly_fields = ["uuid", "created_at", "added_at", "updated_at", "recent_changes"]
    fieldsets = [
        (None, {"fields": ["section", "resource", "position", "is_published"]}),
        (
            "The guide's annotation",
            {"fields": [("tier", "priority", "rating"), "note", "marked_done", "raw"]},
        ),
        (
            "History",
            {
                "fields": ["recent_changes", "uuid", "created_at", "added_at", "updated_at"],
                "classes": ["collapse"],
            },
        ),
    ]

    def position_group(self, obj):
        return Entry.objects.filter(section_id=obj.section_id)

    # Display methods rather than the foreign keys themselves: admin never wraps a foreign key
    # column, and one long title would push the rest of the table off the screen.
    @admin.display(description="resource", ordering="resource__title")
    def resource_title(self, obj):
        return Truncator(obj.resource.title).chars(90)

    @admin.display(description="guide", ordering="section__guide__title")
    def guide(self, obj):
        return obj.section.guide

    @admin.display(description="section", ordering="section__position")
    def section_title(self, obj):
        return Truncator(str(obj.section)).chars(60)


# --- Resource --------------------------------------------------------------------------------
class ResourceLinkInline(admin.TabularInline):
    model = ResourceLink
    fields = ["position", "url", "label"]
    extra = 0
    verbose_name_plural = "further links"


class ResourceEntryInline(AutocompleteGuard, admin.TabularInline):
    """Where the resource sits. A row added (or moved to another section) here goes last in that section."""

    model = Entry
    fields = ["section", "position", "tier", "priority", "rating", "note", "is_published"]
    readonly_fields = ["position"]
    autocomplete_fields = ["section"]
    extra = 0
    show_change_link = True
    verbose_name_plural = "entries (where guides list this resource)"
    formfield_overrides = COMPACT_TEXT

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("section__guide")

    def get_formset(self, request, obj=None, **kwargs):
        formset = super().get_formset(request, obj, **kwargs)

        class AppendingFormSet(formset):
            def save_new(self, form, commit=True):
                form.instance.position = next_position(
                    Entry.objects.filter(section=form.instance.section)
                )
                return super().save_new(form, commit)

            def save_existing(self, form, obj, commit=True):
                if "section" not in form.changed_data:
                    return super().save_existing(form, obj, commit)
                old_section_id = (
                    Entry.objects.filter(pk=obj.pk).values_list("section_id", flat=True).get()
                )
                obj.position = next_position(Entry.objects.filter(section=obj.section))
                saved = super().save_existing(form, obj, commit)
                positions_renumber(
                    rows=list(
                        Entry.objects.filter(section_id=old_section_id).order_by("position", "pk")
                    )
                )
                return saved

        return AppendingFormSet


LINK_BADGE_CLASSES = {
    LinkStatus.OK: "ok",
    LinkStatus.REDIRECTED: "redirected",
    LinkStatus.BROKEN: "broken",
    LinkStatus.ERROR: "error",
    LinkStatus.UNCHECKED: "unchecked",
}


class ResourceAdminForm(forms.ModelForm):
    """The URL is stored in the catalog's one normalized form (the importer's and the seed's),
    and a URL the catalog already holds points the curator to that resource."""

    class Meta:
        model = Resource
        fields = ["url"]  # ResourceAdmin's fieldsets name the rest

    def clean_url(self):
        url = self.cleaned_data.get("url")
        if not url:
            return None
        url = normalize_url(url)
        duplicate = (
            Resource.objects.filter(url_key=url_key(url)).exclude(pk=self.instance.pk).first()
        )
        if duplicate is not None:
            link = reverse("admin:catalog_resource_change", args=[duplicate.pk])
            raise ValidationError(
                format_html(
                    'This URL is already the resource <a href="{}">{}</a>: edit or merge that one.',
                    link,
                    duplicate,
                )
            )
        return url


@admin.register(Resource)
class ResourceAdmin(CatalogModelAdmin):
    form = ResourceAdminForm
    list_display = [
        "title",
        "kind",
        "url_host",
        "entry_count",
        "topic_list",
        "link_health",
        "is_published",
        "updated",
    ]
    list_filter = [
        "entries__section__guide",
        ResourceSectionFilter,
        "kind",
        "entries__tier",
        "entries__priority",
        "topics",
        HasUrlFilter,
        LinkHealthFilter,
        "is_published",
        UrlIssueFilter,
        TitleSuggestionFilter,
    ]
    search_fields = ["title", "author", "description", "url", "links__url"]
    autocomplete_fields = ["topics"]
    readonly_fields = [
        "uuid",
        "created_at",
        "updated_at",
        "recent_changes",
        "link_status",
        "link_status_code",
        "link_final_url",
        "link_error",
        "link_checked_at",
        "learner_count",
        "alias_list",
    ]
    fieldsets = [
        (
            None,
            {
                "fields": [
                    "title",
                    "url",
                    "kind",
                    ("author", "year"),
                    "description",
                    "effort_minutes",
                    "topics",
                    "is_published",
                ]
            },
        ),
        (
            "Link health",
            {
                "fields": [
                    ("link_status", "link_status_code", "link_checked_at"),
                    "link_final_url",
                    "link_error",
                    "url_issue",
                    "suggested_title",
                ]
            },
        ),
        (
            "History",
            {
                "fields": [
                    "recent_changes",
                    "learner_count",
                    "uuid",
                    "alias_list",
                    "created_at",
                    "updated_at",
                ]
            },
        ),
    ]
    inlines = [ResourceLinkInline, ResourceEntryInline]
    actions = [
        "publish",
        "unpublish",
        "set_kind",
        "add_topic",
        "remove_topic",
        "merge_resources",
        "check_links",
        "accept_suggested_titles",
        "dismiss_suggested_titles",
    ]

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .annotate(entry_count=count_of(Entry, "resource"))
            .prefetch_related("topics")
        )

    @admin.display(description="URL host", ordering="url")
    def url_host(self, obj):
        if not obj.url:
            return "—"
        host = bare_host(urlsplit(obj.url).hostname or obj.url)
        return format_html(
            '<a href="{}" target="_blank" rel="noopener noreferrer" title="{}">{}</a>',
            obj.url,
            obj.url,
            Truncator(host).chars(28),
        )

    @admin.display(description="updated", ordering="updated_at")
    def updated(self, obj):
        return date_format(timezone.localtime(obj.updated_at), "SHORT_DATE_FORMAT")

    @admin.display(description="entries", ordering="entry_count")
    def entry_count(self, obj):
        return obj.entry_count

    @admin.display(description="topics")
    def topic_list(self, obj):
        topics = [topic.title for topic in obj.topics.all()]
        more = f" +{len(topics) - TOPICS_SHOWN}" if len(topics) > TOPICS_SHOWN else ""
        return ", ".join(topics[:TOPICS_SHOWN]) + more or "—"

    @admin.display(description="link", ordering="link_status")
    def link_health(self, obj):
        label = obj.get_link_status_display()
        if obj.link_status_code and obj.link_status != LinkStatus.OK:
            label = f"{label} ({obj.link_status_code})"
        title = obj.link_error or obj.link_final_url or ""
        return format_html(
            '<span class="link-badge link-{}" title="{}">{}</span>',
            LINK_BADGE_CLASSES[obj.link_status],
            title,
            label,
        )

    @admin.display(description="learners with progress")
    def learner_count(self, obj):
        return obj.progress.count() if obj.pk else 0

    @admin.display(description="also answers for")
    def alias_list(self, obj):
        """The old pages of resources merged into this one: they redirect here."""
        uuids = sorted(obj.aliases.values_list("uuid", flat=True), key=str) if obj.pk else []
        if not uuids:
            return "—"
        return format_html_join(
            ", ",
            '<a href="{}">{}</a>',
            ((reverse("learning:resource-detail", args=[value]), value) for value in uuids),
        )

    # --- actions -------------------------------------------------------------------------------
    @admin.action(description="Set kind of selected resources…", permissions=["change"])
    def set_kind(self, request, queryset):
        return bulk_edit_action(
            self, request, queryset, form_class=KindChoiceForm, title="Set the kind", submit_label="Set kind",
            edit=lambda data: resources_set_kind(resources=queryset, kind=data["kind"]),
            describe=lambda data: f"Set kind to {Kind(data['kind']).label}",
        )  # fmt: skip

    @admin.action(description="Add a topic to selected resources…", permissions=["change"])
    def add_topic(self, request, queryset):
        return bulk_edit_action(
            self, request, queryset, form_class=TopicChoiceForm, title="Add a topic", submit_label="Add topic",
            edit=lambda data: resources_add_topic(resources=queryset, topic=data["topic"]),
            describe=lambda data: f"Added topic “{data['topic']}”",
        )  # fmt: skip

    @admin.action(description="Remove a topic from selected resources…", permissions=["change"])
    def remove_topic(self, request, queryset):
        return bulk_edit_action(
            self, request, queryset, form_class=TopicChoiceForm, title="Remove a topic", submit_label="Remove topic",
            edit=lambda data: resources_remove_topic(resources=queryset, topic=data["topic"]),
            describe=lambda data: f"Removed topic “{data['topic']}”",
        )  # fmt: skip

    @admin.action(description="Merge selected resources…", permissions=["merge"])
    def merge_resources(self, request, queryset):
        return curation_views.resource_merge_action(self, request, queryset)

    def has_merge_permission(self, request):
        return self.has_change_permission(request) and self.has_delete_permission(request)

    @admin.action(
        description="Check link",
        description_plural="Check links of selected resources",
        permissions=["change"],
        location=[admin.ActionLocation.CHANGE_LIST, admin.ActionLocation.CHANGE_FORM],
    )
    def check_links(self, request, queryset):
        """A link-check run of the selected resources, in the background: its page follows it."""
        return start_link_check(request, resources=queryset)

    def changelist_view(self, request, extra_context=None):
        extra_context = {"can_check_links": can_check_links(request.user), **(extra_context or {})}
        return super().changelist_view(request, extra_context)

    def get_list_display(self, request):
        """Filtered to resources with a title suggestion, each shows it beside its title."""
        columns = super().get_list_display(request)
        if request.GET.get(TitleSuggestionFilter.parameter_name) == "yes":
            return [columns[0], "title_suggestion", *columns[1:]]
        return columns

    @admin.display(description="title suggestion", ordering="suggested_title")
    def title_suggestion(self, obj):
        return Truncator(obj.suggested_title).chars(60) if obj.suggested_title else "—"

    @admin.action(description="Accept suggested titles", permissions=["change"])
    def accept_suggested_titles(self, request, queryset):
        with transaction.atomic():
            renamed = resources_accept_suggested_titles(resources=queryset)
            for resource, old_title in renamed:
                log_change_many(
                    request, [resource], f"Title: “{old_title}” → “{resource.title}” (suggested)."
                )
        if not renamed:
            self.message_user(request, "None of the selected resources has a title suggestion.")
            return
        self.message_user(request, f"Renamed {len(renamed)} resources.", messages.SUCCESS)

    @admin.action(description="Dismiss suggested titles", permissions=["change"])
    def dismiss_suggested_titles(self, request, queryset):
        with transaction.atomic():
            dismissed = resources_dismiss_suggested_titles(resources=queryset)
            log_change_many(request, dismissed, "Dismissed the title suggestion.")
        self.message_user(request, f"Dismissed {len(dismissed)} title suggestions.")


@admin.register(ResourceLink)
class ResourceLinkAdmin(CuratedModelAdmin):
    list_display = ["url", "label", "resource_title", "position"]
    list_select_related = ["resource"]
    search_fields = ["url", "label", "resource__title"]
    autocomplete_fields = ["resource"]
    readonly_fields = ["uuid"]

    @admin.display(description="resource", ordering="resource__title")
    def resource_title(self, obj):
        return Truncator(obj.resource.title).chars(90)
