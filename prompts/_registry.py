"""The four prompts by name, and the one entry point every door uses."""

from __future__ import annotations

from collections.abc import Mapping

from limpet.model import InvalidArgument
from limpet.prompts._explain import EXPLAIN_COMPLEXITY
from limpet.prompts._orphans import FIX_ORPHANS
from limpet.prompts._review import REVIEW_CODE
from limpet.prompts._source import PromptSource
from limpet.prompts._spec import PromptSpec
from limpet.prompts._training import TRAINING_EXPORT

__all__ = ["PROMPTS", "get_prompt", "prompt_spec"]

PROMPTS: dict[str, PromptSpec] = {
    spec.name: spec for spec in (REVIEW_CODE, EXPLAIN_COMPLEXITY, TRAINING_EXPORT, FIX_ORPHANS)
}


def prompt_spec(name: str) -> PromptSpec:
    spec = PROMPTS.get(name) if isinstance(name, str) else None
    if spec is None:
        raise InvalidArgument(f"Unknown prompt {name!r}; expected one of {', '.join(PROMPTS)}", field="name",
                              details={"allowed": list(PROMPTS), "value": name if isinstance(name, str) else None})
    return spec


def get_prompt(source: PromptSource, name: str, arguments: Mapping[str, object] | None = None) -> str:
    """Render prompt `name` with wire arguments (strings over MCP are converted)."""
    spec = prompt_spec(name)
    return spec.render(source, **spec.convert(arguments))
