"""HTML that encodes fast: pages are kept ASCII.

Python stores a string with one character beyond ASCII (a "—" in a title, a "↗" in a row) at two
or four bytes per character, and encoding such a string to UTF-8 converts every character: 0.28 ms
for a guide page of 290 KB, against 0.01 ms when it is all ASCII. So templates write characters
beyond ASCII as entities (&mdash;), and HTML rendered once and shared (apps.core.content) writes
the catalog's own text as character references. The browser shows the same text either way.
What a page renders per request (a guide's title in its heading, a path's next up) is small and
may still be beyond ASCII: such a page encodes at the slow rate, and is no less correct.
"""

from django.template.loader import render_to_string
from django.utils.safestring import SafeString


def as_ascii(html: str) -> SafeString:
    """`html` (already safe, and a str: never lazy) with every character beyond ASCII as a
    character reference. Called for every tick and bar, so SafeString rather than mark_safe, which
    first checks its argument for laziness."""
    if html.isascii():  # O(1) for CPython's compact strings
        return SafeString(html)
    return SafeString(html.encode("ascii", "xmlcharrefreplace").decode("ascii"))


def render_shared(template_name: str, context: dict) -> SafeString:
    """`render_to_string` without a request, as ASCII: for HTML rendered once and shared."""
    return as_ascii(render_to_string(template_name, context))
