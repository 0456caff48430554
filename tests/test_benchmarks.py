"""The benchmarks call limpet's public names: a renamed or moved name breaks them silently
(nothing else runs them), so every benchmark module is imported here and the scale
benchmark's child process is run on a tiny workspace."""

from __future__ import annotations

import importlib
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the benchmarks package lives beside the sources, not installed

MODULES = sorted(m.name for m in pkgutil.iter_modules([str(ROOT / "benchmarks")]) if m.name != "__main__")


@pytest.mark.parametrize("name", MODULES)
def test_every_benchmark_module_imports(name):
    importlib.import_module(f"benchmarks.{name}")


def test_the_scale_benchmarks_child_loads_a_store_and_saves_what_it_derived(tmp_path):
    from benchmarks._common import make_workspace
    from benchmarks.bench_scale import CHILD

    root = tmp_path / "ws"
    make_workspace(root, 3, 2)
    for mode in ("limpet", "raw"):
        out = subprocess.run([sys.executable, "-c", CHILD, str(root), mode], capture_output=True, text=True,
                             check=True)
        assert json.loads(out.stdout)["n"] == 6
