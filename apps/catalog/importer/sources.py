"""The five community guides bundled with Syllabus, as the fixtures are built from them.

The texts live in ``fixtures/sources/<slug>.md``, byte-identical copies of the originals
(mojibake included: repairing it is the importer's job, and a test's).
"""

from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

SOURCES_DIR = Path(settings.BASE_DIR) / "fixtures" / "sources"


@dataclass(frozen=True)
class GuideSource:
    slug: str
    title: str  # empty: use the title the guide gives itself
    position: int
    source_url: str = ""

    @property
    def path(self) -> Path:
        return SOURCES_DIR / f"{self.slug}.md"


GUIDE_SOURCES: tuple[GuideSource, ...] = (
    GuideSource("ai-cheatsheet", "AI Cheatsheet", 1),
    GuideSource("ai-engineering-awesome", "AI Engineering Awesome", 2),
    GuideSource(
        "ai-inference-engineering", "AI Inference Engineering", 3
    ),  # H1: "Learning Guide: AI …"
    GuideSource("future-blogs-to-write", "", 4),  # from its front matter: "Future blogs to write"
    GuideSource("ai-infra-field-notes", "AI Infra Field Notes", 5),
)
