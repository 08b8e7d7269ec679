"""A progress import cannot slow the site: its preview reads the catalog in a fixed number of
queries however long the file, and each learner has a rate limit (RATE_LIMIT_PROGRESS_IMPORT)."""

from html import unescape

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.catalog.models import ResourceLink
from apps.progress.imports import import_plan
from apps.progress.views import IMPORT_RATE_LIMITED

pytestmark = pytest.mark.django_db


def _checklist(resources, n):
    """`n` ticked lines: the catalog's links as typed in all sorts of ways, and links it lacks."""
    lines = []
    for i in range(n):
        resource = resources[i % len(resources)]
        lines.append(
            [
                f"- [x] [{resource.title}]({resource.url})",
                f"- [x] <{resource.url.replace('https://example.com', 'https://Example.COM:443')}/>",
                f"- [x] {resource.url}?utm_source=feed",
                f"- [x] [Elsewhere {i}](https://elsewhere.example/posts/{i}/)",
            ][i % 4]
        )
    return "\n".join(lines) + "\n"


CAPTURED = []


def _queries(user, content):
    with CaptureQueriesContext(connection) as captured:
        plan = import_plan(user=user, content=content)
    CAPTURED[:] = captured.captured_queries
    return len(captured.captured_queries), plan


def test_a_checklist_preview_costs_the_same_queries_for_ten_lines_or_ten_thousand(learner, catalog):
    resources = catalog["resources"]
    ResourceLink.objects.create(resource=resources[0], url="https://example.com/extra/")
    _queries(learner, _checklist(resources, 4))  # warm the content memo, as a running site has it
    small, small_plan = _queries(learner, _checklist(resources, 10))
    large, large_plan = _queries(learner, _checklist(resources, 10_000))
    # The content token (twice: outside a request no middleware keeps it) and the learner's rows
    # on the matched resources; the catalog's url keys and titles come from the per-version memo.
    assert small == large == 3, " | ".join(q["sql"][:60] for q in CAPTURED)
    assert len(large_plan.changes) == len(resources)
    assert len(large_plan.unmatched) == 2_500


def test_a_json_preview_costs_the_same_queries_for_few_items_or_many(learner, catalog):
    import json

    from apps.progress.exports import JSON_FORMAT

    def export(n):
        items = [
            {"resource": str(r.uuid), "title": r.title, "status": "done"}
            for r in (catalog["resources"] * 100)[:n]
        ]
        return json.dumps({"format": JSON_FORMAT, "version": 1, "progress": items})

    _queries(learner, export(2))
    assert _queries(learner, export(3))[0] == _queries(learner, export(600))[0]


def test_the_preview_page_costs_the_same_queries_for_a_short_or_a_long_file(
    client, learner, catalog
):
    client.force_login(learner)
    resources = catalog["resources"]
    _preview(client, _checklist(resources, 4))
    counts = []
    for n in (10, 5_000):
        with CaptureQueriesContext(connection) as captured:
            assert _preview(client, _checklist(resources, n)).status_code == 200
        counts.append(len(captured.captured_queries))
    assert counts[0] == counts[1]


def _preview(client, text="- [x] [Shared resource](https://example.com/shared)\n"):
    return client.post(reverse("progress:import"), {"text": text})


def test_each_learner_has_their_own_import_rate_limit(
    client, learner, other_learner, catalog, settings
):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "progress_import": "2/m/user"}
    client.force_login(learner)
    assert [_preview(client).status_code for _ in range(2)] == [200, 200]

    refused = _preview(client)
    assert refused.status_code == 429
    html = unescape(refused.content.decode())
    assert str(IMPORT_RATE_LIMITED) in html and 'role="alert"' in html
    assert "Preview" in html  # the form, to try again later
    # A confirmation counts too: nothing is written past the limit.
    confirmed = client.post(
        reverse("progress:import"),
        {"text": "- [x] [Shared resource](https://example.com/shared)\n", "confirm": "1"},
    )
    assert confirmed.status_code == 429 and not learner.progress.exists()
    assert client.get(reverse("progress:import")).status_code == 200  # reading the page is free

    client.force_login(other_learner)
    assert _preview(client).status_code == 200


def test_a_preview_lists_the_first_200_lines_that_matched_nothing_and_counts_the_rest(
    client, learner, catalog
):
    client.force_login(learner)
    stray = "".join(f"- [x] [Stray {n}](https://elsewhere.example/{n})\n" for n in range(1, 301))
    html = unescape(_preview(client, stray).content.decode())
    assert "300 lines matched nothing" in html
    assert html.count("— no resource has this link or title") == 200
    assert "Line 200: <q>[Stray 200]" in html and "Stray 201]" not in html
    assert "…and 100 more lines that matched nothing." in html
