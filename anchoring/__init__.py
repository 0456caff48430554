"""limpet.anchoring: the pure engine — bytes in, values out, no file or network I/O.

Public surface: building anchor records (`create_anchor`), re-anchoring them to changed code
(`reanchor`, the cascade, with a `WorkspaceIndex` for code that moved to other files),
candidates for an orphan, and the language registry and complexity figures the prompts use.
The records and errors it works with are limpet.model's.

Each name loads its module when first asked for (PEP 562): a process that only creates an
anchor (`limpet add`) does not load the re-anchoring cascade, the workspace index or the
complexity measures.
"""

import importlib
from typing import Any

from limpet.model import content_hash

_HOMES = {
    "create_anchor": "_anchor", "text_hash": "_anchor",
    "Candidate": "_candidates", "orphan_candidates": "_candidates",
    "cyclomatic_complexity": "_complexity", "measures_complexity": "_complexity",
    "WorkspaceIndex": "_index",
    "language_for": "_languages", "language_for_path": "_languages",
    "METHODS": "_reanchor", "Relocation": "_reanchor", "reanchor": "_reanchor",
    "Symbol": "_symbols",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value  # asked once
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "METHODS",
    "Candidate",
    "Relocation",
    "Symbol",
    "WorkspaceIndex",
    "content_hash",
    "create_anchor",
    "cyclomatic_complexity",
    "language_for",
    "language_for_path",
    "measures_complexity",
    "orphan_candidates",
    "reanchor",
    "text_hash",
]
