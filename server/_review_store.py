"""The current review and the page's selection: stored in the workspace, anchored by the engine.

One review per workspace lives in `.limpet/reviews/current.json` (text, schema-versioned,
backed up, written under the store lock like threads). Each `file:line` reference in it is
anchored with `create_anchor` when it is written and re-anchored with `reanchor` when its
file changed, so it keeps pointing at the same code; a reference whose code is gone is
`orphaned` and keeps its last line.

The selection the web page reports lives in `.limpet/cache/selection.json` (disposable, not
committed), so an agent connected over stdio (another process) still sees it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlparse

import orjson

from limpet.anchoring import create_anchor
from limpet.model import Anchor, InvalidPath, LimpetError, StoreTooNew
from limpet.server._files import atomic_write
from limpet.server._ids import utc_now
from limpet.server._review import Reference, apply_mode, find_references

if TYPE_CHECKING:
    from limpet.server._service import Service

__all__ = ["REVIEW_DOC", "REVIEW_CHANGED", "check_review", "present", "current", "read_selection", "write_selection",
           "clear_selection"]

REVIEW_DOC = "reviews/current.json"
REVIEW_SCHEMA = 1
# What service listeners receive when the review changes (not a workspace file: a store document).
REVIEW_CHANGED = ".limpet/reviews/current.json"
SELECTION_DOC = "cache/selection.json"


def present(svc: Service, content: str, base_uri: str, mode: str, section: str | None) -> dict[str, Any]:
    """Apply `content` to the current review; references in new text are anchored now,
    references in the untouched rest keep their anchors (they may have moved since)."""
    prefix = _base_prefix(svc, base_uri)
    with svc.store.transaction():
        doc = svc.store.read_document(REVIEW_DOC, check_review) or {}
        edit = apply_mode(doc.get("content", ""), content, mode, section)
        by_offset = {r.get("offset"): r for r in doc.get("references", [])}
        refs = []
        for ref in find_references(edit.content):
            kept = None
            if ref.end <= edit.new_start:
                kept = by_offset.get(ref.start)
            elif ref.start >= edit.new_end:
                kept = by_offset.get(ref.start - edit.new_end + edit.old_end)
            if kept is not None and kept.get("text") == ref.text:
                refs.append({**kept, "offset": ref.start})
            else:
                refs.append(_anchor_reference(svc, prefix, ref))
        doc = {"schema": REVIEW_SCHEMA, "content": edit.content, "base_uri": base_uri, "updated_at": utc_now(),
               "revision": int(doc.get("revision", 0)) + 1, "references": refs}
        _refresh(svc, doc)  # kept references report where their code is now
        svc.store.write_document(REVIEW_DOC, doc)
    svc.notify({REVIEW_CHANGED})
    wire = _wire(doc)
    orphans = sum(r["health"] == "orphaned" for r in wire["references"])
    message = f"Review presented ({mode}): {len(refs)} reference(s)" + (f", {orphans} orphaned" if orphans else "")
    if edit.note:
        message += f". {edit.note}"
    return {"success": True, "message": message, **wire}


def current(svc: Service) -> dict[str, Any]:
    """The review as served (GET /api/review, review://current), positions re-anchored."""
    doc = svc.store.read_document(REVIEW_DOC, check_review)
    if doc is None:
        return {"content": "", "updated_at": None, "references": []}
    if _stale(svc, doc):
        with svc.store.transaction():
            doc = svc.store.read_document(REVIEW_DOC, check_review) or doc
            if _refresh(svc, doc):
                svc.store.write_document(REVIEW_DOC, doc)
    return _wire(doc)


_REFERENCE_KEYS = frozenset({"text", "file", "line", "line_end", "health"})


def check_review(doc: dict[str, Any]) -> None:
    """The stored review's shape: StoreTooNew for a newer schema, ValueError when corrupt."""
    version = doc.get("schema")
    if not isinstance(version, int):
        raise ValueError("missing schema version")
    if version > REVIEW_SCHEMA:
        raise StoreTooNew(f"The review was written by a newer limpet (schema {version})",
                          details={"schema": version, "supported": REVIEW_SCHEMA, "file": f".limpet/{REVIEW_DOC}"})
    refs = doc.get("references")
    if not isinstance(doc.get("content"), str) or not isinstance(refs, list) or not all(
            isinstance(r, dict) and _REFERENCE_KEYS <= r.keys() for r in refs):
        raise ValueError("not a review document")


def _wire(doc: dict[str, Any]) -> dict[str, Any]:
    refs = [{"text": r["text"], "file": r["file"], "line": r["line"], "line_end": r["line_end"],
             "health": r["health"], "symbol": r.get("symbol")} for r in doc.get("references", [])]
    return {"content": doc.get("content", ""), "updated_at": doc.get("updated_at"), "references": refs}


# -- anchoring -----------------------------------------------------------------------------------
def _base_prefix(svc: Service, base_uri: str) -> str:
    """The workspace-relative folder references are relative to ('' for the root)."""
    raw = base_uri.strip()
    if raw.startswith("file:"):
        raw = unquote(urlparse(raw).path)
    if raw in ("", ".", "./"):
        return ""
    path = Path(raw)
    if path.is_absolute():
        try:
            rel = path.resolve().relative_to(svc.ws.root).as_posix()
        except ValueError:
            raise InvalidPath("baseUri is outside the workspace", field="baseUri",
                              details={"baseUri": base_uri, "workspace": str(svc.ws.root)},
                              suggestion=f"Pass the workspace root ({svc.ws.root}) or '.'") from None
        raw = rel  # inside the workspace: checked below like any other path (.git/, .limpet/ ...)
    if raw in ("", ".", "./"):
        return ""
    return svc.ws.normalize(raw, "baseUri")


def _anchor_reference(svc: Service, prefix: str, ref: Reference) -> dict[str, Any]:
    record: dict[str, Any] = {"text": ref.text, "offset": ref.start, "file": ref.path, "line": ref.line,
                              "line_end": ref.line_end, "health": "orphaned", "anchor": None, "symbol": None}
    try:
        joined = ref.path if Path(ref.path).is_absolute() or not prefix else f"{prefix}/{ref.path}"
        rel = svc.ws.normalize(joined, "content")
        record["file"] = rel
        anchor = create_anchor(rel, svc.ws.read(rel, "content"), ref.line, ref.line_end)
    except LimpetError as exc:
        # A bad reference never fails the review: it is shown as orphaned, with the reason.
        record["problem"] = f"{exc.code}: {exc.message}"
        return record
    return {**record, **_position(anchor), "health": "anchored", "anchor": anchor.to_dict(),
            "checked": anchor.content_hash}


def _position(anchor: Anchor) -> dict[str, Any]:
    return {"file": anchor.file, "line": anchor.line_start, "line_end": anchor.line_end, "symbol": anchor.symbol}


def _stale(svc: Service, doc: dict[str, Any]) -> bool:
    hashes = svc.reconciler.hashes
    return any(r.get("anchor") and hashes.hash_of(r["anchor"]["file"]) != r.get("checked")
               for r in doc.get("references", []))


def _refresh(svc: Service, doc: dict[str, Any]) -> bool:
    """Re-anchor references whose file changed since they were last checked."""
    from limpet.anchoring import reanchor

    hashes, changed, primed = svc.reconciler.hashes, False, False
    for r in doc.get("references", []):
        if not r.get("anchor"):
            continue
        digest = hashes.hash_of(r["anchor"]["file"])
        if digest == r.get("checked"):
            continue
        if not primed:  # the workspace index lets a reference follow code moved to another file
            svc.reconciler.index.update(hashes.workspace_hashes(), svc.ws.read_or_none)
            primed = True
        moved = reanchor(Anchor.from_dict(r["anchor"]), svc.ws.read_or_none(r["anchor"]["file"]),
                         svc.reconciler.index)
        r.update(_position(moved.anchor), health=moved.health, anchor=moved.anchor.to_dict(),
                 checked=hashes.hash_of(moved.anchor.file) if moved.health != "orphaned" else digest)
        changed = True
    return changed


# -- selection -------------------------------------------------------------------------------------
def read_selection(svc: Service) -> dict[str, Any]:
    """{"selection": {...} | None, "active_file": str | None} as the page last reported it."""
    try:
        data = orjson.loads((svc.store.dir / SELECTION_DOC).read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return {"selection": None, "active_file": None}
    if not isinstance(data, dict):
        return {"selection": None, "active_file": None}
    return {"selection": data.get("selection"), "active_file": data.get("active_file")}


def write_selection(svc: Service, selection: dict[str, Any] | None, active_file: str | None) -> None:
    # A cache, not data: atomic (readers never see half a file) but not fsynced or backed up.
    record = {"selection": selection, "active_file": active_file, "updated_at": utc_now()}
    atomic_write(svc.store.dir / SELECTION_DOC, orjson.dumps(record, option=orjson.OPT_SORT_KEYS), durable=False)


def clear_selection(svc: Service) -> None:
    (svc.store.dir / SELECTION_DOC).unlink(missing_ok=True)
