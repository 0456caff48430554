"""The budgets on what limpet reads from `.limpet/` and from its private folder.

Those files arrive through git from anyone (a clone is hostile) or sit in a folder anyone
could have filled: every one is measured against these budgets before it is parsed, folded
or handed to the engine. Each budget is spelled once, here; docs/torture.md shows them as
one table (`READ_BUDGETS`, checked by tests/test_read_budgets.py) and says what happens
over each.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = [
    "MAX_ANCHORED_TEXT",
    "MAX_COMPARED_TEXT",
    "MAX_CONTEXT_CHARS",
    "MAX_EVENTS",
    "MAX_FINGERPRINT",
    "MAX_MERGES",
    "MAX_NAME_CHARS",
    "MAX_NESTING",
    "MAX_RECORD_BYTES",
    "MAX_THREAD_FILE_BYTES",
    "READ_BUDGETS",
    "Budget",
]

MAX_THREAD_FILE_BYTES = 32 * 1024 * 1024
MAX_RECORD_BYTES = 16 * 1024 * 1024
MAX_NESTING = 64
MAX_EVENTS = 20_000
MAX_MERGES = 16
MAX_CONTEXT_CHARS = 240
MAX_NAME_CHARS = 1_000
MAX_FINGERPRINT = 64
MAX_ANCHORED_TEXT = 4 * 1024 * 1024
MAX_COMPARED_TEXT = 32 * 1024


class Budget(NamedTuple):
    name: str
    value: int
    unit: str
    of: str  # what is measured
    over: str  # what happens to an input over it


READ_BUDGETS: tuple[Budget, ...] = (
    Budget("MAX_THREAD_FILE_BYTES", MAX_THREAD_FILE_BYTES, "bytes", "one thread file (`.jsonl`, or `.json` of the "
           "older layout), measured by its size before it is read",
           "not read: the thread is STORE_CORRUPTED naming the file; the rest of the store is served"),
    Budget("MAX_RECORD_BYTES", MAX_RECORD_BYTES, "bytes", "one JSON record: an event line, an older-layout "
           "document, the review, `store.json`, a derived-cache row", "not parsed: the line is skipped and "
           "reported (file and line), a document restored from its backup, a cache row dropped and recomputed"),
    Budget("MAX_NESTING", MAX_NESTING, "levels", "objects and arrays nested in one record (`ai_meta`, history "
           "details), measured before parsing", "as MAX_RECORD_BYTES; a new event nested deeper is INVALID_ARGUMENT"),
    Budget("(duplicate keys)", 0, "repeats", "keys repeated in one object of a record (parsers keep the last "
           "one silently)", "as MAX_RECORD_BYTES: the record is refused, never applied"),
    Budget("(wide integers)", 0, "integers", "integers in a free-form value (`ai_meta`, history details) "
           "outside the signed and unsigned 64-bit range (JSON sets no bound; JSON writers keep no more)",
           "the thread is refused (reported), the rest served; a cache row dropped and recomputed"),
    Budget("MAX_EVENTS", MAX_EVENTS, "events", "events of one thread (its files together)",
           "the thread is not folded: STORE_CORRUPTED naming the file; the rest of the store is served"),
    Budget("MAX_MERGES", MAX_MERGES, "events", "`snapshot` events of one thread that merge a whole thread "
           "(one per migrated document; each costs a pass over the thread)",
           "the later ones are not applied, and reported"),
    Budget("MAX_CONTEXT_CHARS", MAX_CONTEXT_CHARS, "characters", "an anchor's `prefix` and `suffix` (the rows "
           "around it), each: the engine keeps no more when it creates one",
           "cut to the budget when read (a 1 MB suffix cost ~20 s of CPU a read, compared at every candidate)"),
    Budget("MAX_NAME_CHARS", MAX_NAME_CHARS, "characters", "an anchor's `symbol`, `symbol_name` and "
           "`symbol_kind`, each", "cut to the budget when read (a name is compared with every symbol's)"),
    Budget("MAX_FINGERPRINT", MAX_FINGERPRINT, "values", "an anchor's fingerprint (the engine keeps 32)",
           "the thread is refused (reported), the rest served"),
    Budget("MAX_ANCHORED_TEXT", MAX_ANCHORED_TEXT, "characters", "an anchor's `selected_text` and `lost_text`",
           "the thread is refused (reported), the rest served; a new thread anchoring more is INVALID_ARGUMENT"),
    Budget("MAX_COMPARED_TEXT", MAX_COMPARED_TEXT, "characters", "an anchor's `selected_text` compared in full "
           "with candidate code (each candidate of a step costs the text's length; the benchmarks' longest "
           "anchored span is 10 KB)", "compared through its fingerprint and hashes only, as lines inside a "
           "symbol are: a rename keeping the body is still followed, a rewrite is not (a 1 MB text against "
           "1,200 renamed functions cost ~42 s of CPU)"),
)
