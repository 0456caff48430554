"""The comment:// resources, export:// links, and live updates for subscribers.

    comment://workspace/all                  every thread, grouped by file
    comment://workspace/{+filePath}.comments one file's threads (template; filePath may hold '/')
    comment://workspace/tags/{tag}           threads with a tag (template)
    comment://workspace/orphaned             threads whose code is gone
    comment://workspace/ai-enriched          threads with AI metadata
    export://<name>                          an export written by export_comments

Subscribers get `notifications/resources/updated` when a resource's threads or the source
file behind it change — through this server, the CLI, another server or an editor (the
workspace watcher) — over 2025-era `resources/subscribe` and 2026-era `subscriptions/listen`
alike; `notifications/resources/list_changed` when files gain or lose threads. All of this
costs nothing until someone subscribes: then only the subscribed views are compared.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import functools
import logging
import threading
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import anyio
import mcp_types as types
import orjson
from mcp.server.subscriptions import (
    InMemorySubscriptionBus,
    ListenHandler,
    ResourcesListChanged,
    ResourceUpdated,
)
from mcp.shared.exceptions import MCPError

from limpet.model import TAGS, LimpetError, Thread
from limpet.server.core import EXPORT_SCHEME, Change, ThreadFilter
from limpet.server.mcp._app import McpApp
from limpet.server.mcp._review import REVIEW_URI
from limpet.server.mcp._views import PREFIX, View, parse_uri, read_uri, resource_uris, view_threads

__all__ = ["Live", "install_resources"]

log = logging.getLogger("limpet.mcp")
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
_UNSEEN = object()


class Live:
    """Who is subscribed to what (both eras), what they last saw, and the notifications."""

    def __init__(self, app: McpApp) -> None:
        self.app = app
        self.bus = InMemorySubscriptionBus()
        self._listen = ListenHandler(self.bus)
        self.legacy: dict[str, tuple[Any, set[str]]] = {}  # connection → (session, uris)
        self.listening: Counter[str] = Counter()  # uris of open listen streams
        self.list_listeners = 0  # open listen streams that want list_changed
        # Touched only inside app.run_sync (one worker at a time): what subscribers last saw.
        self._seen: dict[str, Any] = {}  # uri → its threads (compared by identity, then value)
        self._views: dict[str, View | None] = {}
        self._files: set[str] | None = None  # files with threads, for list_changed
        self._pending: tuple[set[str], bool] = (set(), False)  # (files saved on disk, review changed)
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        self._tg: anyio.abc.TaskGroup | None = None
        self._watching = False

    # -- interest ---------------------------------------------------------------------------
    def interest(self) -> set[str]:
        return {u for _, uris in self.legacy.values() for u in uris} | set(self.listening)

    def wants_list_changed(self) -> bool:
        return bool(self.legacy) or self.list_listeners > 0

    async def subscribe(self, ctx: Any, params: types.SubscribeRequestParams) -> types.EmptyResult:
        """Any URI is accepted (one we do not serve is simply never notified)."""
        key = _connection_key(ctx)
        _, uris = self.legacy.get(key, (ctx.session, set()))
        uris.add(params.uri)
        self.legacy[key] = (ctx.session, uris)
        await self._start({params.uri})
        return types.EmptyResult()

    async def unsubscribe(self, ctx: Any, params: types.UnsubscribeRequestParams) -> types.EmptyResult:
        entry = self.legacy.get(_connection_key(ctx))
        if entry:
            entry[1].discard(params.uri)
        return types.EmptyResult()

    async def listen(self, ctx: Any, params: types.SubscriptionsListenRequestParams) -> Any:
        """2026-era stream: the SDK's ListenHandler serves it; we note what it asks for."""
        wanted = params.notifications
        uris = list(wanted.resource_subscriptions or ())
        self.listening.update(uris)
        self.list_listeners += bool(wanted.resources_list_changed)
        try:
            await self._start(set(uris))
            return await self._listen(ctx, params)
        finally:
            self.listening.subtract(uris)
            self.listening += Counter()  # drop zero counts
            self.list_listeners -= bool(wanted.resources_list_changed)

    async def _start(self, uris: set[str]) -> None:
        """Record what a new subscriber sees now, and watch the workspace from now on."""
        if not self._watching and self._tg is not None:
            self._watching = True
            self._tg.start_soon(self._watch)
        await self.app.run_sync(lambda: self._baseline(uris))

    # -- inputs ----------------------------------------------------------------------------
    def changed(self, change: Change) -> None:
        """From any thread (the service's workers, its disk watcher): wakes the pump."""
        with self._lock:
            saved, review = self._pending
            self._pending = (saved | change.saved, review or change.review)
        if self._loop is not None and self._wake is not None:
            self._loop.call_soon_threadsafe(self._wake.set)

    async def _watch(self) -> None:
        """Other processes' changes too, from the first subscription until the server stops."""
        with self.app.service.watching():
            await anyio.sleep_forever()

    # -- the pump --------------------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def running(self, _app: McpApp) -> AsyncIterator[None]:
        self._loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        unsubscribe = self.app.service.subscribe(self.changed)
        async with anyio.create_task_group() as tg:
            self._tg = tg
            tg.start_soon(self._pump)
            try:
                yield
            finally:
                self._tg = None
                unsubscribe()
                self._listen.close()
                tg.cancel_scope.cancel()

    async def _pump(self) -> None:
        assert self._wake is not None
        while True:
            await self._wake.wait()
            await anyio.sleep(DEBOUNCE_SECONDS)  # one notification per burst
            self._wake.clear()
            with self._lock:
                (saved, review), self._pending = self._pending, (set(), False)
            uris, wants_list = self.interest(), self.wants_list_changed()
            if not uris and not wants_list:
                continue
            try:
                compare = functools.partial(self._compare, review, frozenset(saved), uris, wants_list)
                updated, list_changed = await self.app.run_sync(compare)
            except LimpetError as exc:  # e.g. a corrupt store file: the next read reports it
                log.warning("live update skipped: %s", exc.message)
                continue
            await self._send(updated, list_changed)

    async def _send(self, updated: set[str], list_changed: bool) -> None:
        for uri in sorted(updated):
            if uri in self.listening:
                await self.bus.publish(ResourceUpdated(uri=uri))
            for session, subscribed in list(self.legacy.values()):
                if uri in subscribed:
                    await session.send_resource_updated(uri)
        if list_changed:
            await self.bus.publish(ResourcesListChanged())
            for session, _ in list(self.legacy.values()):
                await session.send_resource_list_changed()

    # -- comparing (in the worker) ---------------------------------------------------------
    def _view(self, uri: str) -> View | None:
        if uri not in self._views:
            try:
                self._views[uri] = parse_uri(self.app.service, uri)
            except LimpetError:
                self._views[uri] = None  # not ours: accepted, never notified
        return self._views[uri]

    def _state(self, uri: str) -> Any:
        view = self._view(uri)
        return None if view is None else view_threads(self.app.service, view, fresh=False)

    def _baseline(self, uris: set[str]) -> None:
        try:
            for uri in uris:
                if uri not in self._seen:
                    self._seen[uri] = self._state(uri)
            if self._files is None:
                self._files = self.app.service.files_with_threads()
        except LimpetError as exc:  # e.g. a corrupt store file: subscribing still works
            log.warning("no baseline for %s: %s", sorted(uris), exc.message)

    def _compare(self, review: bool, sources: frozenset[str], uris: set[str],
                 wants_list: bool) -> tuple[set[str], bool]:
        """(URIs to notify, whether the resource list changed). `sources`: files saved on disk."""
        svc = self.app.service
        files_now = svc.files_with_threads()  # a file that gains threads arrives as a thread change
        for rel in sorted(sources & files_now):
            svc.threads(ThreadFilter(file=rel))  # re-anchor now, so moves and orphans show
        updated: set[str] = set()
        for uri in uris:
            now, before = self._state(uri), self._seen.get(uri, _UNSEEN)
            self._seen[uri] = now
            view = self._views.get(uri)
            if view is not None and (before is not _UNSEEN and not _same(before, now)
                                     or view.kind == "file" and view.arg in sources):
                updated.add(uri)
        if review and REVIEW_URI in uris:
            updated.add(REVIEW_URI)
        for gone in set(self._seen) - uris:
            del self._seen[gone]
        list_changed = False
        if wants_list:
            list_changed = self._files is not None and files_now != self._files
            self._files = files_now
        return updated, list_changed


def _same(before: list[Thread] | None, now: list[Thread] | None) -> bool:
    # List equality tries identity first: unchanged threads are the store's cached objects.
    return before == now


def _connection_key(ctx: Any) -> str:
    # stdio: one connection per process. Streamable HTTP: one per Mcp-Session-Id.
    headers = getattr(getattr(ctx, "request", None), "headers", None)
    return (headers.get("mcp-session-id") if headers else None) or "local"


def _contents(app: McpApp, uri: str) -> Any:
    """The one content item behind `uri` (runs in the worker)."""
    if uri.startswith(EXPORT_SCHEME):
        mime, data = app.service.read_export(uri)
        if mime.startswith("text/") or mime.endswith(("json", "ndjson")):
            return types.TextResourceContents(uri=uri, mime_type=mime, text=data.decode("utf-8"))
        return types.BlobResourceContents(uri=uri, mime_type=mime, blob=base64.b64encode(data).decode())
    text = orjson.dumps(read_uri(app.service, uri)).decode()
    return types.TextResourceContents(uri=uri, mime_type="application/json", text=text)


def install_resources(app: McpApp) -> None:
    live = Live(app)

    async def list_resources(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListResourcesResult:
        uris = await app.run_sync(lambda: resource_uris(app.service))
        listed = [*STATIC, *(types.Resource(uri=u, name=n, mime_type="application/json", title=t) for u, n, t in uris)]
        return types.ListResourcesResult(resources=listed)

    async def list_templates(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(resource_templates=TEMPLATES)

    async def read_resource(ctx: Any, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        uri = params.uri
        try:
            item = await app.run_sync(lambda: _contents(app, uri))
        except LimpetError as exc:  # the contract's error object rides in the JSON-RPC error data
            raise MCPError(code=types.INVALID_PARAMS, message=f"{exc.code}: {exc.message}",
                           data={"uri": uri, "error": exc.to_dict()}) from None
        return types.ReadResourceResult(contents=[item])

    app.handlers.update(
        on_list_resources=list_resources,
        on_list_resource_templates=list_templates,
        on_read_resource=read_resource,
        on_subscribe_resource=live.subscribe,
        on_unsubscribe_resource=live.unsubscribe,
        on_subscriptions_listen=live.listen,
    )
    app.lifespan_hooks.append(live.running)
    app.live = live
