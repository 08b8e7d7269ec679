"""Logging pieces named by settings.LOGGING."""

import logging
import threading
import time


class NoTraceback(logging.Filter):
    """Drops a record's traceback, keeping its one-line message (e.g. the rejected Host header)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.exc_info = None
        record.exc_text = None
        record.stack_info = None
        return True


# What a dead database or cache raises on every request (not a bug in a page): psycopg's and
# Django's connection errors, redis-py's, and the OS's refused or timed-out connections.
_OUTAGE_NAMES = frozenset(
    {
        "OperationalError",
        "InterfaceError",
        "ConnectionError",
        "TimeoutError",
        "ConnectionRefusedError",
    }
)


def _outage_kind(exc: BaseException | None) -> str:
    """The outage's name when ``exc`` (or what caused it) is a lost connection, else ""."""
    seen = 0
    while exc is not None and seen < 5:
        if type(exc).__name__ in _OUTAGE_NAMES:
            return type(exc).__name__
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return ""


class OncePerKind(logging.Filter):
    """An outage logs one line a minute per kind, not a traceback per request.

    A record qualifies when it carries a ``kind`` (the health check's) or a traceback from a lost
    connection (``django.request``'s 500s while the database is down); any other record, a bug's
    traceback included, passes untouched. A qualifying record loses its traceback, gains the
    error's one-line summary, and is dropped if the same kind was logged in the last
    ``interval`` seconds; the next one says how many were left out.
    """

    def __init__(self, interval: float = 60.0):
        super().__init__()
        self.interval = interval
        self._last: dict[str, float] = {}
        self._left_out: dict[str, int] = {}
        self._lock = threading.Lock()

    def forget(self) -> None:
        """Log the next of every kind again (the tests start each from a clean slate)."""
        with self._lock:
            self._last.clear()
            self._left_out.clear()

    def filter(self, record: logging.LogRecord) -> bool:
        kind = getattr(record, "kind", "")
        exc = record.exc_info[1] if record.exc_info else None
        if not kind:
            kind = _outage_kind(exc)
            if not kind:
                return True
        now = time.monotonic()
        key = f"{record.name}:{kind}"
        with self._lock:
            last = self._last.get(key)
            if last is not None and now - last < self.interval:
                self._left_out[key] = self._left_out.get(key, 0) + 1
                return False
            self._last[key] = now
            left_out = self._left_out.pop(key, 0)
        message = record.getMessage()
        if exc is not None:
            message += f" ({type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''})"
        if left_out:
            message += f" [{left_out} more like this in the last minutes, not logged]"
        record.msg, record.args = message, None
        record.exc_info = None
        record.exc_text = None
        record.stack_info = None
        return True
