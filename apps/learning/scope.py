"""A tick's scope: the page a tick was made on, so that its response refreshes that page.

Every page with ticks names its scope to its tick form (``{% tick_form tick_scope %}``), which
posts it as text: ``guide:<uuid>``, ``topic:<slug>``, ``path:<uuid>``, ``own:<uuid>`` (a
learner's own path, its owner's page or its published one), ``dashboard``,
``resource``, ``notebook``, or "" (a search, or any other page). `TickScope.parse` is the one
reader of that text and ``str()`` the one writer; the page kinds' refreshes are keyed by ``kind``.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class TickScope:
    kind: str = ""  # "guide", "topic", "path", "own", "dashboard", "resource", "notebook" or ""
    key: str = ""  # a guide's, path's or own path's uuid, a topic's slug; "" for a page of its own

    @classmethod
    def parse(cls, text: str | None) -> "TickScope":
        """The scope a tick form posted (any text: a forged one names no page we refresh)."""
        kind, _, key = (text or "").partition(":")
        return cls(kind, key)

    @classmethod
    def of_guide(cls, guide) -> "TickScope":
        return cls("guide", str(guide.uuid))

    @classmethod
    def of_topic(cls, topic) -> "TickScope":
        return cls("topic", topic.slug)

    @classmethod
    def of_path(cls, path) -> "TickScope":
        return cls("path", str(path.uuid))

    @classmethod
    def of_own_path(cls, path) -> "TickScope":
        return cls("own", str(path.uuid))

    def __str__(self) -> str:
        return f"{self.kind}:{self.key}" if self.key else self.kind


DASHBOARD = TickScope("dashboard")
RESOURCE = TickScope("resource")  # the resource page: its progress block is the refresh
NOTEBOOK = TickScope("notebook")  # a tick here refreshes no bars, and keeps the row's menu
ELSEWHERE = TickScope()  # a search, or a page that names no scope
