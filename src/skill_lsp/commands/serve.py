"""`skill-lsp serve`: the language server over stdio or TCP."""

from __future__ import annotations

import gc
import logging
import sys

TYPE_CHECKING = False  # type checkers take this as True; a run does not import argparse for a name
if TYPE_CHECKING:
    from argparse import Namespace


def run(args: Namespace) -> int:
    # No cyclic collection while the server's modules load (lsprotocol alone makes hundreds of
    # thousands of objects, and each collection walks them all: 5 % of the start-up): they all
    # live as long as the server. The `initialize` handler turns the collector back on.
    gc.disable()
    # Nothing may reach stdout but the protocol: route logging to stderr.
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="skill-lsp: %(message)s")
    # A client cancelling a request whose answer is already on its way is routine
    # (VS Code does it on every cursor move); pygls warns, and editors show it as an error.
    logging.getLogger("pygls.protocol.json_rpc").addFilter(_not_late_cancel)
    from ..server import create_server  # noqa: PLC0415

    server = create_server()
    # The scan's threads (discovery, collecting worker results) hold the GIL in bursts; a
    # request waits for at most one switch interval, 5 ms by default: the keystroke budget.
    sys.setswitchinterval(0.001)
    if args.tcp:
        host, _, port = args.tcp.rpartition(":")
        try:
            port_no = int(port)
        except ValueError:
            print(f"skill-lsp: --tcp expects HOST:PORT, got {args.tcp!r}", file=sys.stderr)
            return 2
        server.start_tcp(host or "127.0.0.1", port_no)
    else:
        server.start_io()
    return int(getattr(server.protocol, "exit_code", 0))


def _not_late_cancel(record: logging.LogRecord) -> bool:
    return not record.getMessage().startswith("Cancel notification for unknown message id")
