"""The suite's factories (tests/factories.py), with sections and entries numbered 1, 2, 3 … within
their guide and section, as a curator's page shows them: the ordering tests read those numbers."""

import factory

from tests import factories
from tests.factories import GuideFactory, ResourceFactory, ResourceLinkFactory, TopicFactory

__all__ = [
    "EntryFactory",
    "GuideFactory",
    "ResourceFactory",
    "ResourceLinkFactory",
    "SectionFactory",
    "TopicFactory",
]


class SectionFactory(factories.SectionFactory):
    position = factory.LazyAttribute(lambda o: o.guide.sections.count() + 1)


class EntryFactory(factories.EntryFactory):
    position = factory.LazyAttribute(lambda o: o.section.entries.count() + 1)
