"""Exports and imports through the one registry in limpet.exporters.

The service side gathers `ExportItem`s (thread + workspace name + the file's current bytes,
each file read once), applies the shared `ThreadFilter`, and hands them to the exporter; the
CLI, the MCP tool export_comments and the HTTP API all come through `export_threads`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from limpet.model import InvalidArgument, Thread
from limpet.server._filters import ThreadFilter
from limpet.server._ids import utc_now
from limpet.server._service import Service

__all__ = ["export_threads", "import_threads", "ImportReport", "export_items", "workspace_name", "export_to_folder",
           "read_export", "EXPORT_SCHEME"]


def workspace_name(service: Service) -> str:
    return service.ws.root.name or str(service.ws.root)


def export_items(service: Service, flt: ThreadFilter, name: str | None = None) -> Iterator[Any]:
    """Threads (re-anchored first) with their file's current bytes, one read per file."""
    from limpet.exporters import ExportItem

    name = name or workspace_name(service)
    current: tuple[str | None, bytes | None] = (None, None)
    for thread in service.threads(flt):
        if current[0] != thread.anchor.file:
            current = (thread.anchor.file, service.ws.read_or_none(thread.anchor.file))
        yield ExportItem(thread=thread, workspace=name, source=current[1])


def export_threads(
    services: Sequence[Service],
    fmt: str,
    flt: ThreadFilter,
    out: str | os.PathLike[str] | IO[bytes],
    *,
    context_lines: int = 3,
    include_source_context: bool = True,
    task: str = "comments",
    partition_by: Sequence[str] | str = (),
    progress: Callable[[int], None] | None = None,
    names: Sequence[str] | None = None,
) -> Any:
    """Export the matching threads of one or more workspaces into one output."""
    from limpet.exporters import ExportOptions, get_exporter

    exporter = get_exporter(fmt)
    options = ExportOptions(context_lines=context_lines, include_source_context=include_source_context,
                            task=task, partition_by=partition_by)  # validates every option

    def items() -> Iterator[Any]:
        for i, svc in enumerate(services):
            yield from export_items(svc, flt, names[i] if names else None)

    return exporter.write(items(), out, options, progress)


@dataclass
class ImportReport:
    imported: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"imported": len(self.imported), "unchanged": len(self.unchanged), "conflicts": self.conflicts,
                "ids": self.imported}


def import_threads(service: Service, data: bytes, *, overwrite: bool = False) -> ImportReport:
    """Read a JSON export back, losslessly. A thread whose id already exists with other
    content is a conflict: kept as it is unless `overwrite`."""
    from limpet.exporters import read_json_export

    pairs, _header = read_json_export(data)
    report = ImportReport()
    incoming: list[Thread] = []
    for _workspace, thread in pairs:
        rel = service.ws.normalize(thread.anchor.file, "file")  # refuse exports that escape the workspace
        if rel != thread.anchor.file:
            raise InvalidArgument(f"Thread {thread.id} has a non-canonical path {thread.anchor.file!r}", field="file")
        incoming.append(thread)
    with service.store.transaction():
        to_write = []
        for thread in incoming:
            if service.store.exists(thread.id):
                existing = service.store.get(thread.id)
                if existing.to_record() == thread.to_record():
                    report.unchanged.append(thread.id)
                    continue
                if not overwrite:
                    report.conflicts.append(thread.id)
                    continue
            to_write.append(thread)
            report.imported.append(thread.id)
        if to_write:
            service.store.put_many(to_write)
    service._notify({t.anchor.file for t in to_write})
    return report


INLINE_LIMIT = 64 * 1024  # text exports up to this size are also embedded in the MCP result
KEEP_EXPORTS = 20  # .limpet/exports/ is limpet's scratch space: older exports are pruned
EXPORT_SCHEME = "export://"


def export_to_folder(service: Service, fmt: str, flt: ThreadFilter, **options: Any) -> dict[str, Any]:
    """Export into .limpet/exports/ (git-ignored) and describe the file for a resource link
    (`export://<name>`, readable with resources/read; see `read_export`)."""
    from limpet.exporters import get_exporter

    exporter = get_exporter(fmt)
    folder = service.store.dir / "exports"
    folder.mkdir(parents=True, exist_ok=True)
    stamp = utc_now().replace(":", "").replace("-", "").replace(".", "")
    ext = exporter.extension.lstrip(".")
    path = folder / f"comments-{stamp}.{ext}"
    n = 1
    while path.exists():  # two exports in one millisecond
        n += 1
        path = folder / f"comments-{stamp}-{n}.{ext}"
    result = export_threads([service], fmt, flt, path, **options)
    _prune(folder)
    out: dict[str, Any] = {"format": fmt, "totalComments": result.count, "sizeBytes": result.bytes_written,
                           "path": path.relative_to(service.ws.root).as_posix(),
                           "uri": EXPORT_SCHEME + path.name, "mimeType": exporter.media_type}
    if not exporter.binary and result.bytes_written <= INLINE_LIMIT:
        out["text"] = path.read_text(encoding="utf-8")
    return out


def _prune(folder: Any) -> None:
    files = sorted((p for p in folder.iterdir() if p.is_file() and p.name.startswith("comments-")),
                   key=lambda p: p.stat().st_mtime_ns)
    for old in files[:-KEEP_EXPORTS]:
        old.unlink(missing_ok=True)


def read_export(service: Service, uri: str) -> tuple[str, bytes]:
    """(media type, bytes) of an export written by `export_to_folder`; INVALID_ARGUMENT when
    the name is not one (it is never a path: no folders, nothing outside the exports)."""
    from limpet.exporters import FORMATS, get_exporter

    name = uri[len(EXPORT_SCHEME):]
    by_ext = {get_exporter(f).extension: get_exporter(f) for f in FORMATS}
    exporter = by_ext.get("." + name.rsplit(".", 1)[-1]) if "." in name else None
    path = service.store.dir / "exports" / name
    if exporter is None or not name.startswith("comments-") or "/" in name or "\\" in name or path.is_symlink() \
            or not path.is_file():
        raise InvalidArgument(f"Unknown export: {uri} (exports are kept for the last {KEEP_EXPORTS} only)",
                              field="uri")
    return exporter.media_type, path.read_bytes()
