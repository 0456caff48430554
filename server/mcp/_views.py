"""comment:// resource documents: URIs parsed and validated like paths, JSON as paired-comment clients read it.

A URI names a `View` (all, orphaned, ai-enriched, one tag, one file); `view_threads` gives
its threads and `render` its document, so reading and change detection share one definition.
File URIs are percent-encoded as RFC 6570 `{+filePath}` expands them (slashes kept).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, unquote

import msgspec

from limpet.model import TAGS, InvalidArgument, Thread
from limpet.server.core import Service, ThreadFilter

__all__ = ["PREFIX", "View", "file_uri", "parse_uri", "read_uri", "render", "resource_uris", "view_threads"]

PREFIX = "comment://workspace/"
SUFFIX = ".comments"
_RESERVED = "/:@!$&'()*+,;="  # kept as they are by `{+var}` expansion (minus ? and #, which end a path)
_NAMED = {"all": ThreadFilter(), "orphaned": ThreadFilter(health="orphaned"),
          "ai-enriched": ThreadFilter(has_ai_meta=True)}


class View(msgspec.Struct, frozen=True):
    kind: str  # "all" | "orphaned" | "ai-enriched" | "tag" | "file"
    arg: str | None = None  # the tag, or the workspace-relative file


def file_uri(rel: str) -> str:
    return f"{PREFIX}{quote(rel, safe=_RESERVED)}{SUFFIX}"


def parse_uri(service: Service, uri: str) -> View:
    """The view behind `uri`, or INVALID_ARGUMENT / INVALID_PATH naming `uri`."""
    if not uri.startswith(PREFIX):
        raise InvalidArgument(f"Unknown resource: {uri}", field="uri")
    rest = uri[len(PREFIX):]
    if rest.endswith(SUFFIX) and len(rest) > len(SUFFIX):
        # Decoded before validation, so %2e%2e/ is refused like ../ (INVALID_PATH).
        return View("file", service.normalize(unquote(rest[: -len(SUFFIX)]), "uri"))
    if rest.startswith("tags/"):
        tag = rest[len("tags/"):]
        if tag not in TAGS:
            raise InvalidArgument(f"Unknown tag {tag!r}; expected one of {', '.join(TAGS)}", field="uri")
        return View("tag", tag)
    if rest not in _NAMED:
        raise InvalidArgument(f"Unknown resource: {uri}", field="uri")
    return View(rest)


def view_threads(service: Service, view: View, *, fresh: bool = True) -> list[Thread]:
    if view.kind == "file":
        return service.threads(ThreadFilter(file=view.arg), fresh=fresh)
    if view.kind == "tag":
        return service.threads(ThreadFilter(tag=view.arg), fresh=fresh)
    if view.kind == "orphaned":  # health changes on re-anchoring: re-anchor everything, then filter
        return [t for t in service.threads(fresh=fresh) if t.health == "orphaned"]
    return service.threads(_NAMED[view.kind], fresh=fresh)


def render(view: View, threads: list[Thread]) -> dict[str, Any]:
    if view.kind == "file":
        return {"filePath": view.arg, "comments": [t.to_wire() for t in threads], "totalComments": len(threads)}
    files: dict[str, list[dict[str, Any]]] = {}
    for t in threads:
        files.setdefault(t.anchor.file, []).append(t.to_wire())
    doc = {"files": [{"filePath": f, "comments": c} for f, c in files.items()], "totalComments": len(threads)}
    return {"tag": view.arg, **doc} if view.kind == "tag" else doc


def read_uri(service: Service, uri: str) -> dict[str, Any]:
    view = parse_uri(service, uri)
    return render(view, view_threads(service, view))


def resource_uris(service: Service) -> list[tuple[str, str, str]]:
    """(uri, name, title) for the per-tag and per-file resources that exist now."""
    out = [(f"{PREFIX}tags/{tag}", f"tag-{tag.lower()}", f"{tag} comments") for tag in TAGS]
    files = sorted({t.anchor.file for t in service.threads(fresh=False)})
    out += [(file_uri(f), f"comments:{f}", f"Comments for {f}") for f in files]
    return out
