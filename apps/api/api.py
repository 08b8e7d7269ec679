"""The personal API, version 1 (`/api/v1/`, URL namespace `api:v1`), with django-ninja.

Routers, one per kind of data: `catalog` (public reads, as the site's catalog pages are), `me`
(the learner's own statuses, notes and export; a token or a signed-in browser), `own`
(`/me/resources`: the learner's own resources) and `own paths` (`/me/paths`: the learner's own
paths, CRUD). Progress on paths (`/me/path-progress`, `/me/paths/{uuid}/progress`) is read off the
paths' selectors' PathView, as the pages draw it. A later kind is one more router added below. The OpenAPI schema is at `/api/v1/openapi.json`, its docs page at `/api/v1/docs` (Swagger UI from our own static
files: the site's Content-Security-Policy allows no CDN).
"""

from uuid import UUID

from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from ninja import NinjaAPI, Query, Router, Schema, Status
from ninja.errors import AuthenticationError, HttpError
from ninja.openapi.docs import Swagger
from ninja.pagination import PageNumberPagination, paginate

from apps.api import selectors
from apps.api.auth import ANYONE, LEARNER, ApiRateLimit, rate_limit_consume
from apps.api.schemas import (
    GuideOut,
    MeOut,
    Message,
    NoteOut,
    OwnChange,
    OwnIn,
    OwnItemIn,
    OwnOut,
    OwnPathDetailOut,
    OwnPathIn,
    OwnPathOut,
    OwnPathPatch,
    OwnStepIn,
    PathDetailOut,
    PathOut,
    PathProgressOut,
    ProgressIn,
    ProgressOut,
    ResourceOut,
    SectionOut,
    StatusName,
    TopicOut,
)
from apps.catalog.forms import SearchForm
from apps.catalog.models import Guide, Kind, Topic
from apps.catalog.selectors import (
    guides_with_top_sections,
    resource_details,
    visible_resource,
    visible_resource_for_url,
)
from apps.core.content import published_get
from apps.paths import selectors as path_selectors
from apps.paths import services as path_services
from apps.paths.models import OwnStep, OwnStepItem
from apps.paths.selectors import (
    NOT_ADDABLE,
    addable_resource,
    follows_for,
    own_path_for_owner,
    own_path_view,
    own_paths_for,
    paths_followed,
    published_path,
)
from apps.progress import exports
from apps.progress import services as progress_services
from apps.progress.models import OwnResource
from apps.progress.selectors import notebook, own_rows, statuses_for, tickable_resource
from apps.progress.services import progress_set_note, progress_set_status

PAGE_SIZE = 50
MAX_PAGE_SIZE = 200
DESCRIPTION = """
Syllabus's catalog and your own progress. Lists are paged (`page`, `page_size` up to 200) and
answer `{"items": [...], "count": N}`.

**Authentication.** Catalog reads are public, as the site's pages are. Your own data (`/me/…`)
needs a personal token, made on your account page (*Account → API tokens*) and sent as
`Authorization: Bearer syl_…`; or, from a browser signed in to the site, its session, with the
CSRF token in `X-CSRFToken` on writes. A wrong or revoked token is refused with 401.

**Rate limit.** Per learner (per address for visitors); past it, 429 with `Retry-After`.
"""


class Pages(PageNumberPagination):
    def __init__(self, **kwargs):
        super().__init__(page_size=PAGE_SIZE, max_page_size=MAX_PAGE_SIZE, **kwargs)


api = NinjaAPI(
    title="Syllabus API",
    version="1",
    description=DESCRIPTION,
    urls_namespace="api:v1",
    auth=ANYONE,
    throttle=[ApiRateLimit()],
    # Swagger UI, served from our static files (ninja is in INSTALLED_APPS): no CDN, no inline
    # script; the validator badge would fetch from validator.swagger.io, so it is off.
    docs=Swagger(settings={"validatorUrl": None}),
    docs_url="/docs",
    openapi_url="/openapi.json",
)

SIGN_IN = (
    "This needs you: send a personal token as `Authorization: Bearer <token>` (make one on your "
    "account page), or sign in to the site in this browser."
)


@api.exception_handler(AuthenticationError)
def unauthenticated(request, exc):
    """401 with what to do, and the scheme to do it with (RFC 9110's WWW-Authenticate); 429
    past the rate limit, which refused requests count against too (per address)."""
    wait = rate_limit_consume(request)
    if wait is not None:
        response = api.create_response(request, {"detail": "Too many requests."}, status=429)
        response["Retry-After"] = str(wait)
        return response
    detail = exc.message if exc.message != AuthenticationError().message else SIGN_IN
    response = api.create_response(request, {"detail": detail}, status=401)
    response["WWW-Authenticate"] = 'Bearer realm="Syllabus API"'
    return response


# --- Catalog ---------------------------------------------------------------------------------
catalog = Router(tags=["catalog"])


@catalog.get("/guides", response=list[GuideOut], summary="Published guides")
@paginate(Pages)
def guide_list(request):
    return selectors.guide_summaries()


@catalog.get("/guides/{slug}", response=GuideOut, summary="A guide")
def guide_detail(request, slug: str):
    return selectors.guide_summary(guide=published_get(Guide, slug=slug))


@catalog.get(
    "/guides/{slug}/sections",
    response=list[SectionOut],
    summary="A guide's sections in reading order, each with its entries",
)
@paginate(Pages)
def guide_sections(request, slug: str):
    return selectors.guide_sections(guide=published_get(Guide, slug=slug))


class ResourceFilters(Schema):
    q: str = ""
    kind: str = ""
    guide: str = ""
    topic: str = ""


@catalog.get(
    "/resources",
    response={200: list[ResourceOut], 422: Message},
    summary="Resources: all, or those a search finds",
    description="`q` searches as the site's search does (joined and split words, British and "
    "American spellings), best first; without it, every resource by title. `kind`, `guide` (a "
    "slug) and `topic` (a slug) narrow either.",
)
@paginate(Pages)
def resource_list(request, filters: Query[ResourceFilters]):
    guides = [(guide.slug, guide.title) for guide in guides_with_top_sections()]
    form = SearchForm({"q": filters.q, "kind": filters.kind, "guide": filters.guide}, guides=guides)
    if not form.is_valid():
        if "kind" in form.errors:
            raise HttpError(
                422, f"Unknown kind “{filters.kind[:40]}”: one of {', '.join(Kind.values)}."
            )
        raise HttpError(422, f"No published guide has the slug “{filters.guide[:40]}”.")
    topic = None
    if filters.topic:
        topic = Topic.objects.published().filter(slug=filters.topic).first()
        if topic is None:
            raise HttpError(422, f"No published topic has the slug “{filters.topic[:40]}”.")
    return selectors.resource_list(
        query=form.query(),
        kind=form.filters().get("kind", ""),
        guide=form.filters().get("guide", ""),
        topic=topic,
    )


@catalog.get("/resources/{uuid}", response=ResourceOut, summary="A resource")
def resource_detail(request, uuid: str):
    return resource_details(uuid=visible_resource(uuid=uuid).uuid)


@catalog.get("/topics", response=list[TopicOut], summary="Published topics")
@paginate(Pages)
def topic_list(request):
    return selectors.topic_summaries()


@catalog.get("/topics/{slug}", response=TopicOut, summary="A topic")
def topic_detail(request, slug: str):
    topic = published_get(Topic, slug=slug)
    return next(t for t in selectors.topic_summaries() if t["uuid"] == topic.uuid)


@catalog.get("/paths", response=list[PathOut], summary="Published learning paths")
@paginate(Pages)
def path_list(request):
    return selectors.path_summaries()


@catalog.get("/paths/{slug}", response=PathDetailOut, summary="A learning path with its steps")
def path_detail(request, slug: str):
    return selectors.path_summary(published_path(slug=slug), steps=True)


# --- The learner's own -----------------------------------------------------------------------
me = Router(tags=["me"], auth=LEARNER)


@me.get("", response=MeOut, summary="Who the token or session is")
def whoami(request):
    token = getattr(request, "api_token", None)
    return {"email": request.auth.email, "token": token.name if token else None}


@me.get(
    "/progress",
    response=list[ProgressOut],
    summary="Your statuses and notes, most recently changed first",
    description="Every resource you have started, finished, skipped or noted. `status` narrows.",
)
@paginate(Pages)
def progress_list(request, status: StatusName | None = None):
    return selectors.progress_rows(user=request.auth, status=status or "")


@me.get("/progress/{uuid}", response=ProgressOut, summary="Your status and note on a resource")
def progress_detail(request, uuid: str):
    return selectors.progress_of(
        user=request.auth, resource=tickable_resource(user=request.auth, uuid=uuid)
    )


@me.patch(
    "/progress/{uuid}",
    response={200: ProgressOut, 422: Message},
    summary="Set your status or note on a resource",
    description="The same write as the site's tick: dates, activity, streaks follow. Send the "
    "state you want (retries are harmless). A resource of the catalog or one of your own "
    "(its `resource.uuid` in `/me/resources`).",
)
def progress_update(request, uuid: str, change: ProgressIn):
    resource = tickable_resource(user=request.auth, uuid=uuid)
    if change.status is None and change.note is None:
        raise HttpError(422, "Send a status, a note or both; nothing was changed.")
    if change.status is not None:
        note = change.note.strip() if change.note is not None else None
        row = progress_set_status(
            user=request.auth, resource=resource, status=change.status, note=note
        )
    else:
        row = progress_set_note(user=request.auth, resource=resource, note=change.note or "")
    return selectors.progress_out(row, resource=resource)


@me.get(
    "/notes",
    response=list[NoteOut],
    summary="Your notes, most recently changed first",
    description="`q` keeps the notes whose words (or their resource's title or author) match, "
    "as the notes page's search does.",
)
@paginate(Pages)
def note_list(request, q: str = ""):
    return notebook(user=request.auth, query=q[:200]).notes


@me.get(
    "/export",
    response={200: dict, 422: Message},
    summary="Your progress as a file",
    description="The same documents as the site's export: `json` (statuses, notes, dates; the "
    "import reads it back), `csv`, or `md` (every guide as a checklist).",
)
def export(request, format: str = "json"):
    if format == "json":
        return exports.progress_json(request.auth)
    builders = {
        "csv": ("text/csv; charset=utf-8", exports.progress_csv),
        "md": ("text/markdown; charset=utf-8", exports.progress_markdown),
    }
    if format not in builders:
        raise HttpError(422, f"Unknown format “{format[:20]}”: json, csv or md.")
    content_type, build = builders[format]
    return HttpResponse(build(request.auth), content_type=content_type)


@me.get(
    "/path-progress",
    response=list[PathProgressOut],
    summary="Your progress on the paths you follow and your own paths",
    description='The dashboard\'s "Paths you follow": every curated path you follow and every '
    "path of your own (you follow it by owning it), in the order you started them (oldest "
    "first). Each with its counts, minutes, next up and, with hours per week set, its pace: the "
    "numbers the path's page shows.",
)
@paginate(Pages)
def path_progress_list(request):
    user = request.auth
    followed = paths_followed(
        user=user, statuses=statuses_for(user=user), follows=follows_for(user=user)
    )
    return [selectors.path_progress_out(view) for view in followed.views]


@me.get(
    "/path-progress/{slug}",
    response=PathProgressOut,
    summary="Your progress on a curated path",
    description="Any published path, followed or not (`followed`; a pace only when followed "
    "with hours per week). Your own paths: `/me/paths/{uuid}/progress`.",
)
def path_progress_detail(request, slug: str):
    return selectors.path_progress_out(
        path_selectors.path_detail(path=published_path(slug=slug), user=request.auth)
    )


# --- The learner's own resources -------------------------------------------------------------
own = Router(tags=["own resources"], auth=LEARNER)


def _own_out(row) -> dict:
    own = row.own
    return {
        "id": own.pk,
        "url": own.resource.url or "",
        "title": own.title,
        "kind": own.kind,
        "author": own.author,
        "status": row.status or "not_started",
        "note": row.note,
        "started_at": row.started_at,
        "completed_at": row.completed_at,
        "suggestion": own.suggestion,
        "suggestion_outcome": own.suggestion_outcome,
        "catalog": row.catalog.uuid if row.catalog else None,
        "created_at": own.created_at,
    }


def _own_row(request, pk: int):
    """The learner's own resource as OwnOut, or 404: another learner's is never found, nor an
    id no row can have (past a 64-bit integer, which the database would refuse)."""
    rows = own_rows(user=request.auth, pks=[pk]) if 0 < pk < 2**63 else []
    if not rows:
        raise HttpError(404, "You have no own resource with this id.")
    return rows[0]


def _check_kind(kind):
    if kind and kind not in Kind.values:
        raise HttpError(422, f"Unknown kind “{kind[:40]}”: one of {', '.join(Kind.values)}.")


@own.get("", response=list[OwnOut], summary="Your own resources, newest first")
@paginate(Pages)
def own_list(request, q: str = ""):
    return [_own_out(row) for row in own_rows(user=request.auth, query=q[:200])]


@own.post(
    "",
    response={201: OwnOut, 200: OwnOut, 409: Message, 422: Message},
    summary="Save a link as your own resource",
    description="201 when saved, 200 when you had it (updated). A link in the catalog is not "
    "saved twice: 409 names the catalog resource, whose status and note you set under "
    "`/me/progress/{uuid}`.",
)
def own_create(request, data: OwnIn):
    _check_kind(data.kind)
    try:
        URLValidator(schemes=["http", "https"])(data.url)
    except ValidationError:
        raise HttpError(422, "That is not an http(s) link; nothing was saved.") from None
    catalog = visible_resource_for_url(data.url)
    if catalog is not None:
        raise HttpError(
            409,
            f"This link is the catalog resource {catalog.uuid} (“{catalog.title}”): "
            "nothing was saved.",
        )
    saved = progress_services.own_resource_save(
        user=request.auth,
        url=data.url,
        title=data.title,
        kind=data.kind,
        author=data.author,
        note=data.note,
        status=data.status,
    )
    return Status(201 if saved.created else 200, _own_out(_own_row(request, saved.own.pk)))


@own.get("/{pk}", response=OwnOut, summary="One of your own resources")
def own_detail(request, pk: int):
    return _own_out(_own_row(request, pk))


@own.patch(
    "/{pk}", response={200: OwnOut, 422: Message}, summary="Change one of your own resources"
)
def own_update(request, pk: int, change: OwnChange):
    row = _own_row(request, pk)
    own = row.own
    _check_kind(change.kind)
    if change.title is not None and not change.title.strip():
        raise HttpError(422, "A resource needs a title; nothing was changed.")
    progress_services.own_resource_update(
        own=own,
        title=change.title if change.title is not None else own.title,
        kind=change.kind or own.kind,
        author=change.author if change.author is not None else own.author,
        note=change.note if change.status is None else None,
    )
    if change.status is not None:
        progress_set_status(
            user=request.auth, resource=own.resource, status=change.status, note=change.note
        )
    return _own_out(_own_row(request, pk))


@own.delete("/{pk}", response={204: None}, summary="Remove one of your own resources")
def own_delete(request, pk: int):
    own = _own_row(request, pk).own
    progress_services.own_resource_delete(own=OwnResource.objects.get(pk=own.pk))
    return Status(204, None)


@own.post("/{pk}/suggest", response=OwnOut, summary="Offer one to the curators")
def own_suggest(request, pk: int):
    progress_services.own_resource_suggest(own=_own_row(request, pk).own)
    return _own_out(_own_row(request, pk))


# --- The learner's own paths ------------------------------------------------------------------
# Every path is looked up through apps.paths.selectors.own_path_for_owner: another learner's is a
# 404, as if it did not exist. Writes are apps.paths.services; bad input is a 422 that changed
# nothing.
own_paths = Router(tags=["own paths"], auth=LEARNER)


def _own_path(request, uuid):
    return own_path_for_owner(user=request.auth, uuid=uuid)


def _own_write(write, **kwargs):
    try:
        return write(**kwargs)
    except path_services.OwnPathError as error:
        raise HttpError(422, f"{error} Nothing was changed.") from None


@own_paths.get("", response=list[OwnPathOut], summary="Your own paths, newest first")
@paginate(Pages)
def own_path_list(request):
    return [
        selectors.own_path_out(path, user=request.auth) for path in own_paths_for(user=request.auth)
    ]


@own_paths.post("", response={201: OwnPathDetailOut, 422: Message}, summary="Make an own path")
def own_path_create(request, data: OwnPathIn):
    path = _own_write(path_services.own_path_create, user=request.auth, **data.dict())
    return Status(201, selectors.own_path_out(path, user=request.auth, steps=True))


@own_paths.get(
    "/{uuid}",
    response=OwnPathDetailOut,
    summary="One of your paths: steps, resources, your progress and next up",
)
def own_path_detail(request, uuid: UUID):
    return selectors.own_path_out(_own_path(request, uuid), user=request.auth, steps=True)


@own_paths.get(
    "/{uuid}/progress",
    response=PathProgressOut,
    summary="Your progress on one of your paths: counts, minutes, next up, pace",
)
def own_path_progress(request, uuid: UUID):
    return selectors.path_progress_out(
        own_path_view(path=_own_path(request, uuid), user=request.auth)
    )


@own_paths.patch(
    "/{uuid}",
    response={200: OwnPathDetailOut, 422: Message},
    summary="Change a path: title, notes, pace, its link and whether it is published",
    description="Send only what changes. Publishing needs a `slug` no other path has.",
)
def own_path_update(request, uuid: UUID, change: OwnPathPatch):
    path = _own_path(request, uuid)
    fields = change.dict(exclude_unset=True)
    _own_write(path_services.own_path_update, path=path, **fields)
    return selectors.own_path_out(path, user=request.auth, steps=True)


@own_paths.delete("/{uuid}", response={204: None}, summary="Delete a path (progress is kept)")
def own_path_delete(request, uuid: UUID):
    path_services.own_path_delete(path=_own_path(request, uuid))
    return Status(204, None)


@own_paths.post(
    "/{uuid}/steps", response={201: OwnPathDetailOut, 422: Message}, summary="Add a step"
)
def own_step_create(request, uuid: UUID, data: OwnStepIn):
    path = _own_path(request, uuid)
    _own_write(path_services.own_step_add, path=path, **data.dict())
    return Status(201, selectors.own_path_out(path, user=request.auth, steps=True))


@own_paths.delete(
    "/{uuid}/steps/{step_uuid}", response={204: None}, summary="Remove a step and its items"
)
def own_step_delete(request, uuid: UUID, step_uuid: UUID):
    path = _own_path(request, uuid)
    path_services.own_step_remove(step=get_object_or_404(OwnStep, path=path, uuid=step_uuid))
    return Status(204, None)


@own_paths.post(
    "/{uuid}/items",
    response={201: OwnPathDetailOut, 404: Message, 422: Message},
    summary="Add a catalog resource or one of your own to a step",
    description="Send `resource` (a catalog resource's uuid) or `own_resource` (an id from "
    "/me/resources). Another learner's own resource is never found.",
)
def own_item_create(request, uuid: UUID, data: OwnItemIn):
    path = _own_path(request, uuid)
    if (data.resource is None) == (data.own_resource is None):
        raise HttpError(422, "Send one of `resource` or `own_resource`. Nothing was changed.")
    if data.own_resource is not None:
        data.resource = _own_row(request, data.own_resource).own.resource.uuid
    resource = addable_resource(user=request.auth, uuid=data.resource)
    if resource is None:
        raise HttpError(404, f"{NOT_ADDABLE} Nothing was changed.")
    step = get_object_or_404(OwnStep, path=path, uuid=data.step) if data.step else None
    _own_write(path_services.own_item_add, path=path, resource=resource, step=step)
    return Status(201, selectors.own_path_out(path, user=request.auth, steps=True))


@own_paths.delete("/{uuid}/items/{item_uuid}", response={204: None}, summary="Remove an item")
def own_item_delete(request, uuid: UUID, item_uuid: UUID):
    path = _own_path(request, uuid)
    path_services.own_item_remove(
        item=get_object_or_404(OwnStepItem, step__path=path, uuid=item_uuid)
    )
    return Status(204, None)


api.add_router("/", catalog)
api.add_router("/me/paths", own_paths)
api.add_router("/me", me)
api.add_router("/me/resources", own)
