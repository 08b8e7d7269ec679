"""Database sessions that bring their user along (`SESSION_ENGINE`).

Every signed-in page needs its session and then its user: two round trips, each paying the ORM
more to build the lookup than the database to answer it. Here the session row (apps.accounts.
models.Session) carries the signed-in user's id, and one plain query reads both. The user found
is handed to authentication by apps.accounts.auth, which still checks it exactly as Django does
(active, session hash). Saving, expiry and clearing stay Django's.

The same query reads the content token (apps.core.content), so that a request with a session
cookie makes one round trip for all three: the content middleware calls `preload()` first thing.
"""

from functools import lru_cache

from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.db import connections, router
from django.utils import timezone

from apps.core.content import TOKEN_SQL, token_offer


class SessionStore(DatabaseSessionStore):
    _user = None

    @classmethod
    def get_model_class(cls):
        from apps.accounts.models import Session

        return Session

    @property
    def user(self):
        """The row of the user this session was saved for, read with it (None if there is none)."""
        self._get_session()  # loads, once
        return self._user

    def preload(self):
        """Load now, as the request's first query (see apps.core.content.ContentVersionMiddleware).
        Not an access: the response varies on the cookie only if the page reads the session."""
        if self.session_key is not None and not hasattr(self, "_session_cache"):
            self._session_cache = self.load()

    def create_model_instance(self, data):
        session = super().create_model_instance(data)
        try:
            session.user_id = int(data.get(SESSION_KEY))
        except (TypeError, ValueError):
            session.user_id = None
        return session

    def _get_session_from_db(self):
        user_model = get_user_model()
        fields = user_model._meta.concrete_fields
        connection = connections[router.db_for_read(self.model)]
        quote = connection.ops.quote_name
        with connection.cursor() as cursor:
            cursor.execute(  # one row, whether or not the session exists: the token is read either way
                f"SELECT ({TOKEN_SQL}), s.session_data, {', '.join('u.' + quote(field.column) for field in fields)} "
                f"FROM (SELECT 1 AS one) AS request "
                f"LEFT JOIN {quote(self.model._meta.db_table)} s ON s.session_key = %s AND s.expire_date > %s "
                f"LEFT JOIN {quote(user_model._meta.db_table)} u ON u.{quote(user_model._meta.pk.column)} = s.user_id",
                [self.session_key, connection.ops.adapt_datetimefield_value(timezone.now())],
            )
            token, session_data, *user_values = cursor.fetchone()
        token_offer(token)
        if session_data is None:
            self._session_key = None
            return None
        self._user = _user_from_row(user_model, fields, user_values, connection)
        return self.model(session_key=self.session_key, session_data=session_data)


def _user_from_row(user_model, fields, values, connection):
    """A user instance from its columns, converted as the ORM converts them (None if NULL)."""
    if values[fields.index(user_model._meta.pk)] is None:
        return None
    if _needs_converters(user_model, connection.alias):
        compiler, converters = _converters(user_model, fields, connection)
        values = next(iter(compiler.apply_converters([values], converters)))
    return user_model.from_db(connection.alias, [field.attname for field in fields], values)


def _converters(user_model, fields, connection):
    compiler = user_model._default_manager.none().query.get_compiler(connection=connection)
    return compiler, compiler.get_converters([field.get_col(user_model._meta.db_table) for field in fields])


@lru_cache(maxsize=8)
def _needs_converters(user_model, alias) -> bool:
    """Whether the database gives some of the user's columns as other than Python values (SQLite's
    booleans and datetimes do; PostgreSQL's driver converts them all). Asked once: the compiler
    costs more than the rest of the session read."""
    connection = connections[alias]
    return bool(_converters(user_model, user_model._meta.concrete_fields, connection)[1])
