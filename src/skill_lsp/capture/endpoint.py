"""A recording mock model endpoint on 127.0.0.1.

Speaks Anthropic Messages (with count_tokens), OpenAI Responses and OpenAI
Chat Completions, streamed (SSE) or not.  Every request body is decoded
(gzip / zstd / chunked) and recorded before it is answered.  Each turn that
offers the skill tool is answered with the next call of a bounded queue (one
call, or many to activate many skills in one run); once the queue is empty every
turn gets plain text, so the harness stops.  The server shuts itself down after
``max_requests`` requests or ``lifetime`` seconds.
"""

from __future__ import annotations

import gzip
import json
import subprocess
import threading
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["MAX_CALLS", "Endpoint", "Recorded", "ToolCall", "call_id"]

REPLY_TEXT = "Done."
#: Tool calls one endpoint answers at most (a run's queue is cut to this).
MAX_CALLS = 400


def call_id(n: int, wire: str = "anthropic") -> str:
    """The id of the ``n``-th call (1-based) as the endpoint sends it: ``toolu_mock_1``, ``call_mock_1``."""
    return f"toolu_mock_{n}" if wire == "anthropic" else f"call_mock_{n}"


@dataclass(frozen=True)
class ToolCall:
    """What to call: the tool's name and its input, when a request offers it."""

    tool: str
    arguments: dict[str, Any]


@dataclass
class Recorded:
    method: str
    path: str
    body: Any  # decoded JSON, or None


@dataclass
class _State:
    calls: list[ToolCall]  # still to make, in order
    max_requests: int
    parallel: bool = False  # all calls in one turn (Anthropic wire only)
    requests: list[Recorded] = field(default_factory=list)
    made: int = 0  # calls answered so far
    lock: threading.Lock = field(default_factory=threading.Lock)


def _decode(raw: bytes, encoding: str) -> bytes:
    for enc in [e.strip() for e in encoding.split(",") if e.strip()][::-1]:
        if enc == "gzip":
            raw = gzip.decompress(raw)
        elif enc == "deflate":
            raw = zlib.decompress(raw)
        elif enc == "zstd":
            # No zstd in this Python's stdlib: the zstd command line tool decodes it.
            raw = subprocess.run(["zstd", "-d", "-c"], input=raw, capture_output=True, check=True,
                                 timeout=30).stdout
    return raw


def _offers(body: dict, tool: str) -> bool:
    for t in body.get("tools") or []:
        name = t.get("name") or (t.get("function") or {}).get("name")
        if name == tool:
            return True
    return False


def _has_tool_result(body: dict) -> bool:
    for m in body.get("messages") or []:
        if m.get("role") == "tool":
            return True
        content = m.get("content")
        if isinstance(content, list) and any(
            isinstance(c, dict) and c.get("type") == "tool_result" for c in content
        ):
            return True
    for item in body.get("input") or []:
        if isinstance(item, dict) and item.get("type") == "function_call_output":
            return True
    return False


def _sse(events: list[tuple[str | None, dict]]) -> bytes:
    out = []
    for name, data in events:
        if name:
            out.append(f"event: {name}\n")
        out.append(f"data: {json.dumps(data)}\n\n")
    return "".join(out).encode()


def _anthropic(body: dict, calls: list[ToolCall], n: int) -> tuple[dict, list[tuple[str | None, dict]]]:
    """A message calling ``calls`` (numbered from ``n``), or plain text when there are none."""
    model = body.get("model", "mock")
    usage = {"input_tokens": 10, "output_tokens": 5}
    blocks: list[dict] = [{"type": "tool_use", "id": call_id(n + i), "name": c.tool, "input": c.arguments}
                          for i, c in enumerate(calls)]
    stop = "tool_use" if calls else "end_turn"
    if not blocks:
        blocks = [{"type": "text", "text": REPLY_TEXT}]
    message = {"id": "msg_mock", "type": "message", "role": "assistant", "model": model,
               "content": blocks, "stop_reason": stop, "stop_sequence": None, "usage": usage}
    events: list[tuple[str | None, dict]] = [
        ("message_start", {"type": "message_start",
                           "message": dict(message, content=[], stop_reason=None, usage={"input_tokens": 10, "output_tokens": 0})}),
    ]
    for index, block in enumerate(blocks):
        if block["type"] == "tool_use":
            start_block = dict(block, input={})
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        else:
            start_block = dict(block, text="")
            delta = {"type": "text_delta", "text": REPLY_TEXT}
        events += [
            ("content_block_start", {"type": "content_block_start", "index": index, "content_block": start_block}),
            ("content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}),
            ("content_block_stop", {"type": "content_block_stop", "index": index}),
        ]
    events += [
        ("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                           "usage": {"output_tokens": 5}}),
        ("message_stop", {"type": "message_stop"}),
    ]
    return message, events


def _responses(body: dict, call: ToolCall | None, n: int) -> tuple[dict, list[tuple[str | None, dict]]]:
    model = body.get("model", "mock")
    if call is not None:
        item: dict = {"type": "function_call", "id": f"fc_mock_{n}", "call_id": call_id(n, "openai"),
                      "name": call.tool, "arguments": json.dumps(call.arguments), "status": "completed"}
    else:
        item = {"type": "message", "id": "msg_mock_1", "role": "assistant", "status": "completed",
                "content": [{"type": "output_text", "text": REPLY_TEXT, "annotations": []}]}
    usage = {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 5,
             "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 15}
    response = {"id": "resp_mock", "object": "response", "created_at": 0, "model": model,
                "status": "completed", "output": [item], "usage": usage}
    events: list[tuple[str | None, dict]] = [
        ("response.created", {"type": "response.created",
                              "response": dict(response, status="in_progress", output=[])}),
        ("response.output_item.added", {"type": "response.output_item.added", "output_index": 0, "item": item}),
        ("response.output_item.done", {"type": "response.output_item.done", "output_index": 0, "item": item}),
        ("response.completed", {"type": "response.completed", "response": response}),
    ]
    return response, events


def _chat(body: dict, call: ToolCall | None, n: int) -> tuple[dict, list[tuple[str | None, dict]]]:
    model = body.get("model", "mock")
    if call is not None:
        tc = {"index": 0, "id": call_id(n, "openai"), "type": "function",
              "function": {"name": call.tool, "arguments": json.dumps(call.arguments)}}
        message: dict = {"role": "assistant", "content": None, "tool_calls": [tc]}
        finish = "tool_calls"
    else:
        message = {"role": "assistant", "content": REPLY_TEXT}
        finish = "stop"
    usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
    full = {"id": "chatcmpl-mock", "object": "chat.completion", "created": 0, "model": model,
            "choices": [{"index": 0, "message": message, "finish_reason": finish}], "usage": usage}
    chunk = {"id": "chatcmpl-mock", "object": "chat.completion.chunk", "created": 0, "model": model}
    events: list[tuple[str | None, dict]] = [
        (None, dict(chunk, choices=[{"index": 0, "delta": message, "finish_reason": None}])),
        (None, dict(chunk, choices=[{"index": 0, "delta": {}, "finish_reason": finish}], usage=usage)),
    ]
    return full, events


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def _read(self) -> bytes:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    self.rfile.readline()
                    break
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
            raw = b"".join(chunks)
        else:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        return _decode(raw, self.headers.get("Content-Encoding", ""))

    def _send(self, status: int, payload: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(payload)))
        self.send_header("request-id", "req_mock")
        self.end_headers()
        self.wfile.write(payload)
        self.wfile.flush()

    def _json(self, data: Any, status: int = 200) -> None:
        self._send(status, json.dumps(data).encode(), "application/json")

    def do_GET(self) -> None:
        self.server.note(Recorded("GET", self.path, None))
        self._json({"object": "list", "data": [], "models": [], "has_more": False})

    def do_HEAD(self) -> None:
        self._send(200, b"", "text/plain")

    def do_POST(self) -> None:
        raw = self._read()
        try:
            body = json.loads(raw or b"null")
        except ValueError:
            body = raw.decode("utf-8", "replace")
        self.server.note(Recorded("POST", self.path, body))
        path = self.path.split("?")[0]
        if not isinstance(body, dict):
            self._json({})
            return
        if path.endswith("/count_tokens"):
            self._json({"input_tokens": 10})
            return
        calls, n = self.server.choose(body, many=path.endswith("/messages"))
        call = calls[0] if calls else None
        if path.endswith("/messages"):
            full, events = _anthropic(body, calls, n)
        elif path.endswith("/responses"):
            full, events = _responses(body, call, n)
        elif path.endswith("/chat/completions"):
            full, events = _chat(body, call, n)
        else:
            self._json({"error": {"message": f"mock: no route {path}"}}, 404)
            return
        if body.get("stream"):
            payload = _sse(events) + (b"data: [DONE]\n\n" if path.endswith("/chat/completions") else b"")
            self._send(200, payload, "text/event-stream")
        else:
            self._json(full)


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, state: _State, on_request: Callable[[Recorded], None] | None) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.state = state
        self.on_request = on_request

    def note(self, rec: Recorded) -> None:
        with self.state.lock:
            self.state.requests.append(rec)
            over = len(self.state.requests) >= self.state.max_requests
        if self.on_request:
            self.on_request(rec)
        if over:
            threading.Thread(target=self.shutdown, daemon=True).start()

    def choose(self, body: dict, many: bool = False) -> tuple[list[ToolCall], int]:
        """The next queued call (every one, when parallel and the wire allows ``many``) when
        ``body`` offers its tool, and the number (1-based) of the first."""
        with self.state.lock:
            if not self.state.calls or not _offers(body, self.state.calls[0].tool):
                return [], 0
            # A turn that answers a call we never made is not ours (another conversation).
            if _has_tool_result(body) and self.state.made == 0:
                return [], 0
            take = len(self.state.calls) if (many and self.state.parallel) else 1
            first = self.state.made + 1
            out, self.state.calls = self.state.calls[:take], self.state.calls[take:]
            self.state.made += take
            return out, first


class Endpoint:
    """``with Endpoint(calls) as ep: ... ep.url ... ep.requests``; stops by itself.

    ``calls``: one call, a list answered one per turn (``parallel``: all in the first turn that
    offers the tool, on the Anthropic wire), or None (never call a tool).
    """

    def __init__(self, calls: ToolCall | list[ToolCall] | None, *, max_requests: int = 200,
                 lifetime: float = 300.0, on_request: Callable[[Recorded], None] | None = None,
                 parallel: bool = False) -> None:
        queue = [] if calls is None else [calls] if isinstance(calls, ToolCall) else list(calls)
        self.state = _State(queue[:MAX_CALLS], max_requests, parallel)
        self.server = _Server(self.state, on_request)
        self.lifetime = lifetime
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._started = 0.0

    def _serve(self) -> None:
        timer = threading.Timer(self.lifetime, self.server.shutdown)
        timer.daemon = True
        timer.start()
        try:
            self.server.serve_forever(poll_interval=0.1)
        finally:
            timer.cancel()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    @property
    def calls_made(self) -> int:
        with self.state.lock:
            return self.state.made

    @property
    def requests(self) -> list[Recorded]:
        with self.state.lock:
            return list(self.state.requests)

    def __enter__(self) -> Endpoint:
        self._started = time.monotonic()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self._thread.join(timeout=5)
        self.server.server_close()
