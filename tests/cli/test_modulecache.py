"""The kept modules (`modulecache.py`): a check keeps the code it imported, the next one takes it
from there, and anything that is not what was kept (an edited source, a damaged or foreign file)
means the usual import."""

from __future__ import annotations

import json
import marshal
import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import SRC, skill_text, write_skill
from skill_lsp import modulecache

# Runs check as `skill-lsp check` does, then prints which modules came from the file.
DRIVER = """
import json, sys
from skill_lsp import modulecache
modulecache.install()
from skill_lsp.cli import main
code = main(sys.argv[1:])
sys.stdout.flush()
finder = modulecache._finder
print(json.dumps(sorted(finder.served) if finder else None), file=sys.stderr)
modulecache.save()
"""


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    # Bytecode under the test's folder: the run compiles what it imports, as an install does.
    return {**env, "PYTHONPATH": str(SRC), "SKILL_LSP_CACHE_DIR": str(tmp_path / "cache"),
            "PYTHONPYCACHEPREFIX": str(tmp_path / "pyc"), **extra}


def _check(tmp_path: Path, env: dict[str, str]) -> tuple[str, list[str] | None]:
    proc = subprocess.run([sys.executable, "-c", DRIVER, "check", "--format", "json", str(tmp_path / "ws")],
                          capture_output=True, text=True, timeout=60, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout, json.loads(proc.stderr.strip().splitlines()[-1])


def test_a_check_keeps_its_modules_and_the_next_takes_them_from_the_file(tmp_path: Path):
    write_skill(tmp_path / "ws/.claude/skills", "demo", skill_text() + "\nSee [the guide](references/GUIDE.md).\n")
    env = _env(tmp_path)
    first, served = _check(tmp_path, env)
    assert served == []
    kept = tmp_path / "cache" / modulecache._NAME
    assert kept.is_file() and kept.stat().st_mode & 0o077 == 0
    second, served = _check(tmp_path, env)
    assert second == first and json.loads(second)["findings"]
    assert {"skill_lsp.engine.rules.files", "skill_lsp.engine.harness", "skill_lsp.commands.check"} <= set(served)
    stamp = kept.stat().st_mtime_ns
    _check(tmp_path, env)
    assert kept.stat().st_mtime_ns == stamp  # nothing new: not written again
    # Caching off: no file read or written.
    off, served = _check(tmp_path, {**env, "SKILL_LSP_CACHE_DIR": "off"})
    assert off == first and served is None


def _entry_for(module: str, code: str, *, stale: bool = False) -> tuple[str, tuple]:
    origin = os.path.join(modulecache._ROOT, *module.split(".")[1:]) + ".py"
    st = os.stat(origin)
    mtime = st.st_mtime_ns - 1 if stale else st.st_mtime_ns
    return origin, (mtime, st.st_size, None, False, marshal.dumps(compile(code, origin, "exec")))


def test_code_is_served_only_for_the_source_it_was_kept_for():
    name = "skill_lsp.engine.spdx"
    origin, entry = _entry_for(name, "MARK = 'kept'\n")
    finder = modulecache._Finder({origin: entry})
    spec = finder.find_spec(name)
    assert spec is not None and spec.origin == origin and spec.has_location
    import importlib.util

    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.MARK == "kept" and module.__file__ == origin
    assert "def " in spec.loader.get_source(name)  # the source, for tracebacks, is the file's
    assert finder.served == {name}
    # The source changed since (another mtime): the usual import.
    stale_origin, stale = _entry_for(name, "MARK = 'stale'\n", stale=True)
    assert modulecache._Finder({stale_origin: stale}).find_spec(name) is None
    assert modulecache._Finder({origin: entry}).find_spec("json") is None  # not ours
    assert modulecache._Finder({}).find_spec("skill_lsp.engine.spdx") is None


@pytest.mark.parametrize("content", [b"", b"not marshal", marshal.dumps((99, {})), marshal.dumps([1, 2]),
                                     marshal.dumps((1, {"/x.py": (1, 2, 3)})), marshal.dumps((1, {"/x.py": "code"}))])
def test_a_file_that_is_not_what_was_written_is_an_empty_one(tmp_path: Path, content: bytes):
    path = tmp_path / "modules.marshal"
    path.write_bytes(content)
    path.chmod(0o600)
    assert modulecache._read(str(path)) == {}


def test_a_file_others_could_have_written_is_not_read(tmp_path: Path):
    name = "skill_lsp.engine.spdx"
    origin, entry = _entry_for(name, "MARK = 1\n")
    path = tmp_path / "modules.marshal"
    path.write_bytes(marshal.dumps((modulecache.FORMAT, {origin: entry})))
    path.chmod(0o600)
    assert modulecache._read(str(path)) == {origin: entry}
    path.chmod(0o620)
    assert modulecache._read(str(path)) == {}


def test_damaged_code_is_imported_from_the_module_itself():
    name = "skill_lsp.engine.spdx"
    origin, entry = _entry_for(name, "")
    spec = modulecache._Finder({origin: (*entry[:4], b"\xffdamaged")}).find_spec(name)
    import importlib.util

    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert callable(module.ids)  # the real module, from its .pyc or source
