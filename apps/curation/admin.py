"""The admin site's name. The catalog's ModelAdmins live in apps/catalog/admin.py, built from
apps/curation/admin_base.py; progress (superusers only) in apps/progress/admin.py."""

from django.contrib import admin

admin.site.site_header = "Syllabus curation"
admin.site.site_title = "Syllabus admin"
