"""A clone stands on its own: the README is a front door, every link in the docs leads to a
file of the repository, and nothing committed names one machine's folders or is a symlink."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TRACKED = subprocess.run(["git", "ls-files", "-s"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout.splitlines()
FILES = [line.split("\t", 1)[1] for line in TRACKED]
DOCS = [f for f in FILES if f.endswith(".md") and not f.startswith("tests/")]
# A markdown link's target: [text](target) or ![alt](target)
LINK = re.compile(r"\]\(([^)\s]+)\)")
MACHINE = re.compile(r"/work/|/root/|/tmp/s/|/home/\w+/")


def test_the_readme_is_a_front_door():
    readme = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(readme) <= 250
    first = next(i for i, line in enumerate(readme) if line.strip() and not line.startswith("#"))
    assert not readme[first].startswith("```"), "the README says what limpet is before any command"


def test_nothing_committed_is_a_symlink():
    assert [line.split("\t", 1)[1] for line in TRACKED if line.startswith("120000 ")] == []


@pytest.mark.parametrize("doc", DOCS)
def test_every_link_leads_to_a_file_of_the_repository(doc):
    text = (ROOT / doc).read_text(encoding="utf-8")
    for target in LINK.findall(text):
        if re.match(r"^[a-z]+:", target) or target.startswith("#"):
            continue  # a URL, or a place in the same page
        path = (ROOT / doc).parent / target.split("#", 1)[0]
        assert path.resolve().is_relative_to(ROOT), f"{doc} links outside the repository: {target}"
        assert path.exists(), f"{doc} links to a missing file: {target}"


@pytest.mark.parametrize("path", [f for f in FILES if f.endswith((".md", ".py", ".toml", ".js", ".j2"))
                                  and f != "tests/test_docs.py"])  # this file spells the patterns
def test_no_path_of_one_machine(path):
    text = (ROOT / path).read_text(encoding="utf-8", errors="replace")
    assert MACHINE.findall(text) == [], f"{path} names a folder of one machine"
