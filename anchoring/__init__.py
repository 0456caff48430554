"""limpet.anchoring: the pure engine — bytes in, values out, no file or network I/O.

Public surface: building anchor records (`create_anchor`), re-anchoring them to changed code
(`reanchor`, the cascade, with a `WorkspaceIndex` for code that moved to other files),
candidates for an orphan, and the language registry and complexity figures the prompts use.
The records and errors it works with are limpet.model's.

Each name loads its module when first asked for (PEP 562): a process that only creates an
anchor (`limpet add`) does not load the re-anchoring cascade, the workspace index or the
complexity measures.
"""

from types import ModuleType
from typing import Any

from limpet.model import content_hash


def _home(name: str) -> ModuleType | None:
    """The module that defines a public name (imported here, so the arrows stay visible)."""
    if name in ("create_anchor", "text_hash"):
        from limpet.anchoring import _anchor as home
    elif name in ("Candidate", "orphan_candidates"):
        from limpet.anchoring import _candidates as home
    elif name in ("cyclomatic_complexity", "measures_complexity"):
        from limpet.anchoring import _complexity as home
    elif name in ("Baseline", "WorkspaceIndex"):
        from limpet.anchoring import _index as home
    elif name in ("language_for", "language_for_path"):
        from limpet.anchoring import _languages as home
    elif name in ("METHODS", "Relocation", "reanchor"):
        from limpet.anchoring import _reanchor as home
    elif name == "Symbol":
        from limpet.anchoring import _symbols as home
    else:
        return None
    return home


def __getattr__(name: str) -> Any:
    home = _home(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(home, name)
    globals()[name] = value  # asked once
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "METHODS",
    "Baseline",
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
