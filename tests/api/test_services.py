"""Personal tokens' writes and the one check a request's token goes through (apps.api.services)."""

import hashlib

import pytest

from apps.api.models import ApiToken
from apps.api.services import TokenError, token_authenticate, token_create, token_revoke

pytestmark = pytest.mark.django_db


def test_a_token_is_high_entropy_prefixed_and_only_its_digest_is_kept(learner):
    token, secret = token_create(user=learner, name="  cli  ")
    assert token.name == "cli"
    assert secret.startswith("syl_") and len(secret) == 4 + 43  # 32 random bytes
    assert token.prefix == secret[:12]
    assert token.digest == hashlib.sha256(secret.encode()).hexdigest()
    assert token_authenticate(secret=secret).user == learner
    assert token_create(user=learner, name="cli 2")[1] != secret


def test_only_the_exact_token_finds_its_learner(learner):
    _, secret = token_create(user=learner, name="cli")
    for wrong in (
        secret[:-1],
        secret + "x",
        secret.upper(),
        secret.removeprefix("syl_"),
        "",
        "syl_",
    ):
        assert token_authenticate(secret=wrong) is None


def test_a_name_is_needed_and_unique_per_learner(learner, other_learner):
    token_create(user=learner, name="cli")
    with pytest.raises(TokenError, match="already have a token named “cli”"):
        token_create(user=learner, name="cli")
    with pytest.raises(TokenError, match="Give the token a name"):
        token_create(user=learner, name="   ")
    token_create(user=other_learner, name="cli")
    assert ApiToken.objects.count() == 2


def test_revoking_anothers_token_is_refused(learner, other_learner):
    theirs, secret = token_create(user=other_learner, name="cli")
    with pytest.raises(ApiToken.DoesNotExist):
        token_revoke(user=learner, uuid=theirs.uuid)
    assert token_authenticate(secret=secret).user == other_learner
    token_revoke(user=other_learner, uuid=theirs.uuid)
    assert token_authenticate(secret=secret) is None
