"""Exports and imports through the one registry in limpet.exporters.

The service side gathers `ExportItem`s (thread + workspace name + the file's current bytes,
each file read once), applies the shared `ThreadFilter`, and hands them to the exporter; the
CLI, the MCP tool export_comments and the HTTP API all come through here. The exporters load
pyarrow (about 0.3 s): they are imported when an export runs, not when a server starts.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import stat
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Protocol

import msgspec

from limpet.model import InvalidArgument, LimpetError, Thread
from limpet.server.core._filters import ThreadFilter
from limpet.server.core._ids import utc_now
from limpet.server.core._provenance import Provenance, provenance_of
from limpet.server.store import (
    STORE_DIRNAME,
    Event,
    GitHistory,
    SafeDir,
    ThreadStore,
    Workspace,
    repository_facts,
    storage_failed,
)

if TYPE_CHECKING:
    from limpet.exporters import ExportItem

__all__ = ["EXPORT_SCHEME", "Exports", "ImportReport", "export_workspaces"]

INLINE_LIMIT = 64 * 1024  # text exports up to this size are also embedded in the MCP result
KEEP_EXPORTS = 20  # .limpet/exports/ is limpet's scratch space: older exports are pruned
EXPORT_SCHEME = "export://"


class ItemSource(Protocol):
    root: Path

    @property
    def repository(self) -> str: ...

    def export_items(self, flt: ThreadFilter, name: str | None = None, *,
                     with_source: bool = True) -> Iterator[ExportItem]: ...


class ImportReport(msgspec.Struct):
    imported: list[str] = msgspec.field(default_factory=list)
    unchanged: list[str] = msgspec.field(default_factory=list)
    conflicts: list[str] = msgspec.field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"imported": len(self.imported), "unchanged": len(self.unchanged), "conflicts": self.conflicts,
                "ids": self.imported}


def export_workspaces(sources: Sequence[ItemSource], fmt: str, flt: ThreadFilter,
                      out: str | os.PathLike[str] | IO[bytes], *, context_lines: int = 3,
                      include_source_context: bool = True, task: str = "comments", all_pairs: bool = False,
                      partition_by: Sequence[str] | str = (), progress: Callable[[int], None] | None = None,
                      names: Sequence[str] | None = None, **more: Any) -> Any:
    """Export the matching threads of one or more workspaces (services) into one output.
    `more`: the other ExportOptions (row_group_size, exported_at, split_shares, ...)."""
    from limpet.exporters import ExportOptions, Grouped, get_exporter

    exporter = get_exporter(fmt)
    github: dict[str, Any] = {}
    base = more.pop("base", None)
    if exporter.one_repository:
        if len(sources) > 1:
            raise InvalidArgument(f"A {fmt} export holds one workspace's threads (one repository, one commit)",
                                  field="workspace", details={"workspaces": len(sources)})
        github = in_repository(sources[0].root, base if fmt == "github-review" else None) if sources else {}
    if base is not None and fmt != "github-review":
        raise InvalidArgument("base goes with the github-review format", field="base")
    repositories = list(names) if names else distinct_repositories(sources)
    # A Delta table replaces these repositories' rows; a run with --since merges its rows instead.
    options = ExportOptions(context_lines=context_lines, include_source_context=include_source_context,
                            task=task, all_pairs=all_pairs, partition_by=partition_by,
                            repositories=tuple(repositories), upsert=flt.updated_since is not None,
                            **more, **github)  # validates every option

    files: set[str] = set()

    def noted(group: Iterable[ExportItem]) -> Iterator[ExportItem]:
        for item in group:
            files.add(item.thread.anchor.file)
            yield item

    groups = (noted(source.export_items(flt, names[i] if names else None, with_source=exporter.reads_source))
              for i, source in enumerate(sources))
    result = exporter.write(Grouped(groups), out, options, progress)  # one repository read at a time
    if options.head_commit and sources:
        warning = not_as_committed(sources[0].root, options.head_commit, files)
        result = msgspec.structs.replace(result, warnings=(*result.warnings, warning)) if warning else result
    return result


def not_as_committed(root: Path, commit: str, files: Iterable[str]) -> str | None:
    """A warning when files of an export for GitHub differ from the commit it names: GitHub
    places comments and alerts on that commit's lines, not the working tree's."""
    history = GitHistory.open(root)
    changed = history.changed_since(commit) if history is not None else None
    differ = sorted(set(files) & changed) if changed is not None else []
    if not differ:
        return None
    shown = ", ".join(differ[:5]) + (f" and {len(differ) - 5} more" if len(differ) > 5 else "")
    return (f"{len(differ)} file(s) differ from commit {commit[:12]} ({shown}): GitHub reads the lines "
            f"against that commit; commit (and push) first, or export from a clean checkout")


def in_repository(root: Path, base: str | None = None) -> dict[str, Any]:
    """Where GitHub finds the workspace's files: the commit checked out and the workspace
    folder's path in its repository (the options of the formats for GitHub); with `base`, the
    lines a pull request from HEAD into it shows (`diff_lines`)."""
    _remote, head, prefix = repository_facts(root)
    options: dict[str, Any] = {"head_commit": head, "repo_prefix": f"{prefix}/" if prefix else ""}
    if base is not None:
        history = GitHistory.open(root)
        lines = history.diff_lines(base) if history is not None and isinstance(base, str) else None
        if lines is None:
            raise InvalidArgument(f"{base!r} is not a commit or branch of this repository", field="base",
                                  suggestion="Give the pull request's base branch, e.g. origin/main.")
        options["diff_lines"] = tuple((path, tuple(ranges)) for path, ranges in sorted(lines.items()))
    return options


def distinct_repositories(sources: Sequence[ItemSource]) -> list[str]:
    """The repository identity of each source; INVALID_ARGUMENT when two different folders have
    the same (their rows would merge under one name, with duplicate ids)."""
    seen: dict[str, Path] = {}
    for source in sources:
        name = source.repository
        other = seen.setdefault(name, source.root)
        if other.resolve() != source.root.resolve():
            raise InvalidArgument(
                f"{other} and {source.root} are both repository {name!r}: their threads would merge",
                field="workspace", details={"repository": name, "workspaces": [str(other), str(source.root)]},
                suggestion="Give each checkout its origin remote (git remote add origin URL), or export them "
                           "apart.")
    return list(seen)


@functools.cache
def _export_names() -> re.Pattern[str]:
    """The names `to_folder` gives exports (and so the only ones `_prune` deletes)."""
    from limpet.exporters import FORMATS, get_exporter

    extensions = sorted({re.escape(get_exporter(f).extension) for f in FORMATS} - {""}, key=len, reverse=True)
    return re.compile(rf"comments-[0-9]{{8}}T[0-9]{{6,12}}Z?(?:-[0-9]{{1,6}})?(?:{'|'.join(extensions)})?")


def _fresh_name(folder: SafeDir, ext: str) -> str:
    stamp = utc_now().replace(":", "").replace("-", "").replace(".", "")
    name, n = f"comments-{stamp}{ext}", 1
    while folder.lstat(name) is not None:  # two exports in one millisecond
        n += 1
        name = f"comments-{stamp}-{n}{ext}"
    return name


def _prune(folder: SafeDir) -> None:
    """Keep the newest KEEP_EXPORTS exports: only names `to_folder` makes, only regular files
    (or real folders, for partitioned ones), only in the real exports folder."""
    made = _export_names()
    found = []
    for name in folder.names():
        st = folder.lstat(name) if made.fullmatch(name) else None
        if st is not None and (stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode)):
            found.append((st.st_mtime_ns, name, stat.S_ISDIR(st.st_mode)))
    for _mtime, name, is_dir in sorted(found)[:-KEEP_EXPORTS]:
        with contextlib.suppress(OSError):
            folder.remove_tree(name, made) if is_dir else folder.remove(name, made)


class Exports:
    """One workspace's side of exporting: its items, its exports folder, imports into it."""

    def __init__(self, ws: Workspace, store: ThreadStore, threads: Callable[[ThreadFilter], list[Thread]],
                 changed: Callable[[Iterable[Thread]], None], imported: Callable[[Thread], Event]) -> None:
        self._ws = ws
        self._store = store
        self._threads = threads  # the service's current threads for a filter
        self._changed = changed  # tells the service's listeners which threads were written
        self._imported = imported  # the event that writes an imported thread

    @functools.cached_property
    def provenance(self) -> Provenance:
        """The repository's identity and HEAD (core._provenance), asked of git once."""
        return provenance_of(self._ws.root)

    @property
    def workspace_name(self) -> str:
        """The folder's name, as people see it (the page, prompts)."""
        return self._ws.root.name or str(self._ws.root)

    @property
    def repository(self) -> str:
        """The workspace's name in exports: its repository's identity (core._provenance)."""
        return self.provenance.repository

    def items(self, flt: ThreadFilter, name: str | None = None, *, with_source: bool = True) -> Iterator[ExportItem]:
        """Threads (re-anchored first) with their file's current bytes, one read per file
        (none for a format that shows no code from them)."""
        from limpet.exporters import ExportItem, Origin

        name = name or self.repository
        origin = Origin(name, self.provenance.commit)
        current: tuple[str | None, bytes | None] = (None, None)
        for thread in self._threads(flt):
            if current[0] != thread.anchor.file:
                current = (thread.anchor.file, self._ws.read_or_none(thread.anchor.file) if with_source else None)
            yield ExportItem(thread=thread, workspace=name, source=current[1], origin=origin)

    def to_folder(self, fmt: str, flt: ThreadFilter, **options: Any) -> dict[str, Any]:
        """Export into .limpet/exports/ (git-ignored) and describe the file for a resource link
        (`export://<name>`, readable with `read`). The folder and every file in it are reached
        through the confinement layer: a symlink in `.limpet/` or `exports/` is STORE_ERROR."""
        from limpet.exporters import ExportOptions, get_exporter

        exporter = get_exporter(fmt)
        if exporter.one_repository:
            options.update(in_repository(self._ws.root))
        ext = "" if options.get("partition_by") else exporter.extension  # none: a folder (partitioned, Delta)
        files: set[str] = set()

        def items() -> Iterator[ExportItem]:
            for item in self.items(flt, with_source=exporter.reads_source):
                files.add(item.thread.anchor.file)
                yield item

        name = "comments-"
        try:
            with self._exports_folder() as folder:
                name = _fresh_name(folder, ext)
                if ext:  # one file: written by descriptor, renamed into place whole
                    with folder.atomic_file(name) as fh:
                        result = exporter.write(items(), fh, ExportOptions(**options))
                else:  # a folder: the library writes below a path checked to lead here
                    result = exporter.write(items(), folder.path_for_library(name), ExportOptions(**options))
                _prune(folder)
                text = folder.read(name).decode("utf-8") \
                    if ext and not exporter.binary and result.bytes_written <= INLINE_LIMIT else None
        except OSError as exc:  # disk full, read-only: a clear error, no half file left
            raise storage_failed(exc, f".limpet/exports/{name}") from None
        out: dict[str, Any] = {"format": fmt, "totalComments": result.count, "sizeBytes": result.bytes_written,
                               "path": f"{STORE_DIRNAME}/exports/{name}",
                               "uri": EXPORT_SCHEME + name, "mimeType": exporter.media_type}
        warning = not_as_committed(self._ws.root, options["head_commit"], files) \
            if options.get("head_commit") else None
        if warning:
            out["warnings"] = [warning]
        if text is not None:
            out["text"] = text
        return out

    def _exports_folder(self) -> SafeDir:
        """`.limpet/exports/`, made real if missing, ignoring itself (never committed, never
        untracked)."""
        folder = self._store.places.store.child("exports").open(create=True)
        assert folder is not None  # create=True
        try:
            if folder.regular_or_absent(".gitignore") is None:  # a symlink: refused
                folder.write_atomic(".gitignore", b"# limpet exports: scratch space, never committed\n*\n",
                                    durable=False)
        except BaseException:
            folder.close()
            raise
        return folder

    def read(self, uri: str) -> tuple[str, bytes]:
        """(media type, bytes) of an export written by `to_folder`; INVALID_ARGUMENT when the
        name is not one (it is never a path: no folders, nothing outside the exports)."""
        from limpet.exporters import FORMATS, get_exporter

        name = uri[len(EXPORT_SCHEME):]
        # the longest extension first: ".review.json" is github-review's, not json's
        exporter = next((e for e in sorted((get_exporter(f) for f in FORMATS), key=lambda e: -len(e.extension))
                         if e.extension and name.endswith(e.extension)), None)
        data = None
        if exporter is not None and _export_names().fullmatch(name):
            folder = self._store.places.store.child("exports").open()
            if folder is not None:
                with folder, contextlib.suppress(OSError):
                    data = folder.read(name)  # a regular file of a real folder, or nothing
        if exporter is None or data is None:
            raise InvalidArgument(f"Unknown export: {uri} (exports are kept for the last {KEEP_EXPORTS} only)",
                                  field="uri")
        return exporter.media_type, data

    @property
    def default_context_lines(self) -> int:
        """Lines of code around an anchor that an export includes unless told otherwise."""
        from limpet.exporters import ExportOptions

        return ExportOptions().context_lines

    def training_record(self, thread: Thread, context_lines: int) -> dict[str, Any]:
        """The JSONL record a training export writes for `thread` (0 context lines: none)."""
        import io

        import orjson

        from limpet.exporters import ExportItem, ExportOptions, get_exporter

        current = self._ws.read_or_none(thread.anchor.file)  # gone: the exporter handles None
        buffer = io.BytesIO()
        options = ExportOptions(context_lines=context_lines, include_source_context=context_lines > 0)
        get_exporter("jsonl").write([ExportItem(thread, self.repository, current)], buffer, options)
        return orjson.loads(buffer.getvalue().splitlines()[0])

    def _entries_for_here(self, pairs: list[tuple[str, Thread]], source: str | None) -> list[tuple[str, Thread]]:
        """The entries of an export that belong in this workspace: all of a one-workspace export
        (a copy may have another name), else those named `source`, else those of this
        workspace's repository (or folder, as older exports name it). None: refused, naming
        what the export holds: threads never land in a checkout that does not have their files."""
        names = list(dict.fromkeys(w for w, _ in pairs))
        if source is None and len(names) <= 1:
            return pairs
        wanted = [source] if source is not None else [self.repository, self.workspace_name]
        chosen = next((w for w in wanted if w in names), None)
        if chosen is None:
            raise InvalidArgument(
                f"The export holds workspaces {', '.join(names)}; none is "
                f"{wanted[0]!r}" + ("" if source else " (this workspace)"),
                field="source" if source else "workspace", details={"workspaces": names},
                suggestion="Import into each workspace its own threads: run the import there, or name the "
                           "export's workspace with --from.")
        return [(w, t) for w, t in pairs if w == chosen]

    def import_json(self, data: bytes, *, overwrite: bool = False, source: str | None = None) -> ImportReport:
        """Read a JSON export back, losslessly. A thread whose id already exists with other
        content is a conflict: kept as it is unless `overwrite`. An export of several
        workspaces brings in only the entries of this one (`source`: of that one instead)."""
        from limpet.exporters import read_json_export

        pairs, _header = read_json_export(data)
        report = ImportReport()
        incoming: list[Thread] = []
        for _workspace, thread in self._entries_for_here(pairs, source):
            rel = self._ws.normalize(thread.anchor.file, "file")  # refuse exports that escape the workspace
            if rel != thread.anchor.file:
                raise InvalidArgument(f"Thread {thread.id} has a non-canonical path {thread.anchor.file!r}",
                                      field="file")
            incoming.append(thread)
        with self._store.transaction():
            to_write = []
            for thread in incoming:
                if self._store.exists(thread.id):
                    try:
                        same = self._store.get(thread.id).to_record() == thread.to_record()
                    except LimpetError:  # deleted, damaged, newer: only an overwrite replaces it
                        same = False
                    if same:
                        report.unchanged.append(thread.id)
                        continue
                    if not overwrite:
                        report.conflicts.append(thread.id)
                        continue
                to_write.append(thread)
                report.imported.append(thread.id)
            written = self._store.append_many([(t.id, self._imported(t)) for t in to_write]) if to_write else []
        self._changed(t for t in written if t is not None)
        return report
