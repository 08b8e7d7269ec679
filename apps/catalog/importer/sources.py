"""The five community guides bundled with Syllabus, as the fixtures are built from them.

The texts live in ``fixtures/sources/<slug>.md``, byte-identical copies of the originals
(mojibake included: repairing it is the importer's job, and a test's).

Where a guide's source is public its raw URL is kept (``source_url``) and followed on a
schedule (``sync_schedule``); otherwise ``source_note`` tells learners, on the guide's page,
what is known of where it comes from, and ``chapter_note`` is added to the description of each
of its link-less chapters (a learner who reaches one from a path reads where its text is).
"""

from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

SOURCES_DIR = Path(settings.BASE_DIR) / "fixtures" / "sources"

AWESOME_REPOSITORY = "https://github.com/SuperIntelligenceAI/AI-Engineering-Awesome"
AWESOME_README = (
    "https://raw.githubusercontent.com/SuperIntelligenceAI/AI-Engineering-Awesome/main/README.md"
)
INFERENCE_README = (
    "https://raw.githubusercontent.com/aerlabsAI/ai-inference-resources/main/README.md"
)


@dataclass(frozen=True)
class GuideSource:
    slug: str
    title: str  # empty: use the title the guide gives itself
    position: int
    source_url: str = ""
    sync_schedule: str = "off"  # catalog.models.SyncSchedule
    source_note: str = ""  # markdown, shown on the guide's page
    chapter_note: str = ""  # added to each link-less chapter's description

    @property
    def path(self) -> Path:
        return SOURCES_DIR / f"{self.slug}.md"


GUIDE_SOURCES: tuple[GuideSource, ...] = (
    GuideSource(
        "ai-cheatsheet",
        "AI Cheatsheet",
        1,
        # The same README as the next guide, at an earlier state: the README of
        # github.com/AdiChat/AI-cheatsheet when it was titled "AI cheatsheet" (later "AI Engineering
        # cheatsheet", then the AI-Engineering-Awesome list). Not followed: a fetch would read today's
        # list, which is the next guide.
        source_note=(
            "An earlier state of the list now published as "
            f"[AI-Engineering-Awesome]({AWESOME_REPOSITORY}): the README of "
            "[AdiChat/AI-cheatsheet](https://github.com/AdiChat/AI-cheatsheet) as it read when it "
            "was titled “AI cheatsheet”. Kept here as that snapshot; the list as it is today is "
            "the “AI Engineering Awesome” guide, which follows its source."
        ),
    ),
    GuideSource(
        "ai-engineering-awesome",
        "AI Engineering Awesome",
        2,
        source_url=AWESOME_README,
        sync_schedule="weekly",
    ),
    GuideSource(
        "ai-inference-engineering",
        "AI Inference Engineering",
        3,  # H1: "Learning Guide: AI …"
        source_url=INFERENCE_README,
        sync_schedule="weekly",
    ),
    GuideSource(
        "future-blogs-to-write",
        "",  # from its front matter: "Future blogs to write"
        4,
        source_note=(
            "Where this list comes from is not known: it is one person's backlog, the notes of a "
            "blog post not yet written (its front matter reads “categories: [personal, "
            "technology]”), and no public address was kept with it. It is not followed: what is "
            "here is the list as it was imported."
        ),
    ),
    GuideSource(
        "ai-infra-field-notes",
        "AI Infra Field Notes",
        5,
        source_note=(
            "Where these notes come from is not known: the guide was imported from a copy of "
            "the README of a repository of field notes, and the repository's address was not "
            "kept with it. That README is a table of contents: Syllabus lists its chapters, but "
            "each chapter's text (a README.md in the chapter's folder, in English and Chinese) "
            "is in the repository itself, so the chapters here have no link to open. The README "
            "opens with “Field notes from an AI infrastructure engineer”, which is how to look "
            "for it."
        ),
        chapter_note=(
            "Where to read it: in the field notes' own repository, where this chapter is a folder "
            "with a README.md (English and Chinese). Its address is not known, so there is no "
            "link to open here; the guide's page says what is known of the source."
        ),
    ),
)
