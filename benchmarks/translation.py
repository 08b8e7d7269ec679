"""What translation costs a request, in process: the dashboard and the largest guide rendered for
a learner with USE_I18N on and off, in turns, CPU time per request (`time.process_time`), on
the database DATABASE_URL names (seeded: `manage.py seed`). The learner is made here, with
progress on a third of the catalog, and deleted afterwards.

    DEBUG=true DATABASE_URL=postgres://… .venv/bin/python -m benchmarks.translation [rounds]

Prints, per page and setting (English with USE_I18N off, English and Chinese with it on), the
median and quartiles over `rounds` rounds of 10 requests, each round running every setting in
turn so that load on the machine falls on all of them alike. Figures: docs/BENCHMARKS.md.
"""

import os
import statistics
import sys
import time


def main(rounds: int = 15) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.test import Client, override_settings
    from django.test.utils import setup_test_environment

    from apps.catalog.models import Guide
    from apps.catalog.selectors import visible_resources
    from apps.progress.models import Status
    from apps.progress.services import progress_set_many

    setup_test_environment()  # the test client's ALLOWED_HOSTS, as tests run
    user_model = get_user_model()
    user = user_model.objects.create_user(
        username="i18n-bench", email="i18n-bench@example.com", password=None
    )
    try:
        resources = list(visible_resources().order_by("id"))
        progress_set_many(user=user, resources=resources[::3], status=Status.DONE)
        guide = max(Guide.objects.published(), key=lambda g: g.sections.count())
        pages = {"dashboard": "/dashboard/", "guide": guide.get_absolute_url()}
        settings_ = {
            "en, USE_I18N off": ({"USE_I18N": False}, "en"),
            "en, USE_I18N on": ({"USE_I18N": True}, "en"),
            "zh-hans, USE_I18N on": ({"USE_I18N": True}, "zh-hans"),
        }
        times: dict = {(page, name): [] for page in pages for name in settings_}
        client = Client()
        client.force_login(user)
        for _round in range(rounds):
            for page, url in pages.items():
                for name, (overrides, language) in settings_.items():
                    with override_settings(**overrides):
                        for _warm in range(2):  # memo and stencils built for this language
                            assert client.get(url, HTTP_ACCEPT_LANGUAGE=language).status_code == 200
                        start = time.process_time()
                        for _ in range(10):
                            client.get(url, HTTP_ACCEPT_LANGUAGE=language)
                        times[(page, name)].append((time.process_time() - start) * 100)  # ms/req
        for (page, name), values in times.items():
            q1, median, q3 = statistics.quantiles(values, n=4)
            print(f"{page:10} {name:22} median {median:6.2f} ms  (quartiles {q1:.2f}–{q3:.2f})")
    finally:
        user.delete()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 15)
