"""Live updates for the web page: the service's changes fan out to every open page over SSE.

The hub listens to the service's one change feed (its own writes, and while the server runs,
what other processes and editors change on disk). Each page keeps a pending set, so a burst
of changes is one event and a slow page never makes the queue grow beyond the set of
distinct files.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import orjson

from limpet.server.core import Change

__all__ = ["EventHub", "HEARTBEAT_SECONDS", "REVIEW_CHANGED", "STORE_CHANGED"]

# What a page reads in an event's files besides workspace files (the page's protocol):
STORE_CHANGED = ".limpet"  # another process wrote threads: which files, the page asks again
REVIEW_CHANGED = ".limpet/reviews/current.json"  # the current review changed

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

    def publish(self, change: Change) -> None:
        """Thread-safe: the service calls this from worker threads and its disk watcher."""
        loop = self._loop
        changed = set(change.files)
        if change.store:
            changed.add(STORE_CHANGED)
        if change.review:
            changed.add(REVIEW_CHANGED)
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
