"""Django admin, where curators keep the catalog alive: the admin site (``CurationAdminSite``),
and in ``base`` the shared pieces every ModelAdmin is built from.

Each ModelAdmin sits in its model's app (Django's autodiscovery imports them):
apps/catalog/admin.py (guides, sections, entries, resources, topics), apps/paths/admin.py
(learning paths and steps), apps/progress/admin.py (learners' progress, for superusers only).
Curation's own models, the link-check run (``linkcheck``) and the pending syncs and sources'
last fetches (``syncs``), are registered by the site itself: this package is imported while the
site is being built, so it cannot register on ``admin.site``.
"""

from functools import update_wrapper

from allauth.account.decorators import secure_admin_login
from django.contrib import admin, messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from apps.core import security
from apps.core.admin_autocomplete import LabelledAutocompleteJsonView


class CurationAdminSite(admin.AdminSite):
    """``admin.site`` (apps.curation.apps.CurationAdminConfig makes it the default site)."""

    site_header = "Syllabus curation"
    site_title = "Syllabus admin"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        from apps.curation.admin.linkcheck import LinkCheckRunAdmin
        from apps.curation.admin.syncs import PendingSyncAdmin, SourceStatusAdmin
        from apps.curation.models import LinkCheckRun, PendingSync, SourceStatus

        self.register(LinkCheckRun, LinkCheckRunAdmin)
        self.register(PendingSync, PendingSyncAdmin)
        self.register(SourceStatus, SourceStatusAdmin)

    def login(self, request, extra_context=None):
        # Staff sign in through allauth's form, with its rate limits (ACCOUNT_RATE_LIMITS) and
        # rules: the admin's own login view only ever sees a signed-in user (or sends the
        # visitor to allauth's).
        return secure_admin_login(super().login)(request, extra_context)

    def admin_view(self, view, cacheable=False):
        """Every admin page and curator action (ModelAdmins' and our own URLs all come through
        here): with REQUIRE_MFA_FOR_STAFF, staff without a second factor are sent to set one up."""
        inner = super().admin_view(view, cacheable)

        def guarded(request, *args, **kwargs):
            if security.staff_second_factor_missing(request.user):
                messages.warning(
                    request,
                    _(
                        "Curators and admins need a second factor on this site: add an "
                        "authenticator app or a passkey, then open the admin again."
                    ),
                )
                return redirect("mfa_index")
            return inner(request, *args, **kwargs)

        return update_wrapper(guarded, inner)

    def autocomplete_view(self, request):
        # Results labelled by their ModelAdmin (a section with its guide and parents).
        return LabelledAutocompleteJsonView.as_view(admin_site=self)(request)
