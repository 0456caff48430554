"""The workspace as prompts see it: limpet.prompts.PromptSource over the service's public methods."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from limpet.anchoring import Candidate
from limpet.model import Thread
from limpet.prompts import ToolSpec
from limpet.server.store import STORE_DIRNAME, Confined, Unconfined

__all__ = ["ConfinedTemplates", "ServicePromptSource"]

OVERRIDES = "prompts"  # .limpet/prompts/NAME.md.j2


class _Service(Protocol):
    """What a prompt uses of the service (its public methods)."""

    root: Path
    workspace_name: str
    default_context_lines: int

    def normalize(self, path: str, field: str = ...) -> str: ...
    def read_source(self, rel: str, field: str = ...) -> bytes: ...
    def threads(self) -> list[Thread]: ...
    def training_record(self, thread: Thread, context_lines: int) -> dict[str, Any]: ...
    def orphan_candidates(self, thread: Thread, k: int, *, sync: bool = ...) -> list[Candidate]: ...


class ConfinedTemplates:
    """`.limpet/prompts/` read through the confinement layer: a symlink as the folder, as
    `.limpet/` or as the template is refused (an OSError saying so: PARSE_ERROR naming the
    template), never followed."""

    def __init__(self, folder: Confined) -> None:
        self.folder = folder
        self.path = folder.path

    def read(self, name: str) -> bytes | None:
        try:
            held = self.folder.open()
        except Unconfined as exc:
            raise OSError(exc.message) from None
        if held is None:
            return None
        with held:
            st = held.lstat(name)
            if st is None:
                return None
            try:
                held.regular_or_absent(name)
            except Unconfined as exc:
                raise OSError(exc.message) from None
            return held.read(name)


class ServicePromptSource:
    """One prompt's view of the workspace; `tools` are the tools the asking door exposes."""

    def __init__(self, service: _Service, tools: Mapping[str, ToolSpec]) -> None:
        self.service = service
        self.tools = tools
        self._index_synced = False

    @property
    def workspace_name(self) -> str:
        return self.service.workspace_name

    @property
    def templates_dir(self) -> ConfinedTemplates:
        return ConfinedTemplates(Confined(self.service.root, (STORE_DIRNAME, OVERRIDES)))

    def normalize(self, path: str, field: str = "filePath") -> str:
        return self.service.normalize(path, field)

    def read_source(self, rel: str, field: str = "filePath") -> bytes:
        return self.service.read_source(rel, field)

    def threads(self) -> Sequence[Thread]:
        return self.service.threads()

    def tool(self, name: str) -> ToolSpec | None:
        return self.tools.get(name)

    @property
    def default_context_lines(self) -> int:
        return self.service.default_context_lines

    def training_record(self, thread: Thread, context_lines: int) -> dict[str, Any]:
        return self.service.training_record(thread, context_lines)

    def orphan_candidates(self, thread: Thread, k: int) -> Sequence[Candidate]:
        sync, self._index_synced = not self._index_synced, True  # once per prompt
        return self.service.orphan_candidates(thread, k, sync=sync)
