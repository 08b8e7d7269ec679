"""The progress bar (apps.learning.widgets.bar_html): its numbers, its looks, its escaping."""

from apps.learning.widgets import Bar, bar_html
from apps.progress.selectors import Tally


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
