"""A web page's own title, read from its HTML: ``og:title``, else ``<title>``, without the site's
name. The link checker's title suggestions and a learner's own resources read titles with it."""

import re
from html.parser import HTMLParser
from urllib.parse import urlsplit

from apps.catalog.importer.urls import bare_host


class _TitleParser(HTMLParser):
    """Collects ``<meta property="og:title">`` and the first ``<title>``'s text (entities decoded)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.og_title = ""
        self.title: list[str] = []
        self._in_title = False
        self._title_done = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "meta" and not self.og_title:
            name = (attrs.get("property") or attrs.get("name") or "").lower()
            if name == "og:title":
                self.og_title = attrs.get("content") or ""
        elif tag == "title" and not self._title_done:
            self._in_title = True

    def handle_endtag(self, tag):
        if tag == "title" and self._in_title:
            self._in_title, self._title_done = False, True

    def handle_data(self, data):
        if self._in_title:
            self.title.append(data)


def page_title(html: str) -> str:
    """A page's ``og:title`` (the one meant for sharing, usually without the site's name), else
    its ``<title>``, whitespace collapsed; "" when it has neither."""
    parser = _TitleParser()
    try:
        parser.feed(html)
        parser.close()
    except AssertionError:  # pragma: no cover - html.parser on hopeless markup
        pass
    for candidate in (parser.og_title, "".join(parser.title)):
        if text := " ".join(candidate.split()):
            return text
    return ""


_TITLE_SEPARATOR = re.compile(r"(\s+[-|–—·•]\s+)")
_SITE_NAME_WORDS = 4  # " - NVIDIA Technical Blog" is a site's name; a longer tail is content


def _names_the_site(part: str, url: str) -> bool:
    host = bare_host(urlsplit(url).hostname or "")
    names = {label for label in host.split(".")[:-1] if len(label) >= 3}
    squashed = re.sub(r"[^a-z0-9]", "", part.lower())
    return (
        bool(squashed)
        and len(part.split()) <= _SITE_NAME_WORDS
        and any(name in squashed or squashed in name for name in names)
    )


def tidy_title(title: str, url: str) -> str:
    """``title`` without the site's name: a short last part naming the URL's host ("Attention
    - YouTube", "… | NVIDIA Technical Blog"), and a code host's "GitHub - owner/repo: …" prefix."""
    pieces = _TITLE_SEPARATOR.split(" ".join(title.split()))  # [part, separator, part, ...]
    while len(pieces) > 1 and _names_the_site(pieces[-1], url):
        del pieces[-2:]
    if len(pieces) > 1 and "/" in pieces[2] and _names_the_site(pieces[0], url):
        del pieces[:2]
    return "".join(pieces)
