"""limpet.prompts: MCP prompts as Jinja2 templates filled with real data from the workspace.

One typed function per prompt gathers the data (`gather_*`, a msgspec struct whose fields are
exactly the template's variables) and renders `templates/NAME.md.j2`, or the workspace's
`.limpet/prompts/NAME.md.j2` override, in a sandbox. The application is reached only
through the `PromptSource` protocol: nothing here imports limpet.server.
"""

from limpet.prompts._code import CodeListing, ThreadView
from limpet.prompts._explain import (
    ComplexFunction,
    ExplainComplexityData,
    explain_complexity,
    gather_explain_complexity,
)
from limpet.prompts._orphans import CandidateView, FixOrphansData, OrphanView, fix_orphans, gather_fix_orphans
from limpet.prompts._registry import PROMPTS, get_prompt, prompt_spec
from limpet.prompts._render import TEMPLATE_SUFFIX, TemplateFailure, TemplateFolder, builtin_template_source
from limpet.prompts._review import FOCUSES, ChecklistSection, ReviewCodeData, gather_review_code, review_code
from limpet.prompts._source import CandidateLike, PromptSource, ToolArg, ToolSpec
from limpet.prompts._spec import PromptArg, PromptSpec
from limpet.prompts._training import Count, TrainingExportData, gather_training_export, training_export

# The struct each template is rendered with (its fields are the template's variables).
TEMPLATE_DATA = {
    "review_code": ReviewCodeData,
    "explain_complexity": ExplainComplexityData,
    "training_export": TrainingExportData,
    "fix_orphans": FixOrphansData,
}

__all__ = [
    "FOCUSES",
    "PROMPTS",
    "TEMPLATE_DATA",
    "TEMPLATE_SUFFIX",
    "CandidateLike",
    "CandidateView",
    "ChecklistSection",
    "CodeListing",
    "ComplexFunction",
    "Count",
    "ExplainComplexityData",
    "FixOrphansData",
    "OrphanView",
    "PromptArg",
    "PromptSource",
    "PromptSpec",
    "ReviewCodeData",
    "TemplateFailure",
    "TemplateFolder",
    "ThreadView",
    "ToolArg",
    "ToolSpec",
    "TrainingExportData",
    "builtin_template_source",
    "explain_complexity",
    "fix_orphans",
    "gather_explain_complexity",
    "gather_fix_orphans",
    "gather_review_code",
    "gather_training_export",
    "get_prompt",
    "prompt_spec",
    "review_code",
    "training_export",
]
