"""How a search query is read so that it forgives: "flash-attention" is "flash attention",
"kvcache" finds "KV cache" and "FlashAttention" "Flash Attention" (`joined_pattern`),
"quantisation" is also "quantization" (and back), and a word found nowhere gets a "did you mean"
from the catalog's own words: PostgreSQL trigram similarity (pg_trgm) over an indexed table of
the titles' and authors' words (catalog/0006), difflib over the same words elsewhere (SQLite). A
query in another script than the catalog's (English) gets a hint instead.

Chinese, Japanese and Korean are written without spaces: a run of their characters is read as
its overlapping pairs (`cjk_words`: "注意力机制" is "注意", "意力", "力机", "机制"), each looked
for as a substring, as search engines index such text; so "注意力原理" finds "注意力机制的原理"
with most pairs, best first. A Chinese term the catalog has only in English gets a "did you
mean" from a small glossary (`GLOSSARY`: "量化" → "quantization"). The catalog's search
(`apps.catalog.selectors`) and the learner's notes search (`apps.progress.selectors`) both read
words here.

Every function here runs in time linear in the query (regexes without backtracking, bounded words).
"""

import difflib
import re
import unicodedata

from django.db import connection

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

# What may stand between the letters of a word in a text that has it split: "KV cache", "kv-cache",
# "Flash Attention" for "kvcache" and "flashattention". A regex in the syntax PostgreSQL's and
# Python's engines share (apps.catalog.selectors runs it in the database, `text_has_words` here);
# it cannot backtrack: a gap's characters are never letters or digits.
_GAP = "[-_/.: ]{0,3}"
_WORD_START = "(^|[^a-z0-9])"  # a joined or split form is looked for from a word's start
JOINED_MIN_LENGTH = 4  # shorter words are only looked for as typed

SUGGEST_MIN_SIMILARITY = 0.35  # pg_trgm similarity of a suggestion to the typed word
SUGGEST_MAX_WORDS = 6


# Scripts written without spaces between words: Hiragana, Katakana, CJK ideographs (and their
# extensions and compatibility forms), Hangul syllables.
_CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+")

# Common terms of the field, Chinese → the catalog's English word: a Chinese query that finds
# nothing is offered the English one ("did you mean"). Extend freely; keys are whole runs.
GLOSSARY = {
    "注意力": "attention",
    "注意力机制": "attention",
    "量化": "quantization",
    "推理": "inference",
    "大模型": "llm",
    "大语言模型": "llm",
    "语言模型": "language model",
    "变换器": "transformer",
    "微调": "fine-tuning",
    "训练": "training",
    "分布式": "distributed",
    "并行": "parallelism",
    "显卡": "gpu",
    "内核": "kernel",
    "算子": "kernel",
    "缓存": "cache",
    "编译器": "compiler",
    "强化学习": "reinforcement learning",
    "智能体": "agents",
    "检索增强生成": "rag",
    "向量数据库": "vector database",
    "嵌入": "embeddings",
    "扩散模型": "diffusion",
    "论文": "paper",
    "推测解码": "speculative decoding",
    "投机解码": "speculative decoding",
    "混合专家": "mixture of experts",
    "蒸馏": "distillation",
    "评测": "evaluation",
    "提示词": "prompt",
}


def cjk_words(word: str) -> list[str]:
    """`word` as search reads it: a run of CJK characters longer than two as its overlapping
    pairs, the rest (Latin letters, digits) as it is: "GPU显存管理" → "GPU", "显存", "存管",
    "管理". Linear in the word."""
    if not _CJK_RUN.search(word):
        return [word]
    parts: list[str] = []
    last = 0
    for run in _CJK_RUN.finditer(word):
        if run.start() > last:
            parts.append(word[last : run.start()])
        text = run.group()
        parts += [text] if len(text) <= 2 else [text[i : i + 2] for i in range(len(text) - 1)]
        last = run.end()
    if last < len(word):
        parts.append(word[last:])
    return [part for part in parts if part.strip("-_/")]


def query_words(query: str, limit: int) -> list[str]:
    """The first `limit` words of a query as search reads them: joined words apart ("kv-cache":
    "kv", "cache"), a run of Chinese characters as its pairs (`cjk_words`)."""
    return [part for word in split_joined(query).split()[: limit * 2] for part in cjk_words(word)][
        :limit
    ]


def has_cjk(text: str) -> bool:
    return bool(_CJK_RUN.search(text))


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


def word_forms(word: str) -> tuple[str, ...]:
    """How a plain word is looked for: its spellings, lowercased."""
    return spellings(word)


def joined_pattern(form: str, *, at: str = "word") -> str:
    """A regex (for case-insensitive use) finding ``form`` (a plain word, or several run
    together) in a text that has it joined or split: "flashattention" finds "Flash Attention" and
    "flash-attention". ``at``: from any word's start ("word"), the text's ("start"), or the whole
    text ("whole")."""
    letters = _GAP.join(re.escape(char) for char in form.lower())
    return {"word": f"{_WORD_START}{letters}", "start": f"^{letters}", "whole": f"^{letters}$"}[at]


def text_has_words(text: str, words: list[str]) -> bool:
    """Every word occurs in ``text`` in one of its forms (either spelling, joined or split), as
    the catalog's search finds them; the words as `split_joined` reads them. Linear in the text."""
    folded = text.casefold()
    return all(_text_has_word(folded, word) for word in words)


def _text_has_word(folded: str, word: str) -> bool:
    if not is_plain(word):
        return word.casefold() in folded
    return any(
        form in folded
        or (len(form) >= JOINED_MIN_LENGTH and re.search(joined_pattern(form), folded))
        for form in word_forms(word)
    )


def in_another_script(query: str) -> bool:
    """The query has letters outside the Latin script (Chinese, Japanese, Cyrillic …): the catalog
    is in English, so a search that finds nothing says so."""
    return any(
        char.isalpha() and not unicodedata.name(char, "").startswith("LATIN") for char in query
    )


def suggestion(words: list[str]) -> str:
    """The query with each word nobody wrote replaced by the nearest word the catalog has, or ""
    when nothing would change."""
    words = words[:SUGGEST_MAX_WORDS]
    nearest = _nearest_postgres if connection.vendor == "postgresql" else _nearest_python
    fixed = [
        word
        if not is_plain(word)
        else _nearest_cjk(word)
        if has_cjk(word)
        else nearest(word.lower())
        for word in words
    ]
    return " ".join(fixed) if [w.lower() for w in fixed] != [w.lower() for w in words] else ""


def _nearest_cjk(word: str) -> str:
    """A Chinese word's English term from the glossary; else the word (trigram and difflib
    similarity mean nothing between two-character pairs)."""
    return GLOSSARY.get(word, word)


# The nearest word of a visible resource's title or author: candidates from the trigram index
# on every word resources have had (catalog/0006, catalog_searchword) through pg_trgm's `%`
# operator, whose threshold (pg_trgm.similarity_threshold, 0.3 by default) is below ours; kept
# if a visible resource's words (catalog_resource.search_words, GIN-indexed) still hold it.
_WORDS_SQL = """
SELECT word FROM catalog_searchword
WHERE word %% %s AND similarity(word, %s) >= %s AND EXISTS (
    SELECT 1 FROM catalog_resource AS resource
    WHERE resource.search_words @> ARRAY[word] AND resource.id IN ({visible})
)
ORDER BY similarity(word, %s) DESC, word
LIMIT 1
"""


def _nearest_postgres(word: str) -> str:
    visible, params = _visible_resources().order_by().values("id").query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(
            _WORDS_SQL.format(visible=visible),
            [word, word, SUGGEST_MIN_SIMILARITY, *params, word],
        )
        row = cursor.fetchone()
    return row[0] if row else word


def _nearest_python(word: str) -> str:
    from apps.catalog.selectors import VISIBLE  # which imports this module: read late

    vocabulary = memoized("search-vocabulary", _vocabulary, VISIBLE)
    if word in vocabulary:
        return word
    close = difflib.get_close_matches(word, vocabulary, n=1, cutoff=0.75)
    return close[0] if close else word


def _vocabulary() -> list[str]:
    """Every word of the visible resources' titles and authors, lowercased; per content version."""
    words = set()
    for title, author in _visible_resources().values_list("title", "author"):
        words.update(w for w in _PLAIN_WORD.findall(f"{title} {author}".lower()) if len(w) > 1)
    return sorted(words)


def _visible_resources():
    """What learners may see (apps.catalog.selectors, which imports this module: read late)."""
    from apps.catalog.selectors import visible_resources

    return visible_resources()
