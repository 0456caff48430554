"""limpet.anchoring: the pure engine — bytes in, values out, no file or network I/O.

Public surface: building anchor records (`create_anchor`), re-anchoring them to changed code
(`reanchor`, the cascade, with a `WorkspaceIndex` for code that moved to other files),
candidates for an orphan, and the language registry and complexity figures the prompts use.
The records and errors it works with are limpet.model's.
"""

from limpet.anchoring._anchor import create_anchor, text_hash
from limpet.anchoring._candidates import Candidate, orphan_candidates
from limpet.anchoring._complexity import cyclomatic_complexity, measures_complexity
from limpet.anchoring._index import WorkspaceIndex
from limpet.anchoring._languages import language_for, language_for_path
from limpet.anchoring._reanchor import METHODS, Relocation, reanchor
from limpet.anchoring._symbols import Symbol
from limpet.model import content_hash

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
