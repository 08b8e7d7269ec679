"""Django admin, where curators keep the catalog alive: the admin site's setup, and in ``base``
the shared pieces every ModelAdmin is built from.

Each ModelAdmin sits in its model's app (Django's autodiscovery imports them):
apps/catalog/admin.py (guides, sections, entries, resources, topics), apps/paths/admin.py
(learning paths and steps), apps/progress/admin.py (learners' progress, for superusers only).
"""

from functools import partial

from allauth.account.decorators import secure_admin_login
from django.contrib import admin

from apps.curation.admin.base import autocomplete_view

admin.site.site_header = "Syllabus curation"
admin.site.site_title = "Syllabus admin"
# Staff sign in through allauth's form, with its rate limits (ACCOUNT_RATE_LIMITS) and rules:
# the admin's own login view only ever sees a signed-in user (or sends the visitor to allauth's).
admin.site.login = secure_admin_login(admin.site.login)
# Autocomplete results labelled by their ModelAdmin (a section with its guide and parents).
admin.site.autocomplete_view = partial(autocomplete_view, admin_site=admin.site)
