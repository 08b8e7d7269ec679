"""A path's next up (apps.learning.widgets.next_up_html), in every look."""

import pytest

from apps.learning.widgets import next_up_html
from apps.paths.models import LearningPath, StepResource
from apps.paths.selectors import path_detail
from apps.progress.models import Status
from apps.progress.services import progress_set_status

pytestmark = pytest.mark.django_db


def looks(user, learning_path, catalog):
    """A PathView of each look: next up with an external link, with a page of ours (no URL),
    complete, and a path with nothing in it."""
    first = catalog["resources"][0]
    first.title = 'Tiles <b>&</b> "warps"'
    first.save()
    yield path_detail(path=learning_path, user=user)
    first.url = None
    first.save()
    yield path_detail(path=learning_path, user=user)
    for item in StepResource.objects.filter(step__path=learning_path):
        progress_set_status(user=user, resource=item.resource, status=Status.DONE)
    yield path_detail(path=learning_path, user=user)
    empty = LearningPath.objects.create(slug="empty", title="Nothing yet")
    yield path_detail(path=empty, user=user)


@pytest.mark.parametrize("oob", [False, True])
def test_next_up_shows_each_look_escaped(learner, catalog, learning_path, oob):
    shown = []
    for view in looks(learner, learning_path, catalog):
        shown.append(next_up_html(view, oob=oob))
    external, ours, complete, empty = shown
    assert (
        "Tiles &lt;b&gt;&amp;&lt;/b&gt; &quot;warps&quot;" in external
        and 'rel="noopener noreferrer"' in external
    )
    assert 'href="/resources/' in ours and "noopener" not in ours
    assert "Path complete" in complete and "Next up" not in complete
    assert "Next up" not in empty and "Path complete" not in empty
    assert ('hx-swap-oob="true"' in external) is oob
