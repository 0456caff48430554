"""The torture suite's figures: each test records what it proved (kills survived, writes
checked, fuzzed calls, store changes from rejected calls ...); at the end of the session they
are written as JSON to pytest's temporary folder and to test-artifacts/torture-figures.json
(git-ignored, like the web page's screenshot; $LIMPET_TORTURE_FIGURES overrides that path),
and printed in the terminal summary. docs/torture.md records the figures of a real run."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

FIGURES: dict[str, Any] = {}
FIGURES_FILE = "torture-figures.json"
ARTEFACT = Path(__file__).resolve().parents[2] / "test-artifacts" / FIGURES_FILE


@pytest.fixture(scope="session")
def figures(tmp_path_factory: pytest.TempPathFactory) -> Any:
    yield FIGURES
    _write(tmp_path_factory.getbasetemp() / FIGURES_FILE)


def _write(path: Path) -> None:
    data = json.dumps(FIGURES, indent=2, sort_keys=True) + "\n"
    artefact = Path(os.environ.get("LIMPET_TORTURE_FIGURES") or ARTEFACT)
    for target in (path, artefact):
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(data)
    FIGURES["_written_to"] = f"{artefact} and {path}"


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not FIGURES:
        return
    written = FIGURES.get("_written_to")
    terminalreporter.section("torture figures")
    for key in sorted(k for k in FIGURES if not k.startswith("_")):
        terminalreporter.write_line(f"{key}: {json.dumps(FIGURES[key], sort_keys=True)}")
    if written:
        terminalreporter.write_line(f"(written to {written})")
