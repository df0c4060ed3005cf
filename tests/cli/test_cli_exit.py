"""The `skill-lsp` command (``cli.entry``): check, preview and catalog end without tearing the
interpreter down, and lose nothing of what they print on the way."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import SRC, bare_env, skill_text, write_skill
from skill_lsp import cli

# Prints on stderr when the interpreter finalises (atexit runs then, and only then).
LAUNCH = ("import atexit, sys; atexit.register(lambda: sys.stderr.write('finalised\\n'));"
          "from skill_lsp.cli import entry; entry()")


def _workspace(tmp_path: Path, skills: int = 300) -> Path:
    for i in range(skills):
        write_skill(tmp_path / "ws" / ".agents" / "skills", f"s{i}",
                    skill_text(name=f"s{i}", body=f"# S{i}\n\nSee [gone](references/gone{i}.md).  \n"))
    return tmp_path / "ws"


def _entry(*argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", LAUNCH, *argv], capture_output=True, text=True, check=False,
                          env=bare_env(), cwd=cwd or SRC.parent)


def _main(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli.main(list(argv))
    return code, out.getvalue()


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_check_prints_its_whole_report_and_ends_without_finalising(tmp_path: Path, fmt: str) -> None:
    ws = _workspace(tmp_path)
    argv = ("check", "--format", fmt, "--fail-on", "warning", "--no-cache", str(ws))
    got = _entry(*argv)
    code, out = _main(*argv)
    assert len(got.stdout) > 65536  # more than a pipe holds: written through, not left in a buffer
    assert (got.returncode, got.stdout) == (code, out) == (1, out)
    assert "finalised" not in got.stderr
    if fmt == "json":
        assert len(json.loads(got.stdout)["findings"]) >= 2 * 300


def test_preview_and_catalog_end_the_same_way(tmp_path: Path) -> None:
    ws = _workspace(tmp_path, 3)
    for argv in (("preview", "s1", "--workspace", str(ws)), ("catalog", str(ws), "--format", "json")):
        got = _entry(*argv)
        assert (got.returncode, got.stdout) == _main(*argv)
        assert got.stdout and "finalised" not in got.stderr


def test_other_commands_and_usage_errors_end_as_usual(tmp_path: Path) -> None:
    rules = _entry("rules", "--format", "json")
    assert rules.returncode == 0 and json.loads(rules.stdout) and "finalised" in rules.stderr
    usage = _entry("check", "--format", "yaml")
    assert usage.returncode == 2 and "invalid choice" in usage.stderr and "finalised" in usage.stderr


def test_a_reader_that_goes_away_is_no_error(tmp_path: Path) -> None:
    # `skill-lsp check | head -c 100`
    ws = _workspace(tmp_path)
    p = subprocess.Popen([sys.executable, "-c", LAUNCH, "check", "--format", "json", "--no-cache", str(ws)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=bare_env(), cwd=SRC.parent)
    assert p.stdout is not None and p.stderr is not None
    head = p.stdout.read(100)
    p.stdout.close()
    err = p.stderr.read()
    assert p.wait(timeout=120) == 0
    assert head.startswith(b'{"version"') and b"Traceback" not in err and b"finalised" not in err
