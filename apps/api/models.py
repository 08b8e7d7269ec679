"""A learner's named personal tokens for the API (`/api/v1/`).

A token is shown once, when it is made; only its SHA-256 digest is kept, with a short visible
prefix so that the learner can tell their tokens apart. Revoking deletes the row: nothing that
could still authenticate is left behind. The token is the API's own way in, so it lives with the
API (apps.api), not with the account: deleting the account deletes its tokens (CASCADE).
"""

import uuid

from django.conf import settings
from django.db import models


class ApiToken(models.Model):
    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=80)
    # The token's first characters ("syl_" and 8 more), shown in the list to tell tokens apart.
    prefix = models.CharField(max_length=12)
    # hex SHA-256 of the whole token: what a request's token is looked up by.
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Written at most once a minute per token (services.TOKEN_TOUCH_EVERY), not on every request.
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "name"],
                name="api_token_name_unique_per_user",
                violation_error_message="You already have a token with this name.",
            )
        ]

    def __str__(self):
        return f"{self.name} ({self.prefix}…)"
