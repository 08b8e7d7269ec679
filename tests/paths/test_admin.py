import pytest
from django.urls import reverse

from apps.paths.models import PathStep, StepResource

pytestmark = pytest.mark.django_db


def test_curator_reorders_steps_by_typing_positions(client, curator, learning_path):
    client.force_login(curator)
    first, second = learning_path.steps.order_by("position")
    url = reverse("admin:paths_learningpath_change", args=[learning_path.pk])
    assert client.get(url).status_code == 200
    data = {
        "slug": learning_path.slug,
        "title": learning_path.title,
        "description": "",
        "guide": learning_path.guide_id,
        "position": 0,
        "is_published": "on",
        "steps-TOTAL_FORMS": "2",
        "steps-INITIAL_FORMS": "2",
        "steps-MIN_NUM_FORMS": "0",
        "steps-MAX_NUM_FORMS": "1000",
        "steps-0-id": first.pk,
        "steps-0-path": learning_path.pk,
        "steps-0-position": "2",
        "steps-0-title": first.title,
        "steps-1-id": second.pk,
        "steps-1-path": learning_path.pk,
        "steps-1-position": "1",
        "steps-1-title": second.title,
    }
    for i, step in enumerate([first, second]):
        data.update(
            {
                f"steps-{i}-phase": step.phase,
                f"steps-{i}-effort": step.effort,
                f"steps-{i}-effort_hours": "",
                f"steps-{i}-section": "",
            }
        )
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert list(learning_path.steps.order_by("position").values_list("title", flat=True)) == [
        "Going deeper",
        "Foundations",
    ]


def test_curator_sees_step_resources_with_autocomplete_but_not_follows(
    client, curator, learning_path
):
    client.force_login(curator)
    step = PathStep.objects.filter(path=learning_path).first()
    page = client.get(reverse("admin:paths_pathstep_change", args=[step.pk])).content.decode()
    assert (
        "admin-autocomplete" in page
        and StepResource.objects.filter(step=step).first().resource.title in page
    )
    assert client.get(reverse("admin:index")).content.decode().count("Path follow") == 0


def test_learner_is_refused_path_admin(client, learner, learning_path):
    client.force_login(learner)
    response = client.get(reverse("admin:paths_learningpath_changelist"))
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
