"""The pygls server object and the glue every feature module shares."""

from __future__ import annotations

import asyncio
import functools
import logging
import sys
import threading
import traceback
from collections.abc import Callable
from typing import Any, TypeVar

from lsprotocol import types as t
from pygls.exceptions import JsonRpcInternalError, JsonRpcMethodNotFound
from pygls.lsp.server import LanguageServer

from .. import __version__
from ..engine.text import Encoding
from . import convert, stdio
from .protocol import SkillProtocol, is_parse_error
from .state import Analysis, OpenDoc, State
from .uris import is_skill_file, path_to_uri

log = logging.getLogger("skill_lsp")
REQUEST_FAILED = -32803  # LSP RequestFailed: a valid request the server refuses, with the reason
F = TypeVar("F", bound=Callable[..., Any])


class SkillLanguageServer(LanguageServer):
    def __init__(self) -> None:
        # Incremental sync, applied with the engine's own line index (features/diagnostics.py):
        # pygls's line model splits with str.splitlines, which breaks at U+2028 and form feeds.
        super().__init__("skill-lsp", __version__, text_document_sync_kind=t.TextDocumentSyncKind.Incremental,
                         protocol_cls=SkillProtocol, max_workers=4)
        self.state = State()
        self.pull_mode = False  # the client pulls diagnostics (and can be asked to re-pull)
        self.workspace_pull: Any = None  # services/pull.WorkspacePull, made by the first workspace pull
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.last_edit = float("-inf")  # time.monotonic() of the newest didChange
        self.scan_turn = 0.0  # time.perf_counter() of a scan thread's last pause for a keystroke
        # Clear while an edit is being analysed: a running scan's thread waits at its next skill
        # (services/sync.py), so the keystroke does not share the GIL with it.
        self.quiet = threading.Event()
        self.quiet.set()
        # False from `initialize` until the client's configuration is read (when it can be
        # asked): open documents are not published with defaults that its settings change.
        self._settings_read = asyncio.Event()
        self._settings_read.set()
        self.scan_generation = 0
        self.scanning = False
        self.rescan_paths: set[str] = set()  # named by file events since the last complete scan
        self.pending_changes: list[tuple[str, int]] = []  # file events waiting to be coalesced
        self.pending_task: asyncio.Future | None = None
        self.applying: set[asyncio.Future] = set()  # batches being applied (kept from the collector)
        # Closed files an edit's cross-skill findings reached, sent after it in turns (services/sync.py).
        self.owed_touched: set[str] = set()
        self.touched_task: asyncio.Future | None = None
        self.reads: dict[str, int] = {}  # path -> serial of its newest re-read in flight
        self.read_serial = 0
        # Folder moves this server put in a rename edit: the client's willRenameFiles for them
        # must add nothing (the edit already carries the text changes).
        self.own_renames: set[tuple[str, str]] = set()
        self.installed: list[dict] = []  # harness releases found on PATH (installed.py), after the first scan
        self.shutting_down = False
        self.exited = False  # `exit` came: stdout is closed, nothing more is written
        self._reporting = False

    @property
    def settings_ready(self) -> bool:
        return self._settings_read.is_set()

    @settings_ready.setter
    def settings_ready(self, value: bool) -> None:
        if value:
            self._settings_read.set()
        else:
            self._settings_read.clear()

    async def settings_read(self) -> None:
        """Until the client's configuration is read (lifecycle bounds the wait: SETTINGS_WAIT_S)."""
        await self._settings_read.wait()

    def _start_io_async(self, stdin=None, stdout=None) -> None:
        # stdin read by the event loop where it can be (server/stdio.py), not by a thread per line.
        stdio.serve(self, stdin or sys.stdin.buffer, stdout or sys.stdout.buffer)

    # --- positions ---
    @property
    def encoding(self) -> Encoding:
        try:
            return convert.encoding_of(self.workspace.position_encoding)
        except RuntimeError:
            return Encoding.UTF16

    # --- documents ---
    def open_doc(self, uri: str) -> OpenDoc | None:
        """An open SKILL.md. Never falls back to reading the disk for unknown URIs."""
        return self.state.docs.get(uri)

    def analysis(self, uri: str) -> tuple[OpenDoc, Analysis] | None:
        od = self.state.docs.get(uri)
        if od is None:
            return None
        return od, self.state.analyse(od)

    # --- messages ---
    def log(self, message: str, kind: t.MessageType = t.MessageType.Log) -> None:
        if self.exited:
            log.debug("after exit: %s", message)
            return
        try:
            self.window_log_message(t.LogMessageParams(type=kind, message=message))
        except Exception:  # noqa: BLE001 - logging must never raise
            log.debug("could not log: %s", message)

    def show(self, message: str, kind: t.MessageType = t.MessageType.Warning) -> None:
        try:
            self.window_show_message(t.ShowMessageParams(type=kind, message=message))
        except Exception:  # noqa: BLE001
            self.log(message)

    def report_server_error(self, error: Exception, source: Any) -> None:
        # pygls would pop "Error in server" at the user. Malformed JSON gets a JSON-RPC
        # parse error instead; anything else is logged, and the server keeps serving.
        if is_parse_error(error):
            self.protocol.send_parse_error(str(error))  # type: ignore[attr-defined]
            return
        if isinstance(error, JsonRpcMethodNotFound) or getattr(error, "code", None) == REQUEST_FAILED:
            # The client already got MethodNotFound, or the refusal a feature raised on purpose
            # (a rename that cannot be done safely): not an error of the server.
            return
        if self._reporting or (source is JsonRpcInternalError and _write_failed(error)):
            # Told over the connection that just failed, the report fails too, and is reported
            # in turn: ~1,000 nested reports, each formatting a longer traceback (10 s after an
            # `exit`). pygls has already logged it to stderr.
            return
        self._reporting = True
        try:
            self.log(f"skill-lsp internal error ({getattr(source, '__name__', source)}): {error}",
                     t.MessageType.Error)
        finally:
            self._reporting = False


def _write_failed(error: BaseException) -> bool:
    """What pygls's sending reports when the pipe is gone, or stdout was closed by `exit`."""
    return isinstance(error, OSError) or (isinstance(error, ValueError) and "closed file" in str(error))


def guarded(default: Any = None) -> Callable[[F], F]:
    """Run a feature so that a failure logs through window/logMessage and answers ``default``."""

    def wrap(fn: F) -> F:
        if asyncio.iscoroutinefunction(fn):
            @functools.wraps(fn)
            async def run_async(ls: SkillLanguageServer, *args: Any) -> Any:
                try:
                    return await fn(ls, *args)
                except Exception:  # noqa: BLE001
                    ls.log(f"{fn.__name__} failed:\n{traceback.format_exc()}", t.MessageType.Error)
                    return default
            return run_async  # type: ignore[return-value]

        @functools.wraps(fn)
        def run(ls: SkillLanguageServer, *args: Any) -> Any:
            try:
                return fn(ls, *args)
            except Exception:  # noqa: BLE001
                ls.log(f"{fn.__name__} failed:\n{traceback.format_exc()}", t.MessageType.Error)
                return default
        return run  # type: ignore[return-value]
    return wrap


def doc_uri(path: str) -> str:
    return path_to_uri(path)


__all__ = ["SkillLanguageServer", "guarded", "is_skill_file", "doc_uri"]
