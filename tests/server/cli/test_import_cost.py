"""A command costs what its answer needs (issue 17): a fresh `limpet list` or `limpet show`
reads the threads and checks whether their files changed; it does not load the anchoring
engine, the prompts, the web or editor servers, and it does not walk the workspace."""

from __future__ import annotations

import json
import subprocess
import sys

from limpet.anchoring import content_hash as engine_hash
from limpet.model import content_hash as model_hash
from limpet.server.core import Service, _file_hashes, _reconcile, flush_all
from limpet.server.operations import OPERATION_MODULES, REGISTRY

# Modules a read of threads whose files did not change never needs.
NOT_NEEDED = ("limpet.anchoring", "limpet.prompts", "limpet.exporters._markdown", "regex", "rapidfuzz",
              "tree_sitter", "pyarrow", "starlette", "uvicorn", "mcp", "pygls", "jinja2", "markdown_it", "pygments",
              "pydantic", "inotify_simple")
# What only other operations use (the other tool families, the review's text, the regex
# search), and logging: a thread command that goes well loads none of them.
OTHER_OPERATIONS = ("limpet.server.operations._paired", "limpet.server.operations._feedback",
                    "limpet.server.operations._review", "limpet.server.core._review_text",
                    "limpet.server.core._search", "logging")

_PROBE = """
import json, sys
from limpet.server.cli import main
try:
    main(sys.argv[2:])
except SystemExit as exc:
    code = exc.code
else:
    code = 0
with open(sys.argv[1], "w") as out:
    json.dump({"code": code, "modules": sorted(sys.modules)}, out)
"""


def _modules_of(workspace, tmp_path, *args: str) -> set[str]:
    report = tmp_path / "modules.json"
    subprocess.run([sys.executable, "-c", _PROBE, str(report), *args], cwd=workspace, check=True,
                   capture_output=True, timeout=60)
    result = json.loads(report.read_text())
    assert result["code"] in (0, None), result["code"]
    return set(result["modules"])


def test_the_core_hashes_a_file_with_the_engine_s_own_function():
    """Derived positions record the engine's hash of the content they were computed against;
    the core checks freshness without loading the engine: one function, in the model."""
    assert _reconcile.content_hash is engine_hash is model_hash


def test_a_fresh_list_or_show_loads_only_what_it_needs(workspace, tmp_path):
    t = Service(workspace, one_shot=True).add("src/auth.py", 10, 14, "about validate_token")
    flush_all()
    _modules_of(workspace, tmp_path, "list")  # the first read may settle the new thread's position
    for args in (["list"], ["show", t.id], ["list", "--json"]):
        loaded = _modules_of(workspace, tmp_path, *args)
        assert not [m for m in NOT_NEEDED + OTHER_OPERATIONS if m in loaded], args


def test_a_fresh_add_validates_its_arguments_without_pydantic(workspace, tmp_path):
    """The operations are msgspec structs: pydantic (half a command's start) is for the doors
    whose libraries need it (the MCP SDK, the editor's server)."""
    loaded = _modules_of(workspace, tmp_path, "add", "src/auth.py:10-14", "about validate_token")
    assert "pydantic" not in loaded and "limpet.server.operations" in loaded
    assert not [m for m in OTHER_OPERATIONS if m in loaded]


def test_each_operation_loads_from_the_module_that_declares_it():
    """OPERATION_MODULES names each operation's module (so a command declares only its own
    family): every operation is in it, under the module that declares it."""
    declared = {name: op.handler.__module__.rsplit(".", 1)[-1] for name, op in REGISTRY.items()}
    assert declared == OPERATION_MODULES


def test_a_fresh_read_leaves_settled_orphans_alone(workspace, monkeypatch):
    """An orphan is searched for once per content of its file: a later process's read of the
    same checkout neither walks the workspace nor runs the engine."""
    live = Service(workspace, lock_timeout=5)
    t = live.add("src/auth.py", 10, 14, "about validate_token")
    (workspace / "src" / "auth.py").write_text("# the code is gone\n")
    assert live.get(t.id).health == "orphaned"
    flush_all()

    def forbidden(*_args, **_kwargs):
        raise AssertionError("a read of a settled orphan searched the workspace")

    monkeypatch.setattr(_reconcile, "reanchor", forbidden)
    monkeypatch.setattr(_file_hashes.HashCache, "workspace_hashes", forbidden)
    fresh = Service(workspace, one_shot=True)
    assert [(x.id, x.health) for x in fresh.threads()] == [(t.id, "orphaned")]
    assert fresh.get(t.id).health == "orphaned"
