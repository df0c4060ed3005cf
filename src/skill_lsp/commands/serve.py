"""`skill-lsp serve`: the language server over stdio or TCP."""

from __future__ import annotations

import logging
import sys
from argparse import Namespace


def run(args: Namespace) -> int:
    # Nothing may reach stdout but the protocol: route logging to stderr.
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="skill-lsp: %(message)s")
    from ..server import create_server  # noqa: PLC0415

    server = create_server()
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
