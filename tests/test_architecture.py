"""The architecture as code: the layers of docs/architecture.md hold, nothing cycles, and no
module reaches into another part's private names."""

from __future__ import annotations

import ast
from pathlib import Path

import grimp
import pytest
from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = {"model": "limpet.model", "anchoring": "limpet.anchoring", "exporters": "limpet.exporters",
           "prompts": "limpet.prompts", "server": "limpet.server"}


def _modules() -> list[tuple[str, Path, ast.Module]]:
    out = []
    for folder, package in FOLDERS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT / folder).with_suffix("")
            parts = [p for p in rel.parts if p != "__init__"]
            out.append((".".join([package, *parts]), path, ast.parse(path.read_text(encoding="utf-8"))))
    return out


MODULES = _modules()


def _package_of(module: str, path: Path) -> str:
    return module if path.name == "__init__.py" else module.rsplit(".", 1)[0]


def test_the_layer_contracts_hold():
    # pyproject.toml [tool.importlinter]: packages, server parts, only the core below the doors
    assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True) == 0


def test_no_import_cycles_not_even_for_type_checking():
    graph = grimp.build_graph(*FOLDERS.values(), cache_dir=None)
    cycles = []
    for module in sorted(graph.modules):
        for imported in graph.find_modules_directly_imported_by(module):
            chain = graph.find_shortest_chain(importer=imported, imported=module)
            if chain:
                cycles.append(" -> ".join((module, *chain)))
    assert cycles == []


@pytest.mark.parametrize("module,path,tree", MODULES, ids=[m[0] for m in MODULES])
def test_private_modules_are_imported_only_from_their_own_package(module, path, tree):
    own = _package_of(module, path)
    for node in ast.walk(tree):
        names = [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module else \
            [a.name for a in node.names] if isinstance(node, ast.Import) else []
        for name in names:
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
