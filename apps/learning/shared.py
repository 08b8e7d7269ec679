"""Learner pages' shared HTML: rendered once per content version and worker, with holes for
each learner's ticks and bars. The one place pages are cached in process.

The contract:
- `shared_html(key, template, context)` renders `template` without a request, once per content
  version (apps.core.content) and `key`. `key` must hold everything the HTML depends on (the
  object, the validated filters, the page's path); the content token holds the rest. The
  template must show nobody's data: it gets no request, user or context processors (a test
  renders every shared part and fails if one of its templates looks up `request`, `user`,
  `perms`, `csrf_token` or `messages`).
- `shared_overlay(key, template, context)` does the same, except that each `{% tick %}` and
  `{% progress_bar %}` in it becomes a hole. `Overlay.fill` serves one learner by putting their
  status in each tick and their tally in each bar (`bar_html`): string joins instead of
  rendering hundreds of rows. Each tick variant is rendered from the real template once per
  overlay build and every row's ticks stamped from it (stencils.TickStencil); a row included
  with `{% stamp_row %}` is stamped too, from one render of its template per shape
  (stencils.RowStencils). See docs/BENCHMARKS.md ("How pages are built fast") for what a build
  and a fill cost.
- Rows (`{% row_start %}`…`{% row_end %}`) are marked too, with their resource, so that a
  learner's status filter (apps.learning.status_filter) leaves out rows when filling, and each
  `{% note_mark %}` is a hole filled when the learner has a note on its resource. The filter
  links (`{% filter_url %}`) end in a hole that carries the learner's status filter along.

Everything else a page shows is rendered per request.
"""

import sys
from bisect import bisect_right
from collections.abc import Collection
from dataclasses import dataclass
from urllib.parse import urlencode

from django.core.paginator import Page, Paginator
from django.template.loader import render_to_string
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from apps.catalog import selectors
from apps.core.content import ContentMemo, content_token_names, content_tokens, memoized
from apps.learning.stencils import RowStencils, TickStencil
from apps.learning.widgets import Bar, bar_html, guide_bar, note_mark_html, section_bar
from apps.paths.selectors import path_tokens
from apps.progress.models import Status
from apps.progress.selectors import Tally

HOLES = "overlay_holes"  # the context key under which a template being overlaid collects holes
QUERY_HOLE = "overlay_query_hole"  # a function that registers a QueryHole (see filter_url)
TICK_STATUSES = tuple(Status.shown(status) for status in Status)  # "" is not started


def catalog_tokens() -> tuple[str, ...]:
    """What a part showing only catalog content (guides, sections, entries, resources, topics,
    guide titles included) is built from: a path's change does not rebuild it."""
    return content_token_names("catalog")


def shared_html(key, template_name: str, context, tables=None) -> SafeString:
    """`template_name` rendered with `context()` once per `key` and version of `tables` (token
    names, apps.core.content; all content when None)."""
    return memoized(
        ("html", key), lambda: mark_safe(render_to_string(template_name, context())), tables
    )


def shared_overlay(key, template_name: str, context, memo=None, tables=None) -> "Overlay":
    """`template_name` rendered with `context()` as an Overlay, once per `key` and version of
    `tables` (all content when None)."""

    def build():
        return overlay_render(template_name, context())

    return (
        memo.get(content_tokens(), key, build, tables)
        if memo is not None
        else memoized(("overlay", key), build, tables)
    )


@dataclass(frozen=True)
class TickHole:
    resource_id: int
    signed_in: dict  # status ("" for not started) -> html
    anonymous: str


@dataclass(frozen=True)
class BarHole:
    bar: Bar  # its tally is filled with the learner's for its dom id


@dataclass(frozen=True)
class RowMark:
    resource_id: int | None  # a row of this resource starts here; None: the row ends


@dataclass(frozen=True)
class QueryHole:
    separator: str  # "?" or "&": what comes before the learner's parameters, when they have any


@dataclass(frozen=True)
class NoteHole:
    resource_id: int
    html: str  # shown when the learner has a note on the resource


class Overlay:
    """Shared HTML with holes; filling puts each hole's HTML at its place."""

    def __init__(self, parts):
        parts = tuple(parts)  # str | TickHole | BarHole
        self._pieces = [part if type(part) is str else "" for part in parts]
        self._ticks = tuple(
            (i, part.resource_id, part.signed_in)
            for i, part in enumerate(parts)
            if type(part) is TickHole
        )
        self._bars = tuple((i, part.bar) for i, part in enumerate(parts) if type(part) is BarHole)
        self._notes = tuple(
            (i, part.resource_id, part.html)
            for i, part in enumerate(parts)
            if type(part) is NoteHole
        )
        self._queries = tuple(
            (i, part.separator) for i, part in enumerate(parts) if type(part) is QueryHole
        )
        rows, started = [], None
        for index, part in enumerate(parts):
            if type(part) is RowMark:
                if part.resource_id is not None:
                    started = (index, part.resource_id)
                elif started is not None:
                    rows.append((started[0], index, started[1]))
                    started = None
        self._rows = tuple(rows)  # (first piece, last piece, resource id)
        anonymous = self._pieces.copy()  # visitors see each tick's sign-in button and no bars
        for index, part in enumerate(parts):
            if type(part) is TickHole:
                anonymous[index] = part.anonymous
        self._anonymous = mark_safe("".join(anonymous))
        # What it holds, for the memo's byte bound (apps.core.content): its strings, each tick's
        # variants once (a status as stored shares its shown variant's string).
        strings = {id(text): text for text in (*self._pieces, self._anonymous)}
        for _, _, variants in self._ticks:
            strings.update((id(text), text) for text in variants.values())
        strings.update((id(html), html) for _, _, html in self._notes)
        self.nbytes = sum(map(sys.getsizeof, strings.values())) + 64 * len(parts)

    def row_statuses(self, statuses: dict) -> list[str]:
        """The learner's status ("" for not started) of each row, in page order."""
        status_of = statuses.get
        return [status_of(resource_id, "") for _, _, resource_id in self._rows]

    def fill(
        self, *, statuses: dict, tallies: dict, signed_in: bool, show=None, query: str = ""
    ) -> SafeString:
        """The HTML for one learner: `statuses` {resource_id: status}, `tallies` {bar dom id: Tally};
        with `show` (status -> bool), only the rows whose resource's status it accepts; `query`
        (urlencoded, already escaped for HTML by urlencode) is added to the filter links."""
        if not signed_in:
            return self._anonymous
        pieces, status_of = self._pieces.copy(), statuses.get
        for index, resource_id, html in self._ticks:
            pieces[index] = html[status_of(resource_id, "")]
        for index, bar in self._bars:
            tally = tallies.get(bar.dom_id)
            pieces[index] = (
                "" if tally is None else bar_html(Bar(bar.dom_id, bar.label, tally, bar.compact))
            )
        noted = getattr(statuses, "noted", ())
        for index, resource_id, html in self._notes:
            if resource_id in noted:
                pieces[index] = html
        if query:
            for index, separator in self._queries:
                pieces[index] = escape(separator + query)
        if show is not None:
            for first, last, resource_id in self._rows:
                if not show(status_of(resource_id, "")):
                    pieces[first : last + 1] = [""] * (last + 1 - first)
        return mark_safe("".join(pieces))


def overlay_fill(
    request,
    overlay: Overlay,
    *,
    statuses: dict,
    tallies: dict | None = None,
    show=None,
    query: str = "",
) -> SafeString:
    """`overlay` as the learner making `request` sees it (only the rows `show` accepts, `query`
    kept on its filter links)."""
    return overlay.fill(
        statuses=statuses,
        tallies=tallies or {},
        signed_in=request.user.is_authenticated,
        show=show,
        query=query,
    )


def overlay_render(template_name: str, context: dict, *, stamp: bool = True) -> Overlay:
    """Render `template_name` with a marker for each hole its tags register, then split at them.
    `stamp`: rows of `{% stamp_row %}` stamped from stencils (False: rendered one by one, as the
    tests compare)."""
    holes = _Holes(stamp=stamp)

    def query_hole(separator):  # for apps.catalog's {% filter_url %}, which cannot import this
        holes.append(QueryHole(separator))
        return f"\x00{len(holes) - 1}\x00"

    html = render_to_string(template_name, {**context, HOLES: holes, QUERY_HOLE: query_hole})
    pieces = html.split(
        "\x00"
    )  # NUL cannot occur in content: forms refuse it, PostgreSQL cannot store it
    parts = [holes[int(piece)] if index % 2 else piece for index, piece in enumerate(pieces)]
    return Overlay(part for part in parts if part != "")


class _Holes(list):
    """The holes an overlay's template registers (its tags call the methods below), the tick
    stencils its rows are stamped from, and its row stencils (`rows`, None when rows are
    rendered): each variant rendered once per build, so an edited template shows at the next one."""

    def __init__(self, *, stamp: bool = True):
        super().__init__()
        self.stencils: dict[tuple, TickStencil] = {}
        self.rows = RowStencils(HOLES) if stamp else None

    def stencil(self, *, status: str, signed_in: bool, oob: bool) -> TickStencil:
        key = (status, signed_in, oob)
        if key not in self.stencils:
            self.stencils[key] = TickStencil(status=status, signed_in=signed_in, oob=oob)
        return self.stencils[key]

    def tick(self, *, resource, slot: str, oob: bool) -> SafeString:
        return tick_hole(self, resource=resource, slot=slot, oob=oob)

    def row_start(self, resource) -> SafeString:
        return row_mark(self, resource.id)

    def row_end(self) -> SafeString:
        return row_mark(self, None)

    def note(self, resource) -> SafeString:
        return note_hole(self, resource_id=resource.id, html=note_mark_html(resource))


def tick_hole(holes: "_Holes", *, resource, slot: str, oob: bool) -> SafeString:
    """Register a tick, stamped now in every status and for visitors; returns its marker."""

    fields = TickStencil.fields(resource=resource, slot=slot)

    def stamp(status, signed_in):
        return holes.stencil(status=status, signed_in=signed_in, oob=oob).stamp(fields)

    signed_in = {status: stamp(status, True) for status in TICK_STATUSES}
    signed_in |= {status: signed_in[Status.shown(status)] for status in Status}  # as stored too
    holes.append(TickHole(resource_id=resource.id, signed_in=signed_in, anonymous=stamp("", False)))
    return mark_safe(f"\x00{len(holes) - 1}\x00")


def row_mark(holes: list, resource_id: int | None) -> SafeString:
    """Mark where a row of `resource_id` starts (None: where it ends); returns its marker."""
    holes.append(RowMark(resource_id))
    return mark_safe(f"\x00{len(holes) - 1}\x00")


def note_hole(holes: list, *, resource_id: int, html: str) -> SafeString:
    """Register a note marker, shown to a learner with a note on the resource; returns its marker."""
    holes.append(NoteHole(resource_id, html))
    return mark_safe(f"\x00{len(holes) - 1}\x00")


def bar_hole(holes: list, bar: Bar, *, compact: bool) -> SafeString:
    """Register a bar, filled with the learner's tally for its dom id; returns its marker."""
    holes.append(BarHole(Bar(bar.dom_id, bar.label, None, compact)))
    return mark_safe(f"\x00{len(holes) - 1}\x00")


# --- The pages' shared parts ---------------------------------------------------------------------


def tick_next(path: str, filters: dict) -> str:
    """Where a no-JavaScript tick returns to: this page with only the valid filters."""
    return f"{path}?{urlencode(filters)}" if filters else path


@dataclass(frozen=True)
class GuideParts:
    total_count: int
    heading: (
        SafeString  # breadcrumbs, title, description and size: the header up to the learner's bar
    )
    toc: SafeString  # "" when the guide is too small to need one
    entries: Overlay  # filters, result count and the section tree with its rows


def guide_parts(*, guide, filters: dict, path: str) -> GuideParts:
    key = ("guide", guide.id, path, tuple(sorted(filters.items())))
    return memoized(
        key, lambda: _guide_parts_build(guide=guide, filters=filters, path=path), catalog_tokens()
    )


def _guide_parts_build(*, guide, filters, path):
    contents = selectors.guide_contents(guide=guide, filters=filters)
    context = {
        "contents": contents,
        "filters": filters,
        "page_path": path,
        "section_tallies": {
            section.id: Tally(total=1) for section in _walk(contents.sections)
        },  # a hole each
    }
    heading = {"guide": guide, "total_count": contents.total_count}
    return GuideParts(
        total_count=contents.total_count,
        heading=mark_safe(render_to_string("catalog/guide_detail.html#heading", heading)),
        toc=mark_safe(render_to_string("catalog/includes/guide_toc.html", {"contents": contents}))
        if len(contents.contents) > 2
        else "",
        entries=overlay_render("catalog/includes/guide_entries.html", context),
    )


def _walk(sections):
    for section in sections:
        yield section
        yield from _walk(section.shown_subsections)


@dataclass(frozen=True)
class TopicParts:
    total_count: int  # on the topic, whatever the filters
    resource_ids: tuple[int, ...]  # every row the filters keep, in page order
    positions: dict  # {resource id: its index in resource_ids}
    head: Overlay  # the kind filter, its result count, or why there is nothing to list


def topic_parts(*, topic, filters: dict, path: str) -> TopicParts:
    """What a topic page with these filters shows above its rows, and which rows it has."""
    key = ("topic", topic.id, path, tuple(sorted(filters.items())))
    return memoized(
        key, lambda: _topic_parts_build(topic=topic, filters=filters, path=path), catalog_tokens()
    )


def _topic_parts_build(*, topic, filters, path):
    contents = selectors.topic_contents(topic=topic, filters=filters)
    context = {"topic": topic, "contents": contents, "filters": filters, "page_path": path}
    return TopicParts(
        total_count=contents.total_count,
        resource_ids=contents.resource_ids,
        positions={pk: index for index, pk in enumerate(contents.resource_ids)},
        head=overlay_render("catalog/includes/topic_resources.html", context),
    )


@dataclass(frozen=True)
class TopicRows:
    page: Page  # the page the rows start on (its number; its paginator: every row listed)
    rows: list  # each row as an overlay
    stop: int  # the index in the list just past the last row (start + rows, hidden rows counted)
    last: object  # the last row's resource uuid (None for none): "Load more" continues after it

    @property
    def has_next(self) -> bool:
        return self.stop < self.page.paginator.count


def topic_rows(*, topic, filters: dict, path: str, page_number, kept=None, after=None) -> TopicRows:
    """One page of a topic's rows: of every row, or with `kept` (the ids a learner's status filter
    keeps, in page order) of those only; with `after` (a resource id: the last row on screen),
    the page of rows that follow it instead, wherever it is now: a row that left the list since
    (ticked done under "hide done") shifts no row past the learner. Either way each row comes
    from the shared page of every row it is on, built once per content version and page
    (`_topic_page_build`), so a learner's filter renders nothing of its own. An out-of-range or
    junk page number gives the last or the first page (Paginator.get_page, as
    selectors.topic_page), and reads the page it shows: junk makes no new entries."""
    parts = topic_parts(topic=topic, filters=filters, path=path)
    size = selectors.TOPIC_PAGE_SIZE
    listed = parts.resource_ids if kept is None else kept
    paginator = Paginator(listed, size)
    if after in parts.positions:  # the first listed row past it: positions grow along `listed`
        position = parts.positions[after]
        start = bisect_right(listed, position, key=parts.positions.__getitem__)
        page = paginator.get_page(start // size + 1)
        ids = listed[start : start + size]
    else:
        page = paginator.get_page(page_number)
        start = (page.number - 1) * size
        ids = page.object_list
    shared_pages: dict[int, dict] = {}

    def row(pk):
        number = parts.positions[pk] // size + 1
        if number not in shared_pages:
            key = ("topic-page", topic.id, path, tuple(sorted(filters.items())), number)
            shared_pages[number] = memoized(
                key,
                lambda: _topic_page_build(resource_ids=parts.resource_ids, number=number),
                catalog_tokens(),
            )
        return shared_pages[number].get(pk)  # None: hidden by a write since this request began

    rows = [found for found in map(row, ids) if found is not None]
    return TopicRows(
        page=page,
        rows=[overlay for _, overlay in rows],
        stop=start + len(ids),
        last=rows[-1][0] if rows else None,
    )


def _topic_page_build(*, resource_ids, number) -> dict:
    """{resource id: (its uuid, its row as an overlay)} of page `number` of `resource_ids`, in
    page order."""
    page = selectors.topic_page(resource_ids=resource_ids, page_number=number)
    return {
        resource.id: (
            resource.uuid,
            overlay_render("catalog/includes/resource_row.html", {"resource": resource}),
        )
        for resource in page.object_list
    }


@dataclass(frozen=True)
class ResourceParts:
    resource: (
        object  # with its links, topics and placements (selectors.resource_details); read-only
    )
    crumbs: SafeString
    head: SafeString  # badges, title, author, the link and any notice about it
    body: SafeString  # description, more links, placements in the guides, topics


# Resource pages get their own memo, sized for every resource (about 10 KB each): a crawl through
# them all must not push the guides out of the shared one. Searches too: live search makes a key
# per keystroke. With the shared memo's 64 MB (apps.core.content.MEMO_BYTES), 96 MB per worker.
_resource_memo = ContentMemo(max_bytes=16 * 2**20)
_search_memo = ContentMemo(max_bytes=12 * 2**20)
_search_ids_memo = ContentMemo(max_bytes=4 * 2**20)


def resource_parts(*, uuid) -> ResourceParts:
    """Everything of a published resource's page but the learner's progress; Http404 if none."""

    def build():
        resource = selectors.resource_details(uuid=uuid)
        context = {"resource": resource}

        def part(name):
            return mark_safe(render_to_string(f"catalog/includes/resource_{name}.html", context))

        return ResourceParts(
            resource=resource, crumbs=part("crumbs"), head=part("head"), body=part("body")
        )

    return _resource_memo.get(content_tokens(), uuid, build, catalog_tokens())


def search_ids(*, query: str, filters: dict) -> tuple[int, ...]:
    """The ids of every result for `query` and `filters` (a learner's status filter counts and
    pages over them), once per content version."""
    return _search_ids_memo.get(
        content_tokens(),
        (query, tuple(sorted(filters.items()))),
        lambda: tuple(selectors.search_ids(query, filters=filters)),
        catalog_tokens(),
    )


def search_results(
    *,
    query: str,
    page_number,
    path: str,
    filters: dict | None = None,
    within: Collection[int] | None = None,
    params: dict | None = None,
) -> Overlay:
    """One page of results for `query` (non-empty) and the valid `filters`, rows with ticks as
    holes. With `within` (the resources a learner's status filter keeps) the page is of those
    only, rendered for this request, its page links keeping `params` (the filter's)."""
    filters = filters or {}

    def context():
        page = selectors.search_page(
            query=query, page_number=page_number, filters=filters, within=within
        )

        def url(number=None, q=query):
            query_params = {"q": q, **filters, **(params or {})}
            if number:
                query_params["page"] = number
            return f"{path}?{urlencode(query_params)}"

        return {
            "query": query,
            "page": page,
            "filters": filters,
            "status_filtered": within is not None,
            "suggestion_url": url(q=page.suggestion) if page.suggestion else "",
            "previous_url": url(page.previous_page_number()) if page.has_previous() else "",
            "next_url": url(page.next_page_number()) if page.has_next() else "",
        }

    template_name = "catalog/includes/search_results.html"
    if within is not None:  # one learner's own list: nothing to share
        return overlay_render(template_name, context())
    return shared_overlay(
        (query, str(page_number), tuple(sorted(filters.items()))),
        template_name,
        context,
        memo=_search_memo,
        tables=catalog_tokens(),
    )


# What the home page's overview shows: guides (titles, descriptions), their sections and
# resources, the topics and their counts.
CATALOG_OVERVIEW_TOKENS = (*selectors.PLACED, "catalog_topic", "catalog_resource_topics")


def catalog_overview():
    """selectors.catalog_overview, once per version of what it is built from."""
    return memoized("catalog-overview", selectors.catalog_overview, CATALOG_OVERVIEW_TOKENS)


def guide_cards() -> Overlay:
    """The guides page's card per published guide, its bar a hole (guide_bar's dom id)."""

    def context():
        overview = catalog_overview()
        return {
            "cards": [
                {"summary": summary, "bar": guide_bar(summary.guide, Tally(total=1), compact=True)}
                for summary in overview.guides
            ]
        }

    return shared_overlay(
        "guide-cards", "catalog/includes/guide_cards.html", context, tables=catalog_tokens()
    )


def dashboard_guide_bars() -> Overlay:
    """A bar per published guide and per visible top-level section, as holes."""

    def context():
        holding = (
            selectors.guide_structure().section_resources
        )  # sections with nothing in them get no bar
        rows = [
            {
                "guide": guide,
                "bar": guide_bar(guide, Tally(total=1)),
                "sections": [
                    section_bar(section, Tally(total=1))
                    for section in guide.top_sections
                    if section.id in holding
                ],
            }
            for guide in selectors.guides_with_top_sections()
        ]
        return {"guide_rows": rows}

    return shared_overlay(
        "dashboard-guide-bars",
        "progress/includes/guide_bars.html",
        context,
        tables=catalog_tokens(),
    )


def path_steps(*, path, outline) -> Overlay:
    """`path`'s steps (as `outline`, a PathView nobody has started), ticks and step bars as holes."""
    return memoized(("path-steps", path.id), lambda: _path_steps_build(outline), path_tokens())


def _path_steps_build(outline):
    return overlay_render("paths/includes/path_steps.html", {"view": outline()})
