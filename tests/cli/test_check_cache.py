"""`check` reuses the results of skills whose folders are as an earlier run left them: its report
is the one a run without the cache gives, whatever changed in between."""

from __future__ import annotations

import contextlib
import io
import json
import os
import pickle
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers import SRC, bare_env, skill_text, write_skill
from skill_lsp import cli
from skill_lsp.commands import check
from skill_lsp.engine import cachedcheck, resultcache


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "cache"
    monkeypatch.setenv("SKILL_LSP_CACHE_DIR", str(home))
    # Every run of a test may use the cache, and the files a test just wrote count as settled:
    # each change below gives what it writes a time of its own instead.
    monkeypatch.setattr(check, "_CACHE_MIN", 0)
    monkeypatch.setattr(resultcache, "RACY_S", -3600.0)
    return home


@pytest.fixture
def fresh_checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The SKILL.md paths checked afresh (not taken from the cache), run by run."""
    checked: list[str] = []
    real = cachedcheck.stamped_job

    def job(work):  # noqa: ANN001, ANN202 - the job's own signature
        checked.append(work[0].path)
        return real(work)

    monkeypatch.setattr(cachedcheck, "stamped_job", job)
    return checked


def _check(ws: Path, *options: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli.main(["check", "--format", "json", "--jobs", "1", *options, str(ws)])
    return code, out.getvalue()


class Workspace:
    """A small repository that changes step by step; every file written gets a time of its own, so
    the cache sees each change as a real editor's save minutes apart would show it."""

    BODIES = (
        "# Use\n\nRead [the guide](references/guide.md).\n",
        "# Use\n\nRead [missing](references/missing.md) and [shared](../shared.md).\n",
        "# Use\n\nRun `scripts/run.sh`, then ask the `{other}` skill.  \n",
        "# Use\n\nSee [notes](references/notes.md), /abs/path.md and [x](C:/temp/x.md).\n",
        "# Use\n\n```bash\nscripts/run.sh --all\n```\n\nUse the {other} skill.\n",
        "# Use\n\nRun `scripts/deploy.sh` to ship; read `references/notes.md` first.\n",
    )

    def __init__(self, root: Path, rng: random.Random) -> None:
        self.root = root
        self.skills = root / ".agents" / "skills"
        self.rng = rng
        self.clock = time.time_ns() - 10**12
        for i in range(5):
            self.add_skill(f"s{i}")

    def write(self, path: Path, text: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        self.clock += 10**9
        os.utime(path, ns=(self.clock, self.clock))

    def names(self) -> list[str]:
        return sorted(p.name for p in self.skills.iterdir() if p.is_dir()) if self.skills.is_dir() else []

    def pick(self) -> Path | None:
        names = self.names()
        return self.skills / self.rng.choice(names) if names else None

    def skill_md(self, folder: str, name: str | None = None) -> str:
        body = self.rng.choice(self.BODIES).format(other=self.rng.choice(self.names() or ["s0"]))
        extra = self.rng.choice(["", "license: SEE LICENSE IN LICENSE", "license: LICENSE.txt"])
        return skill_text(name=name or folder, description=f"Does {folder} things. Use when {folder} is asked.",
                          extra=extra, body=body)

    def add_skill(self, folder: str) -> None:
        d = self.skills / folder
        self.write(d / "SKILL.md", self.skill_md(folder))
        self.write(d / "references" / "guide.md", "guide\n")
        self.write(d / "scripts" / "run.sh", "#!/bin/sh\necho hi\n")
        os.chmod(d / "scripts" / "run.sh", 0o755)

    def change(self, cache: Path) -> str:
        """One random change; returns its name."""
        kind = self.rng.choice(["edit", "same-size edit", "rename field", "add file", "remove file", "chmod",
                                "outside", "repository file", "add skill", "remove skill", "rename folder", "settings", "shard",
                                "nothing"])
        d = self.pick()
        if d is None:
            kind = "add skill"
        if kind == "edit":
            self.write(d / "SKILL.md", self.skill_md(d.name))
        elif kind == "same-size edit":  # the stamp must not rely on a size that changed
            text = (d / "SKILL.md").read_text()
            self.write(d / "SKILL.md", text.replace("Use", "Usx", 1) if "Use" in text else text.upper())
        elif kind == "rename field":
            self.write(d / "SKILL.md", self.skill_md(d.name, name=self.rng.choice(["Bad Name", "s0", d.name + "x"])))
        elif kind == "add file":
            self.write(d / "references" / self.rng.choice(["missing.md", "notes.md", "guide.md"]), "text\n")
        elif kind == "remove file":
            files = sorted(p for p in d.rglob("*") if p.is_file() and p.name != "SKILL.md")
            if files:
                self.rng.choice(files).unlink()
        elif kind == "chmod":
            script = d / "scripts" / "run.sh"
            if script.exists():
                os.chmod(script, script.stat().st_mode ^ 0o111)
        elif kind == "outside":  # what `../shared.md` reaches, outside every skill folder
            shared = self.skills / "shared.md"
            if shared.exists():
                shared.unlink()
            else:
                self.write(shared, "shared\n")
        elif kind == "repository file":  # beside or above the skills: scripts a body names, a license
            target = self.root / self.rng.choice(["scripts/deploy.sh", "LICENSE", ".agents/LICENSE.txt",
                                                  ".agents/skills/LICENSE"])
            if target.is_file():
                target.unlink()
            elif not target.exists():
                self.write(target, "text\n")
        elif kind == "add skill":
            self.add_skill(f"s{self.rng.randrange(100)}")
        elif kind == "remove skill" and len(self.names()) > 1:
            shutil.rmtree(d)
        elif kind == "rename folder":
            target = self.skills / f"r{self.rng.randrange(100)}"
            if not target.exists():
                d.rename(target)
        elif kind == "settings":
            self.write(self.root / ".skill-lsp.toml", self.rng.choice(['ignore = ["TRAILING_WHITESPACE"]\n', "",
                                                                      'select = ["ALL"]\n']))
        elif kind == "shard":  # a cache file broken or cut short
            shards = sorted(cache.rglob("*.pickle")) if cache.exists() else []
            if shards:
                victim = self.rng.choice(shards)
                data = victim.read_bytes()
                victim.write_bytes(data[: self.rng.randrange(len(data) + 1)] if self.rng.random() < 0.5 else b"junk")
        return kind


@pytest.mark.parametrize("seed", range(6))
def test_a_cached_report_is_the_fresh_report(tmp_path: Path, cache_home: Path, fresh_checks: list[str],
                                             seed: int) -> None:
    ws = Workspace(tmp_path / "ws", random.Random(seed))
    steps = []
    for _ in range(30):
        steps.append(ws.change(cache_home))
        fresh_checks.clear()
        cached = _check(ws.root)
        assert cached == _check(ws.root, "--no-cache"), f"seed {seed}, after {steps}"
        # Run again with nothing changed: every result comes from the cache, the same report.
        fresh_checks.clear()
        assert _check(ws.root) == cached, f"seed {seed}, after {steps}"
        assert fresh_checks == [], f"seed {seed}, after {steps}: checked again {fresh_checks}"
    assert any(json.loads(cached[1])["findings"])


def test_only_what_changed_is_checked_again(tmp_path: Path, cache_home: Path, fresh_checks: list[str]) -> None:
    ws = Workspace(tmp_path / "ws", random.Random(0))
    _check(ws.root)
    assert len(fresh_checks) == 5
    fresh_checks.clear()
    ws.write(ws.skills / "s3" / "references" / "notes.md", "notes\n")
    _check(ws.root)
    assert fresh_checks == [str(ws.skills / "s3" / "SKILL.md")]


def test_json_and_the_other_formats_keep_results_of_their_own(tmp_path: Path, cache_home: Path,
                                                              fresh_checks: list[str]) -> None:
    # JSON output carries each finding's fixes; the others are built without them.
    ws = Workspace(tmp_path / "ws", random.Random(1))
    _check(ws.root)
    fresh_checks.clear()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        cli.main(["check", "--format", "sarif", "--jobs", "1", str(ws.root)])
    assert len(fresh_checks) == 5
    fresh_checks.clear()
    _check(ws.root)
    assert fresh_checks == []


@pytest.mark.parametrize("options", [["--no-cache"], ["--fix"], ["--fix", "--diff"]])
def test_no_cache_and_fix_check_every_skill(tmp_path: Path, cache_home: Path, options: list[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    # --fix writes files: what it fixes comes from a check of the files as they are now.
    ws = Workspace(tmp_path / "ws", random.Random(2))
    _check(ws.root)

    def refuse(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        raise AssertionError("the cache was used")

    monkeypatch.setattr(cachedcheck, "check_cached", refuse)
    _check(ws.root, *options)


def test_small_runs_and_caching_off_write_nothing(tmp_path: Path, cache_home: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    ws = Workspace(tmp_path / "ws", random.Random(3))
    monkeypatch.setattr(check, "_CACHE_MIN", 6)
    _check(ws.root)
    assert not cache_home.exists()
    monkeypatch.setattr(check, "_CACHE_MIN", 0)
    monkeypatch.setenv("SKILL_LSP_CACHE_DIR", "off")
    _check(ws.root)
    assert not cache_home.exists()


def test_a_real_run_keeps_its_results_and_reports_the_same(tmp_path: Path) -> None:
    # No patching: a subprocess on a workspace at the size the cache starts at, once its files
    # are older than the racy window.
    for i in range(check._CACHE_MIN):
        write_skill(tmp_path / "ws" / ".agents" / "skills", f"s{i}",
                    skill_text(name=f"s{i}", body=f"# S{i}\n\nSee [missing](references/m{i}.md).  \n"))
    time.sleep(resultcache.RACY_S + 0.2)
    env = bare_env(SKILL_LSP_CACHE_DIR=str(tmp_path / "cache"))

    def run(*options: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "skill_lsp", "check", "--format", "json", *options,
                               str(tmp_path / "ws")], capture_output=True, text=True, env=env, cwd=SRC.parent,
                              check=False)

    first = run()
    (kept,) = (tmp_path / "cache").glob("results-*")
    indexes = []
    for shard in kept.glob("*.pickle"):
        with shard.open("rb") as f:
            indexes.append(pickle.load(f)[2])
    assert sum(len(index) for index in indexes) == check._CACHE_MIN  # every skill's result kept
    again, plain = run(), run("--no-cache")
    assert first.returncode == again.returncode == plain.returncode == 0, first.stderr
    assert first.stdout == again.stdout == plain.stdout
    assert len(json.loads(first.stdout)["findings"]) >= 2 * check._CACHE_MIN
