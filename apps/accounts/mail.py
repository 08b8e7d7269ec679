"""Mail a request asks for is sent after its response, not while the visitor waits.

Sign-up must answer a known address and a new one alike, in the same time; talking to the mail
server inside the request (a second or more over SMTP) would tell them apart, and make every
visitor wait for it. So the account adapter (``adapters.AccountAdapter.send_mail``) renders a
message in the request and hands it to ``send_after_response``: it is queued for the request
this thread is serving and sent when Django signals the request finished (the WSGI server calls
the response's ``close()`` once the response is written). Outside a request (a management
command, the shell) a message is sent at once.

The site has no task queue yet; this is the smallest thing that keeps mail out of the response
time. A mail server that never answers holds the thread for EMAIL_TIMEOUT seconds, no longer.
A failure to send is never an error page (the response has gone): it is logged in one line
with the address redacted, recorded for the admin (``UndeliveredMail``), and the visitor's next
page (the "check your inbox" pages) says the mail did not leave and how to ask again.
"""

import email.policy
import logging
import threading

from django.core.cache import cache
from django.core.mail import EmailMessage
from django.core.mail.backends.console import EmailBackend as DjangoConsoleBackend
from django.core.signals import request_finished, request_started

logger = logging.getLogger(__name__)

_queue = threading.local()  # .messages: [(message, request)] for the request this thread serves

# How long the visitor's pages say their mail did not leave (seconds).
NOTICE_SECONDS = 10 * 60
_ASKED_SESSION_KEY = "accounts_mail_asked"
# Lines as long as SMTP allows: the console's copy of a mail shows each line whole, never
# quoted-printable's "=" breaks in the middle of a link.
_WIDE_LINES = email.policy.default.clone(max_line_length=998)


def send_after_response(message: EmailMessage, *, request=None) -> None:
    """Send ``message`` once the response to the current request has gone (at once outside
    one). ``request``: the visitor to tell, on their next page, if the mail could not be sent."""
    messages = getattr(_queue, "messages", None)
    if messages is None:
        message.send()
        return
    messages.append((message, request))
    session = getattr(request, "session", None)
    if session is not None and not session.session_key:
        # A visitor with no session yet (asking for a password reset) gets one, so the page
        # they are sent to next can be told their mail did not leave.
        session[_ASKED_SESSION_KEY] = True


def redact(address: str) -> str:
    """``ada@example.com`` → ``a***@example.com``: which mail failed, not whose it was."""
    local, at, domain = address.rpartition("@")
    return f"{local[:1]}***@{domain}" if at else "***"


def _notice_key(session_key: str) -> str:
    return f"accounts:undelivered:{session_key}"


def undelivered_to_visitor(request) -> bool:
    """Did a mail this visitor asked for fail to leave in the last few minutes?"""
    session_key = getattr(getattr(request, "session", None), "session_key", None)
    if not session_key:
        return False
    try:
        return bool(cache.get(_notice_key(session_key)))
    except Exception:  # a broken cache is the health check's to report, not this page's
        return False


def _send(message: EmailMessage, request) -> None:
    try:
        message.send()
    except Exception as exc:
        _record_failure(message, request, exc)


def _record_failure(message: EmailMessage, request, exc: Exception) -> None:
    from apps.accounts.models import UndeliveredMail

    reason = f"{exc.__class__.__name__}: {exc}"[:300]
    recipients = ", ".join(redact(address) for address in message.to)
    # One line: a mail server that is down must not fill the log with tracebacks.
    logger.error("Mail not sent to %s (%r): %s", recipients, message.subject, reason)
    try:
        for address in message.to:
            UndeliveredMail.objects.create(
                recipient=address, subject=message.subject, reason=reason
            )
        session_key = getattr(getattr(request, "session", None), "session_key", None)
        if session_key:
            cache.set(_notice_key(session_key), True, NOTICE_SECONDS)
    except Exception as record_exc:  # the database or cache is down too: the log line stays
        logger.error("Could not record the undelivered mail: %s", record_exc.__class__.__name__)


def _request_started(**kwargs):
    _queue.messages = []


def _request_finished(**kwargs):
    messages, _queue.messages = getattr(_queue, "messages", None) or [], None
    for message, request in messages:
        _send(message, request)


class ConsoleBackend(DjangoConsoleBackend):
    """Django's console backend (``EMAIL_URL=console://``), writing each line of a mail whole."""

    def write_message(self, message):
        msg = message.message(policy=_WIDE_LINES)
        self.stream.write(msg.as_bytes().decode("utf-8", errors="replace"))
        self.stream.write("\n" + "-" * 79 + "\n")


def connect():
    """Called once, from the app's ready()."""
    request_started.connect(_request_started, dispatch_uid="accounts.mail.started")
    request_finished.connect(_request_finished, dispatch_uid="accounts.mail.finished")
