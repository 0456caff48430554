"""Shared fixtures: a small workspace with real source files, and a service over it."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import SAMPLE, limpet_argv, write_files


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    write_files(root, SAMPLE)
    return root


@pytest.fixture
def service(workspace: Path):
    from limpet.server.core import Service

    return Service(workspace, lock_timeout=5)


@pytest.fixture(scope="session")
def limpet_cmd() -> list[str]:
    return limpet_argv()


@pytest.fixture(autouse=True)
def _test_author(monkeypatch):
    monkeypatch.setenv("LIMPET_AUTHOR", "tester")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
