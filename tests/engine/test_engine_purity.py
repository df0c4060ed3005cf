"""The engine is pure Python: no pygls or lsprotocol anywhere under src/skill_lsp/engine."""

from __future__ import annotations

import re
import subprocess
import sys

from helpers import SRC

ENGINE = SRC / "skill_lsp" / "engine"
IMPORT = re.compile(r"^\s*(?:from|import)\s+(pygls|lsprotocol)\b", re.M)


def test_engine_sources_never_import_pygls_or_lsprotocol():
    files = sorted(ENGINE.rglob("*.py"))
    assert len(files) > 10
    offenders = [str(p.relative_to(SRC)) for p in files if IMPORT.search(p.read_text(encoding="utf-8"))]
    assert offenders == []


def test_importing_every_engine_module_loads_no_lsp_package():
    mods = sorted(
        "skill_lsp." + ".".join(p.relative_to(SRC / "skill_lsp").with_suffix("").parts).removesuffix(".__init__")
        for p in ENGINE.rglob("*.py"))
    code = ("import importlib, sys\n"
            f"for m in {mods!r}: importlib.import_module(m)\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pygls', 'lsprotocol')))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env={"PYTHONPATH": str(SRC)})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_the_engine_never_loads_the_capture_package():
    """skill_lsp.capture starts harness processes and binds a socket; the engine stays pure of it."""
    mods = sorted(
        "skill_lsp." + ".".join(p.relative_to(SRC / "skill_lsp").with_suffix("").parts).removesuffix(".__init__")
        for p in ENGINE.rglob("*.py"))
    code = ("import importlib, sys\n"
            f"for m in {mods!r}: importlib.import_module(m)\n"
            "print(sorted(m for m in sys.modules if m.startswith('skill_lsp.capture')))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env={"PYTHONPATH": str(SRC)})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"
    assert not [p for p in ENGINE.rglob("*.py") if re.search(r"^\s*from\s+\.+capture\b|skill_lsp\.capture",
                                                               p.read_text(encoding="utf-8"), re.M)]
