"""Users as allauth sees them: a user plus their (verified, primary) EmailAddress row."""

import factory
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model

PASSWORD = "correct horse battery staple"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"learner{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.com")
    password = factory.django.Password(PASSWORD)
    email_address = factory.RelatedFactory(
        "tests.accounts.factories.EmailAddressFactory",
        "user",
        email=factory.SelfAttribute("..email"),
    )


class EmailAddressFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = EmailAddress

    user = factory.SubFactory(UserFactory, email_address=None)
    email = factory.LazyAttribute(lambda address: address.user.email)
    verified = True
    primary = True
