"""The learner pages' memoized parts (apps.learning: shared, widgets, views) name the content
tokens they are built from: a write to another table keeps them, one to their own rebuilds them."""

import pytest
from django.test import Client
from django.urls import reverse

from apps.catalog.models import Guide, Resource, Topic
from apps.learning import shared, widgets
from apps.paths.models import PathStep
from tests.conftest import rebuilt_by
from tests.factories import ResourceLinkFactory
from tests.paths.conftest import learning_path  # noqa: F401 - the two-step path over `catalog`
from tests.progress.conftest import catalog  # noqa: F401 - shared fixture

pytestmark = pytest.mark.django_db


def writes(catalog, path):  # noqa: F811
    guide, resource, topic = catalog["guide"], catalog["shared"], catalog["topic"]
    return {
        "resource": lambda: Resource.objects.filter(pk=resource.pk).update(title="Renamed <&>"),
        "guide title": lambda: Guide.objects.filter(pk=guide.pk).update(title="Renamed"),
        "guide description": lambda: Guide.objects.filter(pk=guide.pk).update(description="New"),
        "topic": lambda: Topic.objects.filter(pk=topic.pk).update(title="Renamed"),
        "resource's topics": lambda: topic.resources.add(catalog["resources"][1]),
        "link": lambda: ResourceLinkFactory(resource=resource),
        "step": lambda: PathStep.objects.filter(path=path).update(title="Renamed"),
    }


def reads(catalog, path):  # noqa: F811
    topic = catalog["topic"]
    topic_path = reverse("learning:topic-detail", args=[topic.slug])

    def get(url):
        return lambda: Client().get(url)

    return {
        ("topic-page", topic.id, topic_path, (), 1): lambda: shared.topic_rows(
            topic=topic, filters={}, path=topic_path, page_number=1
        ),
        "catalog-overview": shared.catalog_overview,
        ("html", "home"): get("/"),
        ("html", "topics"): get(reverse("learning:topic-list")),
        ("topic-resources", topic.id): lambda: widgets.topic_tally(topic=topic, statuses={}),
        "dashboard-bar-slots": widgets.dashboard_bar_slots,
        ("path-steps", path.id): get(path.get_absolute_url()),
        ("html", ("path-heading", path.id)): get(path.get_absolute_url()),
    }


EVERY_CATALOG_WRITE = {
    "resource",
    "guide title",
    "guide description",
    "topic",
    "resource's topics",
    "link",
}
REBUILT_BY = {
    "topic-page": EVERY_CATALOG_WRITE,  # its rows say which guides list them
    "catalog-overview": EVERY_CATALOG_WRITE - {"link"},
    "home": EVERY_CATALOG_WRITE - {"link"},
    "topics": {"resource", "topic", "resource's topics"},
    "topic-resources": {"resource", "topic", "resource's topics"},
    "dashboard-bar-slots": {"resource", "guide title", "guide description"},
    "path-steps": {"resource", "step"},
    "path-heading": {"resource", "step", "guide title"},  # "from <guide title>"
}


def name_of(key) -> str:
    if isinstance(key, str):
        return key
    if key[0] == "html":
        return key[1] if isinstance(key[1], str) else key[1][0]
    return key[0]


@pytest.mark.parametrize("read", list(REBUILT_BY))
@pytest.mark.parametrize(
    "write",
    ["resource", "guide title", "guide description", "topic", "resource's topics", "link", "step"],
)
def test_a_shared_part_is_rebuilt_by_a_write_to_its_own_tables_only(
    catalog,  # noqa: F811
    learning_path,  # noqa: F811
    memo_builds,
    read,
    write,
):
    [(key, read_it)] = [
        (key, found) for key, found in reads(catalog, learning_path).items() if name_of(key) == read
    ]
    rebuilt = rebuilt_by(memo_builds, key, read_it, writes(catalog, learning_path)[write])
    assert rebuilt == (write in REBUILT_BY[read]), (read, write)
