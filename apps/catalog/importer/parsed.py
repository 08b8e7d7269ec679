"""The parse tree: what the parser reads a guide as, in plain dataclasses (no database)."""

from dataclasses import dataclass, field
from decimal import Decimal


@dataclass
class ParsedLink:
    url: str  # as written, whitespace repaired (normalization is the planner's job)
    label: str = ""
    issue: str = ""  # why the URL had to be repaired, for Resource.url_issue


@dataclass
class ParsedItem:
    """One line of a guide naming something to read, watch, build or learn."""

    title: str
    kind: str
    links: list[ParsedLink] = field(default_factory=list)  # the first is the main link
    author: str = ""
    description: str = ""  # about the resource itself (002's descriptions, a book's notes)
    note: str = ""  # the guide's own words about the item
    tier: int | None = None
    priority: str = ""
    rating: Decimal | None = None
    done: bool = False
    effort: str = ""  # the guide's estimate, e.g. "4-5 weeks"
    year: int | None = None  # when the list dates it ("2024.05" in a Date column, "(Oct 04, 2017)")
    raw: str = ""

    @property
    def url(self) -> str | None:
        return self.links[0].url if self.links else None


@dataclass
class ParsedSection:
    title: str
    number: str = ""
    description: str = ""
    tier: int | None = None
    priority: str = ""
    phase: str = ""
    effort: str = ""
    items: list[ParsedItem] = field(default_factory=list)
    children: list["ParsedSection"] = field(default_factory=list)
    parent: "ParsedSection | None" = field(default=None, repr=False, compare=False)

    def walk(self):
        yield self
        for child in self.children:
            yield from child.walk()

    def has_items(self) -> bool:
        return any(section.items for section in self.walk())


@dataclass
class ParsedPathStep:
    """A step of a path as the guide writes it: a section number (``"05"``) or an item list."""

    ref: str
    label: str = ""
    items: list[ParsedItem] = field(default_factory=list)


@dataclass
class ParsedPath:
    title: str
    steps: list[ParsedPathStep] = field(default_factory=list)

    def as_tuple(self) -> tuple[str, list[str]]:
        """``("Kernel development", ["01", "03", …])``."""
        return self.title, [step.ref for step in self.steps]


@dataclass
class ParsedGuide:
    title: str
    description: str = ""
    front_matter: dict[str, str] = field(default_factory=dict)
    sections: list[ParsedSection] = field(default_factory=list)
    paths: list[ParsedPath] = field(default_factory=list)  # explicit paths written in the guide
    skipped: dict[str, int] = field(
        default_factory=dict
    )  # what was not imported, and why: {"badges": 3}

    def walk(self):
        for section in self.sections:
            yield from section.walk()

    def items(self):
        for section in self.walk():
            yield from section.items
