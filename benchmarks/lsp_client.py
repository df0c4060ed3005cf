"""A small LSP client over stdio for benchmarks (asyncio, no pygls / lsprotocol).

    client = LspClient(["skill-lsp", "serve"], cwd=ws)
    await client.start()
    init = await client.initialize(root, initialization_options={"debounceMs": 0})
    client.notify("textDocument/didOpen", {...})
    diag = await client.wait_diagnostics(uri, after=t0, timeout=5)
    await client.stop()

* Content-Length framing in both directions; one reader task.
* Requests carry integer ids and resolve futures; every wait has a timeout.
* Server-to-client requests get sensible answers: ``workspace/configuration``
  → the configured settings per item, ``client/registerCapability`` /
  ``window/workDoneProgress/create`` → null, ``workspace/applyEdit`` →
  ``{"applied": false}``, anything else → null.
* Each notification is stamped with ``time.perf_counter()`` on arrival, so
  latencies are measured at the moment the bytes were parsed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any


class LspError(Exception):
    def __init__(self, method: str, error: dict) -> None:
        super().__init__(f"{method}: {error.get('code')} {error.get('message')}")
        self.error = error


def uri_of(path: str | Path) -> str:
    return Path(path).resolve().as_uri()


CLIENT_CAPABILITIES: dict = {
    "general": {"positionEncodings": ["utf-16"]},
    "workspace": {
        "configuration": True,
        "workspaceFolders": True,
        "applyEdit": True,
        "didChangeConfiguration": {"dynamicRegistration": True},
        "didChangeWatchedFiles": {"dynamicRegistration": True},
        "executeCommand": {"dynamicRegistration": False},
    },
    "textDocument": {
        "synchronization": {"dynamicRegistration": False, "didSave": True},
        "publishDiagnostics": {
            "relatedInformation": True,
            "versionSupport": True,
            "codeDescriptionSupport": True,
            "dataSupport": True,
        },
        "completion": {
            "completionItem": {
                "snippetSupport": True,
                "documentationFormat": ["markdown", "plaintext"],
            },
            "contextSupport": True,
        },
        "hover": {"contentFormat": ["markdown", "plaintext"]},
        "codeAction": {
            "codeActionLiteralSupport": {
                "codeActionKind": {
                    "valueSet": [
                        "",
                        "quickfix",
                        "refactor",
                        "source",
                        "source.fixAll",
                        "source.organizeImports",
                    ]
                }
            },
            "resolveSupport": {"properties": ["edit"]},
            "dataSupport": True,
        },
        "codeLens": {},
        "documentLink": {},
        "documentSymbol": {"hierarchicalDocumentSymbolSupport": True},
    },
    "window": {"workDoneProgress": True, "showMessage": {}},
}


class LspClient:
    def __init__(
        self,
        cmd: list[str],
        *,
        cwd: str | Path | None = None,
        env: dict | None = None,
        settings: dict | None = None,
        stderr_path: str | Path | None = None,
    ) -> None:
        self.cmd = [str(c) for c in cmd]
        self.cwd = str(cwd) if cwd else None
        self.env = env
        self.settings = settings or {}
        self.stderr_path = stderr_path
        self.proc: asyncio.subprocess.Process | None = None
        self.t_spawn = 0.0
        self._next_id = 0
        self._pending: dict[int, tuple[str, asyncio.Future]] = {}
        self._waiters: list[tuple[str, Callable[[dict], bool], asyncio.Future]] = []
        self.notifications: deque[tuple[float, str, Any]] = deque(maxlen=200_000)
        self.diagnostics: dict[
            str, tuple[float, Any]
        ] = {}  # uri -> (time, params) of the latest publish
        self.publish_count = 0
        self.last_publish_t = 0.0
        # skillLsp/status and $/progress notifications in order (few: read them without the rest).
        self.statuses: list[tuple[float, dict]] = []
        self.progress: list[tuple[float, dict]] = []
        # Called with (uri, params) on each publishDiagnostics: lets a benchmark keep its own
        # account up to date instead of recomputing it over every file while it polls.
        self.on_publish: Callable[[str, dict], None] | None = None
        self.server_requests: dict[str, int] = {}
        self._reader: asyncio.Task | None = None
        self._stderr_file = None
        self.closed: asyncio.Event | None = None  # set in start()

    # -- process -------------------------------------------------------------
    async def start(self) -> None:
        self.closed = asyncio.Event()
        self._stderr_file = open(self.stderr_path, "wb") if self.stderr_path else None  # noqa: SIM115
        self.t_spawn = time.perf_counter()
        self.proc = await asyncio.create_subprocess_exec(
            *self.cmd,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=self._stderr_file or asyncio.subprocess.DEVNULL,
            cwd=self.cwd,
            env=self.env,
            limit=64 * 2**20,
            start_new_session=True,
        )
        self._reader = asyncio.create_task(self._read_loop())

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    async def stop(self, timeout: float = 5.0) -> int | None:
        """shutdown + exit, then SIGKILL the process group if it lingers."""
        if self.proc is None:
            return None
        if self.proc.returncode is None:
            with contextlib.suppress(Exception):
                await self.request("shutdown", None, timeout=timeout)
            with contextlib.suppress(Exception):
                self.notify("exit", None)
            try:
                await asyncio.wait_for(self.proc.wait(), timeout)
            except (asyncio.TimeoutError, TimeoutError):
                self.kill()
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self.proc.wait(), timeout)
        if self._reader:
            self._reader.cancel()
            with contextlib.suppress(BaseException):
                await self._reader
        if self._stderr_file:
            self._stderr_file.close()
        return self.proc.returncode

    def kill(self) -> None:
        if self.proc and self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, 9)

    # -- wire ----------------------------------------------------------------
    def _send(self, msg: dict) -> None:
        assert self.proc and self.proc.stdin
        body = json.dumps(msg, separators=(",", ":"), ensure_ascii=False).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    async def _read_loop(self) -> None:
        assert self.proc and self.proc.stdout
        rd = self.proc.stdout
        try:
            while True:
                length = None
                while True:
                    line = await rd.readline()
                    if not line:
                        raise EOFError
                    line = line.strip()
                    if not line:
                        break
                    k, _, v = line.partition(b":")
                    if k.strip().lower() == b"content-length":
                        length = int(v.strip())
                if length is None:
                    continue
                body = await rd.readexactly(length)
                t = time.perf_counter()
                self._dispatch(json.loads(body), t)
        except (EOFError, asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            for _m, fut in list(self._pending.values()):
                if not fut.done():
                    fut.set_exception(EOFError("server closed the connection"))
            for _m, _p, fut in self._waiters:
                if not fut.done():
                    fut.set_exception(EOFError("server closed the connection"))
            if self.closed:
                self.closed.set()

    def _dispatch(self, msg: dict, t: float) -> None:
        if "id" in msg and "method" not in msg:
            entry = self._pending.pop(msg["id"], None)
            if entry and not entry[1].done():
                method, fut = entry
                if "error" in msg:
                    fut.set_exception(LspError(method, msg["error"]))
                else:
                    fut.set_result((t, msg.get("result")))
            return
        method = msg.get("method", "")
        params = msg.get("params")
        if "id" in msg:
            self.server_requests[method] = self.server_requests.get(method, 0) + 1
            self._send({"jsonrpc": "2.0", "id": msg["id"], "result": self._answer(method, params)})
            return
        self.notifications.append((t, method, params))
        if method == "skillLsp/status" and isinstance(params, dict):
            self.statuses.append((t, params))
        elif method == "$/progress" and isinstance(params, dict):
            self.progress.append((t, params))
        if method == "textDocument/publishDiagnostics" and isinstance(params, dict):
            self.diagnostics[params.get("uri", "")] = (t, params)
            self.publish_count += 1
            self.last_publish_t = t
            if self.on_publish is not None:
                self.on_publish(params.get("uri", ""), params)
        keep = []
        for w in self._waiters:
            m, pred, fut = w
            if fut.done():
                continue
            if m == method:
                try:
                    hit = pred(params)
                except Exception:  # noqa: BLE001
                    hit = False
                if hit:
                    fut.set_result((t, params))
                    continue
            keep.append(w)
        self._waiters = keep

    def _answer(self, method: str, params: Any) -> Any:
        if method == "workspace/configuration":
            items = (params or {}).get("items", [])
            out = []
            for it in items:
                sec = it.get("section")
                if sec in (None, ""):
                    out.append({"skillLsp": self.settings})
                elif sec == "skillLsp":
                    out.append(self.settings)
                elif sec.startswith("skillLsp."):
                    out.append(self.settings.get(sec.split(".", 1)[1]))
                else:
                    out.append(None)
            return out
        if method == "workspace/applyEdit":
            return {"applied": False, "failureReason": "benchmark client"}
        if method == "workspace/workspaceFolders":
            return None
        return None

    # -- API -------------------------------------------------------------------
    def notify(self, method: str, params: Any) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    async def request_timed(
        self, method: str, params: Any, timeout: float = 10.0
    ) -> tuple[float, Any]:
        """(arrival time of the response, result)."""
        self._next_id += 1
        rid = self._next_id
        fut: asyncio.Future = asyncio.get_running_loop().create_future()
        self._pending[rid] = (method, fut)
        msg: dict = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        self._send(msg)
        try:
            return await asyncio.wait_for(fut, timeout)
        except (asyncio.TimeoutError, TimeoutError):
            self._pending.pop(rid, None)
            with contextlib.suppress(Exception):
                self.notify("$/cancelRequest", {"id": rid})
            raise TimeoutError(f"{method}: no response in {timeout} s") from None

    async def request(self, method: str, params: Any, timeout: float = 10.0) -> Any:
        return (await self.request_timed(method, params, timeout))[1]

    def expect(self, method: str, pred: Callable[[Any], bool] = lambda p: True) -> asyncio.Future:
        """Register interest *before* the action that triggers the notification."""
        fut: asyncio.Future = asyncio.get_running_loop().create_future()
        self._waiters.append((method, pred, fut))
        return fut

    async def wait(self, fut: asyncio.Future, timeout: float) -> tuple[float, Any]:
        try:
            return await asyncio.wait_for(asyncio.shield(fut), timeout)
        except (asyncio.TimeoutError, TimeoutError):
            fut.cancel()
            raise TimeoutError(f"no notification in {timeout} s") from None

    async def initialize(
        self, root: str | Path | None, *, initialization_options: Any = None, timeout: float = 30.0,
        capabilities: dict | None = None,
    ) -> tuple[float, dict]:
        """initialize + initialized; returns (seconds since spawn, result)."""
        params: dict = {
            "processId": os.getpid(),
            "clientInfo": {"name": "skill-lsp-bench", "version": "1"},
            "capabilities": capabilities or CLIENT_CAPABILITIES,
            "initializationOptions": initialization_options,
            "trace": "off",
        }
        if root is not None:
            params["rootUri"] = uri_of(root)
            params["rootPath"] = str(Path(root).resolve())
            params["workspaceFolders"] = [{"uri": uri_of(root), "name": Path(root).name}]
        else:
            params["rootUri"] = None
            params["workspaceFolders"] = None
        t, result = await self.request_timed("initialize", params, timeout)
        self.notify("initialized", {})
        return t - self.t_spawn, result

    def did_open(
        self, uri: str, text: str, version: int = 1, language_id: str = "markdown"
    ) -> None:
        self.notify(
            "textDocument/didOpen",
            {
                "textDocument": {
                    "uri": uri,
                    "languageId": language_id,
                    "version": version,
                    "text": text,
                }
            },
        )

    def did_change_full(self, uri: str, text: str, version: int) -> None:
        self.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]},
        )

    def did_close(self, uri: str) -> None:
        self.notify("textDocument/didClose", {"textDocument": {"uri": uri}})

    def scan_log(self) -> list[str]:
        """The server's own account of each workspace scan (its `scan:` log lines)."""
        return [p.get("message") for _, m, p in self.notifications if m == "window/logMessage"
                and isinstance(p, dict) and str(p.get("message", "")).startswith("scan:")]

    def memory(self) -> dict:
        """VmRSS / VmHWM of the server process (KiB) from /proc, plus its descendants' PSS."""
        out: dict = {}
        try:
            for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
                if line.startswith(("VmRSS:", "VmHWM:")):
                    out[line.split(":")[0]] = int(line.split()[1])
        except OSError:
            pass
        return out
