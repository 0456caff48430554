"""The store's log ("limpet.store"), imported on first use: a command whose reads go well
logs nothing, and the logging package costs a fresh process ~2 ms."""

from __future__ import annotations

from typing import Any

__all__ = ["log"]


class _Log:
    """`log.warning(...)`, `log.info(...)`, ...: the methods of logging.getLogger("limpet.store")."""

    def __getattr__(self, name: str) -> Any:
        import logging

        return getattr(logging.getLogger("limpet.store"), name)


log = _Log()
