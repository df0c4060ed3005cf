"""LSP base-protocol framing that survives a badly framed message.

pygls's loop trusts every header: a wrong Content-Length, a missing one or bare-LF
header lines make it read the next message's header as body (or wait for bytes that
never come), and from then on nothing is ever answered. Here every frame is checked:

* headers may end in CRLF or a bare LF; names are case-insensitive; unknown headers
  are skipped;
* a missing, unparsable or contradictory Content-Length, or a body that is not the
  JSON it announces, is logged and the reader **resynchronises** on the next
  ``Content-Length`` header in the stream;
* a body that holds the start of the next message (a length too large) is cut there;
  a body that stops short of the next header (a length too small) is extended to it;
* a body whose length claims more bytes than ever come is taken as it is after a quiet
  second, when what came is one whole JSON message (the client is waiting for the
  answer; waiting for bytes that never come would make the server deaf).

Every such repair is logged (stderr and the client's log): a framing fault is never
silent. A header block longer than ``LINE_LIMIT`` without an end is no client at all:
the connection is closed.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

logger = logging.getLogger(__name__)

LINE_LIMIT = 1 << 20  # bytes of headers without an end: no LSP client sends that
BODY_LIMIT = 256 << 20  # a Content-Length above this is a framing fault, not a message
QUIET_S = 1.0  # a body still short after this long with nothing arriving is judged as it is

_HEADER_END = re.compile(rb"\r?\n\r?\n")
_CONTENT_LENGTH = re.compile(rb"content-length[ \t]*:", re.IGNORECASE)
_HEADER_LINE = re.compile(rb"^([!-9;-~]+)[ \t]*:[ \t]*(.*?)[ \t]*$")


END = object()  # next_message() at the end of input (a body may well decode to None)


class Framer:
    """Messages from a byte stream, repaired where the framing is wrong.

    ``read_some()`` returns the next bytes (b"" at the end of input); ``decode`` turns a
    body into a message (json.loads with the protocol's hook). ``report`` is told every
    framing fault, as one sentence.
    """

    def __init__(self, read_some: Callable[[], Awaitable[bytes]], decode: Callable[[bytes], Any] = json.loads,
                 report: Callable[[str], None] | None = None) -> None:
        self._read_some = read_some
        self._decode = decode
        self._report = report or (lambda msg: None)
        self.buf = bytearray()
        self.eof = False
        self._pending: asyncio.Future[bytes] | None = None

    def fault(self, message: str) -> None:
        logger.error("framing: %s", message)
        try:
            self._report(message)
        except Exception:  # noqa: BLE001 - reporting must never stop the reader
            logger.debug("could not report a framing fault", exc_info=True)

    async def _fill(self, timeout: float | None = None) -> bool:
        """Read more bytes; False when ``timeout`` passed with nothing (the read stays pending)."""
        if self.eof:
            return False
        if self._pending is None:
            self._pending = asyncio.ensure_future(self._read_some())
        if timeout is not None:
            done, _ = await asyncio.wait({self._pending}, timeout=timeout)
            if not done:
                return False
        chunk = await self._pending
        self._pending = None
        if not chunk:
            self.eof = True
            return False
        self.buf += chunk
        return True

    async def next_message(self) -> Any:
        """The next message, decoded; END at the end of input (or a header without end).

        A body that is framed right but no JSON raises the decoder's error (the caller
        answers it with a parse error) and the stream goes on after it.
        """
        while True:
            end = await self._headers()
            if end is None:
                return END
            length, skip = self._length(bytes(self.buf[:end[0]]))
            if length is None:
                self._resync(skip if skip is not None else end[1])
                continue
            del self.buf[:end[1]]
            return await self._message(length)

    async def _headers(self) -> tuple[int, int] | None:
        """Where the next header block ends (its last byte, and the blank line's end)."""
        while True:
            m = _HEADER_END.search(self.buf)
            if m is not None:
                if not self.buf[:m.start()].strip():
                    del self.buf[:m.end()]
                    continue  # blank lines between messages
                return m.start(), m.end()
            if len(self.buf) > LINE_LIMIT:
                logger.error("header line longer than %d bytes: closing the connection", LINE_LIMIT)
                self.fault(f"a header of more than {LINE_LIMIT} bytes without an end: closing the connection")
                return None
            if not await self._fill():
                if self.buf.strip():
                    logger.debug("input ended inside a header")
                return None

    def _length(self, block: bytes) -> tuple[int | None, int | None]:
        """The block's Content-Length; else None and where to look for the next header (None:
        past the block; after a line that is no header, right after that line)."""
        lengths = set()
        at = 0
        for raw in block.split(b"\n"):
            start, at = at, at + len(raw) + 1
            line = raw.removesuffix(b"\r")
            m = _HEADER_LINE.match(line)
            inner = _CONTENT_LENGTH.search(line, 1)
            if inner is not None and (m is None or m.group(1).lower() != b"content-length"):
                # The rest of a message skipped earlier runs into the next header.
                self.fault(f"bytes before a header ({_show(line[:inner.start()])}); skipping them")
                return None, start + inner.start()
            if m is None:
                self.fault(f"not a header line ({_show(line)}); skipping to the next message")
                return None, at
            if m.group(1).lower() == b"content-length":
                value = m.group(2)
                if not value.isdigit() or int(value) > BODY_LIMIT:
                    self.fault(f"bad Content-Length ({_show(value)}); skipping to the next message")
                    return None, None
                lengths.add(int(value))
        if not lengths:
            self.fault("a message without Content-Length; skipping to the next message")
            return None, None
        if len(lengths) > 1:
            self.fault(f"contradictory Content-Length headers ({sorted(lengths)}); skipping to the next message")
            return None, None
        return lengths.pop(), None

    def _resync(self, start: int) -> None:
        """Drop what is buffered up to the next Content-Length header at or after ``start``
        (the rest of a bad message)."""
        m = _CONTENT_LENGTH.search(self.buf, start)
        if m is None:
            # Keep a tail that may be the start of a header split across reads.
            keep = min(len(self.buf) - start, 15) if len(self.buf) > start else 0
            del self.buf[:len(self.buf) - keep]
        else:
            del self.buf[:m.start()]

    async def _message(self, length: int) -> Any:
        looked = 0  # where the search for a next header inside the short body starts
        while len(self.buf) < length:
            got = await self._fill(timeout=QUIET_S)
            if self.eof:
                return END  # the client left in the middle of a message
            # The length may be too large: the next message (if one came) starts inside.
            m = _CONTENT_LENGTH.search(self.buf, looked)
            looked = max(0, len(self.buf) - 16)
            # (A header at exactly ``length`` is the next message after a whole body: no fault.)
            if m is not None and m.start() < length and _is_json(bytes(self.buf[:m.start()])):
                self.fault(f"Content-Length {length} runs into the next message; the message ends at byte {m.start()}")
                body = bytes(self.buf[:m.start()])
                del self.buf[:m.start()]
                return self._decode(body)
            if not got:
                # Nothing for a while: what came may be the whole message, announced too large.
                whole = bytes(self.buf).strip()
                if whole and _is_json(whole):
                    self.fault(f"Content-Length {length} but only {len(self.buf)} bytes came; "
                               "taking them as the message")
                    self.buf.clear()
                    return self._decode(whole)
        body = bytes(self.buf[:length])
        try:
            message = self._decode(body)
        except ValueError:
            pass
        else:
            del self.buf[:length]
            return message
        # The length is wrong, or the JSON is. A too-large length swallowed the next header:
        m = _CONTENT_LENGTH.search(self.buf)
        if m is not None and m.start() < length and _is_json(body[:m.start()]):
            self.fault(f"Content-Length {length} runs into the next message; the message ends at byte {m.start()}")
            del self.buf[:m.start()]
            return self._decode(body[:m.start()])
        # A too-small one left the end of the body before the next header:
        rest = _CONTENT_LENGTH.search(self.buf, length)
        end = rest.start() if rest is not None else len(self.buf)
        if end > length and _is_json(bytes(self.buf[:end])):
            self.fault(f"Content-Length {length} is short of the message's {end} bytes; reading all of it")
            whole = bytes(self.buf[:end])
            del self.buf[:end]
            return self._decode(whole)
        del self.buf[:length]
        return self._decode(body)  # framed right, malformed JSON: raises, answered with a parse error


def _is_json(data: bytes) -> bool:
    try:
        json.loads(data)
    except ValueError:
        return False
    return True


def _show(raw: bytes) -> str:
    text = raw[:60].decode("utf-8", "replace")
    return repr(text + ("..." if len(raw) > 60 else ""))
