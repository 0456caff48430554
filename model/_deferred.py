"""Deferred: the one way a package of limpet puts off importing a module until one of its
names is first asked for (PEP 562), so a command loads only what its answer needs (a `limpet
list` loads no engine, no pyarrow, no MCP SDK, no other command or tool family).

A package lists, once, which names each deferred module defines, keyed by a function that
imports that module with an import statement (no `import_module`: every arrow stays visible
to readers, grimp and import-linter) and is named `_load` + the module's name (not the name
itself: `from package import _arrow` would find the function in the package and return it):

    def _load_arrow() -> ModuleType:
        from limpet.exporters import _arrow
        return _arrow

    __getattr__ = _DEFERRED = Deferred(globals(), {_load_arrow: ("PARQUET_SCHEMA", "PARQUET_SCHEMA_ID")})
    __dir__ = _DEFERRED.dir

A name is looked up in its module once; the package keeps it. Registries whose entries
declare themselves when their module is imported (the operations, the CLI's commands) list
their names the same way and ask `module(name)` for the one they run.

A module that cannot be imported when its turn comes (a dependency missing or broken in this
installation) is an InternalError naming it, as every other failure is a typed error: the
doors report it with its code, the command line exits with its message, not a traceback.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any

from limpet.model._errors import InternalError

__all__ = ["Deferred"]


class Deferred:
    """The deferred names of one package (`namespace`: its globals()): a module `__getattr__`."""

    def __init__(self, namespace: dict[str, Any], homes: Mapping[Callable[[], ModuleType], tuple[str, ...]]) -> None:
        self._namespace = namespace
        self._homes = {name: load for load, names in homes.items() for name in names}
        self._loads = tuple(homes)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._homes)

    def modules(self) -> dict[str, str]:
        """Each name's module (by its loader's name), without importing any."""
        return {name: load.__name__.removeprefix("_load") for name, load in self._homes.items()}

    def module(self, name: str) -> ModuleType:
        """The module defining `name`, imported (KeyError for a name not listed)."""
        return self._import(self._homes[name])

    def load_all(self) -> None:
        for load in self._loads:
            self._import(load)

    def __call__(self, name: str) -> Any:
        load = self._homes.get(name)
        if load is None:
            raise AttributeError(f"module {self._namespace['__name__']!r} has no attribute {name!r}")
        value = getattr(self._import(load), name)
        self._namespace[name] = value  # asked once
        return value

    def _import(self, load: Callable[[], ModuleType]) -> ModuleType:
        try:
            return load()
        except ImportError as exc:
            module = f"{self._namespace['__name__']}.{load.__name__.removeprefix('_load')}"
            raise InternalError(f"{module} could not be loaded: {exc}", details={"module": module},
                                suggestion="limpet's installation lacks a dependency it needs here: "
                                           "reinstall limpet (pip install limpet).") from exc

    def dir(self) -> list[str]:
        return sorted({*self._namespace, *self._homes})
