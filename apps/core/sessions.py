"""Django's database sessions, loaded with one plain query (`SESSION_ENGINE`)."""

from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.db import connections, router
from django.utils import timezone


class SessionStore(DatabaseSessionStore):
    """Every signed-in page loads its session first, and the ORM spends longer building that
    lookup than the database spends answering it. Saving, expiry and clearing stay Django's."""

    def _get_session_from_db(self):
        connection = connections[router.db_for_read(self.model)]
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT session_data FROM {connection.ops.quote_name(self.model._meta.db_table)} "
                "WHERE session_key = %s AND expire_date > %s",
                [self.session_key, connection.ops.adapt_datetimefield_value(timezone.now())],
            )
            row = cursor.fetchone()
        if row is None:
            self._session_key = None
            return None
        return self.model(session_key=self.session_key, session_data=row[0])
