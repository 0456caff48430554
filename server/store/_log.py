"""Loggers imported on first use: a command whose reads go well logs nothing, and the logging
package costs a fresh process ~2 ms."""

from __future__ import annotations

from typing import Any

__all__ = ["LazyLogger", "log"]


class LazyLogger:
    """`log.warning(...)`, `log.info(...)`, ...: the methods of logging.getLogger(name)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __getattr__(self, attr: str) -> Any:
        import logging

        return getattr(logging.getLogger(self.name), attr)


log = LazyLogger("limpet.store")
