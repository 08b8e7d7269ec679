from django.conf import settings
from django.contrib.sessions.base_session import AbstractBaseSession
from django.db import models


class Session(AbstractBaseSession):
    """Django's database session, plus the id of the user signed in with it: a request reads
    its session and its user in one query (apps.accounts.sessions). Deleting a user deletes
    their sessions in the database."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.DB_CASCADE, related_name="+"
    )

    class Meta(AbstractBaseSession.Meta):
        db_table = "accounts_session"

    @classmethod
    def get_session_store_class(cls):
        from apps.accounts.sessions import SessionStore

        return SessionStore
