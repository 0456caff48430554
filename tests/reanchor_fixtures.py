"""The before/after fixture format of the re-anchoring tests (fixtures/reanchor/):

    anchor: FILE START-END
    expect: FILE START-END HEALTH METHOD      (or: expect: orphaned)
    --- before FILE / --- after FILE / --- deleted FILE   (sections; files not in
        an `after` section are unchanged)
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["parse_fixture", "workspace_after"]


def parse_fixture(path: Path) -> dict:
    lines = path.read_text("utf-8").split("\n")
    spec = {"before": {}, "after": {}, "deleted": set()}
    current = None
    for line in lines:
        if line.startswith("anchor: "):
            file, rng = line[len("anchor: "):].split()
            spec["anchor"] = (file, *map(int, rng.split("-")))
        elif line.startswith("expect: "):
            parts = line[len("expect: "):].split()
            spec["expect"] = None if parts == ["orphaned"] else (parts[0], *map(int, parts[1].split("-")), *parts[2:])
        elif line.startswith("--- "):
            side, file = line[4:].split()
            if side == "deleted":
                spec["deleted"].add(file)
                current = None
            else:
                current = spec[side].setdefault(file, [])
        elif current is not None:
            current.append(line)
    for side in ("before", "after"):
        spec[side] = {f: ("\n".join(body).rstrip("\n") + "\n").encode() for f, body in spec[side].items()}
    return spec


def workspace_after(spec: dict) -> dict[str, bytes]:
    files = {**spec["before"], **spec["after"]}
    for f in spec["deleted"]:
        files.pop(f, None)
    return files
