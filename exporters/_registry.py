"""Format name -> exporter. The service, CLI and MCP tool look formats up only here."""

from __future__ import annotations

from limpet.exporters._json import JsonExporter
from limpet.exporters._jsonl import JsonlExporter
from limpet.exporters._markdown import MarkdownExporter
from limpet.exporters._parquet import ParquetExporter
from limpet.exporters._types import Exporter
from limpet.model import InvalidArgument

__all__ = ["FORMATS", "get_exporter"]

_EXPORTERS: dict[str, Exporter] = {
    e.name: e for e in (JsonExporter(), MarkdownExporter(), JsonlExporter(), ParquetExporter())
}
FORMATS: tuple[str, ...] = tuple(_EXPORTERS)


def get_exporter(fmt: str) -> Exporter:
    """The exporter for `fmt` (one of FORMATS); INVALID_ARGUMENT on field "format" otherwise."""
    exporter = _EXPORTERS.get(fmt) if isinstance(fmt, str) else None
    if exporter is None:
        raise InvalidArgument(
            f"Unknown export format {fmt!r}; expected one of {', '.join(FORMATS)}",
            field="format",
            details={"allowed": list(FORMATS), "value": fmt},
        )
    return exporter
