"""The jobs in Django admin, for superusers only: every run with its state and error (the
database queue's table, django-tasks-db's admin with the run number and the error in the list),
and every failure with what was done about it (retried, or given up). Superusers only: a mail
job holds its message (a password-reset link) and a failure may name the address."""

from django.contrib import admin
from django.contrib.admin.views.main import ChangeList
from django_tasks_db.admin import DBTaskResultAdmin
from django_tasks_db.models import DBTaskResult

from apps.core.models import JobFailure


class SuperuserOnly:
    def has_module_permission(self, request):
        return request.user.is_active and request.user.is_superuser

    def has_view_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_superuser

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class JobChangeList(ChangeList):
    def get_results(self, request):
        """Each listed run's number (a retry is run 2, 3…), for the page in one query."""
        super().get_results(request)
        ids = [str(job.pk) for job in self.result_list]
        previous = dict(
            JobFailure.objects.filter(retry_id__in=ids).values_list("retry_id", "attempt")
        )
        for job in self.result_list:
            job.run_number = previous.get(str(job.pk), 0) + 1


admin.site.unregister(DBTaskResult)


@admin.register(DBTaskResult)
class JobAdmin(SuperuserOnly, DBTaskResultAdmin):
    list_display = (
        "enqueued_at",
        "task_name",
        "status",
        "run",
        "error",
        "run_after_shown",
        "finished_at",
        "queue_name",
    )
    list_filter = ("status", "queue_name")
    search_fields = ("task_path",)

    def get_changelist(self, request, **kwargs):
        return JobChangeList

    @admin.display(description="run")
    def run(self, obj):
        return getattr(obj, "run_number", "")

    @admin.display(description="error")
    def error(self, obj):
        lines = obj.traceback.strip().splitlines()
        return lines[-1][:200] if lines else ""

    @admin.display(description="runs after")
    def run_after_shown(self, obj):
        return self.display_run_after(obj)


@admin.register(JobFailure)
class JobFailureAdmin(SuperuserOnly, admin.ModelAdmin):
    list_display = ("failed_at", "task_path", "attempt", "error", "retry_at", "gave_up")
    list_filter = ("task_path",)
    search_fields = ("task_path", "error")
    date_hierarchy = "failed_at"
    readonly_fields = [f.name for f in JobFailure._meta.fields]
