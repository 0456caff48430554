"""The torture suite's figures: each test records what it proved (kills survived, writes
checked, fuzzed calls, store changes from rejected calls ...); at the end of the session they
are written as JSON under pytest's temporary folder (and to $LIMPET_TORTURE_FIGURES when set,
for CI artefacts) and printed in the terminal summary."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

FIGURES: dict[str, Any] = {}
FIGURES_FILE = "torture-figures.json"


@pytest.fixture(scope="session")
def figures(tmp_path_factory: pytest.TempPathFactory) -> Any:
    yield FIGURES
    _write(tmp_path_factory.getbasetemp() / FIGURES_FILE)


def _write(path: Path) -> None:
    data = json.dumps(FIGURES, indent=2, sort_keys=True) + "\n"
    path.write_text(data)
    FIGURES["_written_to"] = str(path)
    extra = os.environ.get("LIMPET_TORTURE_FIGURES")
    if extra:
        Path(extra).parent.mkdir(parents=True, exist_ok=True)
        Path(extra).write_text(data)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not FIGURES:
        return
    written = FIGURES.get("_written_to")
    terminalreporter.section("torture figures")
    for key in sorted(k for k in FIGURES if not k.startswith("_")):
        terminalreporter.write_line(f"{key}: {json.dumps(FIGURES[key], sort_keys=True)}")
    if written:
        terminalreporter.write_line(f"(written to {written})")
