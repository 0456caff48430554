"""Live updates for the web page: the service's changes fan out to every open page over SSE.

The hub listens to the service's one change feed (its own writes, and while the server runs,
what other processes and editors change on disk). Each stream keeps what is pending merged,
so a burst of changes is one event and a slow page never makes the queue grow beyond the
set of distinct files.

An event says what the page must redraw (`change`, JSON):
    files   workspace files whose threads or content changed
    saved   of those, files written on disk (an editor saved, git checked out): their code
            changed, so their threads were re-anchored
    store   another process wrote threads (which files: the page asks again)
    review  the current review changed

A browser keeps one stream for all its tabs on this server (the page shares it over a
BroadcastChannel): browsers allow six connections per host.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import orjson

from limpet.server.core import Change

__all__ = ["EventHub", "HEARTBEAT_SECONDS"]

HEARTBEAT_SECONDS = 15.0


class _Pending:
    """What one stream has not sent yet, merged."""

    def __init__(self) -> None:
        self.files: set[str] = set()
        self.saved: set[str] = set()
        self.store = False
        self.review = False

    def add(self, change: Change) -> None:
        self.files |= change.files
        self.saved |= change.saved
        self.store = self.store or change.store
        self.review = self.review or change.review

    def __bool__(self) -> bool:
        return bool(self.files or self.saved or self.store or self.review)

    def event(self) -> bytes:
        data = {"files": sorted(self.files), "saved": sorted(self.saved), "store": self.store, "review": self.review}
        return b"event: change\ndata: " + orjson.dumps(data) + b"\n\n"


class _Client:
    def __init__(self) -> None:
        self.pending = _Pending()
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
        if loop is None or loop.is_closed() or not (change.files or change.store or change.review):
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._deliver(change)
        else:
            loop.call_soon_threadsafe(self._deliver, change)

    @property
    def streams(self) -> int:
        """Open event streams (pages sharing one count once)."""
        return len(self._clients)

    def _deliver(self, change: Change) -> None:
        for client in self._clients:
            client.pending.add(change)
            client.wake.set()

    async def stream(self) -> AsyncIterator[bytes]:
        """The SSE body: a `ready` event, then `change` events and heartbeats."""
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
                pending, client.pending = client.pending, _Pending()
                if pending:
                    yield pending.event()
        finally:
            self._clients.discard(client)
