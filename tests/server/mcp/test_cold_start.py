"""`limpet serve` answers its first tools/list with only what that answer needs loaded
(benchmarks/README.md, the coldstart row: within 1.2x a bare MCP server): the prompts, the
engine, the exporters' heavy formats, the regex search and the MCP hosts' table load when a
client first asks for them, and one that cannot load then is a typed error, not a traceback."""

from __future__ import annotations

import json
import subprocess
import sys

# Loaded by none of: starting the server, initialize, tools/list.
NOT_AT_START = ("limpet.prompts", "limpet.anchoring", "jinja2", "tree_sitter", "pyarrow", "regex", "rapidfuzz",
                "tomli_w", "limpet.server.mcp._hosts", "limpet.server.core._search", "limpet.server.core._github")

# What `limpet serve` does before it reads its first request (server/mcp/_stdio.py), then
# tools/list, then prompts/list; the modules loaded after each step.
_PROBE = """
import json, sys
import anyio
from limpet.server.cli import main  # the console script's import
from limpet.server.core import Service
from limpet.server.mcp import build_mcp, serve_stdio

app = build_mcp(Service(sys.argv[1]))
app.lowlevel()
steps = {}
tools = anyio.run(app.handlers["on_list_tools"], None, None)
steps["tools/list"] = [len(tools.tools), sorted(sys.modules)]
try:
    prompts = anyio.run(app.handlers["on_list_prompts"], None, None)
    steps["prompts/list"] = [len(prompts.prompts), sorted(sys.modules)]
except Exception as exc:
    steps["prompts/list"] = [type(exc).__name__, getattr(exc, "error", None) and exc.error.data]
print(json.dumps(steps))
"""


def _steps(workspace, *, before: str = "") -> dict:
    out = subprocess.run([sys.executable, "-c", before + _PROBE, str(workspace)], capture_output=True, text=True,
                         check=True, timeout=120).stdout
    return json.loads(out.splitlines()[-1])


def test_the_first_tools_list_loads_no_prompt_engine_or_export_format(workspace):
    steps = _steps(workspace)
    count, modules = steps["tools/list"]
    assert count == 19
    assert [m for m in modules if m.startswith(NOT_AT_START)] == []
    _, modules = steps["prompts/list"]  # put off, not dropped: listing the prompts loads them
    assert "limpet.prompts" in modules


def test_prompts_that_cannot_load_are_a_typed_error_and_the_tools_still_list(workspace):
    steps = _steps(workspace, before="import sys\nsys.modules['limpet.prompts'] = None  # an import of it fails\n")
    assert steps["tools/list"][0] == 19
    kind, error = steps["prompts/list"]
    assert kind == "MCPError"
    assert error["code"] == "INTERNAL" and error["details"]["rpc_code"] == -32603
