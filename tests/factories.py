"""factory-boy factories for the whole test suite: users and catalog objects.

A user is one as allauth sees them after sign-up: with a verified, primary EmailAddress row
(``email_address=None`` for one without). Every catalog factory makes a published object; pass
``is_published=False`` for the one that must stay hidden. A section made with a ``parent`` lands
in the parent's guide, one level deeper. The personas built from these (a learner, another
learner, a curator, a visitor) are fixtures in tests/conftest.py.
"""

import factory
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model

from apps.catalog.models import Entry, Guide, Kind, Resource, ResourceLink, Section, Topic

PASSWORD = "correct horse battery staple"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"learner{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.com")
    password = factory.django.Password(PASSWORD)
    email_address = factory.RelatedFactory(
        "tests.factories.EmailAddressFactory",
        "user",
        email=factory.SelfAttribute("..email"),
    )


class EmailAddressFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = EmailAddress
        django_get_or_create = ("user", "email")

    user = factory.SubFactory(UserFactory, email_address=None)
    email = factory.LazyAttribute(lambda address: address.user.email)
    verified = True
    primary = True


def make_user(email, **extra):
    """A user named by their address, with no EmailAddress row (as ``create_user`` makes one)."""
    return UserFactory(username=email, email=email, email_address=None, **extra)


class TopicFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Topic

    title = factory.Sequence(lambda n: f"Topic {n}")
    slug = factory.Sequence(lambda n: f"topic-{n}")
    position = factory.Sequence(lambda n: n)


class GuideFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Guide

    title = factory.Sequence(lambda n: f"Guide {n}")
    slug = factory.Sequence(lambda n: f"guide-{n}")
    description = "A curated reading list."
    position = factory.Sequence(lambda n: n)


class SectionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Section

    parent = None
    guide = factory.Maybe(
        "parent",
        yes_declaration=factory.SelfAttribute("parent.guide"),
        no_declaration=factory.SubFactory(GuideFactory),
    )
    title = factory.Sequence(lambda n: f"Section {n}")
    position = factory.Sequence(lambda n: n)
    depth = factory.Maybe(
        "parent",
        yes_declaration=factory.LazyAttribute(lambda s: s.parent.depth + 1),
        no_declaration=0,
    )


class ResourceFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Resource
        skip_postgeneration_save = True

    title = factory.Sequence(lambda n: f"Resource {n}")
    url = factory.Sequence(lambda n: f"https://example.com/resources/{n}")
    kind = Kind.ARTICLE
    author = "Ada Lovelace"
    description = "What it covers and why it matters."

    @factory.post_generation
    def topics(self, create, extracted, **kwargs):
        """``ResourceFactory(topics=[topic, …])`` files the resource under those topics."""
        if create and extracted:
            self.topics.add(*extracted)


class ResourceLinkFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ResourceLink

    resource = factory.SubFactory(ResourceFactory)
    url = factory.Sequence(lambda n: f"https://example.org/more/{n}")
    label = factory.Sequence(lambda n: f"Further link {n}")
    position = factory.Sequence(lambda n: n)


class EntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Entry

    section = factory.SubFactory(SectionFactory)
    resource = factory.SubFactory(ResourceFactory)
    position = factory.Sequence(lambda n: n)


class NumberedSectionFactory(SectionFactory):
    """Sections numbered 1, 2, 3 … within their guide, as a curator's page shows them."""

    position = factory.LazyAttribute(lambda o: o.guide.sections.count() + 1)


class NumberedEntryFactory(EntryFactory):
    """Entries numbered 1, 2, 3 … within their section, as a curator's page shows them."""

    position = factory.LazyAttribute(lambda o: o.section.entries.count() + 1)


def listed_resource(**kwargs) -> Resource:
    """A resource listed in a published guide (a published entry in a published section), so
    learners may see it: a resource in no guide is hidden (apps.catalog.selectors.visible_resources)."""
    return EntryFactory(resource=ResourceFactory(**kwargs)).resource
