"""Every mail the site sends is a job: written in the request, sent by a worker.

``JobBackend`` is the site's EMAIL_BACKEND, so allauth's mails (sign-up confirmation, "someone
tried to sign up", password reset) and any ``send_mail``/``EmailMessage.send()`` go through it.
It serialises each message into a ``mail_send`` job (apps.core.tasks), enqueued once the request's
transaction commits; the job hands it to EMAIL_DELIVERY_BACKEND (SMTP, or the console, from
EMAIL_URL). Talking to the mail server never happens in the request, so a sign-up with a known
address and one with a new address do the same work in the same time, and a mail server that is
down or slow costs the visitor nothing: the job fails, is retried with backoff
(apps.core.jobs), and each failure is listed in the admin (Jobs → Job failures).
"""

import email.policy
from functools import partial

from django.conf import settings
from django.core.mail import EmailMessage, EmailMultiAlternatives
from django.core.mail.backends.base import BaseEmailBackend
from django.core.mail.backends.console import EmailBackend as DjangoConsoleBackend
from django.db import transaction
from django.utils.module_loading import import_string

# Lines as long as SMTP allows: the console's copy of a mail shows each line whole, never
# quoted-printable's "=" breaks in the middle of a link.
_WIDE_LINES = email.policy.default.clone(max_line_length=998)


def message_data(message: EmailMessage) -> dict:
    """What a job needs to send ``message`` again, as JSON."""
    if message.attachments:
        raise ValueError("A mail sent as a job cannot carry attachments.")
    return {
        "subject": str(message.subject),
        "body": str(message.body),
        "from_email": str(message.from_email),
        "to": list(message.to),
        "cc": list(message.cc),
        "bcc": list(message.bcc),
        "reply_to": list(message.reply_to),
        "headers": dict(message.extra_headers),
        "content_subtype": message.content_subtype,
        "alternatives": [
            [str(content), mimetype] for content, mimetype in getattr(message, "alternatives", [])
        ],
    }


def message_from_data(data: dict) -> EmailMessage:
    message = EmailMultiAlternatives(
        subject=data["subject"],
        body=data["body"],
        from_email=data["from_email"],
        to=data["to"],
        cc=data["cc"],
        bcc=data["bcc"],
        reply_to=data["reply_to"],
        headers=data["headers"],
    )
    message.content_subtype = data["content_subtype"]
    for content, mimetype in data["alternatives"]:
        message.attach_alternative(content, mimetype)
    return message


def deliver(data: dict) -> int:
    """Send one serialised mail through EMAIL_DELIVERY_BACKEND; raises when it does not leave."""
    backend = import_string(settings.EMAIL_DELIVERY_BACKEND)()  # raises when it cannot send
    return backend.send_messages([message_from_data(data)])


class JobBackend(BaseEmailBackend):
    """EMAIL_BACKEND: each message becomes a ``mail_send`` job, enqueued on commit."""

    def send_messages(self, email_messages):
        from apps.core.tasks import mail_send

        count = 0
        for message in email_messages:
            if not message.recipients():
                continue
            transaction.on_commit(partial(mail_send.enqueue, message_data(message)))
            count += 1
        return count


class ConsoleBackend(DjangoConsoleBackend):
    """Django's console backend (``EMAIL_URL=console://``), writing each line of a mail whole."""

    def write_message(self, message):
        msg = message.message(policy=_WIDE_LINES)
        self.stream.write(msg.as_bytes().decode("utf-8", errors="replace"))
        self.stream.write("\n" + "-" * 79 + "\n")
