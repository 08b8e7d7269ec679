"""Site-wide views: the health check and the 404 page."""

import logging

from django.http import JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache

from apps.core import health

# Its failures reach the log once a minute per kind, in one line (config.log_filters).
logger = logging.getLogger("syllabus.health")


@never_cache
def healthz(request):
    """200 only when the site can serve a page: its database answers, the cache it is told to
    use (CACHE_URL) keeps a value, and SITE_URL's host is one Django accepts. Otherwise 503,
    naming the setting and its fix (Docker's health check turns the container unhealthy)."""
    body = {"status": "ok"}
    problems = []
    for part, probe in (
        ("database", health.database_problem),
        ("cache", health.cache_problem),
        ("host", health.host_problem),
    ):
        problem = probe()
        body[part] = "ok" if problem is None else "error"
        if problem:
            problems.append(problem)
    if not problems:
        return JsonResponse(body)
    for problem in problems:
        logger.error(
            "Unhealthy: %s", problem.message, extra={"kind": f"{problem.part}:{problem.error}"}
        )
    body.update(status="error", problems=[problem.message for problem in problems])
    response = JsonResponse(body, status=503)
    # Logged above, once a minute per kind: not again by django.request at every probe.
    response._has_been_logged = True  # type: ignore[attr-defined]
    return response


def page_not_found(request, exception):
    return render(request, "404.html", status=404)
