"""Turning an uploaded guide (bytes or str) into clean text, or refusing it with a reason.

ftfy earns its place: the community guides were round-tripped through Windows-1252 at
some point (``ðŸ§ `` for 🧠, ``â€”`` for —) and it undoes that reliably, where a hand-made
replacement table would only ever know the sequences we happened to see.
"""

import ftfy

from apps.catalog.importer.errors import CatalogImportError

# Only repair encoding damage: keep curly quotes, full-width CJK punctuation and
# ligatures exactly as the author wrote them, and never unescape HTML in code samples.
_FTFY_CONFIG = ftfy.TextFixerConfig(
    unescape_html=False,
    uncurl_quotes=False,
    fix_character_width=False,
    fix_latin_ligatures=False,
)

_BINARY_CONTROLS = {chr(c) for c in range(0x20) if chr(c) not in "\t\n\r\f"}


def decode_source(data: bytes | str) -> str:
    """Decode and repair a guide's text; raise CatalogImportError for empty or binary input."""
    if isinstance(data, bytes):
        if b"\x00" in data:
            raise CatalogImportError("This looks like a binary file, not a markdown reading list.")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise CatalogImportError(
                f"The file is not UTF-8 text (undecodable byte at position {error.start}). "
                "Save it as UTF-8 and upload it again."
            ) from None
    else:
        text = data.removeprefix("\ufeff")
    if sum(ch in _BINARY_CONTROLS for ch in text[:4096]) > 8:
        raise CatalogImportError("This looks like a binary file, not a markdown reading list.")
    if not text.strip():
        raise CatalogImportError("The file is empty.")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return ftfy.fix_text(text, _FTFY_CONFIG)
