"""`sentence_case`: allauth's pages speak in Title Case ("Reset My Password"); the site writes
sentence case ("Reset my password"). Our allauth elements and layout (templates/allauth/) pass
their headings, buttons, labels and page titles through it, so every allauth page we expose reads
like the rest of the site without copying each of its templates."""

import re

from django import template
from django.conf import settings

register = template.Library()

_TAG = re.compile(r"(<[^>]*>)")
_FIRST_WORD = re.compile(r"[^\W\d_]+")
_TITLE_WORD = re.compile(r"\b([A-Z])([a-z]+)\b")  # "Password"; not "GitHub", "ID" or "I"


@register.filter(is_safe=True)
def sentence_case(text):
    """Every capitalized word after the first lowercased, outside HTML tags; names that are
    written so (the site's name) stay."""
    keep = set(settings.SITE_NAME.split())
    seen_first = False
    parts = []
    for part in _TAG.split(str(text)):
        if part.startswith("<"):
            parts.append(part)
            continue
        start = 0
        if not seen_first and (first := _FIRST_WORD.search(part)):
            seen_first, start = True, first.end()
        elif not seen_first:
            parts.append(part)
            continue
        rest = _TITLE_WORD.sub(
            lambda m: m.group(0) if m.group(0) in keep else m.group(0).lower(), part[start:]
        )
        parts.append(part[:start] + rest)
    return "".join(parts)
