"""Every outbound HTTP request the site makes goes through ``fetch``: a guide's source (sync),
link checks and the page titles they read.

A curator types the URL, and a server they do not control answers its redirects, so each hop
is checked before anything is sent:

* the scheme is http or https;
* the host is resolved once and every address it resolves to must be public: loopback,
  private, link-local, multicast, reserved, unspecified and shared addresses are refused,
  and so are IPv6 forms that carry such an IPv4 address (IPv4-mapped ``::ffff:a.b.c.d``,
  IPv4-compatible ``::a.b.c.d``, NAT64 ``64:ff9b::/96``, 6to4 ``2002::/16``). Numeric host
  spellings (``0x7f000001``, ``2130706433``, ``017700000001``, ``127.1``) resolve to the
  address they name and are refused with it;
* the connection goes to that checked address (no second lookup a rebinding DNS could
  answer differently), with the URL's host in the ``Host`` header and the TLS SNI.

Redirects are followed here, hop by hop, at most ``max_redirects`` times and never in a loop.
One deadline (``settings.FETCH_DEADLINE`` seconds unless given) covers the whole fetch, every
hop, connect and body: a watchdog shuts the socket when it passes, so a server trickling one
byte at a time is cut then, not kept alive by per-read timeouts. The body is read up to
``max_bytes``.

The name lookup itself is left to the system resolver's own timeouts (a few seconds): the
deadline starts counting from it but cannot cut it short.

Failures without an HTTP answer (refused address, DNS, refused or reset connection, timeout,
TLS) all read "Could not fetch the URL.": the message must not tell an open port from a closed
one or an internal name from an unknown one. The reason is logged for the operator.

Tests serve pages from 127.0.0.1: ``settings.FETCH_ALLOW_LOOPBACK`` (False; the
``allow_loopback`` fixture turns it on) lets loopback addresses through, and nothing else.
"""

import contextlib
import http.client
import ipaddress
import logging
import socket
import threading
import time
from dataclasses import dataclass
from urllib.parse import quote, urljoin, urlsplit

from django.conf import settings

logger = logging.getLogger(__name__)

DEFAULT_MAX_BYTES = 5 * 1024 * 1024
DEFAULT_MAX_REDIRECTS = 5
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
GENERIC = "Could not fetch the URL."
# Kept as written in a request's path: reserved characters and existing %-escapes.
_PATH_SAFE = "!#$%&'()*+,/:;=?@[]~"


class FetchError(Exception):
    """No usable answer. ``detail`` is safe to show ("" for every failure without an HTTP
    answer); ``retry`` says whether trying again may help (the deadline passed); ``url`` is
    the hop that failed and ``redirects`` the hops followed before it."""

    def __init__(self, detail="", *, retry=False):
        self.detail = detail
        self.retry = retry
        self.url = ""
        self.redirects: tuple[tuple[int, str], ...] = ()
        super().__init__(f"Could not fetch the URL: {detail}." if detail else GENERIC)


@dataclass(frozen=True)
class Response:
    url: str  # the URL that answered (after redirects)
    status: int
    headers: http.client.HTTPMessage
    body: bytes  # at most max_bytes
    truncated: bool  # the server had more than max_bytes to send
    redirects: tuple[tuple[int, str], ...]  # (code, target) of each redirect followed


def address_is_public(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether the site may connect to ``address``: a globally routable unicast address, and for
    IPv6 forms that embed an IPv4 address, that IPv4 address is."""
    if address.version == 6:
        embedded = address.ipv4_mapped or address.sixtofour
        if embedded is None and address in _NAT64:
            embedded = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
        if embedded is None and int(address) >> 32 == 0:  # IPv4-compatible ::a.b.c.d, ::, ::1
            embedded = ipaddress.IPv4Address(int(address))
        if embedded is not None:
            return address_is_public(embedded)
    return address.is_global and not (
        address.is_multicast
        or address.is_reserved
        or address.is_unspecified
        or address.is_loopback
        or address.is_link_local
        or address.is_private
    )


def fetch(
    url: str,
    *,
    method: str = "GET",
    headers: dict[str, str] | None = None,
    timeout: float | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_redirects: int = DEFAULT_MAX_REDIRECTS,
) -> Response:
    """The answer at ``url`` (GET or HEAD), redirects followed, each hop checked (see the module's
    docstring); raises FetchError. Any HTTP status is an answer: the caller judges it."""
    deadline = time.monotonic() + (settings.FETCH_DEADLINE if timeout is None else timeout)
    current, seen, redirects = url, {url}, []
    for _hop in range(max_redirects + 1):
        try:
            status, answer_headers, body, truncated = _request(
                current, method, headers or {}, deadline, max_bytes
            )
            location = answer_headers.get("Location")
            if 300 <= status < 400 and location:
                target = urljoin(current, location.strip())
                if target in seen:
                    raise FetchError(f"a redirect loop at {target}")
                seen.add(target)
                redirects.append((status, target))
                current = target
                continue
        except FetchError as error:
            error.url, error.redirects = current, tuple(redirects)
            raise
        return Response(current, status, answer_headers, body, truncated, tuple(redirects))
    error = FetchError(f"more than {max_redirects} redirects")
    error.url, error.redirects = current, tuple(redirects)
    raise error


def _request(url, method, headers, deadline, max_bytes):
    """One hop: (status, headers, body, truncated)."""
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = None
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        raise FetchError("it is not an http(s) URL")
    https = parts.scheme == "https"
    port = port or (443 if https else 80)
    addresses = _checked_addresses(parts.hostname, port)
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise FetchError(retry=True)
    connection_class = http.client.HTTPSConnection if https else http.client.HTTPConnection
    connection = connection_class(parts.hostname, port, timeout=remaining)
    # Connect to the address just checked, never to a fresh lookup of the name.
    connection._create_connection = lambda _address, timeout, source=None: _connect(
        addresses, port, timeout
    )
    expired = threading.Event()

    def cut():
        expired.set()
        sock = connection.sock
        if sock is not None:
            # the plain socket's shutdown, also under TLS: it wakes a blocked read
            with contextlib.suppress(OSError):
                socket.socket.shutdown(sock, socket.SHUT_RDWR)

    watchdog = threading.Timer(remaining, cut)
    watchdog.daemon = True
    watchdog.start()
    # Spaces and non-ASCII characters escaped, as a browser sends them (http.client refuses both)
    path = quote((parts.path or "/") + (f"?{parts.query}" if parts.query else ""), safe=_PATH_SAFE)
    try:
        connection.request(method, path, headers={"Connection": "close", **headers})
        response = connection.getresponse()
        body = response.read(max_bytes + 1)
        status, answer_headers = response.status, response.headers
    except (OSError, ValueError, http.client.HTTPException) as error:
        logger.info("fetch %s failed: %s: %s", url, error.__class__.__name__, error)
        raise FetchError(retry=expired.is_set() or isinstance(error, TimeoutError)) from None
    finally:
        watchdog.cancel()
        connection.close()
    if expired.is_set():  # the body was cut short by the deadline: no answer to trust
        logger.info("fetch %s failed: deadline passed", url)
        raise FetchError(retry=True)
    return status, answer_headers, body[:max_bytes], len(body) > max_bytes


def _checked_addresses(host, port):
    """The addresses ``host`` resolves to, all of them allowed; FetchError otherwise."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as error:
        logger.info("fetch: cannot resolve %r: %s", host, error)
        raise FetchError() from None
    addresses = list(dict.fromkeys(info[4][0].split("%")[0] for info in infos))
    allow_loopback = settings.FETCH_ALLOW_LOOPBACK
    for address in addresses:
        ip = ipaddress.ip_address(address)
        if not (address_is_public(ip) or (allow_loopback and ip.is_loopback)):
            logger.info("fetch: refused %r: it resolves to %s", host, address)
            raise FetchError()
    if not addresses:
        raise FetchError()
    return addresses


def _connect(addresses, port, timeout):
    """A socket to the first of ``addresses`` that accepts."""
    last_error = None
    for address in addresses:
        try:
            return socket.create_connection((address, port), timeout)
        except OSError as error:
            last_error = error
    raise last_error
