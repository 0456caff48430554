"""The current review and the page's selection: stored in the workspace, anchored by the engine.

One review per workspace lives in `.limpet/reviews/current.json` (committed text,
schema-versioned, written under the store lock like threads). Each `file:line` reference in
it is anchored with `create_anchor` when it is written and re-anchored with `reanchor` when
its file changed, so it keeps pointing at the same code; a reference whose code is gone is
`orphaned` and keeps its last line. Those current positions are derived: they are kept in the
store's private folder (`review.json`), never written back into the committed review.

The selection the web page reports lives in the private folder too (`selection.json`,
disposable, never committed), so an agent connected over stdio (another process) sees it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import unquote, urlparse

import msgspec
import orjson

from limpet.anchoring import create_anchor
from limpet.model import (
    HEALTHS,
    MAX_LINE,
    Anchor,
    InvalidArgument,
    InvalidPath,
    LimpetError,
    StorageFailed,
    StoreTooNew,
)
from limpet.server.core._ids import utc_now
from limpet.server.core._reconcile import Reconciler
from limpet.server.core._review_text import Edit, Reference, apply_mode, find_references
from limpet.server.core._validation import invalid_argument_from_decoding
from limpet.server.store import ThreadStore, Workspace

__all__ = ["Reviews", "check_review"]

REVIEW_DOC = "reviews/current.json"
REVIEW_SCHEMA = 1
POSITIONS_DOC = "review.json"  # in the private folder
SELECTION_DOC = "selection.json"  # in the private folder


class Reviews:
    """The workspace's current review and the page's selection (see the module docstring)."""

    def __init__(self, ws: Workspace, store: ThreadStore, reconciler: Reconciler,
                 changed: Callable[[], None]) -> None:
        self._ws = ws
        self._store = store
        self._reconciler = reconciler
        self._changed = changed  # tells the service's listeners the review changed

    # -- the review -------------------------------------------------------------------------------
    def present(self, content: str, base_uri: str, mode: str, section: str | None) -> dict[str, Any]:
        """Apply `content` to the current review; references in new text are anchored now,
        references in the untouched rest keep their anchors (they may have moved since)."""
        prefix = self._base_prefix(base_uri)
        with self._store.transaction():
            doc = self._current_doc() or {}
            edit = apply_mode(doc.get("content", ""), content, mode, section)
            refs = self._references(doc, edit, prefix)
            doc = {"schema": REVIEW_SCHEMA, "content": edit.content, "base_uri": base_uri, "updated_at": utc_now(),
                   "revision": int(doc.get("revision", 0)) + 1, "references": refs}
            self._refresh(doc)  # kept references report where their code is now
            self._store.documents.write(REVIEW_DOC, doc)
        self._changed()
        wire = _wire(doc)
        orphans = sum(r["health"] == "orphaned" for r in wire["references"])
        message = f"Review presented ({mode}): {len(refs)} reference(s)" + (f", {orphans} orphaned" if orphans else "")
        if edit.note:
            message += f". {edit.note}"
        return {"success": True, "message": message, **wire}

    def _references(self, doc: dict[str, Any], edit: Edit, prefix: str) -> list[dict[str, Any]]:
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
                refs.append(self._anchor_reference(prefix, ref))
        return refs

    def current(self) -> dict[str, Any]:
        """The review as served (GET /api/review, review://current), positions re-anchored
        (kept in the private folder: reading never changes the committed review)."""
        doc = self._current_doc()
        if doc is None:
            return {"content": "", "updated_at": None, "references": []}
        if self._stale(doc) and self._refresh(doc):
            self._store.documents.write_private(POSITIONS_DOC, {"key": _key(doc), "references": doc["references"]})
        return _wire(doc)

    def _current_doc(self) -> dict[str, Any] | None:
        """The committed review with its references checked like tool input (a reference that
        is not is shown orphaned), and the positions last derived for it, when known."""
        doc = self._store.documents.read(REVIEW_DOC, check_review)
        if doc is None:
            return None
        doc["references"] = [self._sane(r) for r in doc["references"]]
        derived = self._store.documents.read_private(POSITIONS_DOC)
        if isinstance(derived, dict) and derived.get("key") == _key(doc) and \
                isinstance(derived.get("references"), list) and len(derived["references"]) == len(doc["references"]):
            doc["references"] = [self._sane(r) if isinstance(r, dict) else doc["references"][i]
                                 for i, r in enumerate(derived["references"])]
        return doc

    def _sane(self, ref: dict[str, Any]) -> dict[str, Any]:
        """A stored reference as tool input would be: its paths canonical, its anchor a valid
        record; otherwise it is kept as an orphaned reference with its text, nothing read."""
        try:
            anchor = _ANCHOR.decode(orjson.dumps(ref["anchor"])) if ref.get("anchor") else None
            for path in (ref["file"], *((anchor.file,) if anchor else ())):
                if self._ws.normalize(path, "content") != path:
                    raise ValueError("not a canonical path")
            line, line_end = ref["line"], ref["line_end"]
            if not (isinstance(line, int) and isinstance(line_end, int) and 1 <= line <= MAX_LINE
                    and 1 <= line_end <= MAX_LINE and ref.get("health") in HEALTHS):
                raise ValueError("bad line or health")
        except (LimpetError, ValueError, TypeError, KeyError, AttributeError, orjson.JSONEncodeError):
            return {"text": str(ref.get("text", ""))[:500], "offset": ref.get("offset"), "file": "", "line": 1,
                    "line_end": 1, "health": "orphaned", "anchor": None, "symbol": None,
                    "problem": "INVALID_ARGUMENT: the stored reference is not valid"}
        return ref

    # -- anchoring --------------------------------------------------------------------------------
    def _base_prefix(self, base_uri: str) -> str:
        """The workspace-relative folder references are relative to ('' for the root)."""
        root = self._ws.root
        raw = base_uri.strip()
        if raw.startswith("file:"):
            raw = unquote(urlparse(raw).path)
        if raw in ("", ".", "./"):
            return ""
        path = Path(raw)
        if path.is_absolute():
            try:
                rel = path.resolve().relative_to(root).as_posix()
            except ValueError:
                raise InvalidPath("baseUri is outside the workspace", field="baseUri",
                                  details={"baseUri": base_uri, "workspace": str(root)},
                                  suggestion=f"Pass the workspace root ({root}) or '.'") from None
            raw = rel  # inside the workspace: checked below like any other path (.git/, .limpet/ ...)
        if raw in ("", ".", "./"):
            return ""
        return self._ws.normalize(raw, "baseUri")

    def _anchor_reference(self, prefix: str, ref: Reference) -> dict[str, Any]:
        record: dict[str, Any] = {"text": ref.text, "offset": ref.start, "file": ref.path, "line": ref.line,
                                  "line_end": ref.line_end, "health": "orphaned", "anchor": None, "symbol": None}
        try:
            joined = ref.path if Path(ref.path).is_absolute() or not prefix else f"{prefix}/{ref.path}"
            rel = self._ws.normalize(joined, "content")
            record["file"] = rel
            anchor = create_anchor(rel, self._ws.read(rel, "content"), ref.line, ref.line_end)
        except LimpetError as exc:
            # A bad reference never fails the review: it is shown as orphaned, with the reason.
            record["problem"] = f"{exc.code}: {exc.message}"
            return record
        return {**record, **_position(anchor), "health": "anchored", "anchor": anchor.to_dict(),
                "checked": anchor.content_hash}

    def _stale(self, doc: dict[str, Any]) -> bool:
        hashes = self._reconciler.hashes
        return any(r.get("anchor") and hashes.hash_of(r["anchor"]["file"]) != r.get("checked")
                   for r in doc.get("references", []))

    def _refresh(self, doc: dict[str, Any]) -> bool:
        """Re-anchor references whose file changed since they were last checked."""
        hashes, changed = self._reconciler.hashes, False
        for r in doc.get("references", []):
            if not r.get("anchor"):
                continue
            digest = hashes.hash_of(r["anchor"]["file"])
            if digest == r.get("checked"):
                continue
            if not changed:  # the workspace index lets a reference follow code moved to another file
                self._reconciler.sync_index()
            moved = self._reconciler.relocate(Anchor.from_dict(r["anchor"]))
            r.update(_position(moved.anchor), health=moved.health, anchor=moved.anchor.to_dict(),
                     checked=hashes.hash_of(moved.anchor.file) if moved.health != "orphaned" else digest)
            changed = True
        return changed

    # -- selection --------------------------------------------------------------------------------
    def selection(self) -> dict[str, Any]:
        """{"selection": {...} | None, "active_file": str | None} as the page last reported it."""
        data = self._store.documents.read_private(SELECTION_DOC)
        if not isinstance(data, dict):
            return {"selection": None, "active_file": None}
        return {"selection": data.get("selection"), "active_file": data.get("active_file")}

    def report_selection(self, report: Any) -> dict[str, Any]:
        """Store what the page says is selected ({"selection": {file, line_start, line_end,
        text} | null, "active_file": path | null}), checked like tool input; returns it."""
        selection, active = self._checked_selection(report)
        # Ephemeral, not data: atomic (readers never see half a file), never committed.
        record = {"selection": selection, "active_file": active, "updated_at": utc_now()}
        if not self._store.documents.write_private(SELECTION_DOC, record):
            raise StorageFailed("Could not keep the selection: limpet's private folder cannot be written; "
                                "nothing was written", details={"file": SELECTION_DOC})
        return {"selection": selection, "active_file": active}

    def _checked_selection(self, body: Any) -> tuple[dict[str, Any] | None, str | None]:
        try:
            report = msgspec.convert(body, _SelectionReport, strict=False)  # "5" reads as 5, as from a form
        except msgspec.ValidationError as exc:
            raise invalid_argument_from_decoding(exc) from None
        active = self._ws.normalize(report.active_file, "active_file") if report.active_file else None
        sel = report.selection
        if sel is None:
            return None, active
        if sel.line_end < sel.line_start:
            raise InvalidArgument("Selection lines must satisfy 1 <= line_start <= line_end",
                                  field="selection.line_start")
        file = self._ws.normalize(sel.file, "selection.file")
        return {**msgspec.to_builtins(sel), "file": file}, active

    def clear_selection(self) -> None:
        self._store.documents.remove_private(SELECTION_DOC)


class _SelectionIn(msgspec.Struct, forbid_unknown_fields=True):
    file: Annotated[str, msgspec.Meta(min_length=1, max_length=4096)]
    line_start: Annotated[int, msgspec.Meta(ge=1)]
    line_end: Annotated[int, msgspec.Meta(ge=1)]
    text: Annotated[str, msgspec.Meta(max_length=200_000)]


class _SelectionReport(msgspec.Struct, forbid_unknown_fields=True):
    selection: _SelectionIn | None = None
    active_file: Annotated[str, msgspec.Meta(max_length=4096)] | None = None


_ANCHOR = msgspec.json.Decoder(Anchor)  # strict: JSON's types, as tool input
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


def _key(doc: dict[str, Any]) -> list[Any]:
    return [doc.get("revision"), doc.get("updated_at")]


def _wire(doc: dict[str, Any]) -> dict[str, Any]:
    refs = [{"text": r["text"], "file": r["file"], "line": r["line"], "line_end": r["line_end"],
             "health": r["health"], "symbol": r.get("symbol")} for r in doc.get("references", [])]
    return {"content": doc.get("content", ""), "updated_at": doc.get("updated_at"), "references": refs}


def _position(anchor: Anchor) -> dict[str, Any]:
    return {"file": anchor.file, "line": anchor.line_start, "line_end": anchor.line_end, "symbol": anchor.symbol}
