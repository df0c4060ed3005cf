"""Run a real harness release against a recording model endpoint on 127.0.0.1.

Shared by ``skill-lsp capture`` (the harness the user has installed) and the
repository's capture rig and differential tester (``capture/``, pinned releases).
The engine never imports this package: it starts processes and binds a socket.
"""

from .drivers import HARNESS_NAMES, Activation, CaptureError, Run, run
from .endpoint import Endpoint, ToolCall
from .normalise import normalise
from .releases import Release, installed, pinned_argv

__all__ = ["HARNESS_NAMES", "Activation", "CaptureError", "Endpoint", "Release", "Run", "ToolCall", "installed",
           "normalise", "pinned_argv", "run"]
