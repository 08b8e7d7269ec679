"""The curator inbox in Django admin: feeds (add by hand, switch off, read now), the items they
offered (accept as draft entries, dismiss, in bulk) and the resources discovery examined.

Wiring only: the writes are ``services.py``'s, the history lines ``log_change_many``'s
(apps/curation/admin/base.py, an import the layer contract exempts)."""

from functools import partial

from django.contrib import admin, messages
from django.contrib.admin.models import ADDITION
from django.db import transaction
from django.db.models import Count, Exists, Min, OuterRef, Subquery
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html

from apps.catalog.models import Resource
from apps.curation.admin.base import CuratedModelAdmin, form_action_page, log_change_many
from apps.inbox import tasks
from apps.inbox.forms import AcceptForm, FeedForm, SuggestionAcceptForm
from apps.inbox.models import ExaminedResource, Feed, InboxItem, ItemState, LearnerSuggestion
from apps.inbox.services import (
    AcceptError,
    feeds_set_enabled,
    items_accept,
    items_dismiss,
    items_reopen,
    suggestions_accept,
    suggestions_dismiss,
)
from apps.progress.models import OwnResource, Suggestion


def _when(value):
    return date_format(timezone.localtime(value), "SHORT_DATETIME_FORMAT") if value else "—"


def _plural(count, word, plural=None):
    return f"{count} {word if count == 1 else (plural or word + 's')}"


class StateFilter(admin.SimpleListFilter):
    """New items unless another state (or all) is chosen: the inbox opens on what is left to do."""

    title = "state"
    parameter_name = "state"

    def lookups(self, request, model_admin):
        return [*ItemState.choices, ("all", "All")]

    def choices(self, changelist):
        current = self.value() or ItemState.NEW
        for value, label in self.lookup_choices:
            yield {
                "selected": current == value,
                "query_string": changelist.get_query_string({self.parameter_name: value}),
                "display": label,
            }

    def queryset(self, request, queryset):
        value = self.value() or ItemState.NEW
        if value == "all":
            return queryset
        if value not in ItemState.values:
            return queryset.none()
        return queryset.filter(state=value)


@admin.register(InboxItem)
class InboxItemAdmin(CuratedModelAdmin):
    list_display = ["shown_title", "source", "shown_date", "suggested", "state"]
    list_display_links = None
    list_filter = [StateFilter, "feed__kind", "feed"]
    list_select_related = ["feed", "suggested_section__guide"]
    search_fields = ["title", "url", "summary"]
    list_per_page = 50
    show_full_result_count = False
    ordering = ["-date", "-pk"]
    actions = ["accept", "dismiss", "reopen"]
    fields = [
        "title",
        "url",
        "date",
        "summary",
        "feed",
        "suggested_section",
        "state",
        "resource",
        "created_at",
    ]
    readonly_fields = [f for f in fields if f != "suggested_section"]
    autocomplete_fields = ["suggested_section"]

    def has_add_permission(self, request):
        return False  # items come from feeds

    def has_accept_permission(self, request):
        user = request.user
        return self.has_change_permission(request) and user.has_perms(
            ["catalog.add_resource", "catalog.add_entry"]
        )

    def get_queryset(self, request):
        # A new item whose page a curator catalogued since it was offered says so (by its URL's
        # normal form; an accept also finds it through a resource's extra links).
        catalogued = Resource.objects.filter(url_key=OuterRef("url_key"))
        return super().get_queryset(request).annotate(catalogued=Exists(catalogued))

    @admin.display(description="title", ordering="title")
    def shown_title(self, obj):
        marker = ""
        if obj.state == ItemState.NEW and getattr(obj, "catalogued", False):
            marker = format_html(' <span class="inbox-catalogued">{}</span>', "in the catalog now")
        return format_html(
            '<a href="{}">{}</a> <a href="{}" target="_blank" rel="noopener noreferrer" '
            'class="inbox-open" title="{}">↗</a>{}',
            reverse("admin:inbox_inboxitem_change", args=[obj.pk]),
            obj.title,
            obj.url,
            obj.url,
            marker,
        )

    @admin.display(description="source", ordering="feed__title")
    def source(self, obj):
        return obj.feed

    @admin.display(description="date", ordering="date")
    def shown_date(self, obj):
        return _when(obj.date)

    @admin.display(description="suggested section", ordering="suggested_section__title")
    def suggested(self, obj):
        section = obj.suggested_section
        return f"{section.guide.title} › {section}" if section else "—"

    @admin.action(description="Accept selected items as draft entries…", permissions=["accept"])
    def accept(self, request, queryset):
        def apply(form):
            try:
                result = items_accept(
                    item_ids=list(queryset.values_list("pk", flat=True)),
                    section=form.cleaned_data["section"],
                )
            except AcceptError as error:
                self.message_user(request, f"Nothing accepted: {error}", messages.ERROR)
                return
            log_change_many(
                request, result.resources, "Added from the inbox.", action_flag=ADDITION
            )
            log_change_many(
                request, result.entries, "Added from the inbox (draft).", action_flag=ADDITION
            )
            log_change_many(request, result.items, "Accepted (bulk action).")
            created = len(result.entries)
            parts = [f"Accepted {_plural(len(result.items), 'item')}"]
            if created:
                parts.append(f"{_plural(created, 'draft entry', 'draft entries')} added")
            if result.linked:
                parts.append(f"{len(result.linked)} already in the catalog (linked, nothing added)")
            if result.skipped:
                parts.append(f"{result.skipped} not new, left as they were")
            self.message_user(
                request,
                "; ".join(parts) + ".",
                messages.SUCCESS if result.items else messages.INFO,
            )

        return form_action_page(
            self,
            request,
            queryset,
            form_class=AcceptForm,
            title="Accept as draft entries",
            submit_label="Accept",
            apply=apply,
        )

    @admin.action(description="Dismiss selected items", permissions=["change"])
    def dismiss(self, request, queryset):
        items = items_dismiss(item_ids=list(queryset.values_list("pk", flat=True)))
        log_change_many(request, items, "Dismissed (bulk action).")
        self.message_user(
            request,
            f"Dismissed {_plural(len(items), 'item')}.",
            messages.SUCCESS if items else messages.INFO,
        )

    @admin.action(description="Put dismissed items back in the inbox", permissions=["change"])
    def reopen(self, request, queryset):
        items = items_reopen(item_ids=list(queryset.values_list("pk", flat=True)))
        log_change_many(request, items, "Back in the inbox (bulk action).")
        self.message_user(
            request,
            f"{_plural(len(items), 'item')} back in the inbox.",
            messages.SUCCESS if items else messages.INFO,
        )


@admin.register(Feed)
class FeedAdmin(CuratedModelAdmin):
    form = FeedForm
    list_display = [
        "__str__",
        "kind",
        "resource",
        "enabled",
        "shown_last_read",
        "health",
        "item_count",
    ]
    list_filter = ["enabled", "kind"]
    list_select_related = ["resource"]
    search_fields = ["url", "title", "resource__title"]
    autocomplete_fields = ["resource", "section"]
    list_per_page = 50
    actions = ["switch_on", "switch_off", "read_now"]
    fields = [
        "url",
        "kind",
        "enabled",
        "resource",
        "section",
        "title",
        "last_read_at",
        "last_ok_at",
        "last_error",
        "last_result",
        "created_at",
    ]
    readonly_fields = [
        "title",
        "last_read_at",
        "last_ok_at",
        "last_error",
        "last_result",
        "created_at",
    ]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(item_count=Count("items"))

    @admin.display(description="items", ordering="item_count")
    def item_count(self, obj):
        return obj.item_count

    @admin.display(description="last read", ordering="last_read_at")
    def shown_last_read(self, obj):
        return _when(obj.last_read_at)

    @admin.display(description="last read's outcome")
    def health(self, obj):
        if obj.last_error:
            return format_html('<span class="inbox-error">{}</span>', obj.last_error)
        return obj.last_result or "—"

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if not change and obj.enabled:
            transaction.on_commit(partial(tasks.read_one_feed.enqueue, obj.pk))

    @admin.action(description="Switch selected feeds on", permissions=["change"])
    def switch_on(self, request, queryset):
        self._set_enabled(request, queryset, True)

    @admin.action(description="Switch selected feeds off", permissions=["change"])
    def switch_off(self, request, queryset):
        self._set_enabled(request, queryset, False)

    def _set_enabled(self, request, queryset, enabled):
        feeds = feeds_set_enabled(
            feed_ids=list(queryset.values_list("pk", flat=True)), enabled=enabled
        )
        verb = "on" if enabled else "off"
        log_change_many(request, feeds, f"Switched {verb} (bulk action).")
        self.message_user(
            request,
            f"Switched {_plural(len(feeds), 'feed')} {verb}.",
            messages.SUCCESS if feeds else messages.INFO,
        )

    @admin.action(description="Read selected feeds now", permissions=["change"])
    def read_now(self, request, queryset):
        feed_ids = list(queryset.filter(enabled=True).values_list("pk", flat=True))
        for feed_id in feed_ids:
            transaction.on_commit(partial(tasks.read_one_feed.enqueue, feed_id))
        self.message_user(
            request,
            f"{_plural(len(feed_ids), 'feed')} queued to be read"
            + ("" if len(feed_ids) == queryset.count() else " (switched-off feeds are not read)")
            + ".",
            messages.SUCCESS if feed_ids else messages.INFO,
        )


class OutcomeFilter(admin.SimpleListFilter):
    title = "outcome"
    parameter_name = "outcome"
    PREFIXES = {"found": "Feed found", "none": "No feed", "error": "Error"}

    def lookups(self, request, model_admin):
        return [("found", "A feed found"), ("none", "No feed"), ("error", "Could not read")]

    def queryset(self, request, queryset):
        prefix = self.PREFIXES.get(self.value() or "")
        return queryset.filter(outcome__startswith=prefix) if prefix else queryset


@admin.register(ExaminedResource)
class ExaminedResourceAdmin(CuratedModelAdmin):
    list_display = ["resource", "outcome", "shown_examined_at"]
    list_filter = [OutcomeFilter]
    list_select_related = ["resource"]
    search_fields = ["resource__title", "resource__url", "outcome"]
    list_per_page = 50
    actions = ["examine_again"]
    fields = ["resource", "outcome", "examined_at"]
    readonly_fields = fields

    def has_add_permission(self, request):
        return False  # discovery writes them

    @admin.display(description="examined", ordering="examined_at")
    def shown_examined_at(self, obj):
        return _when(obj.examined_at)

    @admin.action(description="Examine selected resources again", permissions=["change"])
    def examine_again(self, request, queryset):
        resource_ids = list(queryset.values_list("resource_id", flat=True))
        for resource_id in resource_ids:
            transaction.on_commit(partial(tasks.examine_resource.enqueue, resource_id))
        self.message_user(
            request,
            f"{_plural(len(resource_ids), 'resource')} queued to be examined again.",
            messages.SUCCESS if resource_ids else messages.INFO,
        )


@admin.register(LearnerSuggestion)
class LearnerSuggestionAdmin(CuratedModelAdmin):
    """Links learners offered to the catalog, one line per link (however many offered it), with
    how many learners saved it. Who they are is never shown."""

    list_display = ["title", "link", "kind", "author", "savers", "suggestion", "updated_at"]
    list_display_links = None
    list_filter = ["suggestion"]
    search_fields = ["title", "resource__url"]
    list_per_page = 50
    show_full_result_count = False
    ordering = ["-updated_at", "-pk"]
    actions = ["accept", "dismiss"]
    fields = ["title", "kind", "author", "link", "savers", "suggestion", "suggestion_outcome"]
    readonly_fields = fields

    def has_add_permission(self, request):
        return False  # learners suggest, from their own resources

    def has_delete_permission(self, request, obj=None):
        return False  # a learner's row is theirs: dismiss instead

    def has_accept_permission(self, request):
        return self.has_change_permission(request) and request.user.has_perms(
            ["catalog.change_resource", "catalog.add_entry"]
        )

    def get_queryset(self, request):
        offered = OwnResource.objects.exclude(suggestion=Suggestion.NONE)
        first = offered.values("resource").annotate(first=Min("pk")).values("first")
        saved = (
            OwnResource.objects.filter(resource=OuterRef("resource"))
            .order_by()
            .values("resource")
            .annotate(n=Count("pk"))
            .values("n")
        )
        return (
            super()
            .get_queryset(request)
            .filter(pk__in=Subquery(first))
            .select_related("resource")
            .annotate(saved_by_count=Subquery(saved))
        )

    @admin.display(description="link", ordering="resource__url")
    def link(self, obj):
        return format_html(
            '<a href="{}" target="_blank" rel="noopener noreferrer">{}</a>',
            obj.resource.url,
            obj.resource.url,
        )

    @admin.display(description="learners who saved it", ordering="saved_by_count")
    def savers(self, obj):
        return getattr(obj, "saved_by_count", None) or obj.resource.saved_by.count()

    @admin.action(description="Accept selected links into a section…", permissions=["accept"])
    def accept(self, request, queryset):
        def apply(form):
            result = suggestions_accept(
                suggestion_ids=list(queryset.values_list("pk", flat=True)),
                section=form.cleaned_data["section"],
            )
            log_change_many(
                request,
                result.entries,
                "Added from a learner's suggestion (draft).",
                action_flag=ADDITION,
            )
            log_change_many(request, result.resources, "Accepted from a learner's suggestion.")
            self.message_user(
                request,
                f"Accepted {_plural(len(result.resources), 'link')}; "
                f"{_plural(len(result.entries), 'draft entry', 'draft entries')} added.",
                messages.SUCCESS if result.resources else messages.INFO,
            )

        return form_action_page(
            self,
            request,
            queryset,
            form_class=SuggestionAcceptForm,
            title="Accept into a section",
            submit_label="Accept",
            apply=apply,
        )

    @admin.action(description="Dismiss selected links", permissions=["change"])
    def dismiss(self, request, queryset):
        count = suggestions_dismiss(suggestion_ids=list(queryset.values_list("pk", flat=True)))
        self.message_user(
            request,
            f"Dismissed {_plural(count, 'link')}.",
            messages.SUCCESS if count else messages.INFO,
        )
