"""limpet.server: the application — the one service, the workspace store, and its doors
(MCP over stdio and Streamable HTTP, the HTTP API and web page, the CLI).

Nothing imports this package; it imports everything else.
"""

from limpet.server._operations import GROUPS, REGISTRY, Operation, invoke, operations_for
from limpet.server._service import Service

__all__ = ["GROUPS", "REGISTRY", "Operation", "Service", "invoke", "operations_for"]
