"""Nothing lost: `check --fix` and the engine's one write path under faults.

Each case makes a write fail or race (a full disk by RLIMIT_FSIZE, read-only files and
folders as an unprivileged user, a save between read and write, a path outside what the
command line names) and asserts the file on disk is whole: the old bytes or the new ones,
never half, and the run goes on with the other files.
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from tests.helpers import SRC, run_cli, write_skill

from skill_lsp.engine import writes

# 11.8 KB of prose after a frontmatter with an unquoted ': ' value (a safe fix).
BODY = "".join(f"Paragraph {i}: some text that goes on for a while to fill the file.\n\n" for i in range(160))
FIXABLE = "---\nname: demo\ndescription: Does a thing: well. Use when testing.\n---\n" + BODY


def _skill(root: Path, folder: str = "demo", text: str = FIXABLE) -> Path:
    return write_skill(root / ".agents" / "skills", folder, text.replace("name: demo", f"name: {folder}"))


def _leftovers(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if p.name.startswith(".skill-lsp-")]


def test_a_full_disk_leaves_the_file_whole_and_says_so(tmp_path: Path):
    md = _skill(tmp_path)
    before = md.read_bytes()
    assert len(before) > 8192

    def limit() -> None:  # a file may grow to 8 KB, as on a disk with 8 KB free
        resource.setrlimit(resource.RLIMIT_FSIZE, (8192, 8192))

    env = dict(os.environ, PYTHONPATH=str(SRC))
    proc = subprocess.run([sys.executable, "-m", "skill_lsp", "check", ".", "--fix"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60, preexec_fn=limit)
    assert md.read_bytes() == before
    assert "Traceback" not in proc.stderr
    assert "not fixed: cannot write (File too large); the file is unchanged" in proc.stderr
    assert proc.returncode == 3
    assert _leftovers(md.parent) == []


@pytest.fixture
def open_tmp():
    """A folder every user can reach (pytest's own is root's only)."""
    import tempfile

    d = Path(tempfile.mkdtemp(prefix="skill-lsp-writes-"))
    os.chmod(d, 0o777)
    yield d
    for p in [d, *d.rglob("*")]:
        if p.is_dir() and not p.is_symlink():
            os.chmod(p, 0o777)
    shutil.rmtree(d)


def test_one_unwritable_file_does_not_stop_the_others(open_tmp: Path):
    tmp_path = open_tmp
    first = _skill(tmp_path, "alpha")
    second = _skill(tmp_path, "beta")
    os.chmod(first, 0o444)
    os.chmod(first.parent, 0o555)  # no temporary file can be made beside it
    for p in (tmp_path, tmp_path / ".agents", tmp_path / ".agents" / "skills", second.parent):
        os.chmod(p, 0o777)
    os.chmod(second, 0o666)
    before = first.read_bytes()
    # As an unprivileged user: root writes whatever the modes say.
    runner = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] if os.getuid() == 0 else []
    if runner and shutil.which("setpriv") is None:
        pytest.skip("needs setpriv to drop root")
    os.chmod(tmp_path, 0o777)
    env = dict(os.environ, PYTHONPATH=str(SRC), HOME=str(tmp_path), SKILL_LSP_CACHE_DIR="off")
    proc = subprocess.run([*runner, sys.executable, "-m", "skill_lsp", "check", ".", "--fix"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=60)
    assert "Traceback" not in proc.stderr, proc.stderr
    assert first.read_bytes() == before
    assert "alpha/SKILL.md: not fixed: cannot write (Permission denied)" in proc.stderr
    assert 'description: "Does a thing: well. Use when testing."' in second.read_text()
    assert "fixed 1 finding in 1 file" in proc.stdout
    assert proc.returncode == 3


def test_a_save_made_while_fixing_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys):
    from skill_lsp import cli
    from skill_lsp.commands import fix

    md = _skill(tmp_path)
    saved = FIXABLE + "A line the author saved while check --fix ran.\n"
    real = fix.fix_all_text

    def fix_during_a_save(text, path, settings, **kw):
        out = real(text, path, settings, **kw)
        Path(path).write_text(saved)  # the editor saves between our read and our write
        return out

    monkeypatch.setattr(fix, "fix_all_text", fix_during_a_save)
    monkeypatch.chdir(tmp_path)
    code = cli.main(["check", ".", "--fix"])
    assert md.read_text() == saved
    err = capsys.readouterr().err
    assert "not fixed: changed on disk since it was read (saved meanwhile?); not written" in err
    assert code == 3


def test_fix_never_writes_outside_the_folders_named(tmp_path: Path):
    outside = tmp_path / "elsewhere"
    target = _skill(outside)
    repo = tmp_path / "repo"
    (repo / ".agents" / "skills" / "demo").mkdir(parents=True)
    (repo / ".agents" / "skills" / "demo" / "SKILL.md").symlink_to(target)
    before = target.read_bytes()
    proc = run_cli("check", ".", "--fix", cwd=repo)
    assert target.read_bytes() == before
    assert "Traceback" not in proc.stderr


def test_fix_keeps_the_mode_and_leaves_no_temporary_file(tmp_path: Path):
    md = _skill(tmp_path)
    os.chmod(md, 0o640)
    proc = run_cli("check", ".", "--fix", cwd=tmp_path)
    assert proc.returncode in (0, 1), proc.stderr
    assert '"Does a thing: well. Use when testing."' in md.read_text()
    assert oct(md.stat().st_mode & 0o777) == oct(0o640)
    assert _leftovers(md.parent) == []


# --- the engine's write path itself ---


def refused(exc: pytest.ExceptionInfo, kind: str, path: object, message: str) -> None:
    """What the CLI prints of a refusal (`path: not fixed: message`), and its kind."""
    err = exc.value
    assert (err.kind, err.path, err.message) == (kind, str(path), message)
    assert str(err) == f"{path}: {message}"


def test_replace_refuses_a_changed_file(tmp_path: Path):
    f = tmp_path / "SKILL.md"
    f.write_bytes(b"old")
    snap = writes.snapshot(str(f), writes.scope([str(tmp_path)]))
    f.write_bytes(b"old but saved again")
    with pytest.raises(writes.WriteError) as exc:
        writes.replace(snap, b"new")
    refused(exc, "changed", f, "changed on disk since it was read (saved meanwhile?); not written")
    assert f.read_bytes() == b"old but saved again"
    assert _leftovers(tmp_path) == []


def test_replace_refuses_a_file_replaced_by_an_identical_one(tmp_path: Path):
    # Same bytes, another file (a checkout that rewrote it): still not what was read.
    f = tmp_path / "SKILL.md"
    f.write_bytes(b"same")
    snap = writes.snapshot(str(f), writes.scope([str(tmp_path)]))
    f.rename(tmp_path / "moved-away")  # the old file lives on: its inode cannot be reused
    f.write_bytes(b"same")
    with pytest.raises(writes.WriteError) as exc:
        writes.replace(snap, b"new")
    refused(exc, "changed", f, "changed on disk since it was read (saved meanwhile?); not written")
    assert f.read_bytes() == b"same"


def test_replace_refuses_a_deleted_file(tmp_path: Path):
    f = tmp_path / "SKILL.md"
    f.write_bytes(b"old")
    snap = writes.snapshot(str(f), writes.scope([str(tmp_path)]))
    f.unlink()
    with pytest.raises(writes.WriteError) as exc:
        writes.replace(snap, b"new")
    refused(exc, "changed", f, "was deleted since it was read; not written")
    assert not f.exists()


def test_snapshot_refuses_outside_hard_links_and_non_files(tmp_path: Path):
    inside, outside = tmp_path / "in", tmp_path / "out"
    inside.mkdir()
    outside.mkdir()
    (outside / "SKILL.md").write_text("x")
    (inside / "link.md").symlink_to(outside / "SKILL.md")
    allowed = writes.scope([str(inside)])
    with pytest.raises(writes.WriteError) as exc:
        writes.snapshot(str(inside / "link.md"), allowed)
    refused(exc, "outside", inside / "link.md",
            f"resolves to {outside / 'SKILL.md'}, outside the folders this run may change")
    (inside / "a.md").write_text("x")
    os.link(inside / "a.md", inside / "b.md")
    with pytest.raises(writes.WriteError) as exc:
        writes.snapshot(str(inside / "a.md"), allowed)
    refused(exc, "links", inside / "a.md", "has 2 hard links; replacing it would split them")
    os.mkfifo(inside / "fifo.md")
    with pytest.raises(writes.WriteError) as exc:
        writes.snapshot(str(inside / "fifo.md"), allowed)
    refused(exc, "not-file", inside / "fifo.md", "not a regular file")
    with pytest.raises(writes.WriteError) as exc:
        writes.snapshot(str(inside / "missing.md"), allowed)
    refused(exc, "io", inside / "missing.md", "cannot read (No such file or directory)")


def test_snapshot_reads_up_to_the_limit_whole_and_refuses_a_byte_more(tmp_path: Path):
    # The limit is a whole number of reads: one byte past it must still be seen (a file cut
    # at the limit and rewritten would lose its end).
    f = tmp_path / "SKILL.md"
    data = bytes(range(256)) * (writes.MAX_BYTES // 256)
    f.write_bytes(data)
    assert writes.snapshot(str(f), writes.scope([str(tmp_path)])).data == data
    f.write_bytes(data + b"!")
    with pytest.raises(writes.WriteError) as exc:
        writes.snapshot(str(f), writes.scope([str(tmp_path)]))
    refused(exc, "not-file", f, f"larger than {writes.MAX_BYTES:,} bytes; never rewritten")


def test_the_temporary_file_takes_a_free_name_beside_the_file(tmp_path: Path):
    f = tmp_path / "SKILL.md"
    f.write_bytes(b"old")
    taken = tmp_path / f".skill-lsp-{os.getpid()}-0-SKILL.md.tmp"
    taken.write_bytes(b"someone else's")
    snap = writes.snapshot(str(f), writes.scope([str(tmp_path)]))
    writes.replace(snap, b"new")
    assert f.read_bytes() == b"new" and taken.read_bytes() == b"someone else's"
    assert _leftovers(tmp_path) == [taken.name]
    fd, name = writes._temp_beside(str(f), 0o644)
    os.close(fd)
    assert os.path.dirname(name) == str(tmp_path)
    os.unlink(name)
    # With every name taken, nothing is written and the run says why.
    for i in range(1, 100):
        (tmp_path / f".skill-lsp-{os.getpid()}-{i}-SKILL.md.tmp").write_bytes(b"")
    snap = writes.snapshot(str(f), writes.scope([str(tmp_path)]))
    with pytest.raises(writes.WriteError) as exc:
        writes.replace(snap, b"newer")
    refused(exc, "io", f, f"cannot write (no free temporary name beside {f}); the file is unchanged")
    assert f.read_bytes() == b"new"


def test_a_symlink_inside_is_written_through(tmp_path: Path):
    (tmp_path / "real.md").write_bytes(b"old")
    (tmp_path / "SKILL.md").symlink_to(tmp_path / "real.md")
    snap = writes.snapshot(str(tmp_path / "SKILL.md"), writes.scope([str(tmp_path)]))
    writes.replace(snap, b"new")
    assert (tmp_path / "SKILL.md").is_symlink()
    assert (tmp_path / "real.md").read_bytes() == b"new"


# --- a repository's configuration cannot reach outside it ---


def _outside_layout(tmp_path: Path) -> tuple[Path, Path]:
    elsewhere = tmp_path / "elsewhere"
    target = write_skill(elsewhere, "demo", FIXABLE)
    repo = tmp_path / "repo"
    write_skill(repo / ".agents" / "skills", "inside", FIXABLE.replace("name: demo", "name: inside"))
    return repo, target


@pytest.mark.parametrize("root", ["../elsewhere", "ABSOLUTE"])
@pytest.mark.parametrize("command", [("check", ".", "--fix"), ("check", "."), ("catalog", "."),
                                     ("preview", "demo")])
def test_a_repository_config_cannot_point_outside(tmp_path: Path, root: str, command: tuple[str, ...]):
    repo, target = _outside_layout(tmp_path)
    value = str(tmp_path / "elsewhere") if root == "ABSOLUTE" else root
    (repo / ".skill-lsp.toml").write_text(f"roots = [{value!r}]\n".replace("'", '"'))
    before = target.read_bytes()
    proc = run_cli(*command, cwd=repo)
    assert target.read_bytes() == before
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "a repository's configuration cannot point outside it" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert "Does a thing" not in proc.stdout  # nothing of the outside skill was shown


def test_a_default_root_linked_outside_is_not_read(tmp_path: Path):
    repo, target = _outside_layout(tmp_path)
    (repo / ".claude").mkdir()
    (repo / ".claude" / "skills").symlink_to(tmp_path / "elsewhere")
    before = target.read_bytes()
    proc = run_cli("check", ".", "--fix", "--format", "json", cwd=repo)
    assert target.read_bytes() == before
    assert "note: .claude/skills is a link to" in proc.stderr
    assert "elsewhere" not in proc.stdout
