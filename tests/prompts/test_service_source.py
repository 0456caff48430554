"""The server's PromptSource: real service, real operation registry, real engine."""

from __future__ import annotations

import json
import re

from limpet.anchoring import orphan_candidates
from limpet.prompts import gather_fix_orphans, gather_review_code, get_prompt
from limpet.server.core._prompt_source import ServicePromptSource
from limpet.server.operations import operations_for, tool_specs


def real_source(service):
    return ServicePromptSource(service, tool_specs(operations_for()))


def test_tool_and_argument_names_come_from_the_registry(service):
    ops = {op.name: op for op in operations_for()}
    data = gather_review_code(real_source(service), "src/auth.py")
    op = ops[data.tool.name]
    assert data.tool.name in ("add_comment", "comment_add")
    assert set(data.tool.arg_names) >= set(op.input_schema()["properties"])
    text = get_prompt(real_source(service), "review_code", {"filePath": "src/auth.py"})
    listed = re.findall(r"^- `([\w.]+)` \(", text.split("## How to answer")[1], re.MULTILINE)
    assert listed == list(data.tool.arg_names)
    call = re.search(rf"^{data.tool.name} (\{{.*\}})$", text, re.MULTILINE)
    assert call, "the example call names the exposed tool"
    assert set(json.loads(call.group(1))) <= set(op.input_schema()["properties"])


def test_a_door_that_exposes_no_comment_tool_says_so(service):
    source = ServicePromptSource(service, {})
    text = get_prompt(source, "review_code", {"filePath": "src/auth.py"})
    assert "exposes no tool to add comments" in text


def test_threads_are_re_anchored_before_a_prompt_uses_them(service, workspace):
    t = service.add("src/auth.py", 17, 18, "Rename helper", tag="TODO")
    path = workspace / "src/auth.py"
    path.write_text("# moved down\n\n" + path.read_text())
    [view] = gather_review_code(real_source(service), "src/auth.py").threads
    assert view.id == t.id and view.lines == "lines 19-20"


def test_orphans_get_the_engines_candidates(service, workspace):
    t = service.add("src/auth.py", 17, 18, "Rename helper", tag="TODO")
    path = workspace / "src/auth.py"
    path.write_text(path.read_text().replace("def helper(x):\n    return x * 2\n", ""))
    source = real_source(service)
    data = gather_fix_orphans(source)
    [orphan] = data.orphans
    assert orphan.thread.id == t.id and orphan.last_location == "src/auth.py:17-18"
    expected = orphan_candidates(service.get(t.id).anchor, path.read_bytes(), service._reconciler.index, k=5)
    assert [(c.file, c.line_start, c.line_end, c.score, c.method) for c in orphan.candidates] == [
        (c.file, c.line_start, c.line_end, f"{c.score:.2f}", c.method) for c in expected]
    assert "def helper(x):" in orphan.original.text
    text = get_prompt(source, "fix_orphans", {})
    for c in expected:
        assert f"`{c.file}:{c.line_start}" in text and f"score {c.score:.2f} ({c.method})" in text
