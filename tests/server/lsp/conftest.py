"""An editor connected to `limpet lsp` for every test here (see tests/lsp_support.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_asyncio
from lsp_support import start_editor


@pytest_asyncio.fixture
async def editor(workspace: Path, request: pytest.FixtureRequest):
    """`limpet lsp` with the workspace as the editor's root; parametrize indirectly with
    initializationOptions."""
    client = await start_editor(workspace, getattr(request, "param", None))
    yield client
    await client.shutdown_session()
    await client.stop()
