"""Exports of many repositories in one bounded-memory pass each.

A data team exports hundreds of checkouts into one dataset. Holding a service (its store, its
positions) for each until the end costs the sum of them all (~7 KB a thread); here each
repository is opened when its turn comes, its threads are streamed to the exporter, its
derived positions are saved, and everything it loaded is collected before the next one
opens: the run costs its largest repository, not their sum. The repository's identity is
asked of git without opening the store, so the names are known (and checked distinct) first.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from typing import IO, TYPE_CHECKING, Any

from limpet.server.core._export import ItemSource, export_workspaces
from limpet.server.core._filters import ThreadFilter
from limpet.server.core._provenance import Provenance, provenance_of
from limpet.server.core._service import Service
from limpet.server.store import Workspace, collect_released

if TYPE_CHECKING:
    from limpet.exporters import ExportItem

__all__ = ["RepositorySource", "export_repositories", "repository_batches"]


class RepositorySource:
    """One workspace of an export, opened only while its threads are read."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Workspace(root).root  # checked: a folder that exists
        self._service: Service | None = None
        self._provenance: Provenance | None = None

    @property
    def repository(self) -> str:
        if self._provenance is None:
            self._provenance = provenance_of(self.root)
        return self._provenance.repository

    def count(self, flt: ThreadFilter) -> int:
        """How many threads match (the service stays open for the export that follows)."""
        return len(self._open().threads(flt))

    def _open(self) -> Service:
        if self._service is None:
            self._service = Service(self.root, one_shot=True)
        return self._service

    def export_items(self, flt: ThreadFilter, name: str | None = None, *,
                     with_source: bool = True) -> Iterator[ExportItem]:
        service = self._open()
        try:
            yield from service.export_items(flt, name or self.repository, with_source=with_source)
            service.flush()
        finally:
            self._service = service = None  # type: ignore[assignment]
            collect_released()


def export_repositories(sources: Sequence[RepositorySource], fmt: str, flt: ThreadFilter,
                        out: str | os.PathLike[str] | IO[bytes], *, file: str | None = None,
                        **options: Any) -> Any:
    """export_workspaces over repositories opened one at a time; `file`: a path or glob,
    normalized against the first workspace (INVALID_PATH there)."""
    if file is not None and sources:
        flt = ThreadFilter(**{**_fields(flt), "file": Workspace(sources[0].root).normalize(file, "file")})
    return export_workspaces(sources, fmt, flt, out, **options)


def _fields(flt: ThreadFilter) -> dict[str, Any]:
    return {name: getattr(flt, name) for name in flt.__slots__}


def repository_batches(source: ItemSource | str | os.PathLike[str], flt: ThreadFilter | None = None,
                       **options: Any) -> Iterator[Any]:
    """One repository's thread rows as Arrow record batches (limpet.exporters.DELTA_SCHEMA),
    re-anchored first, secrets redacted unless `keep_secrets`: what a Spark task or any other
    engine's worker computes for the repository it was given. `source`: a workspace's folder
    or a Service; `options`: ExportOptions."""
    from limpet.exporters import ExportOptions, Grouped, Redactor, thread_batches

    if isinstance(source, str | os.PathLike):
        source = RepositorySource(source)
    opts = ExportOptions(repositories=(source.repository,), **options)  # checked now, not at the first batch
    red = None if opts.keep_secrets else Redactor()
    return thread_batches(Grouped([source.export_items(flt or ThreadFilter(), with_source=False)]), opts, red)
