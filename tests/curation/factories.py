"""Catalog factories for the curation tests."""

import factory

from apps.catalog.models import Entry, Guide, Resource, ResourceLink, Section, Topic


class GuideFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Guide

    slug = factory.Sequence(lambda n: f"guide-{n}")
    title = factory.Sequence(lambda n: f"Guide {n}")
    position = factory.Sequence(lambda n: n + 1)


class SectionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Section

    guide = factory.SubFactory(GuideFactory)
    title = factory.Sequence(lambda n: f"Section {n}")
    position = factory.LazyAttribute(lambda o: o.guide.sections.count() + 1)


class TopicFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Topic

    slug = factory.Sequence(lambda n: f"topic-{n}")
    title = factory.Sequence(lambda n: f"Topic {n}")


class ResourceFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Resource

    title = factory.Sequence(lambda n: f"Resource {n}")
    url = factory.Sequence(lambda n: f"https://example.com/r/{n}")


class ResourceLinkFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ResourceLink

    resource = factory.SubFactory(ResourceFactory)
    url = factory.Sequence(lambda n: f"https://mirror.example.com/{n}")
    position = factory.Sequence(lambda n: n + 1)


class EntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Entry

    section = factory.SubFactory(SectionFactory)
    resource = factory.SubFactory(ResourceFactory)
    position = factory.LazyAttribute(lambda o: o.section.entries.count() + 1)
