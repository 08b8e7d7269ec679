import pytest

from apps.paths.models import LearningPath, PathStep, StepResource
from tests.progress.conftest import catalog  # noqa: F401 - shared fixture


@pytest.fixture
def learning_path(catalog):  # noqa: F811 - the fixture, by name
    """Two steps; the shared resource sits in both steps (and in both guides)."""
    path = LearningPath.objects.create(
        slug="kernels", title="Kernel development", guide=catalog["guide"]
    )
    first = PathStep.objects.create(path=path, position=1, title="Foundations", effort="2 weeks")
    second = PathStep.objects.create(path=path, position=2, title="Going deeper", phase="Phase 2")
    r = catalog["resources"]
    for position, resource in enumerate([r[0], catalog["shared"], r[1]], start=1):
        StepResource.objects.create(step=first, resource=resource, position=position)
    for position, resource in enumerate([catalog["shared"], r[3]], start=1):
        StepResource.objects.create(step=second, resource=resource, position=position)
    return path
