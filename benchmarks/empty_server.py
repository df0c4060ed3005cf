#!/usr/bin/env python3
"""The smallest pygls 2 language server: answers initialize/shutdown, nothing else.

The baseline for spawn → initialize: ``skill-lsp serve`` must stay within 1.3× of it.

    python benchmarks/empty_server.py        # LSP over stdio
"""

from pygls.lsp.server import LanguageServer

server = LanguageServer("empty-server", "0")

if __name__ == "__main__":
    server.start_io()
