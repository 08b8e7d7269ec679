"""Mail servers on 127.0.0.1 for the tests, each as a self-hoster meets it: a port where nothing
listens (refused), one that accepts connections and never says a word (hung), one that greets
with "554 no service", and a minimal one that takes every mail (for probes that must pass)."""

import socket
import threading
from contextlib import contextmanager, suppress


def closed_port() -> int:
    """A port on 127.0.0.1 nothing listens on: connecting is refused."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def hung_server():
    """Connections are accepted (by the kernel's backlog) and never answered."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(64)
        yield sock.getsockname()[1]


@contextmanager
def scripted_server(handler):
    """Runs ``handler(conn)`` for every connection, in a thread, until the block ends."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    sock.settimeout(0.2)
    stop = threading.Event()

    def serve():
        while not stop.is_set():
            try:
                conn, _ = sock.accept()
            except TimeoutError:
                continue
            with conn:
                conn.settimeout(5)
                with suppress(OSError):
                    handler(conn)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield sock.getsockname()[1]
    finally:
        stop.set()
        thread.join(5)
        sock.close()


def refuse_service(conn):
    conn.sendall(b"554 127.0.0.1 no service here\r\n")


def accept_all(conn):
    """Just enough SMTP for smtplib: greeting, EHLO/HELO, NOOP, MAIL, RCPT, DATA, QUIT."""
    conn.sendall(b"220 127.0.0.1 test ESMTP\r\n")
    reader = conn.makefile("rb")
    in_data = False
    for line in reader:
        if in_data:
            if line == b".\r\n":
                in_data = False
                conn.sendall(b"250 queued\r\n")
            continue
        verb = line[:4].upper()
        if verb == b"DATA":
            in_data = True
            conn.sendall(b"354 go on\r\n")
        elif verb == b"QUIT":
            conn.sendall(b"221 bye\r\n")
            return
        else:
            conn.sendall(b"250 ok\r\n")


def recording(messages: list):
    """A handler like ``accept_all`` that also keeps each mail's DATA (bytes) in ``messages``."""

    def handler(conn):
        conn.sendall(b"220 127.0.0.1 test ESMTP\r\n")
        reader = conn.makefile("rb")
        data = None
        for line in reader:
            if data is not None:
                if line == b".\r\n":
                    messages.append(b"".join(data))
                    data = None
                    conn.sendall(b"250 queued\r\n")
                else:
                    data.append(line)
                continue
            verb = line[:4].upper()
            if verb == b"DATA":
                data = []
                conn.sendall(b"354 go on\r\n")
            elif verb == b"QUIT":
                conn.sendall(b"221 bye\r\n")
                return
            else:
                conn.sendall(b"250 ok\r\n")

    return handler
