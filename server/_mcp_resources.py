"""The comment:// resources of seed 004, and live updates for subscribers of both eras.

    comment://workspace/all                  every thread, grouped by file
    comment://workspace/{filePath}.comments  one file's threads (template; filePath may hold '/')
    comment://workspace/tags/{tag}           threads with a tag (template)
    comment://workspace/orphaned             threads whose code is gone
    comment://workspace/ai-enriched          threads with AI metadata

Subscribers get `notifications/resources/updated` when a resource's content or the source
file behind it changes — through this server, the CLI, another server or an editor (the
workspace watcher) — over 2025-era `resources/subscribe` and 2026-era `subscriptions/listen`
alike; `notifications/resources/list_changed` when files gain or lose threads.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import threading
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

import anyio
import mcp_types as types
import orjson
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ResourcesListChanged, ResourceUpdated
from mcp.shared.exceptions import MCPError

from limpet.anchoring import TAGS, LimpetError

from ._resources import PREFIX, file_uri, parse_uri, render_all, resource_uris
from ._watch import watch_workspace

if TYPE_CHECKING:
    from ._mcp import McpApp

__all__ = ["install"]

STATIC = [
    types.Resource(uri=f"{PREFIX}all", name="all-comments", title="All comments", mime_type="application/json",
                   description="All comment threads across the workspace, grouped by file"),
    types.Resource(uri=f"{PREFIX}orphaned", name="orphaned-comments", title="Orphaned comments",
                   mime_type="application/json", description="Threads whose anchored code no longer exists"),
    types.Resource(uri=f"{PREFIX}ai-enriched", name="ai-enriched-comments", title="AI-enriched comments",
                   mime_type="application/json", description="Threads with AI metadata (model, confidence, reasoning)"),
]
TEMPLATES = [
    types.ResourceTemplate(uri_template=f"{PREFIX}{{+filePath}}.comments", name="file-comments",
                           title="Comments for a file", mime_type="application/json",
                           description="The threads of one workspace file (filePath is workspace-relative)"),
    types.ResourceTemplate(uri_template=f"{PREFIX}tags/{{tag}}", name="tag-comments", title="Comments by tag",
                           mime_type="application/json", description=f"Threads with one tag: {', '.join(TAGS)}"),
]
DEBOUNCE_SECONDS = 0.1
REVIEW_FILE, REVIEW_URI = ".limpet/reviews/current.json", "review://current"  # see _review_store, _mcp_review


class Live:
    """Tracks subscribers and what each resource looked like, and notifies on change."""

    def __init__(self, app: McpApp) -> None:
        self.app = app
        self.bus = InMemorySubscriptionBus()
        self.legacy: dict[str, tuple[Any, set[str]]] = {}  # connection → (session, uris)
        self.digests: dict[str, str] = {}
        self.files_with_threads: set[str] = set()
        self._pending: set[str] = set()
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        app.service.subscribe(self.changed)

    # -- inputs ----------------------------------------------------------------------------
    def changed(self, files: set[str]) -> None:
        """From any thread (service calls run in workers): note files, wake the pump."""
        with self._lock:
            self._pending |= files
        if self._loop is not None and self._wake is not None:
            self._loop.call_soon_threadsafe(self._wake.set)

    async def subscribe(self, ctx: Any, params: types.SubscribeRequestParams) -> types.EmptyResult:
        key = _connection_key(ctx)
        _, uris = self.legacy.get(key, (ctx.session, set()))
        uris.add(str(params.uri))
        self.legacy[key] = (ctx.session, uris)
        return types.EmptyResult()

    async def unsubscribe(self, ctx: Any, params: types.UnsubscribeRequestParams) -> types.EmptyResult:
        entry = self.legacy.get(_connection_key(ctx))
        if entry:
            entry[1].discard(str(params.uri))
        return types.EmptyResult()

    # -- the pump --------------------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def running(self, _app: McpApp) -> AsyncIterator[None]:
        self._loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        await self._snapshot()  # the baseline: what subscribers have seen
        async with anyio.create_task_group() as tg:
            tg.start_soon(self._watch)
            tg.start_soon(self._pump)
            try:
                yield
            finally:
                tg.cancel_scope.cancel()

    async def _watch(self) -> None:
        async for paths in watch_workspace(self.app.service.ws.root):
            self.changed(paths)

    async def _pump(self) -> None:
        assert self._wake is not None
        while True:
            await self._wake.wait()
            await anyio.sleep(DEBOUNCE_SECONDS)  # one notification per burst
            self._wake.clear()
            with self._lock:
                files, self._pending = self._pending, set()
            with contextlib.suppress(LimpetError):
                await self._notify(files)

    async def _snapshot(self) -> tuple[dict[str, str], set[str]]:
        def compute() -> tuple[dict[str, str], set[str]]:
            threads = self.app.service.threads()
            docs = render_all(threads)
            return {uri: hashlib.blake2b(orjson.dumps(doc), digest_size=16).hexdigest() for uri, doc in docs.items()}, \
                {t.anchor.file for t in threads}

        digests, files = await self.app.run_sync(compute)
        previous, self.digests, self.files_with_threads = self.digests, digests, files
        return previous, files

    async def _notify(self, files: set[str]) -> None:
        before_files = set(self.files_with_threads)
        previous, now_files = await self._snapshot()
        uris = {u for u in set(previous) | set(self.digests) if previous.get(u) != self.digests.get(u)}
        uris |= {file_uri(f) for f in files if not f.startswith(".limpet/")}  # the source file itself changed
        if REVIEW_FILE in files:
            uris.add(REVIEW_URI)
        for uri in sorted(uris):
            await self.bus.publish(ResourceUpdated(uri=uri))
            for session, subscribed in list(self.legacy.values()):
                if uri in subscribed:
                    await session.send_resource_updated(uri)
        if now_files != before_files:
            await self.bus.publish(ResourcesListChanged())
            for session, _ in list(self.legacy.values()):
                await session.send_resource_list_changed()


def _connection_key(ctx: Any) -> str:
    # stdio: one connection per process. Streamable HTTP: one per Mcp-Session-Id.
    headers = getattr(getattr(ctx, "request", None), "headers", None)
    return (headers.get("mcp-session-id") if headers else None) or "local"


def install(app: McpApp) -> None:
    live = Live(app)

    async def list_resources(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListResourcesResult:
        uris = await app.run_sync(lambda: resource_uris(app.service))
        listed = [*STATIC, *(types.Resource(uri=u, name=n, mime_type="application/json", title=t) for u, n, t in uris)]
        return types.ListResourcesResult(resources=listed)

    async def list_templates(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(resource_templates=TEMPLATES)

    async def read_resource(ctx: Any, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        uri = str(params.uri)
        try:
            doc = await app.run_sync(lambda: parse_uri(app.service, uri))
        except LimpetError as exc:
            raise MCPError(code=types.INVALID_PARAMS, message=exc.message, data={"uri": uri, "error": exc.to_dict()})
        return types.ReadResourceResult(contents=[types.TextResourceContents(
            uri=uri, mime_type="application/json", text=orjson.dumps(doc).decode())])

    app.handlers.update(
        on_list_resources=list_resources,
        on_list_resource_templates=list_templates,
        on_read_resource=read_resource,
        on_subscribe_resource=live.subscribe,
        on_unsubscribe_resource=live.unsubscribe,
        on_subscriptions_listen=ListenHandler(live.bus),
    )
    app.lifespan_hooks.append(live.running)
    app.live = live
