"""Each memoized read of apps.catalog (selectors, search) and core's published_get names the
content tokens it is built from (apps.core.content): a write to another table leaves it in the
memo, a write to one of its own rebuilds it."""

import pytest

from apps.catalog import search, selectors
from apps.catalog.models import Entry, Guide, Resource, Section, Topic
from apps.core.content import content_token_names, published_get
from apps.paths.models import LearningPath
from tests.conftest import rebuilt_by
from tests.factories import ResourceLinkFactory
from tests.progress.conftest import catalog  # noqa: F401 - shared fixture

pytestmark = pytest.mark.django_db


def retitle(model, **lookup):
    def write():
        model.objects.filter(**lookup).update(title="Renamed <&>")

    return write


def writes(catalog):  # noqa: F811 - the fixture, by name
    guide, resource, topic = catalog["guide"], catalog["shared"], catalog["topic"]
    section = Section.objects.filter(guide=guide).first()
    return {
        "resource": retitle(Resource, pk=resource.pk),
        "guide title": retitle(Guide, pk=guide.pk),
        "guide description": lambda: Guide.objects.filter(pk=guide.pk).update(description="New"),
        "section": retitle(Section, pk=section.pk),
        "entry": lambda: Entry.objects.filter(resource=resource).update(note="A note"),
        "topic": retitle(Topic, pk=topic.pk),
        "resource's topics": lambda: topic.resources.add(catalog["resources"][1]),
        "link": lambda: ResourceLinkFactory(resource=resource),
        "path": lambda: LearningPath.objects.create(slug="new", title="A new path"),
    }


def reads(catalog):  # noqa: F811
    guide, resource = catalog["guide"], catalog["shared"]
    return {
        "visible-resources": selectors.visible_resources_by_id,
        "visible-resources-by-uuid": lambda: selectors.visible_resource(uuid=resource.uuid),
        "visible-url-keys": selectors.visible_url_keys,
        "placements": selectors.published_placements,
        "section-tree": selectors.visible_tree,
        ("guide-entries", guide.id): lambda: selectors.guide_entries(guide=guide),
        "guide-structure": selectors.guide_structure,
        "guides-top-sections": selectors.guides_with_top_sections,
        "search-vocabulary": lambda: search._nearest_python("atention"),
        "entries-added": selectors.entries_added,
        "first-added": selectors.first_added,
        "topic-membership": selectors.topic_membership,
        ("published", "catalog.Guide", "slug"): lambda: published_get(Guide, slug=guide.slug),
        ("published", "catalog.Topic", "slug"): lambda: published_get(Topic, slug="attention"),
    }


# Which writes rebuild each read; every other write in `writes` must not.
REBUILT_BY = {
    "visible-resources": {"resource", "entry", "section"},
    "visible-resources-by-uuid": {"resource", "entry", "section"},
    "visible-url-keys": {"resource", "entry", "section", "link"},
    "placements": {"resource", "entry", "section", "guide title", "guide description"},
    "section-tree": {"section", "guide title", "guide description"},
    ("guide-entries", "guide"): {"resource", "entry", "section"},
    "guide-structure": {"resource", "entry", "section"},
    "guides-top-sections": {"section", "guide title", "guide description"},
    "search-vocabulary": {"resource", "entry", "section"},
    "entries-added": {"resource", "entry", "section", "guide title", "guide description"},
    "first-added": {"resource", "entry", "section"},
    "topic-membership": {"resource", "entry", "section", "topic", "resource's topics"},
    ("published", "catalog.Guide", "slug"): {"guide title", "guide description"},
    ("published", "catalog.Topic", "slug"): {"topic"},
}
WRITES = [
    "resource",
    "guide title",
    "guide description",
    "section",
    "entry",
    "topic",
    "resource's topics",
    "link",
    "path",
]


@pytest.mark.parametrize("read", list(REBUILT_BY))
@pytest.mark.parametrize("write", WRITES)
def test_a_memoized_read_is_rebuilt_by_a_write_to_its_own_tables_only(
    catalog,  # noqa: F811
    memo_builds,
    read,
    write,
):
    key = ("guide-entries", catalog["guide"].id) if read == ("guide-entries", "guide") else read
    rebuilt = rebuilt_by(memo_builds, key, reads(catalog)[key], writes(catalog)[write])
    assert rebuilt == (write in REBUILT_BY[read]), (read, write)


def test_the_token_groups_name_real_tokens():
    names = set(content_token_names())
    for group in (selectors.VISIBLE, selectors.GUIDE_TREE, selectors.PLACED, selectors.TOPICS):
        assert set(group) <= names, group
