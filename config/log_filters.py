"""Logging pieces named by settings.LOGGING."""

import logging


class NoTraceback(logging.Filter):
    """Drops a record's traceback, keeping its one-line message (e.g. the rejected Host header)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.exc_info = None
        record.exc_text = None
        record.stack_info = None
        return True
