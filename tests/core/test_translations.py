"""The Chinese catalog: every message translated, placeholders kept, and the committed .mo (what
every way of running reads: `make run`, the Docker image, CI, none of which compile) the same
as its .po. Read with a small .po reader, so the test needs no gettext tools."""

import ast
import gettext
import re
from pathlib import Path

import pytest
from django.conf import settings

LOCALE = Path(settings.LOCALE_PATHS[0])
PO = LOCALE / "zh_Hans" / "LC_MESSAGES" / "django.po"
MO = LOCALE / "zh_Hans" / "LC_MESSAGES" / "django.mo"
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|%[sd]|\{\w*\}")
FIELD = re.compile(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?) (".*")$')


def _entries():
    """Each entry of the .po: {"flags": set, field name: text} (the header left out)."""
    entries = []
    for block in PO.read_text(encoding="utf-8").split("\n\n"):
        entry: dict = {"flags": set()}
        field = None
        for line in block.splitlines():
            if line.startswith("#,"):
                entry["flags"] |= {flag.strip() for flag in line[2:].split(",")}
            elif line.startswith("#") or not line.strip():
                continue
            elif match := FIELD.match(line):
                field = match.group(1)
                entry[field] = ast.literal_eval(match.group(2))
            else:
                entry[field] += ast.literal_eval(line)
        if entry.get("msgid"):
            entries.append(entry)
    return entries


def _key(entry) -> str:
    # How a .mo keys a message with a context: "context\x04message".
    return f"{entry['msgctxt']}\x04{entry['msgid']}" if "msgctxt" in entry else entry["msgid"]


def _translations(entry) -> list[str]:
    return [text for field, text in entry.items() if field.startswith("msgstr")]


def test_the_catalog_is_not_empty():
    assert len(_entries()) > 150


@pytest.mark.parametrize("entry", _entries(), ids=_key)
def test_every_message_is_translated_with_its_placeholders(entry):
    assert "fuzzy" not in entry["flags"]
    translations = _translations(entry)
    assert translations and all(text.strip() for text in translations)
    # A plural's one Chinese form may name the singular's or the plural's placeholders.
    wanted = [
        sorted(PLACEHOLDER.findall(entry[field]))
        for field in ("msgid", "msgid_plural")
        if field in entry
    ]
    for text in translations:
        assert sorted(PLACEHOLDER.findall(text)) in wanted


def test_the_committed_mo_is_the_po_compiled():
    """Fails when the .po was changed without `compilemessages` (see README, "Languages")."""
    with MO.open("rb") as file:
        compiled = gettext.GNUTranslations(file)
    catalog = {key: value for key, value in compiled._catalog.items() if key != ""}  # type: ignore[attr-defined]
    expected = {}
    for entry in _entries():
        if "msgid_plural" in entry:
            for index, text in enumerate(_translations(entry)):
                expected[(_key(entry), index)] = text
        else:
            expected[_key(entry)] = entry["msgstr"]
    assert catalog == expected
