"""One way of deferring imports (limpet.model.Deferred, docs/architecture.md): each package
that puts off a module lists which names it defines, and those names load it, once."""

from __future__ import annotations

import subprocess
import sys

import pytest

import limpet
import limpet.anchoring
import limpet.exporters
import limpet.server.cli
import limpet.server.core
import limpet.server.mcp
import limpet.server.operations

PACKAGES = [limpet, limpet.anchoring, limpet.exporters, limpet.server.core, limpet.server.mcp,
            limpet.server.operations]


@pytest.mark.parametrize("package", PACKAGES, ids=[p.__name__ for p in PACKAGES])
def test_every_deferred_name_is_exported_and_defined_by_the_module_its_table_names(package):
    deferred = package._DEFERRED
    assert package.__getattr__ is deferred
    for name, module in deferred.modules().items():
        registered = name in getattr(package, "OPERATION_MODULES", {})  # an operation: its module declares it
        assert name in package.__all__ or registered, f"{package.__name__}.{name} is deferred but not exported"
        assert name in dir(package)
        if module != "_registry":  # REGISTRY: every family declared, the registry's own dict
            assert hasattr(deferred.module(name), name), f"{module} does not define {name}"
        assert getattr(package, name) is getattr(package, name)


def test_a_name_no_table_lists_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        limpet.exporters.nothing_here  # noqa: B018


def test_each_command_of_the_command_line_is_in_the_module_its_table_names():
    import click

    ctx = click.Context(limpet.server.cli.cli)
    for name, module in limpet.server.cli.COMMAND_MODULES.items():
        command = limpet.server.cli.cli.get_command(ctx, name)
        assert command.callback.__module__ == f"limpet.server.cli.{module}"


def test_importing_a_package_loads_none_of_its_deferred_modules_until_a_name_is_asked_for():
    code = ("import sys, limpet.exporters, limpet.anchoring, limpet.server.mcp; "
            "before = [m for m in ('pyarrow', 'tree_sitter', 'mcp', 'limpet.exporters._arrow') if m in sys.modules]; "
            "limpet.exporters.PARQUET_SCHEMA_ID; print(before, 'limpet.exporters._arrow' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["[]", "True"]


def test_a_module_that_cannot_be_loaded_is_a_typed_error_naming_it():
    """A dependency missing from the installation shows when its module's turn comes: as an
    error with a code the doors report (and the command line exits with), not a traceback."""
    from types import ModuleType

    from limpet.model import Deferred, InternalError

    def _load_arrow() -> ModuleType:
        raise ModuleNotFoundError("No module named 'pyarrow'")

    deferred = Deferred({"__name__": "limpet.example"}, {_load_arrow: ("PARQUET_SCHEMA",)})
    for ask in (lambda: deferred("PARQUET_SCHEMA"), lambda: deferred.module("PARQUET_SCHEMA"), deferred.load_all):
        with pytest.raises(InternalError, match=r"limpet\.example\._arrow could not be loaded: .*pyarrow") as caught:
            ask()
        assert caught.value.to_dict()["details"]["module"] == "limpet.example._arrow"
