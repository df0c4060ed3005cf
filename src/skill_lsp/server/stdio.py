"""Reading the client's messages from stdin on the event loop itself.

pygls reads stdin in its thread pool, one hand-over per header line and one per body:
three round trips between threads for every message. On the 2-core machine of
docs/performance.md that was 0.5 ms of a keystroke's 4 ms to diagnostics (a request
that does nothing took 1.5 ms there and back; read on the loop, 1.0 ms). A pipe or
socket is read by the loop's own selector instead; anything else (a regular file, a
platform without pipe transports) keeps pygls's reader.
"""

from __future__ import annotations

import asyncio
import logging
import os
import stat
import threading
from typing import BinaryIO

from pygls.io_ import StdinAsyncReader, StdoutWriter, run_async

logger = logging.getLogger(__name__)

# A header line longer than this is no LSP header: the connection is treated as closed.
LINE_LIMIT = 1 << 20


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


class LoopReader:
    """pygls's reader interface over an asyncio stream: end of input reads as b''."""

    def __init__(self, stream: asyncio.StreamReader) -> None:
        self.stream = stream

    async def readline(self) -> bytes:
        try:
            return await self.stream.readline()
        except (ValueError, asyncio.LimitOverrunError):
            logger.error("header line longer than %d bytes: closing the connection", LINE_LIMIT)
            return b""

    async def readexactly(self, n: int) -> bytes:
        try:
            return await self.stream.readexactly(n)
        except asyncio.IncompleteReadError:
            return b""  # the client went away in the middle of a message


def serve(server, stdin: BinaryIO, stdout: BinaryIO) -> None:
    """pygls's ``_start_io_async``, with ``stdin`` read on the loop when it can be, and quiet
    when the client leaves while a handler still waits for it."""
    server._stop_event = threading.Event()  # noqa: SLF001 - what pygls's own start_io sets
    server.protocol.set_writer(StdoutWriter(stdout))

    async def main() -> None:
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(_quiet_when_cancelled)
        reader: LoopReader | StdinAsyncReader = StdinAsyncReader(stdin, server.thread_pool)
        if readable_on_loop(stdin):
            stream = asyncio.StreamReader(limit=LINE_LIMIT)
            try:
                await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stream), stdin)
                reader = LoopReader(stream)
            except (OSError, ValueError):  # the selector refused it after all: pygls's reader
                pass
        await run_async(stop_event=server._stop_event, reader=reader,  # noqa: SLF001
                        protocol=server.protocol, logger=logger, error_handler=server.report_server_error)

    try:
        asyncio.run(main())
    except BrokenPipeError:
        logger.error("the connection to the client is lost: shutting down")
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.shutdown()


def _quiet_when_cancelled(loop: asyncio.AbstractEventLoop, context: dict) -> None:
    # The client left (end of input) while a notification's handler awaited its answer (say
    # `initialized` asking for the configuration): asyncio.run cancels that task, and pygls's
    # callback re-raises the cancellation, which asyncio would print as a traceback.
    if isinstance(context.get("exception"), asyncio.CancelledError):
        return
    loop.default_exception_handler(context)
