"""File-system hostility: SKILL.md as a directory, FIFO, socket, unreadable, symlink loops and
escapes, folders vanishing mid-scan, and a root with 50,000 non-skill files.

Anything that could block (a FIFO) runs in a subprocess with a timeout, so a regression
fails the test instead of hanging the suite.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from skill_lsp.engine import discovery
from skill_lsp.engine.config import Settings
from skill_lsp.engine.discovery import ReadError, read_skill_file, scan_roots
from skill_lsp.engine.workspace import check_file, link_skills

from .conftest import GOOD, assert_hover_ok
from .rawlsp import RawClient

SETTINGS = Settings()


def _root(tmp_path: Path) -> Path:
    root = tmp_path / "ws" / ".agents" / "skills"
    root.mkdir(parents=True, exist_ok=True)
    return root


def _good(root: Path, name: str = "demo") -> Path:
    d = root / name
    d.mkdir(parents=True, exist_ok=True)
    (d / "SKILL.md").write_text(GOOD.replace("demo", name, 1))
    return d / "SKILL.md"


def _scan_and_check(ws: Path) -> dict[str, list[str]]:
    roots = SETTINGS.resolved_roots(str(ws))
    locs = scan_roots(roots, SETTINGS.sensitive_patterns)
    results = [check_file(loc.path, SETTINGS, loc) for loc in locs]
    link_skills(results, SETTINGS)
    return {os.path.basename(os.path.dirname(r.path)): sorted({f.code for f in r.all_findings}) for r in results}


def _run_isolated(code: str, timeout: float = 30) -> dict:
    """Run engine code in a fresh interpreter with a hard timeout (a FIFO read would hang)."""
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                         timeout=timeout, check=False)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def _hostile_workspace(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A workspace whose root holds every kind of broken skill folder; returns (ws, name -> expected code)."""
    root = _root(tmp_path)
    ws = root.parent.parent
    _good(root, "demo")
    expect = {"demo": ""}
    (root / "is-dir" / "SKILL.md").mkdir(parents=True)
    expect["is-dir"] = "IO_ERROR"
    (root / "is-fifo").mkdir()
    os.mkfifo(root / "is-fifo" / "SKILL.md")
    expect["is-fifo"] = "IO_ERROR"
    (root / "is-socket").mkdir()
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock_path = root / "is-socket" / "SKILL.md"
    if len(str(sock_path)) < 100:  # AF_UNIX path length limit
        sock.bind(str(sock_path))
        expect["is-socket"] = "IO_ERROR"
    sock.close()
    (root / "link-loop").mkdir()
    os.symlink("SKILL.md", root / "link-loop" / "SKILL.md")
    expect["link-loop"] = "IO_ERROR"
    (root / "dangling").mkdir()
    os.symlink("nowhere.md", root / "dangling" / "SKILL.md")
    expect["dangling"] = "IO_ERROR"
    os.symlink("dir-loop-b", root / "dir-loop-a")
    os.symlink("dir-loop-a", root / "dir-loop-b")
    # Escapes: a folder and a SKILL.md that resolve outside the root, both FIFOs that would hang a reader.
    outside = tmp_path / "outside"
    (outside / "escaped").mkdir(parents=True)
    os.mkfifo(outside / "escaped" / "SKILL.md")
    os.symlink(outside / "escaped", root / "escaped-dir")
    expect["escaped-dir"] = "OUTSIDE_WORKSPACE"
    (root / "escaped-file").mkdir()
    os.mkfifo(outside / "target.md")
    os.symlink(outside / "target.md", root / "escaped-file" / "SKILL.md")
    expect["escaped-file"] = "OUTSIDE_WORKSPACE"
    # A symlink to /dev/zero would eat memory if it were ever read.
    (root / "dev-zero").mkdir()
    os.symlink("/dev/zero", root / "dev-zero" / "SKILL.md")
    expect["dev-zero"] = "OUTSIDE_WORKSPACE"
    return ws, expect


def test_engine_scan_of_hostile_folders_is_findings_not_hangs(tmp_path):
    ws, expect = _hostile_workspace(tmp_path)
    got = _run_isolated(f"""
        import json
        from skill_lsp.engine.config import Settings
        from skill_lsp.engine.discovery import scan_roots
        from skill_lsp.engine.workspace import check_file, link_skills
        s = Settings()
        locs = scan_roots(s.resolved_roots({str(ws)!r}), s.sensitive_patterns)
        rs = [check_file(l.path, s, l) for l in locs]
        link_skills(rs, s)
        out = {{r.path.split('/')[-2]: sorted({{f.code for f in r.all_findings}}) for r in rs}}
        print(json.dumps({{'results': out}}))
    """)
    results = got["results"]
    for name, code in expect.items():
        assert name in results, (name, results)
        if code:
            assert code in results[name], (name, results[name])
        else:
            assert not [c for c in results[name] if c not in ("BROKEN_LINK",)], results[name]
    assert "dir-loop-a" not in results and "dir-loop-b" not in results


def test_cli_check_of_hostile_folders(tmp_path):
    ws, expect = _hostile_workspace(tmp_path)
    out = subprocess.run([sys.executable, "-m", "skill_lsp", "check", "--format", "json", str(ws)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 1, out.stderr
    assert "Traceback" not in out.stderr
    text = out.stdout
    for name, code in expect.items():
        if code:
            assert name in text
    assert "OUTSIDE_WORKSPACE" in text and "IO_ERROR" in text


def test_cli_check_of_a_fifo_given_directly(tmp_path):
    fifo = tmp_path / "SKILL.md"
    os.mkfifo(fifo)
    out = subprocess.run([sys.executable, "-m", "skill_lsp", "check", str(fifo)],
                         capture_output=True, text=True, timeout=30)
    assert "IO_ERROR" in out.stdout and out.returncode == 1, (out.stdout, out.stderr)


def test_cli_fix_never_opens_a_fifo(tmp_path):
    ws, _ = _hostile_workspace(tmp_path)
    out = subprocess.run([sys.executable, "-m", "skill_lsp", "check", "--fix", str(ws)],
                         capture_output=True, text=True, timeout=60)
    assert "Traceback" not in out.stderr


def test_server_scan_of_hostile_folders(tmp_path):
    ws, expect = _hostile_workspace(tmp_path)
    client = RawClient(tmp_path)
    try:
        client.initialize(ws)
        client.wait(lambda m: m.get("method") == "skillLsp/status" and not m["params"]["scanning"]
                    and m["params"]["skills"] >= 1, timeout=30)
        for name, code in expect.items():
            if not code:
                continue
            uri = (ws / ".agents/skills" / name / "SKILL.md").as_uri()
            pub = client.wait(lambda m, uri=uri: m.get("method") == "textDocument/publishDiagnostics"
                              and m["params"]["uri"] == uri, timeout=10)
            assert code in json.dumps(pub), (name, pub)
        uri = client.open(ws / ".agents/skills/demo/SKILL.md", GOOD)
        assert_hover_ok(client, uri)
        # Watched-file events for the hostile paths are re-read safely too.
        client.notify("workspace/didChangeWatchedFiles", {"changes": [
            {"uri": (ws / ".agents/skills" / n / "SKILL.md").as_uri(), "type": 2} for n in expect]})
        assert_hover_ok(client, uri)
    finally:
        client.close()
    assert not client.violations


def test_unreadable_file(tmp_path, monkeypatch):
    path = _good(_root(tmp_path), "locked")
    if os.geteuid() != 0:
        path.chmod(0)
    else:  # root reads anything: fake the kernel's answer
        real_open = os.open

        def deny(p, flags, *a, **k):
            if os.fspath(p) == str(path):
                raise PermissionError(13, "Permission denied", str(p))
            return real_open(p, flags, *a, **k)
        monkeypatch.setattr(discovery.os, "open", deny)
    r = check_file(str(path), SETTINGS)
    assert [f.code for f in r.findings] == ["IO_ERROR"]
    assert "permission denied" in r.findings[0].message
    with pytest.raises(ReadError):
        read_skill_file(str(path))


def test_a_file_swapped_for_a_fifo_after_stat_is_not_read(tmp_path, monkeypatch):
    """The fstat after a non-blocking open catches a regular file replaced by a FIFO between stat and open."""
    path = _good(_root(tmp_path), "swap")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    real_open = os.open

    def swapped(p, flags, *a, **k):
        if os.fspath(p) == str(path):
            assert flags & os.O_NONBLOCK
            return real_open(str(fifo), flags, *a, **k)
        return real_open(p, flags, *a, **k)
    monkeypatch.setattr(discovery.os, "open", swapped)
    with pytest.raises(ReadError) as exc:
        read_skill_file(str(path))
    assert exc.value.code == "IO_ERROR"


def test_escaping_symlink_target_is_never_read(tmp_path, monkeypatch):
    ws, _ = _hostile_workspace(tmp_path)
    outside = str(tmp_path / "outside")
    opened: list[str] = []
    real_open, real_read = os.open, read_skill_file

    def spy_open(p, *a, **k):
        opened.append(os.path.realpath(os.fspath(p)))
        return real_open(p, *a, **k)

    def spy_read(p):
        opened.append(os.path.realpath(p))
        return real_read(p)
    monkeypatch.setattr(discovery.os, "open", spy_open)
    monkeypatch.setattr("skill_lsp.engine.workspace.read_skill_file", spy_read)
    results = _scan_and_check(ws)
    assert "OUTSIDE_WORKSPACE" in results["escaped-dir"] and "OUTSIDE_WORKSPACE" in results["escaped-file"]
    assert not [p for p in opened if p.startswith(outside) or p == "/dev/zero"], opened


def test_folder_deleted_or_renamed_during_a_scan(tmp_path, monkeypatch):
    root = _root(tmp_path)
    for i in range(20):
        _good(root, f"s{i:02d}")
    ws = root.parent.parent
    real_skill_file = discovery._skill_file
    calls = [0]

    def vanishing(dir_path):
        calls[0] += 1
        found = real_skill_file(dir_path)
        name = os.path.basename(dir_path)
        if name == "s05" and found:  # deleted between listing and reading
            os.remove(found)
            os.rmdir(dir_path)
        if name == "s06" and found:  # renamed between listing and reading
            os.rename(dir_path, root / "s06-renamed")
        return found
    monkeypatch.setattr(discovery, "_skill_file", vanishing)
    results = _scan_and_check(ws)
    assert results["s05"] == ["IO_ERROR"] and results["s06"] == ["IO_ERROR"]
    assert len(results) == 20


def test_concurrent_churn_during_scans(tmp_path):
    """Folders created, renamed and deleted in another thread while scanning: never an exception."""
    root = _root(tmp_path)
    ws = root.parent.parent
    for i in range(30):
        _good(root, f"s{i:02d}")
    stop = threading.Event()

    def churn():
        i = 0
        while not stop.is_set():
            d = root / f"churn{i % 7}"
            try:
                d.mkdir(exist_ok=True)
                (d / "SKILL.md").write_text(GOOD)
                os.rename(d, root / f"churn{i % 7}-r")
                (root / f"churn{i % 7}-r" / "SKILL.md").unlink()
                (root / f"churn{i % 7}-r").rmdir()
            except OSError:
                pass
            i += 1
    th = threading.Thread(target=churn, daemon=True)
    th.start()
    try:
        for _ in range(5):  # a fixed number of scans, each racing the churn
            results = _scan_and_check(ws)
            assert all(f"s{i:02d}" in results for i in range(30))
    finally:
        stop.set()
        th.join(5)


def test_root_with_50000_files_scans_only_immediate_children(tmp_path, monkeypatch):
    root = _root(tmp_path)
    _good(root, "demo")
    for i in range(50_000):
        (root / f"file{i:05d}.txt").touch()
    deep = root / "not-a-skill"
    for i in range(50):
        deep = deep / f"d{i}"
    deep.mkdir(parents=True)
    (deep / "SKILL.md").write_text(GOOD)
    listed: list[str] = []
    real_listdir, real_scandir = os.listdir, os.scandir

    def spy_listdir(p="."):
        listed.append(os.fspath(p))
        return real_listdir(p)

    def spy_scandir(p="."):
        listed.append(os.fspath(p))
        return real_scandir(p)
    monkeypatch.setattr(discovery.os, "listdir", spy_listdir)
    monkeypatch.setattr(discovery.os, "scandir", spy_scandir)
    locs = scan_roots([str(root)], SETTINGS.sensitive_patterns)
    assert [os.path.basename(loc.dir) for loc in locs] == ["demo"]
    # The root and its immediate subfolders only: nothing below not-a-skill/ is listed.
    assert all(os.path.dirname(p.rstrip("/")) in (str(root), str(root.parent)) or p == str(root) for p in listed), listed
    assert not [p for p in listed if "/d0" in p]


def test_fifos_where_the_rules_read_a_skills_files_never_hang(tmp_path):
    """A FIFO where a rule reads a file of the skill (a reference it links, a script it runs, Codex's
    agents/openai.yaml, an ignore file a preview lists resources by, a lowercase skill.md found
    outside the roots) is skipped like a missing file: opened non-blocking, never read. A plain
    open() of any of them waited for a writer forever."""
    root = _root(tmp_path)
    ws = root.parent.parent
    skill = _good(root).parent
    (skill / "SKILL.md").write_text(GOOD + "\nSee [a](references/a.md) and run:\n\n    scripts/run.sh\n\nThen `scripts/run.sh`.\n")
    for rel in ("references/a.md", "scripts/run.sh", "agents/openai.yaml", ".gitignore", ".ignore"):
        (skill / rel).parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(skill / rel)
    (ws / "docs").mkdir()
    os.mkfifo(ws / "docs" / "skill.md")
    check = subprocess.run([sys.executable, "-m", "skill_lsp", "check", "--format", "json", str(ws)],
                           capture_output=True, text=True, timeout=60)
    assert check.returncode in (0, 1) and "Traceback" not in check.stderr, check.stderr
    assert json.loads(check.stdout)["summary"]["skills"] >= 1
    for dialect in ("opencode", "codex", "claude-code", "gemini", "copilot", "skill-tool"):
        preview = subprocess.run([sys.executable, "-m", "skill_lsp", "preview", str(skill / "SKILL.md"),
                                  "--dialect", dialect, "--workspace", str(ws)],
                                 capture_output=True, text=True, timeout=60)
        assert preview.returncode in (0, 1) and "Traceback" not in preview.stderr, (dialect, preview.stderr)
