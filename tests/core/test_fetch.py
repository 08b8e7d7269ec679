"""The guarded fetcher (apps/core/fetch.py): every address form of the server's own network is
refused, at every redirect hop, and a slow source is cut at one deadline. Nothing here leaves
127.0.0.1: "source.example" is a public name the tests resolve themselves to a public address,
whose connections are handed to a local server."""

import ipaddress
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from apps.core import fetch as fetch_module
from apps.core.fetch import GENERIC, FetchError, address_is_public, fetch

PUBLIC_NAME, PUBLIC_ADDRESS = "source.example", "93.184.216.34"
REAL_CONNECT = fetch_module._connect


class Handler(BaseHTTPRequestHandler):
    hits: list = []
    redirect_to = ""

    def log_message(self, *args):
        pass

    def do_GET(self):
        Handler.hits.append((self.path, self.headers.get("Host")))
        if self.path == "/redirect":
            self.send_response(302)
            self.send_header("Location", Handler.redirect_to)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = b"x" * 2000 if self.path == "/big" else b"hello"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def _serve(handler):
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    return server


@pytest.fixture
def server():
    Handler.hits = []
    httpd = _serve(Handler)
    yield httpd.server_address[1]
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def other_server():
    """A second local service (another port) a redirect must not reach."""
    Handler.hits = []
    httpd = _serve(Handler)
    yield httpd.server_address[1]
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def public_source(monkeypatch, server):
    """``source.example`` resolves to a public address, and connections to that address reach the
    local server: the fetcher's own checks run unchanged, loopback stays refused."""
    real_getaddrinfo = socket.getaddrinfo
    lookups = []

    def getaddrinfo(host, port, *args, **kwargs):
        if host == PUBLIC_NAME:
            lookups.append(host)
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (PUBLIC_ADDRESS, port))]
        return real_getaddrinfo(host, port, *args, **kwargs)

    def connect(addresses, port, timeout):
        assert addresses == [PUBLIC_ADDRESS], "connected to an unchecked address"
        return REAL_CONNECT(["127.0.0.1"], server, timeout)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setattr(fetch_module, "_connect", connect)
    return f"http://{PUBLIC_NAME}:{server}", lookups


@pytest.fixture
def no_connection(monkeypatch):
    """Fails the test if the fetcher opens any connection."""

    def connect(*args):
        raise AssertionError("a refused address was connected to")

    monkeypatch.setattr(fetch_module, "_connect", connect)


# --- Addresses ---------------------------------------------------------------------------------
REFUSED_HOSTS = [
    "127.0.0.1",
    "localhost",
    "[::1]",
    "0x7f000001",  # hex
    "2130706433",  # decimal
    "017700000001",  # octal
    "127.1",  # short form
    "0177.0.0.1",
    "[::ffff:127.0.0.1]",  # IPv4-mapped
    "[::ffff:7f00:1]",
    "[::127.0.0.1]",  # IPv4-compatible
    "[64:ff9b::7f00:1]",  # NAT64 of 127.0.0.1
    "[64:ff9b::a9fe:a9fe]",  # NAT64 of 169.254.169.254
    "[2002:7f00:1::1]",  # 6to4 of 127.0.0.1
    "[2002:a00:1::1]",  # 6to4 of 10.0.0.1
    "10.0.0.1",
    "172.16.5.4",
    "192.168.1.1",
    "169.254.169.254",  # cloud metadata: link-local
    "100.64.0.1",  # shared (carrier-grade NAT)
    "0.0.0.0",
    "[::]",
    "224.0.0.1",  # multicast
    "[ff02::1]",
    "240.0.0.1",  # reserved
    "255.255.255.255",
    "[fe80::1]",
    "[fc00::1]",  # unique local
]


@pytest.mark.parametrize("host", REFUSED_HOSTS)
def test_every_form_of_a_non_public_address_is_refused_before_connecting(host, no_connection):
    with pytest.raises(FetchError) as refused:
        fetch(f"http://{host}:8080/admin")
    assert str(refused.value) == GENERIC


def test_public_addresses_pass_including_public_ones_embedded_in_ipv6():
    for address in ("93.184.216.34", "2606:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808"):
        assert address_is_public(ipaddress.ip_address(address)), address


def test_a_name_resolving_to_one_private_address_among_public_ones_is_refused(
    monkeypatch, no_connection
):
    monkeypatch.setattr(
        socket,
        "getaddrinfo",
        lambda host, port, **kw: [
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", (PUBLIC_ADDRESS, port)),
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.1.2.3", port)),
        ],
    )
    with pytest.raises(FetchError):
        fetch("http://mixed.example/")


def test_loopback_allowance_lets_loopback_through_and_nothing_else(
    server, allow_loopback, no_connection
):
    for host in ("10.0.0.1", "169.254.169.254", "[fc00::1]"):
        with pytest.raises(FetchError):
            fetch(f"http://{host}/")


def test_the_tests_loopback_allowance_is_off_by_default(server, settings):
    assert settings.FETCH_ALLOW_LOOPBACK is False
    with pytest.raises(FetchError):
        fetch(f"http://127.0.0.1:{server}/")
    assert Handler.hits == []


@pytest.mark.parametrize("url", ["ftp://127.0.0.1/file", "file:///etc/passwd", "http:///path"])
def test_only_http_urls_are_fetched(url, no_connection):
    with pytest.raises(FetchError, match="not an http"):
        fetch(url)


# --- One lookup, the right host ------------------------------------------------------------------
def test_the_checked_address_is_connected_to_with_the_urls_host(public_source):
    base, lookups = public_source
    answer = fetch(f"{base}/page?x=1")
    assert (answer.status, answer.body, answer.url) == (200, b"hello", f"{base}/page?x=1")
    assert Handler.hits == [("/page?x=1", f"{PUBLIC_NAME}:{base.rsplit(':', 1)[1]}")]
    assert lookups == [PUBLIC_NAME]  # one lookup: a rebinding DNS gets no second question


def test_a_path_with_spaces_and_non_ascii_is_sent_escaped(public_source):
    base, _ = public_source
    assert fetch(f"{base}/a b/café?q=x y&r=%2F").status == 200
    assert Handler.hits[0][0] == "/a%20b/caf%C3%A9?q=x%20y&r=%2F"


def _certificate_for(name):
    """A CA and a certificate it signed for ``name``, as PEM files' contents."""
    import datetime

    x509 = pytest.importorskip("cryptography.x509")
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = datetime.datetime.now(datetime.UTC)
    ca_key, key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Test CA")])
    ca = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(1)
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False
        )
        .add_extension(
            x509.KeyUsage(
                digital_signature=False,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .sign(ca_key, hashes.SHA256())
    )
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)]))
        .issuer_name(ca_name)
        .public_key(key.public_key())
        .serial_number(2)
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False
        )
        .sign(ca_key, hashes.SHA256())
    )
    pem = serialization.Encoding.PEM
    key_pem = key.private_bytes(
        pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    return ca.public_bytes(pem), cert.public_bytes(pem) + key_pem


def test_https_sends_the_urls_host_as_sni_and_verifies_its_certificate(
    public_source, monkeypatch, tmp_path
):
    """Connected to the checked address, TLS still names (SNI) and verifies the URL's host."""
    import ssl

    ca_pem, cert_pem = _certificate_for(PUBLIC_NAME)
    (tmp_path / "cert.pem").write_bytes(cert_pem)
    server_context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server_context.load_cert_chain(tmp_path / "cert.pem")
    names = []
    server_context.sni_callback = lambda sslsocket, name, context: names.append(name)
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.socket = server_context.wrap_socket(httpd.socket, server_side=True)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True).start()
    port = httpd.server_address[1]

    def connect(addresses, _port, timeout):
        assert addresses == [PUBLIC_ADDRESS]
        return REAL_CONNECT(["127.0.0.1"], port, timeout)

    monkeypatch.setattr(fetch_module, "_connect", connect)
    client_context = ssl.create_default_context(cadata=ca_pem.decode())
    monkeypatch.setattr(ssl, "_create_default_https_context", lambda *a, **kw: client_context)
    try:
        answer = fetch(f"https://{PUBLIC_NAME}:{port}/secure")
        assert (answer.status, answer.body) == (200, b"hello")
        assert names == [PUBLIC_NAME]
        assert Handler.hits[-1] == ("/secure", f"{PUBLIC_NAME}:{port}")
    finally:
        httpd.shutdown()
        httpd.server_close()


# --- Redirects -----------------------------------------------------------------------------------
def test_a_redirect_on_the_same_host_is_followed(public_source):
    base, _ = public_source
    Handler.redirect_to = "/page"
    answer = fetch(f"{base}/redirect")
    assert (answer.status, answer.url, answer.redirects) == (
        200,
        f"{base}/page",
        ((302, f"{base}/page"),),
    )


@pytest.mark.parametrize(
    "target",
    [
        "http://127.0.0.1:{other}/secret",
        "http://localhost:{other}/secret",
        "http://[::ffff:127.0.0.1]:{other}/secret",
        "http://2130706433:{other}/secret",
        "http://169.254.169.254/latest/meta-data/",
    ],
)
def test_a_redirect_into_the_servers_own_network_is_refused(public_source, other_server, target):
    base, _ = public_source
    Handler.redirect_to = target.format(other=other_server)
    with pytest.raises(FetchError) as refused:
        fetch(f"{base}/redirect")
    assert str(refused.value) == GENERIC
    assert [path for path, _ in Handler.hits] == ["/redirect"]  # the other port saw nothing
    assert refused.value.url == Handler.redirect_to


def test_a_redirect_to_another_scheme_is_refused(public_source):
    base, _ = public_source
    Handler.redirect_to = f"ftp://{PUBLIC_NAME}/file"
    with pytest.raises(FetchError, match="not an http"):
        fetch(f"{base}/redirect")


def test_redirects_are_counted_and_loops_stopped(public_source):
    base, _ = public_source
    Handler.redirect_to = "/redirect"
    with pytest.raises(FetchError, match="redirect loop"):
        fetch(f"{base}/redirect")
    Handler.redirect_to = "/page"
    with pytest.raises(FetchError, match="more than 0 redirects"):
        fetch(f"{base}/redirect", max_redirects=0)


# --- Deadline, size, messages --------------------------------------------------------------------
def _trickler(headers_first: bool):
    """A raw server sending one byte every 0.2 s, forever (or until the client goes away):
    either a whole header and then the body, or the status line itself."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()

    def serve():
        conn, _ = listener.accept()
        with conn:
            if headers_first:
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n")
            try:
                for byte in b"HTTP/1.1 200 OK\r\nX-Slow: " + b"a" * 10_000:
                    conn.sendall(bytes([byte]))
                    time.sleep(0.2)
            except OSError:
                pass

    threading.Thread(target=serve, daemon=True).start()
    return listener


@pytest.mark.parametrize("headers_first", [True, False], ids=["slow-body", "slow-headers"])
def test_a_trickling_source_is_cut_at_the_deadline(allow_loopback, headers_first):
    listener = _trickler(headers_first)
    started = time.monotonic()
    with pytest.raises(FetchError) as cut:
        fetch(f"http://127.0.0.1:{listener.getsockname()[1]}/", timeout=1.0)
    elapsed = time.monotonic() - started
    listener.close()
    # cut at the deadline, though each byte came well within any per-read timeout (the whole
    # trickle would take over half an hour); the margin is for a busy machine
    assert 0.9 < elapsed < 3.0
    assert str(cut.value) == GENERIC and cut.value.retry


def test_the_deadline_is_a_setting(allow_loopback, settings):
    settings.FETCH_DEADLINE = 0.5
    listener = _trickler(headers_first=True)
    started = time.monotonic()
    with pytest.raises(FetchError):
        fetch(f"http://127.0.0.1:{listener.getsockname()[1]}/")
    listener.close()
    assert time.monotonic() - started < 3.0  # not the default 20 s


def test_the_body_is_read_up_to_the_size_cap(public_source):
    base, _ = public_source
    answer = fetch(f"{base}/big", max_bytes=1000)
    assert (len(answer.body), answer.truncated) == (1000, True)
    answer = fetch(f"{base}/big", max_bytes=2000)
    assert (len(answer.body), answer.truncated) == (2000, False)


def test_a_closed_port_a_silent_port_and_a_refused_address_read_alike(allow_loopback):
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        closed_port = closed.getsockname()[1]
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen()  # accepts, never answers
    messages = set()
    for url in (
        f"http://127.0.0.1:{closed_port}/",
        f"http://127.0.0.1:{silent.getsockname()[1]}/",
        "http://10.0.0.1:22/",
        "http://no-such-host.invalid/",
    ):
        with pytest.raises(FetchError) as failed:
            fetch(url, timeout=0.3)
        messages.add(str(failed.value))
    silent.close()
    assert messages == {GENERIC}
