"""A raw JSON-RPC client for the server over stdio: malformed bytes, bursts, a client that stops reading.

Every byte the server writes to stdout goes through ``_read_loop``, which parses
LSP framing and JSON strictly: anything that is not a framed JSON-RPC message is
recorded in ``violations`` (the server must write nothing else to stdout).
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

SERVER = [sys.executable, "-m", "skill_lsp", "serve"]


def frame(obj: Any) -> bytes:
    body = json.dumps(obj).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def frame_raw(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class RawClient:
    def __init__(self, cwd: Path, env: dict[str, str] | None = None, debounce_ms: int = 0) -> None:
        self.debounce_ms = debounce_ms
        self.stderr_path = cwd / f"server-stderr-{os.getpid()}-{id(self)}.log"
        self._stderr = open(self.stderr_path, "wb")  # noqa: SIM115
        self.proc = subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr,
                                     cwd=str(cwd), env={**os.environ, **(env or {})}, bufsize=0)
        self.messages: list[dict] = []
        self.violations: list[str] = []
        self.cond = threading.Condition()
        self.reading = threading.Event()
        self.reading.set()
        self._next_id = 1000
        self._write_lock = threading.Lock()
        # One writer thread: the reader answers server requests without waiting for a big write
        # in progress (the server may be blocked writing to us while we write to it).
        self._outbox: queue.Queue[bytes | None] = queue.Queue(maxsize=256)
        self.write_error: OSError | None = None
        self.writer = threading.Thread(target=self._write_loop, daemon=True)
        self.writer.start()
        self.reader = threading.Thread(target=self._read_loop, daemon=True)
        self.reader.start()

    def _write_loop(self) -> None:
        assert self.proc.stdin is not None
        while True:
            data = self._outbox.get()
            try:
                if data is None:
                    return
                if self.write_error is None:
                    self.proc.stdin.write(data)
                    self.proc.stdin.flush()
            except (OSError, ValueError) as exc:
                self.write_error = OSError(str(exc))
            finally:
                self._outbox.task_done()

    # --- reading ---
    def _read_exact(self, n: int) -> bytes:
        out = b""
        assert self.proc.stdout is not None
        while len(out) < n:
            chunk = self.proc.stdout.read(n - len(out))
            if not chunk:
                raise EOFError
            out += chunk
        return out

    def _read_loop(self) -> None:
        assert self.proc.stdout is not None
        try:
            while True:
                self.reading.wait()
                headers = b""
                while not headers.endswith(b"\r\n\r\n"):
                    c = self.proc.stdout.read(1)
                    if not c:
                        if headers:
                            self.violations.append(f"truncated header {headers!r}")
                        return
                    headers += c
                    if len(headers) > 4096:
                        self.violations.append(f"garbage on stdout: {headers[:200]!r}")
                        return
                length = None
                for line in headers.decode("ascii", "replace").split("\r\n"):
                    name, _, value = line.partition(":")
                    if name.strip().lower() == "content-length":
                        length = int(value.strip())
                    elif line and name.strip().lower() != "content-type":
                        self.violations.append(f"unexpected header line {line!r}")
                if length is None:
                    self.violations.append(f"no Content-Length in {headers!r}")
                    return
                body = self._read_exact(length)
                try:
                    msg = json.loads(body)
                except ValueError:
                    self.violations.append(f"body is not JSON: {body[:200]!r}")
                    continue
                if not isinstance(msg, dict) or msg.get("jsonrpc") != "2.0":
                    self.violations.append(f"not a JSON-RPC object: {body[:200]!r}")
                with self.cond:
                    self.messages.append(msg)
                    self.cond.notify_all()
                # Answer server->client requests the way a minimal client would.
                if "method" in msg and "id" in msg:
                    result: Any = None
                    if msg["method"] == "workspace/configuration":
                        result = [{"debounceMs": self.debounce_ms} for _ in msg.get("params", {}).get("items", [])]
                    self.send({"jsonrpc": "2.0", "id": msg["id"], "result": result})
        except (EOFError, ValueError, OSError):
            return

    def wait(self, predicate, timeout: float = 10.0) -> Any:
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for m in reversed(self.messages):
                    if predicate(m):
                        return m
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no matching message within {timeout}s; last: {self.messages[-3:]}")
                self.cond.wait(left)

    def response(self, id_: Any, timeout: float = 10.0) -> dict:
        return self.wait(lambda m: m.get("id") == id_ and "method" not in m, timeout)

    # --- writing ---
    def send_bytes(self, data: bytes) -> None:
        """Queue bytes for the server (blocks while 256 writes are pending: back-pressure)."""
        if self.write_error is not None:
            raise self.write_error
        self._outbox.put(data)

    def pending_writes(self) -> int:
        return self._outbox.qsize()

    def send(self, obj: Any) -> None:
        self.send_bytes(frame(obj))

    def notify(self, method: str, params: Any = None) -> None:
        msg: dict = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)

    def request_async(self, method: str, params: Any = None) -> int:
        with self._write_lock:
            self._next_id += 1
            id_ = self._next_id
        msg: dict = {"jsonrpc": "2.0", "id": id_, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        return id_

    def request(self, method: str, params: Any = None, timeout: float = 10.0) -> dict:
        return self.response(self.request_async(method, params), timeout)

    # --- LSP conveniences ---
    def initialize(self, root: Path, encodings: list[str] | None = None) -> dict:
        caps: dict = {"textDocument": {"hover": {"contentFormat": ["markdown"]},
                                       "publishDiagnostics": {"versionSupport": True}},
                      "workspace": {"configuration": True}}
        if encodings:
            caps["general"] = {"positionEncodings": encodings}
        res = self.request("initialize", {
            "processId": os.getpid(), "rootUri": root.as_uri(), "capabilities": caps,
            "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
            "initializationOptions": {"skillLsp": {"debounceMs": self.debounce_ms}},
        })
        assert "result" in res, res
        self.notify("initialized", {})
        return res["result"]

    def open(self, path: Path, text: str, version: int = 1) -> str:
        uri = path.as_uri()
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "markdown", "version": version, "text": text}})
        return uri

    def change(self, uri: str, text: str, version: int) -> None:
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                "contentChanges": [{"text": text}]})

    def hover(self, uri: str, line: int, character: int, timeout: float = 10.0) -> dict:
        return self.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                   "position": {"line": line, "character": character}}, timeout)

    def publications(self, uri: str) -> list[dict]:
        with self.cond:
            return [m["params"] for m in self.messages
                    if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri]

    def rss_kib(self) -> int:
        with open(f"/proc/{self.proc.pid}/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def close(self, timeout: float = 10.0) -> int | None:
        """shutdown + exit when still alive; returns the exit code."""
        if self.proc.poll() is None:
            try:
                self.request("shutdown", None, timeout=timeout)
                self.notify("exit")
            except (OSError, TimeoutError):
                pass
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self._stderr.close()
        self.write_error = self.write_error or BrokenPipeError("closed")
        try:
            self._outbox.put_nowait(None)
        except queue.Full:
            pass
        self.reader.join(5)
        return self.proc.returncode

    def stderr_text(self) -> str:
        return self.stderr_path.read_text("utf-8", "replace")
