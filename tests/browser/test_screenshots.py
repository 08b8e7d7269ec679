"""Screenshots of the main pages, light and dark, phone and desktop, from the real app on the
seeded catalog. They land in artifacts/screenshots/ (SCREENSHOT_DIR to change it); the README
links the copies committed under docs/screenshots/. Each page must also fit a phone's width."""

import os
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from apps.accounts.models import PublicProfile
from apps.catalog.models import Guide, Resource, Topic
from apps.paths.models import LearningPath
from apps.progress.models import Status
from apps.progress.services import progress_set_note, progress_set_status
from tests.conftest import sign_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.fixture
def seeded_learner():
    call_command("seed", verbosity=0)
    user = UserFactory(email="ada@example.com")
    guide = Guide.objects.get(slug="ai-inference-engineering")
    for index, resource in enumerate(
        Resource.objects.filter(entries__section__guide=guide).distinct()[:12]
    ):
        progress_set_status(
            user=user,
            resource=resource,
            status=Status.IN_PROGRESS if index % 5 == 0 else Status.DONE,
        )
        if index % 4 == 1:
            progress_set_note(
                user=user,
                resource=resource,
                note="Worth a second read: the worked example in the middle.",
            )
    PublicProfile.objects.create(user=user, slug="ada-learns", is_public=True)
    return user


def test_main_pages_light_and_dark_on_phone_and_desktop(browser, live_server, seeded_learner):
    out = Path(
        os.environ.get("SCREENSHOT_DIR") or Path(settings.BASE_DIR) / "artifacts" / "screenshots"
    )
    out.mkdir(parents=True, exist_ok=True)
    pages = {
        "home": "/",
        "guide": "/guides/ai-inference-engineering/",
        "resource": Resource.objects.get(
            title="Transformer Inference Arithmetic"
        ).get_absolute_url(),
        "topic": Topic.objects.order_by("position").first().get_absolute_url(),
        "search": "/search/?q=attention",
        "paths": "/paths/",
        "path": LearningPath.objects.get(
            slug="ai-infra-field-notes-kernel-development"
        ).get_absolute_url(),
        "sign-in": "/accounts/login/",
        "dashboard": "/",
        "guides": "/guides/",
        "account": "/account/",
        "my-guide": "/guides/ai-inference-engineering/?status=not_done",
        "notes": "/dashboard/notes/",
        "profile": "/u/ada-learns/",
    }
    signed_in = {"dashboard", "guides", "account", "my-guide", "notes"}
    overflowing = []
    for device, viewport in VIEWPORTS.items():
        for scheme in ("light", "dark"):
            for user in (None, seeded_learner):
                context = browser.new_context(viewport=viewport, color_scheme=scheme)
                page = context.new_page()
                if user:
                    sign_in(page, live_server, user)
                for name, path in pages.items():
                    if (name in signed_in) != bool(user):
                        continue
                    page.goto(live_server.url + path)
                    target = out / f"{name}-{device}-{scheme}.png"
                    page.screenshot(path=str(target))
                    assert target.stat().st_size > 5_000
                    if page.evaluate(
                        "document.scrollingElement.scrollWidth > window.innerWidth + 1"
                    ):
                        overflowing.append(f"{name} ({device})")
                context.close()
    assert overflowing == [], f"pages wider than the screen: {overflowing}"
