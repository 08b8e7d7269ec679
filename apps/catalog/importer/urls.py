"""URL handling for the importer: normalization (so one resource is one row), repair, titles.

url-normalize does the RFC 3986 part (case, default ports, percent-encoding, dot
segments); on top of it we apply the catalog's own policy: tracking and share
parameters go, text fragments go, short aliases become the site's own URL (``youtu.be/ID``
→ ``youtube.com/watch?v=ID``, ``hf.co`` → ``huggingface.co``), and non-root paths lose
their trailing slash so ``/post`` and ``/post/`` are the same resource.

``same_page_key`` is the looser comparison the planner uses to find a URL that only adds
a section (query or fragment) to another resource's URL: see ``planner._merge_duplicates``.
"""

import re
from urllib.parse import quote, unquote, urlsplit, urlunsplit

from url_normalize import url_normalize

# Parameters that only say where a click came from; never part of what the page is.
TRACKING_PARAMS = frozenset(
    {
        "fbclid",
        "gclid",
        "dclid",
        "msclkid",
        "mc_cid",
        "mc_eid",
        "igshid",
        "ref",
        "ref_src",
        "source",
        "si",
    }
)
TRACKING_PREFIXES = ("utm_",)
# Per-host share/attribution parameters (YouTube's channel tag, Google's "shared via link").
HOST_TRACKING_PARAMS = {
    "youtube.com": frozenset({"ab_channel", "feature", "pp"}),
    "docs.google.com": frozenset({"usp"}),
    "colab.research.google.com": frozenset({"usp"}),
    "drive.google.com": frozenset({"usp"}),
}
# Characters a fragment may keep as they are (RFC 3986 ``fragment``), so SPA routes like
# ``#/blog/post`` are not mangled into ``#%2Fblog%2Fpost``.
_FRAGMENT_SAFE = "/?:@!$&'()*+,;=~-._%"


def bare_host(host: str) -> str:
    """``www.ArXiv.org`` → ``arxiv.org``: a host as a reader names the site, the one place the
    ``www.`` is dropped (URL identity, tracking parameters, kinds, link labels, titles)."""
    return host.lower().removeprefix("www.")


def _is_tracking_param(key: str, value: str, host: str) -> bool:
    key = key.lower()
    if key in TRACKING_PARAMS or key.startswith(TRACKING_PREFIXES):
        return True
    # The ``?s=08`` share code some sites append; a real ``s=`` search keeps its words.
    if key == "s" and value.isdigit():
        return True
    return key in HOST_TRACKING_PARAMS.get(bare_host(host), ())


def _clean_query(query: str, host: str) -> str:
    kept = []
    for param in query.split("&"):
        if not param:
            continue
        key, _, value = param.partition("=")
        if not _is_tracking_param(key, value, host):
            kept.append(param)
    return "&".join(kept)


def _clean_fragment(fragment: str) -> str:
    # Scroll-to-text fragments (``#:~:text=``) point into a page, they do not name one.
    if fragment.startswith(":~:"):
        return ""
    return quote(unquote(fragment), safe=_FRAGMENT_SAFE)


# A URL ``_normalize`` would give back unchanged: http(s), a lowercase ASCII host without port,
# a path of characters url-normalize keeps as they are, with no empty, "." or ".." segment and no
# trailing slash (or just "/"), no query, no fragment, and not a host rewritten below. Linear: "."
# and "/" separate runs of characters they are not part of.
_ALREADY_NORMAL = re.compile(
    r"https?://(?!(?:[a-z0-9-]+\.)*(?:arxiv\.org|youtu\.be|hf\.co)/)[a-z0-9-]+(?:\.[a-z0-9-]+)*"
    r"(?:/|(?:/(?!\.\.?(?:/|$))[A-Za-z0-9\-._~!$&'()*+,;=:@]+)+)"
)


def normalize_url(url: str) -> str:
    """The canonical form of ``url``, used as the Resource's identity.

    >>> normalize_url("HTTPS://Example.com:443/a/b/?utm_source=x&s=08#:~:text=hi")
    'https://example.com/a/b'
    """
    url = url.strip()
    # The common cases first: taking a URL apart costs ~0.2 ms, and a 1 MB import has 25,000.
    if _ALREADY_NORMAL.fullmatch(url):
        return url
    if (quick := _normalize_plain(url)) is not None:
        return quick
    try:
        return _normalize(url)
    except ValueError:
        return url  # not a URL urllib can take apart (``http://[a]/``): kept as written


_DEFAULT_PORTS = {"http": ":80", "https": ":443"}


def _normalize_plain(url: str) -> str | None:
    """What ``_normalize`` gives for a URL that only differs from its normal form by case in the
    scheme or host, a default port, trailing slashes, tracking parameters or a text fragment; None
    for any other. String operations only: ~20× faster than url-normalize, which spends most of
    its time on IDNA for hosts that are plain ASCII."""
    scheme, separator, rest = url.partition("://")
    rest, _, fragment = rest.partition("#")
    if not separator or (fragment and not fragment.startswith(":~:")):
        return None
    rest, _, query = rest.partition("?")
    host, _, path = rest.partition("/")
    scheme, host = scheme.lower(), host.lower()
    host = host.removesuffix(_DEFAULT_PORTS.get(scheme, "//"))
    if query and _clean_query(query, host):
        return None
    candidate = f"{scheme}://{host}/{path.rstrip('/')}"
    return candidate if _ALREADY_NORMAL.fullmatch(candidate) else None


# arXiv serves one paper at /abs/ID, /pdf/ID, /pdf/ID.pdf and /abs/IDv2: one identity, the abstract page.
_ARXIV = re.compile(
    r"^https?://(?:www\.|export\.)?arxiv\.org/(?:abs|pdf|html)/((?:\d{4}\.\d{4,5})|(?:[a-z-]+(?:\.[A-Z]{2})?/\d{7}))"
    r"(?:v\d+)?(?:\.pdf)?/?(?:[?#].*)?$",
    re.IGNORECASE,
)


# Short hosts that are aliases of one site: youtu.be/ID is the video's watch page, hf.co is huggingface.co.
_YOUTU_BE = re.compile(r"^https?://(?:www\.)?youtu\.be/([\w-]+)/?(?:\?([^#]*))?", re.IGNORECASE)
_HOST_ALIASES = re.compile(r"^(https?://)(?:www\.)?hf\.co(?=[/:?#]|$)", re.IGNORECASE)


def _unalias(url: str) -> str:
    if match := _YOUTU_BE.match(url):
        query = "&".join(p for p in (f"v={match.group(1)}", match.group(2)) if p)
        return f"https://www.youtube.com/watch?{query}{url[match.end() :]}"
    return _HOST_ALIASES.sub(r"\1huggingface.co", url, count=1)


def _normalize(url: str) -> str:
    if match := _ARXIV.match(url):
        return f"https://arxiv.org/abs/{match.group(1)}"
    url = _unalias(url)
    base, _, fragment = url.partition("#")
    scheme, netloc, path, query, _ = urlsplit(base)
    query = _clean_query(query, urlsplit(f"{scheme}://{netloc}").hostname or "")
    normalized = url_normalize(urlunsplit((scheme, netloc, path, query, "")))
    scheme, netloc, path, query, _ = urlsplit(normalized)
    if len(path) > 1:
        path = path.rstrip("/")
    return urlunsplit((scheme, netloc, path or "/", query, _clean_fragment(fragment)))


def repair_url(url: str) -> tuple[str, str]:
    """``(usable_url, issue)``: a URL with stray whitespace is joined up and the repair reported.

    The issue is stored on the Resource so a curator can check the guess; an empty
    issue means the URL was fine as written.
    """
    url = url.strip()
    if not re.search(r"\s", url):
        return url, ""
    repaired = re.sub(r"\s+", "", url)
    return (
        repaired,
        f"The source URL contained whitespace ({url!r}); it was removed, please check the link.",
    )


_GENERIC_SEGMENTS = {
    "index",
    "blog",
    "blogs",
    "archive",
    "posts",
    "post",
    "home",
    "main",
    "readme",
    "videos",
    "journal",
    "introduction",
}
_SHORT_SEGMENT = 12
_CODE_HOSTS = {"github.com", "gist.github.com", "huggingface.co", "gitlab.com"}


def _humanize(segment: str) -> str:
    segment = re.sub(r"\.(html?|php|pdf|md)$", "", unquote(segment), flags=re.IGNORECASE)
    segment = re.sub(r"^\d{4}-\d{2}-\d{2}-", "", segment)  # dated slugs: 2023-04-23-triton-cuda
    segment = re.sub(r"-(?=[0-9a-f]*\d)[0-9a-f]{10,12}$", "", segment)  # Medium's post ids
    words = re.sub(r"[-_+]+", " ", segment).strip()
    return words[:1].upper() + words[1:]


_HOST_NAMES = {
    "github.com": "GitHub",
    "gist.github.com": "GitHub",
    "gitlab.com": "GitLab",
    "huggingface.co": "Hugging Face",
}
# What a repository's page under ``owner/repo/<page>`` is, as its title says it
_REPO_PAGES = {
    "pulls": "pull requests",
    "issues": "issues",
    "wiki": "wiki",
    "releases": "releases",
    "discussions": "discussions",
    "actions": "actions",
    "tags": "tags",
}
_REPO_ITEMS = {"pull": "pull request", "issues": "issue", "discussions": "discussion"}
# Hugging Face's own pages before an ``owner/name``: "datasets/owner/name" is a dataset
_HUB_KINDS = {"datasets": "dataset", "spaces": "Space", "models": "model"}


def _code_title(host: str, segments: list[str]) -> str:
    """A code host's page as a curator titles it: ``owner/repo`` for a repository (the name its
    own page shows), ``owner/repo: file.md`` for a file in it, ``owner/repo pull request #12``,
    ``owner on GitHub`` for an account, ``owner/name dataset`` on Hugging Face."""
    site = _HOST_NAMES[host]
    if host == "gist.github.com":
        return f"Gist by {segments[0]}"
    if host == "huggingface.co":
        if segments[0] in _HUB_KINDS and len(segments) >= 3:
            return f"{segments[1]}/{segments[2]} {_HUB_KINDS[segments[0]]}"
        if segments[0] in {"blog", "docs", "learn", "papers", "spaces", "datasets", "models"}:
            rest = "/".join(segments[1:3])  # the names as the site spells them: "open-r1"
            return f"{site} {segments[0]}: {rest}" if rest else f"{site} {segments[0]}"
    if segments[0] in {"orgs", "users"} and len(segments) >= 2:
        return f"{segments[1]} on {site}"
    if len(segments) == 1:
        return f"{segments[0]} on {site}"
    repo = f"{segments[0]}/{segments[1]}"
    page = [s for s in segments[2:] if s != "-"]  # GitLab's "owner/repo/-/tree/…"
    if not page:
        return repo
    if page[0] in _REPO_ITEMS and len(page) >= 2 and page[1].isdigit():
        return f"{repo} {_REPO_ITEMS[page[0]]} #{page[1]}"
    if page[0] == "releases" and len(page) >= 3 and page[1] == "tag":
        return f"{repo} {page[2]}"
    if page[0] in _REPO_PAGES and len(page) == 1:
        return f"{repo} {_REPO_PAGES[page[0]]}"
    if page[0] in {"blob", "tree", "raw"} and len(page) >= 3:
        return f"{repo}: {page[-1]}"  # a file or folder in the repository, past its branch
    return repo


def title_from_url(url: str) -> str:
    """A readable title for a bare URL: ``srush/GPU-Puzzles``, ``Triton cuda``, ``distill.pub``."""
    try:
        parts = urlsplit(url)
        host = bare_host(parts.hostname or "")
    except ValueError:
        return url
    segments = [s for s in parts.path.split("/") if s]
    if host in {"x.com", "twitter.com"} and segments:
        return f"@{segments[0]} on X"
    if host in {"youtube.com", "m.youtube.com"}:
        if segments and segments[0].startswith("@"):
            return f"{segments[0]} on YouTube"
        query = dict(p.partition("=")[::2] for p in parts.query.split("&") if p)
        if "playlist" in segments:
            return f"YouTube playlist {query.get('list', '')}".strip()
        return f"YouTube video {query.get('v', '')}".strip()
    if host == "arxiv.org" and len(segments) >= 2:
        return f"arXiv {re.sub(r'\.pdf$', '', segments[-1])}"
    if host in _CODE_HOSTS and segments:
        return _code_title(host, [unquote(s) for s in segments])
    if segments and re.sub(r"\.\w+$", "", segments[-1]).lower() in _GENERIC_SEGMENTS:
        trimmed = [re.sub(r"\.\w+$", "", s) for s in segments]
        if trimmed[-1].lower() == "index":
            trimmed = trimmed[:-1]
        return "/".join([host, *(unquote(s) for s in trimmed)])
    if not segments:
        return host
    title = _humanize(segments[-1])
    if len(segments[-1]) < _SHORT_SEGMENT and len(segments) > 1:
        title = f"{_humanize(segments[-2])} {title[:1].lower()}{title[1:]}"
    return title or host


def is_url_text(text: str, url: str) -> bool:
    """Is ``text`` (a link's words) only an address, ``url`` itself or another: ``https://…``,
    ``www.example.com/page``, ``github.com/owner/repo``? Such words name nothing."""
    text = text.strip().rstrip("/")
    if not text or re.search(r"\s", text):
        return False
    if re.match(r"^(?:https?://|www\.)", text, re.IGNORECASE):
        return True
    bare = re.sub(r"^https?://(?:www\.)?", "", url, flags=re.IGNORECASE).rstrip("/")
    return text.lower() == bare.lower()


def _bare_path(path: str) -> str:
    path = re.sub(r"/index\.html?$", "", unquote(path), flags=re.IGNORECASE)
    return path.rstrip("/").lower()


def same_page_key(url: str) -> tuple[str, str] | None:
    """``(host, path)`` of a normalized URL, blind to ``www.``, case, a trailing slash and ``index.html``.

    Two URLs with the same key show the same document when one's query only adds parameters
    to the other's (``?section=intro``) or they differ by an in-page fragment. None for a
    URL urllib cannot take apart.
    """
    try:
        parts = urlsplit(url)
        host = bare_host(parts.hostname or "")
    except ValueError:
        return None
    return (host, _bare_path(parts.path)) if host else None


def query_items(url: str) -> frozenset[str]:
    """The ``key=value`` pairs of a URL's query."""
    return frozenset(p for p in urlsplit(url).query.split("&") if p)


def route_fragment(url: str) -> str:
    """A fragment that is a client-side route (``#/blog/post``, ``#!/x``) names a page; an anchor does not."""
    fragment = urlsplit(url).fragment
    return fragment if fragment.startswith(("/", "!")) else ""


def title_looks_poor(title: str, url: str | None) -> bool:
    """A title that does not say what the page at ``url`` is: the importer's guess from the URL
    ("YouTube video abc", "github.com/owner/repo", "Mml book"), the URL itself, or a bare host.
    Such a title is worth replacing by the page's own or by a list's better one."""
    title = title.strip()
    if not url:
        return False
    bare = re.sub(r"^https?://(www\.)?", "", url).rstrip("/")
    return (
        not title
        or title == title_from_url(url)
        or title.lower() in {url.lower(), bare.lower()}
        or (" " not in title and ("." in title or "/" in title))
    )


_CODE_REPO = re.compile(
    r"^(?:github\.com|gitlab\.com|huggingface\.co)/([^/]+/[^/]+)", re.IGNORECASE
)
_WEB_ARCHIVE = re.compile(r"^https?://web\.archive\.org/web/[^/]*/(.+)$", re.IGNORECASE)
# What an extra link's label says when it is the resource's own document elsewhere, not a work it mentions.
_MIRROR_LABEL = re.compile(r"\b(?:mirror|archived?|web archive|alternate|alternative link)\b", re.I)
_SAME_PAPER_LABEL = re.compile(
    r"^\W*(?:pdf|abs|abstract|html|arxiv|preprint|full text|paper|openreview|camera[- ]ready)\W*$",
    re.IGNORECASE,
)


def _work_key(url: str) -> str:
    """The work a URL shows, blind to how it is reached: a repository's root for any page of
    it, a web-archive copy as the page it copies, else the page (``same_page_key``)."""
    if match := _WEB_ARCHIVE.match(url):
        url = match.group(1) if "://" in match.group(1) else f"https://{match.group(1)}"
    key = same_page_key(url)
    if key is None:
        return url
    host, path = key
    if repo := _CODE_REPO.match(f"{host}{path}"):
        return repo.group(1).lower() + "@" + host
    return f"{host}{path}"


def is_same_work(
    link_url: str, link_label: str, resource_url: str | None, resource_kind: str
) -> bool:
    """Is an extra link (``link_url`` labelled ``link_label``) of a resource at ``resource_url``
    the resource's own work, so that a list linking ``link_url`` means this resource?

    Yes for a resource without an address of its own (a book's pdf), for another address of
    the same page or repository, for a mirror or archived copy, and for a paper's pdf or
    abstract. No for a different work the resource mentions: a blog post's links to the
    repository and papers it explains are theirs, not the post's.
    """
    if not resource_url:
        return True
    if _work_key(link_url) == _work_key(resource_url):
        return True
    if _MIRROR_LABEL.search(link_label or ""):
        return True
    return resource_kind in ("paper", "book") and bool(_SAME_PAPER_LABEL.match(link_label or ""))
