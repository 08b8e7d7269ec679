"""A path's memoized reads (apps.paths.selectors) name the content tokens they are built from: a
topic's or a guide description's change keeps them, a path's, a resource's or (for what shows the
guide's title) the guide's title rebuilds them."""

import pytest

from apps.catalog.models import Guide, Resource, Topic
from apps.core.content import content_token_names
from apps.paths import selectors
from apps.paths.models import PathStep, StepResource
from tests.conftest import rebuilt_by
from tests.factories import ResourceLinkFactory

pytestmark = pytest.mark.django_db


def writes(catalog, learning_path):
    guide, resource = catalog["guide"], catalog["shared"]
    return {
        "step": lambda: PathStep.objects.filter(path=learning_path).update(title="Renamed"),
        "step resource": lambda: StepResource.objects.filter(resource=resource).delete(),
        "resource": lambda: Resource.objects.filter(pk=resource.pk).update(title="Renamed"),
        "guide title": lambda: Guide.objects.filter(pk=guide.pk).update(title="Renamed"),
        "guide description": lambda: Guide.objects.filter(pk=guide.pk).update(description="New"),
        "topic": lambda: Topic.objects.update(title="Renamed"),
        "link": lambda: ResourceLinkFactory(resource=resource),
    }


REBUILT_BY = {
    "paths": {"step", "step resource", "resource", "guide title"},
    "path-plan": {"step", "step resource", "resource"},
}


@pytest.mark.parametrize("read", list(REBUILT_BY))
@pytest.mark.parametrize(
    "write",
    ["step", "step resource", "resource", "guide title", "guide description", "topic", "link"],
)
def test_a_paths_memoized_read_is_rebuilt_by_a_write_to_its_own_tables_only(
    catalog, learning_path, memo_builds, read, write
):
    def read_it():
        path = selectors.published_path(slug=learning_path.slug)
        if read == "path-plan":
            selectors._plan(path)

    key = ("path-plan", learning_path.id) if read == "path-plan" else read
    rebuilt = rebuilt_by(memo_builds, key, read_it, writes(catalog, learning_path)[write])
    assert rebuilt == (write in REBUILT_BY[read]), (read, write)


def test_the_path_tokens_are_real_tokens():
    assert set(selectors.path_titled_tokens()) <= set(content_token_names())
