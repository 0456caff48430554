"""Shared benchmark helpers: synthetic workspaces, percentiles, result rows."""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from pathlib import Path


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def median(values: list[float]) -> float:
    return statistics.median(values)


@dataclass
class Row:
    workload: str
    limpet: str
    reference: str
    ratio: float | None
    target: str
    met: bool | None

    def markdown(self) -> str:
        ratio = "—" if self.ratio is None else f"{self.ratio:.2f}×"
        met = "—" if self.met is None else ("yes" if self.met else "**no**")
        return f"| {self.workload} | {self.limpet} | {self.reference} | {ratio} | {self.target} | {met} |"


def python_source(i: int, functions: int = 10) -> str:
    """A deterministic Python module with `functions` functions of ~6 lines each."""
    parts = [f'"""Module {i}."""\n\nimport os\n\n']
    for f in range(functions):
        parts.append(
            f"def handler_{i}_{f}(request, limit={f + 1}):\n"
            f"    total = 0\n"
            f"    for item in request.items[:limit]:\n"
            f"        if item.kind == 'k{f}':\n"
            f"            total += item.value * {i + 1}\n"
            f"    return total + len(os.sep)\n\n\n"
        )
    return "".join(parts)


def settle() -> None:
    """Wait until files written just now count as settled (FileState.settled): before that a
    process does not keep what it derived from them for the next one, so a workspace measured
    the moment it was made measures that transient, not what a user's committed threads cost."""
    import time

    from limpet.server.store._paths import RACY_NS

    time.sleep(RACY_NS / 1e9 + 0.1)


def make_workspace(root: Path, files: int, threads_per_file: int) -> list[str]:
    """Write `files` modules and add `threads_per_file` threads to each through the service's
    bulk path. Returns the thread ids."""
    from limpet.server.core import Service

    root.mkdir(parents=True, exist_ok=True)
    for i in range(files):
        path = root / "src" / f"pkg{i // 50}" / f"mod_{i}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(python_source(i, max(threads_per_file, 1)))
    svc = Service(root)
    specs = []
    for i in range(files):
        rel = f"src/pkg{i // 50}/mod_{i}.py"
        for f in range(threads_per_file):
            start = 5 + f * 8
            specs.append({"file": rel, "line_start": start, "line_end": start + 5,
                          "body": f"Check the limit handling in handler {i}.{f}", "tag": "TODO"})
    return [t.id for t in svc.add_many(specs)]
