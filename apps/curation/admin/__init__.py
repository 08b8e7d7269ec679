"""Django admin, where curators keep the catalog alive: every ModelAdmin of the project lives in
this package (Django's autodiscovery imports it), built from the shared pieces in ``base``.

``catalog``: guides, sections, entries, resources, topics; ``paths``: learning paths and steps;
``progress``: learners' progress, for superusers only.
"""

from functools import partial

from allauth.account.decorators import secure_admin_login
from django.contrib import admin

from apps.curation.admin import catalog, paths, progress  # noqa: F401  (registers the ModelAdmins)
from apps.curation.admin.base import autocomplete_view

admin.site.site_header = "Syllabus curation"
admin.site.site_title = "Syllabus admin"
# Staff sign in through allauth's form, with its rate limits (ACCOUNT_RATE_LIMITS) and rules:
# the admin's own login view only ever sees a signed-in user (or sends the visitor to allauth's).
admin.site.login = secure_admin_login(admin.site.login)
# Autocomplete results labelled by their ModelAdmin (a section with its guide and parents).
admin.site.autocomplete_view = partial(autocomplete_view, admin_site=admin.site)
