"""The progress tests' catalog: two guides sharing a resource, and a topic."""

import pytest

from apps.catalog.models import Entry, Guide, Resource, Section, Topic


def build_guide(slug, n_sections=2, per_section=3, shared=()):
    """A guide with nested sections: each top section has one child section holding entries."""
    guide = Guide.objects.create(slug=slug, title=slug.title(), position=Guide.objects.count() + 1)
    resources = []
    position = 0
    for s in range(n_sections):
        position += 1
        top = Section.objects.create(guide=guide, title=f"{slug} part {s}", position=position)
        position += 1
        child = Section.objects.create(
            guide=guide,
            parent=top,
            title=f"{slug} part {s} tier 1",
            position=position,
            depth=1,
            tier=1,
        )
        for i in range(per_section):
            resource = Resource.objects.create(
                title=f"{slug} {s}.{i}", url=f"https://example.com/{slug}/{s}/{i}"
            )
            resources.append(resource)
            Entry.objects.create(
                section=child,
                resource=resource,
                position=i + 1,
                raw=f"- [ ] [{resource.title}]({resource.url})",
            )
        for j, resource in enumerate(shared):
            Entry.objects.create(section=child, resource=resource, position=per_section + j + 1)
    return guide, resources


@pytest.fixture
def catalog(db):
    shared = Resource.objects.create(title="Shared resource", url="https://example.com/shared")
    guide, resources = build_guide("alpha", shared=[shared])
    other_guide, other_resources = build_guide("beta", n_sections=1, shared=[shared])
    topic = Topic.objects.create(slug="attention", title="Attention")
    topic.resources.add(shared, resources[0])
    return {
        "guide": guide,
        "resources": resources,
        "shared": shared,
        "other_guide": other_guide,
        "other_resources": other_resources,
        "topic": topic,
    }


@pytest.fixture(autouse=True)
def _no_rate_limit_history():
    """Each test starts with no import counted against its learners (the limit lives in the
    cache, and a rolled-back test's user id comes back in the next one)."""
    from django.core.cache import cache

    cache.clear()
