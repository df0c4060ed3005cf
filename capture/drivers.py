"""The rig's drivers: one stored case, one activation, run on a pinned release.

The drivers themselves live in the package (:mod:`skill_lsp.capture.drivers`), shared
with ``skill-lsp capture``; this adapts them to the rig's pins and cases.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skill_lsp.capture import drivers as _drivers
from skill_lsp.capture.drivers import CaptureError, claude_entries
from skill_lsp.capture.releases import pinned_argv

from .install import Pin, ensure

__all__ = ["DRIVERS", "Capture", "CaptureError", "claude_entries", "pinned"]

RUN_TIMEOUT = _drivers.RUN_TIMEOUT


@dataclass
class Capture:
    catalog: str
    activation: str
    tool_result: str | None = None
    builtins: list[dict[str, Any]] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)


def pinned(pin: Pin) -> list[str]:
    """The command that starts the pinned release (installed into the cache first if needed)."""
    return pinned_argv(pin.harness, ensure(pin))


def _driver(harness: str):
    def drive(pin: Pin, workspace: Path, home: Path, skill: str, arguments: str,
              builtin_names: dict[str, int] | None) -> Capture:
        got = _drivers.run(harness, pinned(pin), workspace, home, [(skill, arguments)], builtin_names)
        act = got.activations[0]
        if got.catalog is None or (act.text is None and builtin_names is not None and harness != "codex"):
            raise CaptureError(f"{harness}: no catalog or no activation\n{got.log}")
        meta = dict(got.meta)
        if harness == "gemini":
            meta = {"call": meta["call"], "tool_input": {"name": skill}}
        elif harness == "claude-code":
            meta["tool_input"] = {"skill": skill, **({"args": arguments} if arguments else {})}
        elif harness == "opencode":
            meta["tool_input"] = {"name": skill}
        elif harness == "copilot":
            meta["tool_input"] = {"skill": skill}
        return Capture(got.catalog, act.text or "", act.tool_result, got.builtins, meta)

    return drive


DRIVERS = {h: _driver(h) for h in _drivers.HARNESS_NAMES}
