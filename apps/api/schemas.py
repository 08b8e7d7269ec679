"""What the API sends and accepts: typed, and the OpenAPI schema is built from these.

Catalog objects are named by their uuid or slug, never an auto id; `page` is the object's page
on the site (a path: prefix it with the site's address).
"""

from datetime import date, datetime
from typing import Literal
from uuid import UUID

from ninja import Field, Schema

from apps.api.selectors import guide_slugs_of
from apps.core.reversing import reverse_cached
from apps.progress.forms import NoteForm
from apps.progress.models import Status
from apps.progress.services import UNDONE

NOTE_MAX_LENGTH = NoteForm.base_fields["note"].max_length

StatusName = Literal["not_started", "in_progress", "done", "skipped"]
assert set(StatusName.__args__) == set(Status.values)  # the one list of statuses: the model's
# What a write may ask: a status, or the tick's "not done" (apps.progress.services.UNDONE).
StatusWanted = Literal["not_started", "in_progress", "done", "skipped", "undone"]
assert set(StatusWanted.__args__) == {*Status.values, UNDONE}


class Message(Schema):
    detail: str = Field(description="What went wrong, in a sentence; nothing was changed.")


class GuideOut(Schema):
    uuid: UUID
    slug: str
    title: str
    description: str
    source_name: str
    source_url: str
    section_count: int = Field(description="Visible sections.")
    resource_count: int = Field(description="Visible resources, each counted once.")
    page: str


class ResourceBrief(Schema):
    uuid: UUID
    title: str
    url: str = Field(description="Empty for a resource without a link (a concept, a book).")
    kind: str
    author: str
    year: int | None = Field(description="The year it appeared, when known.")
    page: str

    @staticmethod
    def resolve_page(resource) -> str:
        own_pk = getattr(resource, "own_pk", None)  # a learner's own (apps.paths.selectors)
        if own_pk:
            return f"{reverse_cached('learning:own-list')}#own-{own_pk}"
        return resource.get_absolute_url()


class LinkOut(Schema):
    url: str
    label: str


class ResourceOut(ResourceBrief):
    description: str
    effort_minutes: int | None
    links: list[LinkOut] = Field(description="Extra links: a paper's code, a mirror, slides.")
    topics: list[str] = Field(description="Slugs of its published topics.")
    guides: list[str] = Field(description="Slugs of the published guides that list it.")

    @staticmethod
    def resolve_links(resource):
        return resource.links.all()  # prefetched (apps.api.selectors.with_details)

    @staticmethod
    def resolve_topics(resource) -> list[str]:
        return [topic.slug for topic in resource.published_topics]

    @staticmethod
    def resolve_guides(resource) -> list[str]:
        return guide_slugs_of(resource)


class EntryOut(Schema):
    uuid: UUID
    position: int
    tier: int | None = Field(description="Its own tier, else its headings'.")
    priority: str = Field(description='"must", "maybe" or "": its own, else its headings\'.')
    rating: float | None
    note: str = Field(description="The guide's own words about it.")
    resource: ResourceBrief


class SectionOut(Schema):
    uuid: UUID
    parent: UUID | None
    depth: int
    number: str
    title: str
    description: str
    tier: int | None
    priority: str
    phase: str
    effort: str
    entries: list[EntryOut]


class TopicOut(Schema):
    uuid: UUID
    slug: str
    title: str
    description: str
    resource_count: int
    page: str


class StepOut(Schema):
    uuid: UUID
    position: int
    title: str
    phase: str
    effort: str
    hours: float = Field(description="The step's estimate, else its resources' own.")
    description: str
    resources: list[ResourceBrief]


class PathOut(Schema):
    uuid: UUID
    slug: str
    title: str
    description: str
    guide: str | None = Field(description="Slug of the guide the path reads, if one.")
    step_count: int
    resource_count: int
    hours: int
    page: str


class PathDetailOut(PathOut):
    steps: list[StepOut]


class ProgressOut(Schema):
    resource: ResourceBrief
    status: StatusName
    note: str
    started_at: datetime | None
    completed_at: datetime | None
    updated_at: datetime | None = Field(description="None when nothing is recorded.")


class ProgressIn(Schema):
    """What to change; what is left out stays as it is."""

    status: StatusWanted | None = Field(
        None,
        description='The status you want (not a toggle); "undone" is the tick\'s "not done": '
        "back to in progress if it was started before it was done, else not started.",
    )
    note: str | None = Field(
        None, max_length=NOTE_MAX_LENGTH, description="Your private note; empty removes it."
    )


class NoteOut(Schema):
    resource: ResourceBrief
    status: StatusName
    note: str
    updated_at: datetime


class MeOut(Schema):
    email: str
    token: str | None = Field(description="The name of the token this request came with.")


KindName = str  # one of apps.catalog.models.Kind's values; checked by the router


class OwnOut(Schema):
    id: int
    url: str
    title: str
    kind: str
    author: str
    status: StatusName
    note: str
    started_at: datetime | None
    completed_at: datetime | None
    suggestion: str = Field(description='"", "pending", "accepted" or "dismissed".')
    suggestion_outcome: str
    catalog: UUID | None = Field(
        description="The catalog resource this link has become (your progress is on it), if any."
    )
    created_at: datetime


class OwnIn(Schema):
    url: str = Field(max_length=2000)
    title: str = Field(
        "", max_length=300, description="Empty: a guess from the URL, then the page's own title."
    )
    kind: str = Field("", description="Empty: a guess from the URL.")
    author: str = Field("", max_length=300)
    note: str | None = Field(None, max_length=NOTE_MAX_LENGTH)
    status: StatusName | None = None


class OwnChange(Schema):
    """What to change; what is left out stays as it is."""

    title: str | None = Field(None, max_length=300)
    kind: str | None = None
    author: str | None = Field(None, max_length=300)
    note: str | None = Field(None, max_length=NOTE_MAX_LENGTH)
    status: StatusWanted | None = None


class OwnItemOut(Schema):
    uuid: UUID = Field(description="The item's key: remove it with DELETE …/items/{uuid}.")
    status: StatusName
    resource: ResourceBrief = Field(
        description="One of your own resources is named as you named it; its page is your list's."
    )
    own_resource: int | None = Field(
        description="Its id in /me/resources when it is one of your own resources (only you see "
        "those in your paths), else null."
    )


class OwnStepOut(Schema):
    uuid: UUID
    position: int
    title: str
    effort_hours: int | None = Field(description="Your estimate, if you gave one.")
    hours: float = Field(description="Your estimate, else the resources' own.")
    items: list[OwnItemOut]


class OwnPathOut(Schema):
    uuid: UUID
    title: str
    description: str
    notes: str = Field(description="Yours only: never on the published page or in a copy.")
    slug: str | None
    published: bool
    hours_per_week: int | None
    page: str = Field(description="Your page of it (its published page is /p/{slug}/).")


class OwnPathDetailOut(OwnPathOut):
    resource_count: int
    done: int
    hours: int
    next_up: UUID | None = Field(description="The resource next up, if any is left.")
    steps: list[OwnStepOut]


class OwnPathIn(Schema):
    title: str = Field(max_length=200)
    description: str = ""
    notes: str = ""


class OwnPathPatch(Schema):
    title: str | None = Field(None, max_length=200)
    description: str | None = None
    notes: str | None = None
    hours_per_week: int | None = Field(None, ge=1, le=168)
    slug: str | None = Field(None, max_length=100)
    published: bool | None = None


class OwnStepIn(Schema):
    title: str = Field(max_length=300)
    effort_hours: int | None = Field(None, ge=1, le=10000)


class OwnItemIn(Schema):
    """Send `resource` (a catalog resource's uuid, or one of your own resources') or `own_resource`
    (an id from /me/resources), one of them."""

    resource: UUID | None = Field(
        None, description="A catalog resource's uuid, or the uuid of one of your own resources."
    )
    own_resource: int | None = Field(
        None, description="One of your own resources, by its id in /me/resources."
    )
    step: UUID | None = Field(None, description="Which step; else the last (a first is made).")


class NextUpStepOut(Schema):
    uuid: UUID
    position: int
    title: str


class NextUpOut(Schema):
    resource: UUID = Field(description="The resource's uuid (set its status under /me/progress).")
    title: str = Field(description="One of your own resources is named as you named it.")
    url: str = Field(description="Its link; empty for a resource without one (a concept, a book).")
    page: str = Field(description="Its page on the site (one of your own: your list's).")
    own_resource: int | None = Field(
        description="Its id in /me/resources when it is one of your own resources, else null."
    )
    step: NextUpStepOut

    @staticmethod
    def resolve_page(next_up) -> str:
        return ResourceBrief.resolve_page(next_up["resource_object"])

    @staticmethod
    def resolve_own_resource(next_up) -> int | None:
        return getattr(next_up["resource_object"], "own_pk", None)


class PaceOut(Schema):
    hours_per_week: int
    standing: Literal["on_track", "ahead", "behind"] = Field(
        description="Against the hours per week since you started the path."
    )
    gap_hours: float = Field(description="How far ahead or behind, in hours (0 on track).")
    projected_finish: date = Field(description="When you finish at this pace.")


class PathProgressOut(Schema):
    kind: Literal["curated", "own"]
    uuid: UUID
    slug: str | None = Field(
        description="A curated path's slug; an own path's link, if it has one."
    )
    title: str
    page: str
    followed: bool = Field(description="You follow it (an own path: always, by owning it).")
    followed_at: datetime | None = Field(description="Since when (an own path: since it was made).")
    total: int = Field(description="Resources on the path.")
    done: int
    skipped: int
    in_progress: int
    countable: int = Field(description="`total` less `skipped`: what the bar counts `done` of.")
    percent: int
    complete: bool
    minutes_done: int = Field(description="The estimated minutes of what you finished.")
    minutes_total: int = Field(description="The path's estimated minutes.")
    next_up: NextUpOut | None = Field(description="The first resource not done or skipped.")
    pace: PaceOut | None = Field(description="Only with hours per week set.")
