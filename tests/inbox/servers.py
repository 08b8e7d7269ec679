"""A local web server for the inbox's tests: ``routes`` maps a path to what it answers, so one
server plays a blog, "GitHub", "YouTube" and a broken source at once."""

import threading
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Answer:
    body: bytes = b""
    status: int = 200
    content_type: str = "text/html; charset=utf-8"
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds before each chunk of the body (a slow server)
    chunks: int = 1


@dataclass
class Site:
    base: str
    routes: dict[str, Answer | Callable[[dict], Answer]]
    requests: list[tuple[str, dict]] = field(default_factory=list)

    def url(self, path: str) -> str:
        return self.base + path


@contextmanager
def serving():
    routes: dict = {}
    requests: list = []

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            headers = dict(self.headers.items())
            requests.append((self.path, headers))
            answer = routes.get(self.path, Answer(b"not here", status=404))
            if callable(answer):
                answer = answer(headers)
            self.send_response(answer.status)
            self.send_header("Content-Type", answer.content_type)
            for name, value in answer.headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(answer.body)))
            self.end_headers()
            size = max(1, len(answer.body) // answer.chunks)
            try:
                for start in range(0, len(answer.body), size):
                    time.sleep(answer.delay)
                    self.wfile.write(answer.body[start : start + size])
                    self.wfile.flush()
            except OSError:  # the client gave up (a deadline): nothing to tell
                pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield Site(f"http://127.0.0.1:{server.server_address[1]}", routes, requests)
    finally:
        server.shutdown()
        server.server_close()


def atom(entries: list[dict], *, title: str = "A blog") -> bytes:
    """An Atom feed; each entry's ``link``, ``updated`` and ``summary`` are optional."""
    parts = []
    for entry in entries:
        link = f'<link rel="alternate" href="{entry["link"]}"/>' if entry.get("link") else ""
        updated = f"<updated>{entry['updated']}</updated>" if entry.get("updated") else ""
        summary = (
            f'<summary type="html">{entry["summary"]}</summary>' if entry.get("summary") else ""
        )
        parts.append(
            f"<entry><title>{entry['title']}</title>{link}<id>{entry.get('id', entry.get('link', entry['title']))}</id>"
            f"{updated}{summary}</entry>"
        )
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">'
        f"<title>{title}</title><id>urn:feed</id><updated>2026-11-20T10:00:00Z</updated>"
        + "".join(parts)
        + "</feed>"
    ).encode()


def rss(items: list[dict], *, title: str = "An RSS feed") -> bytes:
    parts = []
    for item in items:
        link = f"<link>{item['link']}</link>" if item.get("link") else ""
        date = f"<pubDate>{item['date']}</pubDate>" if item.get("date") else ""
        parts.append(f"<item><title>{item['title']}</title>{link}{date}</item>")
    return (
        '<?xml version="1.0"?><rss version="2.0"><channel>'
        f"<title>{title}</title><link>https://blog.example/</link>"
        + "".join(parts)
        + "</channel></rss>"
    ).encode()
