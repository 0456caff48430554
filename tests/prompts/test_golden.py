"""Each prompt rendered on the fixture workspace equals its golden file.

UPDATE_GOLDEN=1 rewrites the golden files after a deliberate change; review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from limpet.prompts import get_prompt

GOLDEN = Path(__file__).parent / "golden"

CASES = {
    "review_code_all": ("review_code", {"filePath": "src/auth.py"}),
    "review_code_security": ("review_code", {"filePath": "src/auth.py", "focus": "security"}),
    "review_code_no_threads": ("review_code", {"filePath": "src/checksum.py", "focus": "performance"}),
    "explain_complexity": ("explain_complexity", {"filePath": "src/rules.py", "complexityThreshold": "3"}),
    "explain_complexity_default": ("explain_complexity", {"filePath": "src/rules.py"}),
    "explain_complexity_typescript": ("explain_complexity", {"filePath": "web/app.ts", "complexityThreshold": "2"}),
    "training_export": ("training_export", {}),
    "training_export_no_context": ("training_export", {"includeContext": "false"}),
    "fix_orphans": ("fix_orphans", {}),
    "fix_orphans_file": ("fix_orphans", {"filePath": "src/legacy.py"}),
    "fix_orphans_none": ("fix_orphans", {"filePath": "src/rules.py"}),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_prompt_matches_golden(source, case):
    name, args = CASES[case]
    text = get_prompt(source, name, args)
    path = GOLDEN / f"{case}.md"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text)
    assert text == path.read_text()


def test_rendering_is_deterministic(source):
    for name, args in CASES.values():
        assert get_prompt(source, name, args) == get_prompt(source, name, args)


def test_every_prompt_has_a_golden_file():
    from limpet.prompts import PROMPTS

    assert {name for name, _ in CASES.values()} == set(PROMPTS)
