"""`{% undelivered_mail_notice "…" %}`: on the "check your inbox" pages, says so when the mail
this visitor just asked for could not be sent (apps.accounts.mail), and how to ask again."""

from django import template

from apps.accounts.mail import undelivered_to_visitor

register = template.Library()


@register.inclusion_tag("accounts/includes/undelivered_mail.html", takes_context=True)
def undelivered_mail_notice(context, ask_again):
    request = context.get("request")
    return {
        "undelivered": request is not None and undelivered_to_visitor(request),
        "ask_again": ask_again,
    }
