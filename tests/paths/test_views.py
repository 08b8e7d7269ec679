from html import unescape

import pytest
from django.urls import reverse

from apps.paths.models import PathFollow, PathStep, StepResource
from apps.paths.selectors import path_detail
from apps.progress.models import Progress, Status
from apps.progress.services import progress_set_status
from tests.conftest import page_queries
from tests.progress.conftest import build_guide

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


def test_unpublished_resources_are_never_shown_on_a_path(client, learner, catalog, learning_path):
    hidden = catalog["resources"][0]
    hidden.is_published = False
    hidden.save()
    html = client.get(reverse("learning:path-detail", args=["kernels"])).content.decode()
    assert hidden.title not in html and catalog["resources"][1].title in html
    assert path_detail(path=learning_path, user=learner).tally.total == 3


def test_unpublished_or_unknown_path_is_a_404(client, learning_path):
    learning_path.is_published = False
    learning_path.save()
    assert client.get(reverse("learning:path-detail", args=["kernels"])).status_code == 404
    assert client.get(reverse("learning:path-detail", args=["nope"])).status_code == 404
    assert "Kernel development" not in client.get(reverse("learning:path-list")).content.decode()


def test_path_heading_is_shared_yet_follows_a_curators_edit(
    client, learner, catalog, learning_path
):
    client.force_login(learner)
    page = unescape(client.get(learning_path.get_absolute_url()).content.decode())
    assert (
        f'<a href="{reverse("learning:path-list")}">Paths</a>' in page
        and "<h1>Kernel development</h1>" in page
    )
    assert (
        "2 steps · 4 resources" in page
        and f'from <a href="{catalog["guide"].get_absolute_url()}">' in page
    )
    learning_path.title, learning_path.description = "Kernels, revised", "Write your own."
    learning_path.save()  # moves the content version: the heading rendered once per version is made again
    page = unescape(client.get(learning_path.get_absolute_url()).content.decode())
    assert "<h1>Kernels, revised</h1>" in page and '<p class="lede">Write your own.</p>' in page
    assert '<span aria-current="page">Kernels, revised</span>' in page


def test_path_list_shows_length_effort_and_my_progress(client, learner, catalog, learning_path):
    progress_set_status(user=learner, resource=catalog["shared"], status=Status.DONE)
    client.force_login(learner)
    html = client.get(reverse("learning:path-list")).content.decode()
    assert "2 steps · 4 resources" in unescape(html) and "hour" in html
    assert f'id="bar-path-{learning_path.uuid}"' in html and "1/4" in html


def test_path_page_query_count_is_constant(client, learner, catalog, learning_path):
    client.force_login(learner)
    url = reverse("learning:path-detail", args=["kernels"])
    small = page_queries(client, url)
    _, more = build_guide("gamma", n_sections=3, per_section=8)
    for position, resource in enumerate(more, start=1):
        step = PathStep.objects.create(
            path=learning_path, position=10 + position, title=f"Extra {position}"
        )
        StepResource.objects.create(step=step, resource=resource, position=1)
        progress_set_status(user=learner, resource=resource, status=Status.DONE)
    # Cold or warm, 26 steps cost what two do; warm: the session, its user, the token, then the
    # learner's statuses and follows.
    assert page_queries(client, url) == small and small[1] == 5


def test_ticking_on_a_path_page_refreshes_path_step_bars_and_next_up(
    client, learner, catalog, learning_path
):
    client.force_login(learner)
    item = StepResource.objects.get(step__position=1, resource=catalog["resources"][0])
    response = client.post(
        reverse("learning:progress-set", args=[item.resource.uuid]),
        {"status": "done", "scope": f"path:{learning_path.uuid}", "slot": str(item.uuid)},
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert f'id="bar-path-{learning_path.uuid}"' in html and "1/4" in html
    assert f'id="bar-step-{item.step.uuid}"' in html
    assert f'id="next-up-{learning_path.uuid}"' in html and catalog["shared"].title in html


def test_follow_unfollow_keeps_progress_and_pace_gives_a_finish_date(
    client, learner, catalog, learning_path
):
    client.force_login(learner)
    progress_set_status(user=learner, resource=catalog["shared"], status=Status.DONE)
    follow_url = reverse("paths:path-follow", args=["kernels"])
    client.post(follow_url, {"action": "follow"})
    client.post(follow_url, {"action": "follow"})  # idempotent
    assert PathFollow.objects.filter(user=learner, path=learning_path).count() == 1
    dashboard = client.get(reverse("learning:dashboard")).content.decode()
    assert "Kernel development" in dashboard and f'id="next-up-{learning_path.uuid}"' in dashboard

    client.post(follow_url, {"action": "follow", "hours_per_week": "5"})
    html = client.get(reverse("learning:path-detail", args=["kernels"])).content.decode()
    # What was done before following is where the pace starts, not a lead.
    assert "At 5 h/week: finish around" in html and "on track" in html and "ahead" not in html
    progress_set_status(user=learner, resource=catalog["resources"][0], status=Status.DONE)
    html = client.get(reverse("learning:path-detail", args=["kernels"])).content.decode()
    assert "ahead by" in html

    client.post(follow_url, {"action": "unfollow"})
    assert not PathFollow.objects.filter(user=learner).exists()
    assert Progress.objects.filter(user=learner, status=Status.DONE).count() == 2


def test_dashboard_shows_each_followed_path_with_its_bar_next_up_and_pace(
    client, learner, catalog, learning_path
):
    """The followed path's row is filled into its partial's shape: link, compact bar, next up
    (the path page's own markup) and, with a weekly pace, the finish date."""
    client.force_login(learner)
    progress_set_status(user=learner, resource=catalog["resources"][0], status=Status.DONE)
    PathFollow.objects.create(user=learner, path=learning_path, hours_per_week=3)
    html = client.get(reverse("learning:dashboard")).content.decode()
    row = html.split('class="plain-list followed-paths">')[1].split("</ul>")[0]
    assert f'<h3><a href="{learning_path.get_absolute_url()}">Kernel development</a></h3>' in row
    assert f'id="bar-path-{learning_path.uuid}" class="bar bar--compact"' in row and "1/4" in row
    assert (
        f'id="next-up-{learning_path.uuid}"' in row
        and unescape(row).count(catalog["shared"].title) == 1
    )
    assert "At 3 h/week: finish around " in row and (" ahead by " in row or " behind by " in row)

    PathFollow.objects.filter(user=learner).update(hours_per_week=None)
    row = (
        client.get(reverse("learning:dashboard"))
        .content.decode()
        .split('class="plain-list followed-paths">')[1]
    )
    assert "h/week" not in row.split("</ul>")[0]


@pytest.mark.parametrize("hours", ["0", "999", "abc", "-3"])
def test_bad_pace_gets_a_message_and_changes_nothing(client, learner, learning_path, hours):
    client.force_login(learner)
    response = client.post(
        reverse("paths:path-follow", args=["kernels"]),
        {"action": "follow", "hours_per_week": hours},
        follow=True,
    )
    assert "Hours per week must be a whole number" in response.content.decode()
    assert not PathFollow.objects.exists()


def test_anonymous_follow_is_sent_to_sign_in_and_get_changes_nothing(
    client, learner, learning_path
):
    response = client.post(reverse("paths:path-follow", args=["kernels"]), {"action": "follow"})
    assert response.status_code == 302 and response["Location"].startswith(reverse("account_login"))
    client.force_login(learner)
    assert client.get(reverse("paths:path-follow", args=["kernels"])).status_code == 405
    assert not PathFollow.objects.exists()


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


def test_step_numbers_are_labelled_apart_from_the_guides_chapter_numbers(client, catalog):
    from apps.paths.models import LearningPath

    path = LearningPath.objects.create(slug="notes", title="Notes path", guide=catalog["guide"])
    step = PathStep.objects.create(path=path, position=2, title="03 Kernel Programming")
    StepResource.objects.create(step=step, resource=catalog["resources"][0], position=1)
    html = client.get(path.get_absolute_url()).content.decode()
    assert '<span class="step-number">Step 2</span>' in html and "03 Kernel Programming" in html
    assert '<span class="step-number">2</span>' not in html
    assert "· Step 2: 03 Kernel Programming" in html  # next up names it the same way
