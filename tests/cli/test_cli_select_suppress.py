"""`check`: suppressions, selection, per-file ignores, exclude, --statistics, --output-file,
--quiet, --exit-zero, --watch, and a broken config stopping before anything is checked."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from helpers import SRC, run_cli, write_skill

BAD_NAME = "---\nname: Bad Name\ndescription: Does a thing. Use when testing.\n---\nBody\n"


def ws_with(tmp_path: Path, **skills: str) -> Path:
    for folder, text in skills.items():
        write_skill(tmp_path / ".claude/skills", folder, text)
    return tmp_path


def codes_of(stdout: str) -> list[str]:
    return [line.split(": ", 1)[1].split()[1] for line in stdout.splitlines() if line.count(":") >= 3]


def test_file_wide_and_line_suppressions_silence_their_findings(tmp_path):
    ws = ws_with(tmp_path,
                 wide="---\n# skill-lsp: ignore[NAME_INVALID, NAME_MISMATCH]\nname: Bad Name\ndescription: d\n---\n",
                 line="---\nname: Bad Name  # skill-lsp: ignore[NAME_INVALID, NAME_MISMATCH]\ndescription: d\n---\n")
    proc = run_cli("check", ".", cwd=ws)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout == "no findings in 2 skills\n"


def test_unused_suppression_is_reported_and_fixed(tmp_path):
    text = ("---\n# skill-lsp: ignore[TRAILING_WHITESPACE]\n"
            "name: demo  # skill-lsp: ignore[NAME_INVALID, NOT_A_CODE]\ndescription: d\n---\nBody\n")
    ws = ws_with(tmp_path, demo=text)
    proc = run_cli("check", ".", "--fail-on", "warning", cwd=ws)
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    assert lines[0] == (".claude/skills/demo/SKILL.md:2:1: warning UNUSED_SUPPRESSION unused suppression: "
                        "TRAILING_WHITESPACE (no TRAILING_WHITESPACE finding in this file)")
    assert lines[1].startswith(".claude/skills/demo/SKILL.md:3:13: warning UNUSED_SUPPRESSION unused suppression: "
                               "NAME_INVALID (no NAME_INVALID finding on this line); NOT_A_CODE (unknown code)")
    diff = run_cli("check", ".", "--fix", "--diff", cwd=ws)
    assert diff.returncode == 1 and "-# skill-lsp: ignore[TRAILING_WHITESPACE]" in diff.stdout
    fixed = run_cli("check", ".", "--fix", cwd=ws)
    assert fixed.returncode == 0
    assert "fixed 2 findings (UNUSED_SUPPRESSION x2)" in fixed.stdout
    assert (ws / ".claude/skills/demo/SKILL.md").read_text() == "---\nname: demo\ndescription: d\n---\nBody\n"


def test_a_cross_skill_finding_is_suppressed_and_its_suppression_is_used(tmp_path):
    # release-notes in .agents/skills shadows the copy in .claude/skills (SHADOWED, found after every
    # skill is checked): the directive silences it and is not called unused, nor removed by --fix.
    write_skill(tmp_path / ".agents/skills", "notes", "---\nname: notes\ndescription: d\n---\n")
    ws = ws_with(tmp_path, notes="---\nname: notes  # skill-lsp: ignore[SHADOWED]\ndescription: d\n---\n")
    proc = run_cli("check", ".", "--fail-on", "hint", cwd=ws)
    assert proc.returncode == 0 and proc.stdout == "no findings in 2 skills\n", proc.stdout
    assert run_cli("check", ".", "--fix", cwd=ws).stdout.startswith("fixed 0 findings")
    assert "ignore[SHADOWED]" in (ws / ".claude/skills/notes/SKILL.md").read_text()
    # Without the shadowing copy the same comment silences nothing.
    (tmp_path / ".agents/skills/notes/SKILL.md").unlink()
    proc = run_cli("check", ".", cwd=ws)
    assert "UNUSED_SUPPRESSION unused suppression: SHADOWED (no SHADOWED finding on this line)" in proc.stdout


def test_a_broken_frontmatter_keeps_file_wide_suppressions(tmp_path):
    ws = ws_with(tmp_path, broken="---\n# skill-lsp: ignore[INVALID_FRONTMATTER, NAME_INVALID]\nname: a: b\n---\n")
    proc = run_cli("check", ".", cwd=ws)
    assert proc.returncode == 0 and proc.stdout == "no findings in 1 skill\n"


def test_select_ignore_extend_select_on_the_command_line_and_in_config(tmp_path):
    ws = ws_with(tmp_path, bad=BAD_NAME, trailing="---\nname: trailing\ndescription: d  \t\n---\n")
    every = codes_of(run_cli("check", ".", cwd=ws).stdout)
    assert {"NAME_MISMATCH", "TRAILING_WHITESPACE"} <= set(every) and "NAME_INVALID" not in every
    # NAME_INVALID (an information: Claude Code lists the name as written) beside NAME_MISMATCH (a
    # warning), both ended by the folder's name: the warning alone, what a selection leaves deciding.
    assert set(codes_of(run_cli("check", ".", "--select", "NAME", cwd=ws).stdout)) == {"NAME_MISMATCH"}
    assert set(codes_of(run_cli("check", ".", "--select", "NAME_", "--ignore", "NAME_MISMATCH",
                                cwd=ws).stdout)) == {"NAME_INVALID"}
    assert set(codes_of(run_cli("check", ".", "--select", "TRAILING_WHITESPACE", "--extend-select",
                                "NAME_INVALID", cwd=ws).stdout)) == {"NAME_INVALID", "TRAILING_WHITESPACE"}
    (ws / ".skill-lsp.toml").write_text('select = ["NAME"]\nignore = ["NAME_MISMATCH"]\n')
    assert set(codes_of(run_cli("check", ".", cwd=ws).stdout)) == {"NAME_INVALID"}
    # The command line is a later layer: --select replaces the config's selection.
    assert set(codes_of(run_cli("check", ".", "--select", "TRAILING", cwd=ws).stdout)) == {"TRAILING_WHITESPACE"}
    bad = run_cli("check", ".", "--select", "NAM,NAME", cwd=ws)
    assert bad.returncode == 2 and "invalid 'select': unknown rule code or prefix 'NAM'" in bad.stderr
    assert bad.stdout == ""


def test_per_file_ignores_exclude_and_force_exclude(tmp_path):
    ws = ws_with(tmp_path, keep=BAD_NAME, **{"legacy-x": BAD_NAME})
    write_skill(ws / "vendor/skills", "theirs", BAD_NAME)
    (ws / ".skill-lsp.toml").write_text('extend-exclude = ["vendor"]\n\n[per-file-ignores]\n'
                                        '".claude/skills/legacy-*" = ["NAME"]\n')
    proc = run_cli("check", ".", cwd=ws)
    paths = {line.split(":")[0] for line in proc.stdout.splitlines()[:-1]}
    assert paths == {".claude/skills/keep/SKILL.md"}, proc.stdout
    assert proc.stdout.endswith("in 1 of 2 skills\n")
    named = "vendor/skills/theirs/SKILL.md"
    assert named in run_cli("check", named, cwd=ws).stdout  # named: checked anyway (as ruff)
    forced = run_cli("check", named, "--force-exclude", cwd=ws)
    assert forced.returncode == 0 and forced.stdout == "no findings in 0 skills\n"


def test_statistics_text_and_json(tmp_path):
    ws = ws_with(tmp_path, a=BAD_NAME, b=BAD_NAME, c="---\nname: c\ndescription: d \n---\n")
    proc = run_cli("check", ".", "--statistics", cwd=ws)
    assert proc.stdout.splitlines() == ["2  NAME_MISMATCH        Name does not match the folder",
                                        "1  TRAILING_WHITESPACE  Trailing whitespace"]
    data = json.loads(run_cli("check", ".", "--statistics", "--format", "json", cwd=ws).stdout)
    assert data[0] == {"code": "NAME_MISMATCH", "count": 2, "title": "Name does not match the folder"}
    assert run_cli("check", ".", "--statistics", "--format", "sarif", cwd=ws).returncode == 2


def test_output_file_quiet_and_exit_zero(tmp_path):
    ws = ws_with(tmp_path, bad=BAD_NAME)
    out = ws / "report.json"
    proc = run_cli("check", ".", "--format", "json", "--output-file", str(out), "--fail-on", "warning", cwd=ws)
    assert proc.returncode == 1 and proc.stdout == ""
    assert json.loads(out.read_text())["summary"]["skills_with_findings"] == 1
    assert not [p for p in ws.iterdir() if p.name.endswith(".tmp")]
    quiet = run_cli("check", ".", "-q", "--fail-on", "warning", cwd=ws)
    assert quiet.returncode == 1 and len(quiet.stdout.splitlines()) == 1  # the finding, no summary
    assert "of 1 skill" not in quiet.stdout
    assert run_cli("check", ".", "--exit-zero", "--fail-on", "warning", cwd=ws).returncode == 0
    clean = ws_with(tmp_path / "clean", good="---\nname: good\ndescription: d\n---\n")
    assert run_cli("check", ".", "--quiet", cwd=clean).stdout == ""


@pytest.mark.parametrize(("config", "message"), [
    ("checklinks = true\n", "unknown setting 'checklinks' (did you mean 'check-links'?)"),
    ("checkLinks = true\n", "unknown setting 'checkLinks' (did you mean 'check-links'?)"),
    ('dialect = "claude"\n', "invalid 'dialect': expected one of skill-tool, dsh"),
    ('select = ["NAM"]\n', "invalid 'select': unknown rule code or prefix 'NAM'"),
    ("profile = \n", "cannot read config"),
])
def test_a_broken_config_is_an_error_before_anything_is_checked(tmp_path, config, message):
    ws = ws_with(tmp_path, bad=BAD_NAME)
    (ws / ".skill-lsp.toml").write_text(config)
    proc = run_cli("check", ".", cwd=ws)
    assert proc.returncode == 2
    assert message in proc.stderr and "configuration error: nothing was checked" in proc.stderr
    assert proc.stdout == ""


def _lines(stream, into: queue.Queue) -> None:
    for line in iter(stream.readline, ""):
        into.put(line)


def _until(q: queue.Queue, pred, timeout: float = 30) -> list[str]:
    """Lines from ``q`` until one satisfies ``pred`` (fails after ``timeout`` seconds)."""
    got: list[str] = []
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"timed out; got {got!r}"
        try:
            line = q.get(timeout=left)
        except queue.Empty:
            continue
        got.append(line)
        if pred(line):
            return got


def test_watch_checks_again_on_change_and_stops_cleanly_on_ctrl_c(tmp_path):
    ws = ws_with(tmp_path, demo="---\nname: demo\ndescription: d\n---\n")
    env = dict(os.environ, PYTHONPATH=str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    # Ctrl-C as a terminal delivers it: a suite started as a background job of a shell without job
    # control (`bash .ci/run &`) runs with SIGINT ignored, which the child would inherit and keep.
    proc = subprocess.Popen([sys.executable, "-m", "skill_lsp", "check", ".", "--watch"], cwd=ws, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # noqa: PLW1509
    out: queue.Queue = queue.Queue()
    err: queue.Queue = queue.Queue()
    for stream, q in ((proc.stdout, out), (proc.stderr, err)):
        threading.Thread(target=_lines, args=(stream, q), daemon=True).start()
    try:
        assert _until(out, lambda s: " skill" in s) == ["no findings in 1 skill\n"]
        _until(err, lambda s: "watching" in s)  # said once the watcher runs
        (ws / ".claude/skills/demo/SKILL.md").write_text(BAD_NAME)
        again = _until(out, lambda s: "of 1 skill" in s)
        assert any("NAME_MISMATCH" in line for line in again), again
        assert _until(err, lambda s: "checking again" in s)[-1] == "skill-lsp: 1 file changed; checking again\n"
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            rc = proc.wait(timeout=20)
        finally:
            proc.kill()
    assert rc == 0
    rest = []
    while not err.empty():
        rest.append(err.get())
    assert not any("Traceback" in line for line in rest), rest


def test_watch_ignores_build_output_but_not_skills_kept_in_build_folders(tmp_path):
    """`build/` and `dist/` are walked only where they hold skills (discovery.OUTPUT_DIRS): the
    watcher follows the same rule, and a folder named build above the watched one is not the walk's."""
    from skill_lsp.commands.watch import _in_build_output  # noqa: PLC0415

    top = tmp_path / "build" / "repo"  # the repository itself lives in a folder named build
    write_skill(top / "plugins/p/skills", "build", "---\nname: build\ndescription: d\n---\n")
    (top / "dist/assets").mkdir(parents=True)
    tops = [str(top)]
    assert not _in_build_output(str(top / "plugins/p/skills/build/scripts/run.sh"), tops)
    assert _in_build_output(str(top / "dist/assets/app.js"), tops)
    assert _in_build_output(str(top / "dist/app.js"), tops)
    assert not _in_build_output(str(top / "README.md"), tops)
    assert not _in_build_output(str(tmp_path / "elsewhere/dist/x.js"), tops)  # not below a watched folder


def test_output_file_writes_through_a_pipe_and_a_link_and_keeps_the_reports_mode(tmp_path):
    """`-o` renames a finished report over the old one, but a FIFO or a device (`-o /dev/null`)
    is written through: renaming over `/dev/null` as root once left a regular file there. A
    symlink keeps pointing at the report, which keeps its permissions."""
    ws = ws_with(tmp_path / "ws", bad=BAD_NAME)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: queue.Queue = queue.Queue()
    reader = threading.Thread(target=lambda: got.put(fifo.read_text(encoding="utf-8")), daemon=True)
    reader.start()
    proc = run_cli("check", ".", "--format", "json", "-o", str(fifo), cwd=ws)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(got.get(timeout=30))["summary"]["skills_with_findings"] == 1
    assert fifo.is_fifo()

    real = tmp_path / "reports" / "report.json"
    real.parent.mkdir()
    real.write_text("old")
    real.chmod(0o644)
    link = tmp_path / "latest.json"
    link.symlink_to(real)
    assert run_cli("check", ".", "--format", "json", "-o", str(link), cwd=ws).returncode == 0
    assert link.is_symlink() and json.loads(real.read_text())["summary"]["skills_with_findings"] == 1
    assert real.stat().st_mode & 0o777 == 0o644
    assert not [p for p in real.parent.iterdir() if p.name.endswith(".tmp")]
    fresh = tmp_path / "new.json"
    assert run_cli("check", ".", "--format", "json", "-o", str(fresh), cwd=ws).returncode == 0
    assert fresh.stat().st_mode & 0o077 == 0o644 & 0o077 & ~_umask()  # not mkstemp's 0600


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def test_output_file_that_cannot_be_written_is_told_before_the_check(tmp_path):
    ws = ws_with(tmp_path / "ws", bad=BAD_NAME)
    for target, why in ((tmp_path / "gone" / "report.json", f"no folder {tmp_path / 'gone'}"),
                        (tmp_path, "it is a folder")):
        proc = run_cli("check", ".", "-o", str(target), cwd=ws)
        assert proc.returncode == 2 and proc.stdout == ""
        assert proc.stderr == f"skill-lsp: cannot write the report to {target}: {why}\n"
