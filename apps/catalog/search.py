"""How a search query is read so that it forgives: "flash-attention" is "flash attention",
"quantisation" is also "quantization" (and back), and a word found nowhere gets a "did you mean"
from the catalog's own words: PostgreSQL trigram similarity (pg_trgm, see the catalog's
migrations), difflib over the titles' and authors' words elsewhere (SQLite).

Every function here runs in time linear in the query (regexes without backtracking, bounded words).
"""

import difflib
import re

from django.db import connection

from apps.catalog.models import Resource
from apps.core.content import memoized

# A hyphen, underscore or slash between two letters or digits joins words: "kv-cache", "fp8/int8".
_JOINER = re.compile(r"(?<=[^\W_])[-_/](?=[^\W_])")
_PLAIN_WORD = re.compile(r"[^\W_]+")

# British ↔ American endings, each pair tried both ways on a word's end.
_SPELLINGS = (
    ("isation", "ization"),
    ("isations", "izations"),
    ("ise", "ize"),
    ("ised", "ized"),
    ("ises", "izes"),
    ("ising", "izing"),
    ("iser", "izer"),
    ("isers", "izers"),
    ("yse", "yze"),
    ("ysed", "yzed"),
    ("ysing", "yzing"),
    ("our", "or"),
    ("ours", "ors"),
    ("elled", "eled"),
    ("elling", "eling"),
    ("tre", "ter"),
    ("tres", "ters"),
    ("ogue", "og"),
)
_MIN_STEM = 3  # "rise", "size", "four" keep their ending: the stem before it must be this long

SUGGEST_MIN_SIMILARITY = 0.35  # pg_trgm similarity of a suggestion to the typed word
SUGGEST_MAX_WORDS = 6


def split_joined(query: str) -> str:
    """ "flash-attention kv_cache" → "flash attention kv cache"; a leading "-" (exclude) stays."""
    return _JOINER.sub(" ", query)


def spellings(word: str) -> tuple[str, ...]:
    """The word and its other spelling, if it has one: ("quantisation", "quantization")."""
    lower = word.lower()
    found = [lower]
    for british, american in _SPELLINGS:
        for have, other in ((british, american), (american, british)):
            if lower.endswith(have) and len(lower) - len(have) >= _MIN_STEM:
                variant = lower[: -len(have)] + other
                if variant not in found:
                    found.append(variant)
    return tuple(found)


def is_plain(word: str) -> bool:
    """A word without websearch syntax (quotes, a leading "-", "or")."""
    return bool(_PLAIN_WORD.fullmatch(word)) and word.lower() != "or"


def suggestion(words: list[str]) -> str:
    """The query with each word nobody wrote replaced by the nearest word the catalog has, or ""
    when nothing would change."""
    words = words[:SUGGEST_MAX_WORDS]
    nearest = _nearest_postgres if connection.vendor == "postgresql" else _nearest_python
    fixed = [nearest(word.lower()) if is_plain(word) else word for word in words]
    return " ".join(fixed) if [w.lower() for w in fixed] != [w.lower() for w in words] else ""


_WORDS_SQL = """
SELECT word FROM (
    SELECT DISTINCT unnest(regexp_split_to_array(lower(title || ' ' || author), '[^[:alnum:]]+')) AS word
    FROM catalog_resource WHERE is_published
) AS words
WHERE length(word) > 1 AND similarity(word, %s) >= %s
ORDER BY similarity(word, %s) DESC, word
LIMIT 1
"""


def _nearest_postgres(word: str) -> str:
    with connection.cursor() as cursor:
        cursor.execute(_WORDS_SQL, [word, SUGGEST_MIN_SIMILARITY, word])
        row = cursor.fetchone()
    return row[0] if row else word


def _nearest_python(word: str) -> str:
    vocabulary = memoized("search-vocabulary", _vocabulary)
    if word in vocabulary:
        return word
    close = difflib.get_close_matches(word, vocabulary, n=1, cutoff=0.75)
    return close[0] if close else word


def _vocabulary() -> list[str]:
    """Every word of the published titles and authors, lowercased; per content version."""
    words = set()
    for title, author in Resource.objects.published().values_list("title", "author"):
        words.update(w for w in _PLAIN_WORD.findall(f"{title} {author}".lower()) if len(w) > 1)
    return sorted(words)
