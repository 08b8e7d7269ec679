"""Reads of learning paths with a learner's progress (apps.paths.selectors): next up and pace."""

import pytest

from apps.paths.models import PathStep, StepResource
from apps.paths.selectors import path_detail
from apps.progress.models import Status
from apps.progress.services import progress_set_status

pytestmark = pytest.mark.django_db


def test_next_up_skips_done_and_skipped_and_counts_shared_resources_once(
    learner, catalog, learning_path
):
    r = catalog["resources"]
    assert path_detail(path=learning_path, user=learner).next_up[1].resource == r[0]
    progress_set_status(user=learner, resource=r[0], status=Status.DONE)
    # The shared resource was done in a guide: that counts on the path too.
    progress_set_status(user=learner, resource=catalog["shared"], status=Status.DONE)
    progress_set_status(user=learner, resource=r[1], status=Status.SKIPPED)
    view = path_detail(path=learning_path, user=learner)
    assert view.next_up[1].resource == r[3] and view.next_up[0].step.position == 2
    assert (view.tally.total, view.tally.done, view.tally.skipped) == (4, 2, 1)
    assert [step.tally.done for step in view.steps] == [2, 1]


def test_pace_credits_each_finished_resource_its_own_effort_not_the_steps(client, learner):
    """Three short articles ticked in a step that also holds a 100-hour course put the learner
    ahead by those articles' hours, not by three fifths of the step's."""
    from apps.catalog.models import Kind
    from apps.paths.models import LearningPath
    from apps.paths.services import path_follow
    from tests.factories import EntryFactory, ResourceFactory, SectionFactory

    section = SectionFactory()
    course = ResourceFactory(title="A long course", kind=Kind.COURSE, effort_minutes=100 * 60)
    articles = [
        ResourceFactory(title=f"Article {n}", kind=Kind.ARTICLE, effort_minutes=45)
        for n in range(4)
    ]
    path = LearningPath.objects.create(slug="mixed", title="Mixed", guide=section.guide)
    step = PathStep.objects.create(path=path, position=1, title="Start")
    for position, resource in enumerate([course, *articles], start=1):
        EntryFactory(section=section, resource=resource)
        StepResource.objects.create(step=step, resource=resource, position=position)
    path_follow(user=learner, path=path, hours_per_week=5)
    for article in articles[:3]:
        progress_set_status(user=learner, resource=article, status=Status.DONE)
    view = path_detail(path=path, user=learner)
    assert view.done_minutes == 135
    assert view.pace.ahead and view.pace.gap_hours == 2.2
    client.force_login(learner)
    html = client.get(path.get_absolute_url()).content.decode()
    assert "ahead by 2.2 h" in html
    # A step with a curator's estimate shares it out by each resource's own effort.
    step.effort_hours = 20
    step.save()
    assert path_detail(path=path, user=learner).done_minutes == round(3 * 45 * 20 * 60 / 6180)
