"""The engine is pure Python: no pygls or lsprotocol anywhere under src/skill_lsp/engine."""

from __future__ import annotations

import re
import subprocess
import sys

from helpers import SRC, bare_env

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
                          env=bare_env())
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def _engine_imports() -> dict[str, set[str]]:
    """Engine module -> the engine modules it imports anywhere (function bodies and TYPE_CHECKING
    blocks included), relative or absolute. A package's own __init__ running first when one of
    its modules is imported is Python's doing, not an edge."""
    import ast

    mods = {"skill_lsp." + ".".join(p.relative_to(SRC / "skill_lsp").with_suffix("").parts).removesuffix(".__init__"): p
            for p in ENGINE.rglob("*.py")}
    edges: dict[str, set[str]] = {m: set() for m in mods}
    for m, p in mods.items():
        pkg = m if p.name == "__init__.py" else m.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.ImportFrom):
                base = pkg.split(".")[: len(pkg.split(".")) - (node.level - 1)] if node.level else []
                target = ".".join(base + ([node.module] if node.module else []))
                names = [target] + [f"{target}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            edges[m] |= {n for n in names if n in mods and n != m}
    return edges


def test_no_import_circle_in_the_engine():
    # Layers, bottom first: harness facts, targets, rules, listing, workspace. A module that
    # reaches up (a listing that re-checks through the workspace) closes a circle.
    edges = _engine_imports()
    assert len(edges) > 40 and edges["skill_lsp.engine.listing"]
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        stack.append(m)
        for n in sorted(edges[m]):
            if state.get(n) == 1:
                return stack[stack.index(n):] + [n]
            if n not in state and (cycle := visit(n)):
                return cycle
        state[m] = 2
        stack.pop()
        return None

    for m in sorted(edges):
        if m not in state:
            cycle = visit(m)
            assert cycle is None, " -> ".join(c.removeprefix("skill_lsp.engine.") for c in cycle)


def test_the_harness_model_imports_nothing_above_it():
    edges = _engine_imports()
    harness = {m for m in edges if m.startswith("skill_lsp.engine.harness")}
    below = {"skill_lsp.engine.findings", "skill_lsp.engine.datarecord", "skill_lsp.engine.jsontext"} | harness
    assert not edges["skill_lsp.engine.datarecord"]  # the records' decorator is a leaf
    assert not edges["skill_lsp.engine.jsontext"]  # and JSON text
    for m in harness:
        assert edges[m] <= below, (m, sorted(edges[m] - below))


def test_the_engine_never_loads_the_capture_package():
    """skill_lsp.capture starts harness processes and binds a socket; the engine stays pure of it."""
    mods = sorted(
        "skill_lsp." + ".".join(p.relative_to(SRC / "skill_lsp").with_suffix("").parts).removesuffix(".__init__")
        for p in ENGINE.rglob("*.py"))
    code = ("import importlib, sys\n"
            f"for m in {mods!r}: importlib.import_module(m)\n"
            "print(sorted(m for m in sys.modules if m.startswith('skill_lsp.capture')))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env=bare_env())
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"
    assert not [p for p in ENGINE.rglob("*.py") if re.search(r"^\s*from\s+\.+capture\b|skill_lsp\.capture",
                                                               p.read_text(encoding="utf-8"), re.M)]


def test_rapidfuzz_is_imported_only_under_the_lock():
    # Two threads importing different rapidfuzz submodules at once can get a partially initialised
    # module (seen in the server: a preview command on the loop while a scan thread matched a field
    # name; 2 in 25 fresh interpreters with four threads). engine/fuzzy.py imports it whole under a lock.
    src = SRC / "skill_lsp"
    unguarded = []
    for path in sorted(src.rglob("*.py")):
        if path.name == "fuzzy.py":
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            if re.match(r"\s*(from rapidfuzz[. ]|import rapidfuzz)", line) and not any(
                    "fuzzy.load()" in prev for prev in lines[max(0, i - 3):i]):
                unguarded.append(f"{path.relative_to(src)}:{i + 1}")
    assert unguarded == []
