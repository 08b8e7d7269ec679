"""Mail a request asks for is sent after its response, not while the visitor waits.

Sign-up must answer a known address and a new one alike, in the same time; talking to the mail
server inside the request (a second or more over SMTP) would tell them apart, and make every
visitor wait for it. So the account adapter (``adapters.AccountAdapter.send_mail``) renders a
message in the request and hands it to ``send_after_response``: it is queued for the request
this thread is serving and sent when Django signals the request finished (the WSGI server calls
the response's ``close()`` once the response is written). Outside a request (a management
command, the shell) a message is sent at once.

The site has no task queue yet; this is the smallest thing that keeps mail out of the response
time. A failure to send is logged (the response has gone: nobody is left to show an error to).
"""

import logging
import threading

from django.core.mail import EmailMessage
from django.core.signals import request_finished, request_started

logger = logging.getLogger(__name__)

_queue = threading.local()  # .messages: the list for the request this thread serves, or None


def send_after_response(message: EmailMessage) -> None:
    messages = getattr(_queue, "messages", None)
    if messages is None:
        message.send()
    else:
        messages.append(message)


def _request_started(**kwargs):
    _queue.messages = []


def _request_finished(**kwargs):
    messages, _queue.messages = getattr(_queue, "messages", None) or [], None
    for message in messages:
        try:
            message.send()
        except Exception:
            logger.exception("Could not send the mail %r to %s", message.subject, message.to)


def connect():
    """Called once, from the app's ready()."""
    request_started.connect(_request_started, dispatch_uid="accounts.mail.started")
    request_finished.connect(_request_finished, dispatch_uid="accounts.mail.finished")
