"""Matching a short book reference ("MML", "DL with PyTorch", "PMPP") to a book the guide named in full.

003 closes with an ordered list of abbreviations of the books its phased plan spells
out; they must be the same Resources. An explicit alias table says what the guide
means; acronyms and the usual DL/LLM/ML expansions cover the obvious rest.
"""

import re

ALIASES = {
    "mml": "Mathematics for Machine Learning",
    "dl with pytorch": "Deep Learning with PyTorch",
    "dive into dl": "Dive into Deep Learning",
    "understanding dl": "Understanding Deep Learning",
    "build a llm": "Build a Large Language Model",
    "professional c cuda programming": "Professional CUDA C Programming",
    "pmpp": "Programming Massively Parallel Processors",
    "ppc": "Parallel Programming Concepts",
}
_EXPANSIONS = {"dl": "deep learning", "llm": "large language model", "ml": "machine learning"}
_MINOR_WORDS = {"a", "an", "the", "of", "for", "and", "in", "into", "with", "to", "on"}


def book_key(title: str) -> str:
    """Case- and punctuation-blind form of a title."""
    return " ".join(re.findall(r"[a-z0-9]+", title.lower()))


def _acronym(title: str) -> str:
    return "".join(word[0] for word in book_key(title).split() if word not in _MINOR_WORDS)


def _expanded(reference: str) -> str:
    return " ".join(_EXPANSIONS.get(word, word) for word in book_key(reference).split())


def _match(reference: str, books):
    key = book_key(reference)
    wanted = {key, _expanded(reference), book_key(ALIASES.get(key, ""))} - {""}
    for book in books:
        if book_key(book.title) in wanted:
            return book
    for book in books:
        if key.replace(" ", "") == _acronym(book.title) and len(key) >= 3:
            return book
    return None


def resolve_book(line: str, books) -> list | None:
    """The books ``line`` names (``"DL with PyTorch + Dive into DL (in parallel)"`` names two), or None.

    ``books`` are parsed items of kind book, in document order; the first match wins.
    """
    text = re.sub(r"\([^)]*\)", "", line).strip()
    found = []
    for reference in re.split(r"\s*(?:\+|&|,|\band\b)\s*", text):
        if not reference:
            continue
        book = _match(reference, books)
        if book is None:
            return None
        found.append(book)
    return found or None
