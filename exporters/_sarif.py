"""The SARIF export: SARIF 2.1.0 for GitHub code scanning (and any SARIF viewer).

One run, driver `limpet`, one rule per tag (levels: FIXME error, TODO warning, the others
note), one result per open thread: its rule, its level, the thread's body as the message, its
current lines as the region, and the thread id as a partial fingerprint, so code scanning
keeps one alert per thread from run to run however its lines move. An open orphan (its code
is gone) points at its file without a region: it is not placed on a line it no longer has.
Valid against the published SARIF 2.1.0 schema (tests/exporters/test_sarif.py). Paths are the
repository's (`repo_prefix` + the workspace path), relative to `%SRCROOT%`; the commit, when
known, is the run's `properties.revision`. See docs/github.md.
"""

from __future__ import annotations

from typing import Any

from limpet.exporters._github import PostedThreadsExporter
from limpet.exporters._types import ExportItem, ExportOptions
from limpet.model import TAGS, Thread

__all__ = ["SARIF_SCHEMA_URI", "SarifExporter"]

SARIF_SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
SRCROOT = "%SRCROOT%"
FINGERPRINT = "limpetThread/v1"
LEVELS = {"FIXME": "error", "TODO": "warning"}  # every other tag: note
_MEANING = {
    "TODO": "Work someone asked for and nobody has done yet.",
    "FIXME": "Code a reviewer found broken or wrong.",
    "NOTE": "A remark about the code: context, a caveat, an explanation.",
    "STAR": "Code a reviewer singled out as worth keeping or copying.",
    "QUESTION": "A question about the code still waiting for its answer.",
}
assert set(_MEANING) == set(TAGS)  # a new tag needs its sentence here


def level(tag: str) -> str:
    return LEVELS.get(tag, "note")


def _rule(tag: str) -> dict[str, Any]:
    return {
        "id": tag,
        "name": tag.capitalize(),
        "shortDescription": {"text": f"An open limpet thread tagged {tag}"},
        "fullDescription": {"text": _MEANING[tag]},
        "help": {"text": "A review thread kept by limpet: `limpet show THREAD_ID` shows it whole; "
                         "`limpet resolve THREAD_ID` closes it."},
        "defaultConfiguration": {"level": level(tag)},
        "properties": {"tags": ["limpet", tag.lower()]},
    }


def _location(thread: Thread, prefix: str) -> dict[str, Any]:
    a = thread.anchor
    physical: dict[str, Any] = {"artifactLocation": {"uri": prefix + a.file, "uriBaseId": SRCROOT}}
    if thread.health != "orphaned":
        physical["region"] = {"startLine": a.line_start, "endLine": a.line_end}
    location: dict[str, Any] = {"physicalLocation": physical}
    if a.symbol and thread.health != "orphaned":
        location["logicalLocations"] = [{"fullyQualifiedName": a.symbol, **({"kind": a.symbol_kind}
                                                                             if a.symbol_kind else {})}]
    return location


def _result(thread: Thread, prefix: str) -> dict[str, Any]:
    return {
        "ruleId": thread.tag,
        "ruleIndex": TAGS.index(thread.tag),
        "level": level(thread.tag),
        "message": {"text": thread.body},
        "locations": [_location(thread, prefix)],
        "partialFingerprints": {FINGERPRINT: thread.id},
        "properties": {"threadId": thread.id, "author": thread.author, "authorType": thread.author_type,
                       "health": thread.health, "replies": len(thread.comments) - 1,
                       "createdAt": thread.created_at},
    }


def sarif_log(items: list[ExportItem], options: ExportOptions) -> dict[str, Any]:
    run: dict[str, Any] = {
        "tool": {"driver": {"name": "limpet", "rules": [_rule(tag) for tag in TAGS]}},
        "columnKind": "unicodeCodePoints",
        "results": [_result(i.thread, options.repo_prefix) for i in items],
    }
    if options.head_commit:
        # repositoryUri is required there and limpet does not know it: the revision goes in the
        # run's properties instead (`gh` and the upload action name the commit themselves).
        run["properties"] = {"revision": options.head_commit}
    return {"$schema": SARIF_SCHEMA_URI, "version": "2.1.0", "runs": [run]}


class SarifExporter(PostedThreadsExporter):
    name = "sarif"
    media_type = "application/sarif+json"
    extension = ".sarif"

    def document(self, posted: list[ExportItem], options: ExportOptions) -> dict[str, Any]:
        return sarif_log(posted, options)
