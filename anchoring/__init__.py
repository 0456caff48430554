"""limpet.anchoring: the pure engine — bytes in, values out, no file or network I/O.

Public surface: building anchor records (`create_anchor`), re-anchoring them to changed code
(`reanchor`, the cascade, with a `WorkspaceIndex` for code that moved to other files),
candidates for an orphan, and the language registry and complexity figures the prompts use.
The records and errors it works with are limpet.model's.

Each name loads its module when first asked for (limpet.model.Deferred): a process that only creates an
anchor (`limpet add`) does not load the re-anchoring cascade, the workspace index or the
complexity measures.
"""

from types import ModuleType

from limpet.model import Deferred, content_hash


def _load_anchor() -> ModuleType:
    from limpet.anchoring import _anchor
    return _anchor


def _load_candidates() -> ModuleType:
    from limpet.anchoring import _candidates
    return _candidates


def _load_complexity() -> ModuleType:
    from limpet.anchoring import _complexity
    return _complexity


def _load_index() -> ModuleType:
    from limpet.anchoring import _index
    return _index


def _load_languages() -> ModuleType:
    from limpet.anchoring import _languages
    return _languages


def _load_reanchor() -> ModuleType:
    from limpet.anchoring import _reanchor
    return _reanchor


def _load_symbols() -> ModuleType:
    from limpet.anchoring import _symbols
    return _symbols


__getattr__ = _DEFERRED = Deferred(globals(), {
    _load_anchor: ("create_anchor", "text_hash"),
    _load_candidates: ("Candidate", "orphan_candidates"),
    _load_complexity: ("cyclomatic_complexity", "measures_complexity"),
    _load_index: ("Baseline", "WorkspaceIndex"),
    _load_languages: ("language_for", "language_for_path"),
    _load_reanchor: ("METHODS", "Relocation", "reanchor"),
    _load_symbols: ("Symbol",),
})
__dir__ = _DEFERRED.dir


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
