"""The dashboard's learner-free part, rendered once per content version (see apps.catalog.pages)."""

from apps.core.content import memoized
from apps.progress.bars import guide_bar, section_bar
from apps.progress.overlay import Overlay, overlay_render
from apps.progress.selectors import Tally, dashboard_guides, guide_structure


def guide_bars() -> Overlay:
    """A bar per published guide and per top-level section, as holes."""
    return memoized("dashboard-guide-bars", _guide_bars_build)


def _guide_bars_build():
    holding = guide_structure().section_resources  # sections with nothing in them get no bar
    rows = [
        {
            "guide": guide,
            "bar": guide_bar(guide, Tally(total=1)),
            "sections": [section_bar(section, Tally(total=1)) for section in guide.top_sections if section.id in holding],
        }
        for guide in dashboard_guides()
    ]
    return overlay_render("progress/includes/guide_bars.html", {"guide_rows": rows})
