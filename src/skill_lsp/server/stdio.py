"""Reading the client's messages from stdin on the event loop itself.

pygls reads stdin in its thread pool, one hand-over per header line and one per body:
three round trips between threads for every message. On the 2-core machine of
docs/performance.md that was 0.5 ms of a keystroke's 4 ms to diagnostics (a request
that does nothing took 1.5 ms there and back; read on the loop, 1.0 ms). A pipe or
socket is read by the loop's own selector instead; anything else (a regular file, a
platform without pipe transports) is read in a thread. Either way the bytes go through
:mod:`.framing`, which survives badly framed messages (pygls's loop went deaf on one).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import stat
import threading
from collections.abc import Awaitable, Callable
from typing import Any, BinaryIO

from lsprotocol import types as t
from pygls.exceptions import JsonRpcException
from pygls.io_ import StdoutWriter

from .framing import END, LINE_LIMIT, Framer
from .protocol import is_parse_error

logger = logging.getLogger(__name__)
CHUNK = 1 << 16

__all__ = ["LINE_LIMIT", "serve"]


def readable_on_loop(stream: BinaryIO) -> bool:
    """Whether the event loop can watch ``stream``: a pipe or socket on POSIX (not a device:
    epoll refuses /dev/null, and only after the transport is made)."""
    if os.name != "posix":
        return False
    try:
        mode = os.fstat(stream.fileno()).st_mode
    except (OSError, ValueError, AttributeError):
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def serve(server, stdin: BinaryIO, stdout: BinaryIO) -> None:
    """pygls's ``_start_io_async``, with ``stdin`` read on the loop when it can be, and quiet
    when the client leaves while a handler still waits for it."""
    server._stop_event = threading.Event()  # noqa: SLF001 - what pygls's own start_io sets
    server.protocol.set_writer(StdoutWriter(stdout))

    async def main() -> None:
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(_quiet_when_cancelled)
        read_some: Callable[[], Awaitable[bytes]] = _thread_reader(stdin, server.thread_pool)
        if readable_on_loop(stdin):
            stream = asyncio.StreamReader(limit=LINE_LIMIT)
            try:
                await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stream), stdin)
                read_some = lambda: stream.read(CHUNK)  # noqa: E731
            except (OSError, ValueError):  # the selector refused it after all: read in a thread
                pass
        protocol = server.protocol

        def decode(body: bytes) -> Any:
            return json.loads(body, object_hook=protocol.structure_message)

        def report(message: str) -> None:
            server.log(f"skill-lsp: a badly framed message from the client: {message}", t.MessageType.Error)

        framer = Framer(read_some, decode, report)
        while not server._stop_event.is_set():  # noqa: SLF001
            try:
                message = await framer.next_message()
            except Exception as exc:  # noqa: BLE001 - answered (a parse error), never fatal
                if not is_parse_error(exc):
                    logger.exception("Unable to read a message")
                server.report_server_error(exc, JsonRpcException)
                continue
            if message is END:
                break
            try:
                protocol.handle_message(message)
            except Exception as exc:  # noqa: BLE001 - as pygls's loop: logged, the server goes on
                logger.exception("Unable to handle message")
                server.report_server_error(exc, JsonRpcException)

    try:
        asyncio.run(main())
    except BrokenPipeError:
        logger.error("the connection to the client is lost: shutting down")
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.shutdown()


def _thread_reader(stdin: BinaryIO, pool: Any) -> Callable[[], Awaitable[bytes]]:
    """Reads of whatever is there (at most CHUNK bytes) in a thread: a regular file, /dev/null."""
    read = getattr(stdin, "read1", None) or stdin.read

    def read_some() -> Awaitable[bytes]:
        return asyncio.get_running_loop().run_in_executor(pool, read, CHUNK)
    return read_some


def _quiet_when_cancelled(loop: asyncio.AbstractEventLoop, context: dict) -> None:
    # The client left (end of input) while a notification's handler awaited its answer (say
    # `initialized` asking for the configuration): asyncio.run cancels that task, and pygls's
    # callback re-raises the cancellation, which asyncio would print as a traceback.
    if isinstance(context.get("exception"), asyncio.CancelledError):
        return
    loop.default_exception_handler(context)
