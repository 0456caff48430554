"""Format name -> exporter. The service, CLI and MCP tool look formats up only here.

Exporters are built on first use: Parquet loads pyarrow (about 0.3 s), which a server
answering its first call, or a JSON export, should not pay for.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from limpet.exporters._base import Exporter
from limpet.exporters._types import FORMATS
from limpet.model import InvalidArgument

__all__ = ["FORMATS", "get_exporter"]


def _json() -> Exporter:
    from limpet.exporters._json import JsonExporter

    return JsonExporter()


def _markdown() -> Exporter:
    from limpet.exporters._markdown import MarkdownExporter

    return MarkdownExporter()


def _jsonl() -> Exporter:
    from limpet.exporters._jsonl import JsonlExporter

    return JsonlExporter()


def _parquet() -> Exporter:
    from limpet.exporters._parquet import ParquetExporter

    return ParquetExporter()


def _delta() -> Exporter:
    from limpet.exporters._delta import DeltaExporter

    return DeltaExporter()


def _github_review() -> Exporter:
    from limpet.exporters._github import GithubReviewExporter

    return GithubReviewExporter()


def _sarif() -> Exporter:
    from limpet.exporters._sarif import SarifExporter

    return SarifExporter()


_FACTORIES: dict[str, Callable[[], Exporter]] = {"json": _json, "markdown": _markdown, "jsonl": _jsonl,
                                                 "parquet": _parquet, "delta": _delta, "github-review": _github_review,
                                                 "sarif": _sarif}
assert tuple(_FACTORIES) == FORMATS  # one format, one exporter


@cache
def _built(fmt: str) -> Exporter:
    return _FACTORIES[fmt]()


def get_exporter(fmt: str) -> Exporter:
    """The exporter for `fmt` (one of FORMATS); INVALID_ARGUMENT on field "format" otherwise."""
    if not isinstance(fmt, str) or fmt not in _FACTORIES:
        raise InvalidArgument(
            f"Unknown export format {fmt!r}; expected one of {', '.join(FORMATS)}",
            field="format",
            details={"allowed": list(FORMATS), "value": fmt},
        )
    return _built(fmt)
