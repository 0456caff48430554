"""The language server: open documents, engine passes, live changes, diagnostics.

One asyncio loop (pygls) owns every document's state; the service is called from one worker
thread only (engine passes, commands, listings), so no two calls ever overlap and the loop
keeps reading the editor's messages while the engine works. The service's change feed
(this server's writes, and while it runs what other processes write on disk) schedules a
pass for the open documents concerned.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Annotated, Any, TypeVar

import msgspec
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from limpet.model import LimpetError
from limpet.server.core import Change, Service, invalid_argument_from_decoding, local_author
from limpet.server.lsp._documents import OpenDocument, marks_for
from limpet.server.lsp._protocol import Json, Protocol, converter
from limpet.server.lsp._render import diagnostic

__all__ = ["LimpetServer", "Settings", "rpc_error"]

log = logging.getLogger("limpet.lsp")
T = TypeVar("T")


def _version() -> str:
    try:
        return version("limpet")
    except PackageNotFoundError:
        return "0"


class Settings(msgspec.Struct, kw_only=True, rename="camel"):
    """initializationOptions (all optional; spelled as editors spell them, `debounceMs`;
    options this limpet does not know are ignored)."""

    # Quiet time after an edit before the engine re-anchors the document
    debounce_ms: Annotated[int, msgspec.Meta(ge=0, le=10_000)] = 150
    show_resolved: bool = True  # resolved threads as hint diagnostics
    page_url: Annotated[str, msgspec.Meta(max_length=2000)] | None = None  # default: found on loopback
    author: Annotated[str, msgspec.Meta(min_length=1, max_length=200)] | None = None  # default: $LIMPET_AUTHOR or $USER


def rpc_error(exc: LimpetError) -> JsonRpcException:
    """A limpet error as a JSON-RPC error: seed 004's number, the contract's error object."""
    return JsonRpcException(f"{exc.code}: {exc.message}", code=exc.rpc_code, data=exc.to_dict())


def _root_of(params: lsp.InitializeParams) -> str | None:
    for uri in [f.uri for f in params.workspace_folders or ()] + [params.root_uri or ""]:
        path = to_fs_path(uri) if uri else None
        if path:
            return path
    return params.root_path


class LimpetServer(LanguageServer):
    def __init__(self, workspace: str | None = None, page_ports: Iterable[int] = ()) -> None:
        super().__init__("limpet", _version(), text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental,
                         protocol_cls=Protocol, converter_factory=converter)
        self.explicit_root = workspace  # `limpet lsp --workspace DIR` wins over the editor's root
        self.page_ports = tuple(page_ports)
        self.service: Service | None = None
        self.settings = Settings()
        self.documents: dict[str, OpenDocument] = {}
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="limpet-lsp")
        self._held = contextlib.ExitStack()
        self._loop: asyncio.AbstractEventLoop | None = None

    # -- lifecycle ------------------------------------------------------------------------
    def begin(self, params: lsp.InitializeParams) -> None:
        try:
            self.settings = msgspec.convert(params.initialization_options or {}, Settings, strict=False)
        except msgspec.ValidationError as exc:
            raise rpc_error(invalid_argument_from_decoding(exc)) from None
        root = self.explicit_root or _root_of(params) or os.getcwd()
        try:
            self.service = Service(root)
        except LimpetError as exc:
            raise rpc_error(exc) from None
        self._loop = asyncio.get_running_loop()
        self._held.callback(self.service.subscribe(self._changed_threadsafe))
        self._held.enter_context(self.service.watching())

    def end(self) -> None:
        """Stop listening, write staged positions, let the worker finish (shutdown or EOF)."""
        self._held.close()
        if self.service is not None:
            with contextlib.suppress(RuntimeError):  # the worker is already shut down
                self.worker.submit(self.service.flush).result(timeout=10)
        self.worker.shutdown(wait=True)

    def shutdown(self) -> None:
        self.end()
        super().shutdown()

    @property
    def svc(self) -> Service:
        if self.service is None:
            raise JsonRpcException("the server is not initialized", code=-32002)
        return self.service

    @property
    def author(self) -> str:
        return self.settings.author or local_author()

    def units(self, text: str) -> int:
        """Length of `text` in the client's position units (UTF-16 unless negotiated)."""
        return self.workspace.position_codec.client_num_units(text)

    def in_worker(self, fn: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        """Run `fn` on the service's one thread; LimpetError becomes a JSON-RPC error."""

        def call() -> T:
            try:
                return fn(*args)
            except LimpetError as exc:
                raise rpc_error(exc) from None

        assert self._loop is not None
        return self._loop.run_in_executor(self.worker, call)

    # -- documents --------------------------------------------------------------------------
    def relative(self, uri: str) -> str | None:
        """The workspace path of a document, or None (not a file, or outside the workspace)."""
        path = to_fs_path(uri) if uri.startswith("file:") else None
        if path is None or self.service is None:
            return None
        try:
            rel = os.path.relpath(Path(path).resolve(), self.service.root)
            return self.service.normalize(rel)
        except (LimpetError, ValueError):
            return None

    def open(self, uri: str, version: int | None) -> None:
        rel = self.relative(uri)
        if rel is None:
            return
        doc = self.documents[uri] = OpenDocument(uri, rel, version)
        self.schedule(doc, 0)

    def close(self, uri: str) -> None:
        doc = self.documents.pop(uri, None)
        if doc is not None:
            if doc.timer is not None:
                doc.timer.cancel()
            self.protocol.notify(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, Json(uri=uri, diagnostics=[]))

    def publish(self, doc: OpenDocument) -> None:
        shown = [m for m in doc.marks if self.settings.show_resolved or m.thread.status == "open"]
        self.protocol.notify(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, Json(
            uri=doc.uri, version=doc.version, diagnostics=[diagnostic(m.thread, m.span) for m in shown]))

    # -- engine passes ----------------------------------------------------------------------
    def schedule(self, doc: OpenDocument, delay: float) -> None:
        if doc.timer is not None:
            doc.timer.cancel()
        assert self._loop is not None
        doc.timer = self._loop.call_later(delay, self._run_pass, doc)

    def _run_pass(self, doc: OpenDocument) -> None:
        doc.timer = None
        if self.documents.get(doc.uri) is not doc:
            return
        if doc.running:
            doc.again = True
            return
        text, version = self.workspace.get_text_document(doc.uri).source, doc.version
        doc.running = True
        future = self.worker.submit(self._place, doc.rel, text)
        assert self._loop is not None
        loop = self._loop
        future.add_done_callback(lambda f: loop.call_soon_threadsafe(self._placed, doc, version, text, f))

    def _place(self, rel: str, text: str) -> list:
        svc = self.svc
        threads = svc.threads_on_text(rel, text.encode("utf-8"))
        if svc.pending_writes:
            svc.flush()  # positions the saved file's reconcile staged
        return threads

    def _placed(self, doc: OpenDocument, version: int | None, text: str, future: Future) -> None:
        doc.running = False
        if self.documents.get(doc.uri) is not doc:
            return
        try:
            threads = future.result()
        except LimpetError as exc:  # the file became unreadable, the store is busy, ...
            log.warning("cannot place the threads of %s: %s", doc.rel, exc)
            threads = None
        except Exception:  # a bug must not take the editor's server down: logged, retried on change
            log.exception("placing the threads of %s failed", doc.rel)
            threads = None
        if threads is not None and version == doc.version:
            doc.marks = marks_for(threads, text, self.units)
            doc.placed_version = version
            self.publish(doc)
            self.refresh_views()
        if doc.again:
            doc.again = False
            self.schedule(doc, 0)

    def refresh_views(self) -> None:
        """Ask the client to re-request code lenses and inlay hints (when it can be asked)."""
        ws = self.client_capabilities.workspace
        if ws is not None and ws.code_lens is not None and ws.code_lens.refresh_support:
            self.workspace_code_lens_refresh(None)
        if ws is not None and ws.inlay_hint is not None and ws.inlay_hint.refresh_support:
            self.workspace_inlay_hint_refresh(None)

    # -- live changes ------------------------------------------------------------------------
    def _changed_threadsafe(self, change: Change) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._changed, change)

    def _changed(self, change: Change) -> None:
        for doc in list(self.documents.values()):
            if change.store or doc.rel in change.files:
                self.schedule(doc, 0)
