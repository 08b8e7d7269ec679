"""Django admin, where curators keep the catalog alive: every ModelAdmin of the project lives in
this package (Django's autodiscovery imports it), built from the shared pieces in ``base``.

``catalog``: guides, sections, entries, resources, topics; ``paths``: learning paths and steps;
``progress``: learners' progress, for superusers only.
"""

from django.contrib import admin

from apps.curation.admin import catalog, paths, progress  # noqa: F401  (registers the ModelAdmins)

admin.site.site_header = "Syllabus curation"
admin.site.site_title = "Syllabus admin"
