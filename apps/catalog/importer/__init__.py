"""Importing markdown reading lists into the catalog.

The public API (what admin, commands and tests use)::

    plan = plan_import(data, guide_slug="my-guide", title="My guide")  # bytes or str; reads, never writes
    print(plan.summary())              # sections, entries, new vs already-known resources, warnings
    result = apply_import(plan)        # one transaction; ``replace=True`` rebuilds an existing guide
    parse_guide(data)                  # the pure parse tree (ParsedGuide), no database at all
    plan_catalog().paths               # the bundled guides' reading paths (see ``paths``)
    normalize_url(url)                 # the catalog's URL identity

Bad input (empty, binary, undecodable, nothing that looks like a reading list, a
taken slug) raises ``CatalogImportError`` whose message can be shown as is.

Layout: ``text`` (decode + mojibake repair) → ``markdown`` (markdown-it-py: block tokens,
inline segments, HTML blocks as markdown, their tags read by ``html_tags``, html.parser) →
``events`` (block tokens flattened in reading order) → ``parser`` (the document as a reader
sees it: sections, items, what was skipped; one line's items are ``items``, with ``links``,
``titles`` and ``authors``; ``tables``; a guide's own paths and phased plans are ``plans``;
the tree is ``parsed``) → ``planner`` (uuids, dedupe, ``topics``, ``paths``) → ``builder``
(model instances, writes) / ``fixtures`` (serialized catalog); ``sync`` (a guide against a
newer version of its source: diff and apply).
"""

from apps.catalog.importer.builder import ImportResult, apply_import
from apps.catalog.importer.errors import CatalogImportError
from apps.catalog.importer.parsed import ParsedGuide
from apps.catalog.importer.parser import parse_guide
from apps.catalog.importer.paths import ReadingPath, ReadingPathStep
from apps.catalog.importer.planner import ImportPlan, plan_catalog, plan_import
from apps.catalog.importer.urls import normalize_url

__all__ = [
    "CatalogImportError",
    "ImportPlan",
    "ImportResult",
    "ParsedGuide",
    "ReadingPath",
    "ReadingPathStep",
    "apply_import",
    "normalize_url",
    "parse_guide",
    "plan_catalog",
    "plan_import",
]
