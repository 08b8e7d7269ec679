"""What "the same title" means, for everything that compares a resource's titles: the importer
offering a list's title, the link checker offering a page's, and a learner's Markdown import
finding a resource by its title."""


def title_key(title: str) -> str:
    """The form titles are compared in: whitespace collapsed, case folded."""
    return " ".join(title.split()).casefold()


def same_title(a: str, b: str) -> bool:
    """Do ``a`` and ``b`` name a resource alike (differing at most in case and spacing)?"""
    return title_key(a) == title_key(b)
