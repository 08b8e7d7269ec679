"""Site-wide views: the health check and the 404 page."""

from django.db import connection
from django.http import JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache


@never_cache
def healthz(request):
    """Really touches the database, so a container whose DB is gone turns unhealthy."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:
        return JsonResponse(
            {"status": "error", "database": str(exc.__class__.__name__)}, status=503
        )
    return JsonResponse({"status": "ok", "database": "ok"})


def page_not_found(request, exception):
    return render(request, "404.html", status=404)
