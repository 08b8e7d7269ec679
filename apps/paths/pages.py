"""A path's heading and steps, rendered once per content version and worker (see apps.catalog.pages),
and its learner's next up, filled into a shape of its template (see apps.core.html)."""

from functools import lru_cache
from types import SimpleNamespace

from django.template import Context
from django.utils.html import escape
from django.utils.safestring import SafeString

from apps.catalog.pages import shared_html
from apps.core.content import memoized
from apps.core.html import engine_template, shape_fill, shape_split, slot
from apps.progress.overlay import Overlay, overlay_render

NEXT_UP = "paths/includes/next_up.html"


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


def next_up_html(view, *, oob=False) -> SafeString:
    """The "next up" line of a `selectors.PathView` (or "path complete"); see NEXT_UP. Shown on
    the path page, in each followed path's dashboard row, and out of band after a tick."""
    step, item = view.next_up or (None, None)
    external = bool(item and item.resource.url)
    shape = _next_up_shape(engine_template(NEXT_UP), item is not None, external, bool(view.tally.total), bool(oob))
    values = {"uuid": str(view.path.uuid)}
    if item is not None:
        values |= {
            "href": escape(item.resource.url if external else item.resource.get_absolute_url()),
            "title": escape(item.resource.title),
            "position": str(step.step.position),
            "step": escape(step.step.title),
        }
    return shape_fill(shape, values)


@lru_cache(maxsize=16)
def _next_up_shape(template, has_next: bool, external: bool, has_resources: bool, oob: bool) -> tuple[str, ...]:
    """NEXT_UP rendered once per look, with a placeholder where each of the view's values goes."""
    resource = SimpleNamespace(url=slot("href") if external else "", get_absolute_url=slot("href"), title=slot("title"))
    step = SimpleNamespace(step=SimpleNamespace(position=slot("position"), title=slot("step")))
    view = SimpleNamespace(
        path=SimpleNamespace(uuid=slot("uuid")),
        next_up=(step, SimpleNamespace(resource=resource)) if has_next else None,
        tally=SimpleNamespace(total=int(has_resources)),
    )
    return shape_split(template.render(Context({"view": view, "oob": oob})))
