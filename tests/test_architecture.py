"""The architecture as code: the layers of docs/architecture.md hold, nothing cycles, and no
module reaches into another part's private names."""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_SETUP = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
PACKAGE_DIRS: dict[str, str] = _SETUP["package-dir"]  # "limpet" -> "server/library", "limpet.model" -> "model", ...
PACKAGES: list[str] = _SETUP["packages"]


def _folder_of(package: str) -> Path:
    """A package's folder in the checkout, by pyproject's package-dir (as setuptools reads it)."""
    mapped = max((p for p in PACKAGE_DIRS if package == p or package.startswith(p + ".")), key=len)
    return ROOT / PACKAGE_DIRS[mapped] / Path(*package[len(mapped):].split(".")[1:])


def _modules() -> list[tuple[str, Path, ast.Module]]:
    out = []
    for package in PACKAGES:
        for path in sorted(_folder_of(package).glob("*.py")):
            name = package if path.stem == "__init__" else f"{package}.{path.stem}"
            out.append((name, path, ast.parse(path.read_text(encoding="utf-8"))))
    return out


MODULES = _modules()
LIBRARY = {m for m, path, _ in MODULES if path.parent == _folder_of("limpet")}  # the package `limpet` itself


def _package_of(module: str, path: Path) -> str:
    return module if path.name == "__init__.py" else module.rsplit(".", 1)[0]


def _imported(tree: ast.Module) -> list[str]:
    """The modules a module imports (absolute imports; relative ones are not used)."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append(node.module)
        elif isinstance(node, ast.Import):
            out += [a.name for a in node.names]
    return out


@pytest.fixture(scope="module")
def installed_graph(tmp_path_factory) -> dict:
    """import-linter and grimp over the package laid out as a wheel installs it (each package's
    modules in its folder under limpet/): in a checkout `limpet` is server/library and its
    subpackages live elsewhere, which grimp cannot walk. Run in a fresh interpreter, whose
    `limpet` is that copy."""
    site = tmp_path_factory.mktemp("installed")
    for package in PACKAGES:
        target = site.joinpath(*package.split("."))
        target.mkdir(parents=True, exist_ok=True)
        for path in _folder_of(package).glob("*.py"):
            shutil.copyfile(path, target / path.name)
    script = f"""
import json, sys
import grimp
from importlinter.cli import lint_imports
assert sys.modules.get("limpet") is None
import limpet
assert limpet.__file__.startswith({str(site)!r}), limpet.__file__
contracts = lint_imports(config_filename={str(ROOT / "pyproject.toml")!r}, no_cache=True)
graph = grimp.build_graph("limpet", cache_dir=None)
cycles = []
for module in sorted(graph.modules):
    for imported in graph.find_modules_directly_imported_by(module):
        chain = graph.find_shortest_chain(importer=imported, imported=module)
        if chain:
            cycles.append(" -> ".join((module, *chain)))
print(json.dumps({{"contracts": contracts, "cycles": cycles, "modules": len(graph.modules)}}))
"""
    done = subprocess.run([sys.executable, "-c", script], cwd=site, env={"PYTHONPATH": str(site), "PATH": ""},
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["output"] = done.stdout
    return result


def test_every_folder_of_python_modules_is_a_package_pyproject_lists():
    # a folder left out of `packages` would be missing from the wheel and from these checks
    folders = {path.parent for top in {_folder_of(p).relative_to(ROOT).parts[0] for p in PACKAGE_DIRS}
               for path in (ROOT / top).rglob("*.py")}
    assert sorted(map(str, folders)) == sorted(str(_folder_of(p)) for p in PACKAGES)


def test_the_installed_layout_holds_every_module(installed_graph):
    assert installed_graph["modules"] == len(MODULES)


def test_the_layer_contracts_hold(installed_graph):
    # pyproject.toml [tool.importlinter]: packages, server parts, only the core below the doors
    assert installed_graph["contracts"] == 0, installed_graph["output"][-4000:]


def test_no_import_cycles_not_even_for_type_checking(installed_graph):
    assert installed_graph["cycles"] == []


@pytest.mark.parametrize("module,path,tree", MODULES, ids=[m[0] for m in MODULES])
def test_the_library_reaches_the_server_through_the_core_and_only_the_cli_uses_it(module, path, tree):
    # The library (`limpet` itself) is a door: above the core, below the command line, which is
    # a thin layer over it; nothing else imports it.
    for name in _imported(tree):
        if module in LIBRARY:
            if name.startswith("limpet.server"):  # the Service, and the tools' argument rules
                assert name in ("limpet.server.core", "limpet.server.operations"), \
                    f"{module} imports {name}: the library uses the core's Service"
            assert not name.startswith("limpet.anchoring"), f"{module} imports the engine: the core does that"
        elif not module.startswith("limpet.server.cli"):
            assert name not in LIBRARY, f"{module} imports the library ({name}): only the command line may"


@pytest.mark.parametrize("module,path,tree", [m for m in MODULES if m[0].startswith("limpet.server.cli")],
                         ids=[m[0] for m in MODULES if m[0].startswith("limpet.server.cli")])
def test_the_command_line_uses_only_the_library_s_public_methods(module, path, tree):
    # Thin over limpet.Workspace: what a command needs is a documented method (docs/api.md),
    # never the core service behind it (`ws.service`).
    reached = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr == "service"]
    assert reached == [], f"{path}:{reached}: the command line reaches the Service behind limpet.Workspace"


@pytest.mark.parametrize("module,path,tree", MODULES, ids=[m[0] for m in MODULES])
def test_records_are_msgspec_structs_never_dataclasses(module, path, tree):
    # One way of declaring a record (docs/architecture.md): a msgspec struct; an object whose
    # state changes is a plain class.
    assert "dataclasses" not in _imported(tree), f"{path} imports dataclasses"


@pytest.mark.parametrize("module,path,tree", MODULES, ids=[m[0] for m in MODULES])
def test_private_modules_are_imported_only_from_their_own_package(module, path, tree):
    own = _package_of(module, path)
    for name in _imported(tree):
        parts = name.split(".")
        private = next((i for i, p in enumerate(parts) if p.startswith("_")), None)
        if private is not None and name.startswith("limpet."):
            assert ".".join(parts[:private]) == own, f"{module} imports {name}: use its package's public names"


@pytest.mark.parametrize("module,path,tree", MODULES, ids=[m[0] for m in MODULES])
def test_no_private_attribute_of_another_object_is_touched(module, path, tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            owner = node.value
            assert isinstance(owner, ast.Name) and owner.id in ("self", "cls"), \
                f"{path.name}:{node.lineno} reaches into {ast.unparse(node)}"


@pytest.mark.parametrize("module,path,tree", MODULES, ids=[m[0] for m in MODULES])
def test_imports_are_explicit(module, path, tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            called = ast.unparse(node.func)
            assert called not in ("__import__", "import_module", "importlib.import_module"), \
                f"{path.name}:{node.lineno}: a dynamic import hides an arrow from readers and tools"


# -- the confinement layer (issue 33) ----------------------------------------------------------
# Every file of `.limpet/` and of the private folder is opened, created, listed, renamed and
# deleted through server/store/_confined.py (by directory descriptors proved real). No other
# module of the application touches the disk with these calls; the few that reach other files
# are listed with what they reach.
CONFINED = "limpet.server.store._confined"
DISK_CALLS = {
    "open", "io.open", "os.open", "os.fdopen", "os.unlink", "os.remove", "os.rename", "os.replace", "os.rmdir",
    "os.mkdir", "os.makedirs", "os.listdir", "os.scandir", "os.symlink", "os.link", "os.truncate",
    "shutil.rmtree", "shutil.move", "shutil.copy", "shutil.copyfile", "shutil.copytree", "sqlite3.connect",
}
PATH_METHODS = {"unlink", "mkdir", "rmdir", "rename", "write_text", "write_bytes", "read_text", "read_bytes",
                "touch", "iterdir", "symlink_to", "hardlink_to", "glob", "rglob"}
OUTSIDE_THE_STORE = {  # (module, call): what it reaches instead of limpet's own files
    ("limpet.server.store._layout", "os.open"): "the workspace folder itself, for its flock",
    ("limpet.server.store._paths", "os.open"): "workspace sources, each checked by Workspace._real first "
                                               "and opened without following a symlink",
    ("limpet.server.store._layout", ".read_text"): "a `.git` file naming the git dir (git's, read as git does)",
    ("limpet.server.core._github", "open"): "the import's input file, named by the person running it",
    ("limpet.server.http._app", ".iterdir"): "the package's static/ folder",
    ("limpet.server.http._app", ".read_bytes"): "the package's static/ files",
}
IMPORTS_ALLOWED = {
    "limpet.server.store._derived": {"sqlite3"},  # its errors and the connection SafeDir.connect made
    "limpet.server.cli._mcp_config": {"shutil"},  # shutil.which: where the limpet command is
}
SERVER = [m for m in MODULES if m[0].startswith("limpet.server.") and m[0] != CONFINED]


def _disk_calls(tree: ast.Module) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        called = ast.unparse(node.func)
        if called in DISK_CALLS:
            found.append((node.lineno, called))
        elif isinstance(node.func, ast.Attribute) and node.func.attr in PATH_METHODS:
            found.append((node.lineno, f".{node.func.attr}"))
    return found


@pytest.mark.parametrize("module,path,tree", SERVER, ids=[m[0] for m in SERVER])
def test_only_the_confinement_layer_touches_files(module, path, tree):
    stray = [f"{path.name}:{line} {call}" for line, call in _disk_calls(tree)
             if (module, call) not in OUTSIDE_THE_STORE]
    assert stray == [], f"{module} reaches the disk itself: go through limpet.server.store's Confined/SafeDir"


@pytest.mark.parametrize("module,path,tree", SERVER, ids=[m[0] for m in SERVER])
def test_only_the_confinement_layer_imports_sqlite3_and_shutil(module, path, tree):
    for node in ast.walk(tree):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
            [node.module] if isinstance(node, ast.ImportFrom) and node.module else []
        allowed = IMPORTS_ALLOWED.get(module, set())
        assert not ({"sqlite3", "shutil"} - allowed) & set(names), \
            f"{path.name}:{node.lineno} imports {names}: SQLite and tree removals go through the layer"


def test_the_list_of_exceptions_names_calls_that_exist():
    present = {(m, call) for m, _p, tree in SERVER for _line, call in _disk_calls(tree)}
    assert set(OUTSIDE_THE_STORE) <= present, set(OUTSIDE_THE_STORE) - present
