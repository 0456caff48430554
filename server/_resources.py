"""comment:// resource documents: URIs parsed and validated like paths, JSON as seed 004 shows."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from limpet.anchoring import TAGS, InvalidArgument, Thread

from ._filters import ThreadFilter
from ._service import Service

__all__ = ["PREFIX", "file_uri", "parse_uri", "render_all", "resource_uris"]

PREFIX = "comment://workspace/"
SUFFIX = ".comments"


def file_uri(rel: str) -> str:
    return f"{PREFIX}{rel}{SUFFIX}"


def _grouped(threads: Iterable[Thread]) -> dict[str, Any]:
    files: dict[str, list[dict[str, Any]]] = {}
    count = 0
    for t in threads:
        files.setdefault(t.anchor.file, []).append(t.to_wire())
        count += 1
    return {"files": [{"filePath": f, "comments": c} for f, c in files.items()], "totalComments": count}


def _views(threads: list[Thread]) -> dict[str, list[Thread]]:
    views: dict[str, list[Thread]] = {
        f"{PREFIX}all": threads,
        f"{PREFIX}orphaned": [t for t in threads if t.health == "orphaned"],
        f"{PREFIX}ai-enriched": [t for t in threads if t.ai_meta],
    }
    for tag in TAGS:
        views[f"{PREFIX}tags/{tag}"] = [t for t in threads if t.tag == tag]
    return views


def render_all(threads: list[Thread]) -> dict[str, Any]:
    """Every resource document at once (one pass over the threads), for change detection."""
    docs = {uri: _grouped(ts) for uri, ts in _views(threads).items()}
    per_file: dict[str, list[Thread]] = {}
    for t in threads:
        per_file.setdefault(t.anchor.file, []).append(t)
    for rel, ts in per_file.items():
        docs[file_uri(rel)] = _file_doc(rel, ts)
    return docs


def _file_doc(rel: str, threads: list[Thread]) -> dict[str, Any]:
    return {"filePath": rel, "comments": [t.to_wire() for t in threads], "totalComments": len(threads)}


def parse_uri(service: Service, uri: str) -> dict[str, Any]:
    """The document behind `uri`, or INVALID_ARGUMENT / INVALID_PATH naming `uri`."""
    if not uri.startswith(PREFIX):
        raise InvalidArgument(f"Unknown resource: {uri}", field="uri")
    rest = uri[len(PREFIX):]
    if rest.endswith(SUFFIX) and len(rest) > len(SUFFIX):
        rel = service.normalize(rest[: -len(SUFFIX)], "uri")
        return _file_doc(rel, service.threads(ThreadFilter(file=rel)))
    if rest.startswith("tags/"):
        tag = rest[len("tags/"):]
        if tag not in TAGS:
            raise InvalidArgument(f"Unknown tag {tag!r}; expected one of {', '.join(TAGS)}", field="uri")
        return {"tag": tag, **_grouped(service.threads(ThreadFilter(tag=tag)))}
    threads = service.threads()
    views = _views(threads)
    if uri not in views:
        raise InvalidArgument(f"Unknown resource: {uri}", field="uri")
    return _grouped(views[uri])


def resource_uris(service: Service) -> list[tuple[str, str, str]]:
    """(uri, name, title) for the per-tag and per-file resources that exist now."""
    out = [(f"{PREFIX}tags/{tag}", f"tag-{tag.lower()}", f"{tag} comments") for tag in TAGS]
    files = sorted({t.anchor.file for t in service.threads(fresh=False)})
    out += [(file_uri(f), f"comments:{f}", f"Comments for {f}") for f in files]
    return out
