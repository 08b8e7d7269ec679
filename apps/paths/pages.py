"""A path's heading and steps, rendered once per content version and worker (see apps.catalog.pages)."""

from django.utils.safestring import SafeString

from apps.catalog.pages import shared_html
from apps.core.content import memoized
from apps.progress.overlay import Overlay, overlay_render


def path_heading(*, path) -> SafeString:
    """Breadcrumbs, title, description and size of `path` (prefetched): nobody's progress."""
    from apps.paths.selectors import path_outline

    return shared_html(
        ("path-heading", path.id),
        "paths/path_detail.html#heading",
        lambda: {"view": path_outline(path)},
    )


def path_steps(*, path) -> Overlay:
    """`path` as apps.paths.selectors prefetches it."""
    return memoized(("path-steps", path.id), lambda: _path_steps_build(path))


def _path_steps_build(path):
    from apps.paths.selectors import path_outline

    return overlay_render("paths/includes/path_steps.html", {"view": path_outline(path)})
