"""The learner pages' widgets (apps.learning.widgets): the progress bar (`bar_html`), its numbers,
its looks, its escaping; a path's next up (`next_up_html`), in every look."""

import pytest

from apps.learning.widgets import Bar, bar_html, next_up_html
from apps.paths.models import LearningPath, StepResource
from apps.paths.selectors import path_detail
from apps.progress.models import Status
from apps.progress.selectors import Tally
from apps.progress.services import progress_set_status


def test_a_bar_shows_done_of_countable_and_the_percentage():
    html = bar_html(Bar("bar-guide-1", "Kernels", Tally(total=5, done=2, skipped=1)))
    assert html.startswith('<div id="bar-guide-1" class="bar">')
    assert '<progress max="4" value="2" aria-label="Kernels: 2 of 4 done">50%</progress>' in html
    assert '<span class="bar-text">2/4 · 50%</span>' in html and "hx-swap-oob" not in html


def test_a_compact_complete_out_of_band_bar():
    html = bar_html(Bar("bar-step-1", "Step", Tally(total=2, done=2), compact=True), oob=True)
    assert html.startswith(
        '<div id="bar-step-1" class="bar bar--compact bar--complete" hx-swap-oob="true">'
    )
    assert '<span class="bar-text">2/2</span>' in html


def test_nothing_countable_reads_as_zero_of_one():
    html = bar_html(Bar("bar-x", "X", Tally(total=1, skipped=1)))
    assert '<progress max="1" value="0"' in html and "0/0 · 0%" in html


def test_a_bar_escapes_its_label_and_id():
    html = bar_html(Bar('bar-"x"', '<b>Tiles & "warps"</b>', Tally(total=1)))
    assert 'id="bar-&quot;x&quot;"' in html
    assert 'aria-label="&lt;b&gt;Tiles &amp; &quot;warps&quot;&lt;/b&gt;: 0 of 1 done"' in html
    assert "<b>" not in html


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


@pytest.mark.django_db
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
