"""Live updates for the web page: changed files fan out to every open page over SSE.

Sources: the service's in-process listener (tools called over MCP or the API, from worker
threads) and, when available, the workspace watcher (other processes: the CLI, a stdio MCP
server, an editor). Each page keeps a pending set, so a burst of changes is one event and a
slow page never makes the queue grow beyond the set of distinct files.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator, Iterable
from typing import TYPE_CHECKING

import orjson

if TYPE_CHECKING:
    from limpet.server._service import Service

__all__ = ["EventHub", "HEARTBEAT_SECONDS", "STORE_CHANGED", "watch_store"]

# Published when the store changed but we do not know which files (another process wrote it).
STORE_CHANGED = ".limpet"

HEARTBEAT_SECONDS = 15.0


class _Client:
    def __init__(self) -> None:
        self.pending: set[str] = set()
        self.wake = asyncio.Event()


class EventHub:
    def __init__(self) -> None:
        self._clients: set[_Client] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closed = False
        self.published = 0  # lets the store poller skip what was already announced

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._closed = False

    def close(self) -> None:
        """End every open stream (server shutdown: uvicorn waits for open responses)."""
        self._closed = True
        for client in list(self._clients):
            client.wake.set()

    def close_threadsafe(self) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self.close)

    def publish(self, files: Iterable[str]) -> None:
        """Thread-safe: the service calls this from worker threads."""
        loop = self._loop
        changed = set(files)
        if loop is None or not changed or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._deliver(changed)
        else:
            loop.call_soon_threadsafe(self._deliver, changed)

    def _deliver(self, files: set[str]) -> None:
        self.published += 1
        for client in self._clients:
            client.pending |= files
            client.wake.set()

    async def stream(self) -> AsyncIterator[bytes]:
        """The SSE body: a `ready` event, then `change` events ({"files": [...]}) and heartbeats."""
        client = _Client()
        self._clients.add(client)
        try:
            yield b"retry: 2000\nevent: ready\ndata: {}\n\n"
            while not self._closed:
                try:
                    await asyncio.wait_for(client.wake.wait(), HEARTBEAT_SECONDS)
                except TimeoutError:
                    yield b": ping\n\n"
                    continue
                client.wake.clear()
                if self._closed:
                    break
                files, client.pending = sorted(client.pending), set()
                if files:
                    yield b"event: change\ndata: " + orjson.dumps({"files": files}) + b"\n\n"
        finally:
            self._clients.discard(client)


STORE_POLL_SECONDS = 0.5


def _store_signature(svc: Service) -> tuple:
    """What changes when any process writes threads or the review (cheap: three stats)."""
    sig = []
    for path in (svc.store.threads_dir, svc.store.dir / "cache" / "generation",
                 svc.store.dir / "reviews" / "current.json"):
        try:
            st = os.stat(path)
            sig.append((st.st_mtime_ns, st.st_size, st.st_ino))
        except OSError:
            sig.append(None)
    return tuple(sig)


@contextlib.asynccontextmanager
async def watch_store(svc: Service, hub: EventHub) -> AsyncIterator[None]:
    """Changes made by other processes (the CLI, a stdio MCP server) reach open pages too."""

    async def poll() -> None:
        last, seen = _store_signature(svc), hub.published
        while True:
            await asyncio.sleep(STORE_POLL_SECONDS)
            now = await asyncio.to_thread(_store_signature, svc)
            # A write made in this process was announced already (with its files): skip it.
            if now != last and hub.published == seen:
                hub.publish({STORE_CHANGED})
            last, seen = now, hub.published

    task = asyncio.create_task(poll())
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
