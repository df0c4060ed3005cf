"""`capture diff --real`: which real skill folders become a batch, and what is activated."""

from __future__ import annotations

import sys
from pathlib import Path

from helpers import REPO

sys.path.insert(0, str(REPO))

from capture.diff import real  # noqa: E402


def _skill(folder: Path, text: str, files: dict[str, bytes] | None = None) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "SKILL.md").write_text(text, encoding="utf-8")
    for rel, data in (files or {}).items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_bytes(data)


def test_folders_batches_and_calls(tmp_path: Path) -> None:
    repo = tmp_path / "owner+repo"
    _skill(repo / "skills" / "plain", "---\nname: Plain One\ndescription: d\n---\nbody\n",
           {"references/a.md": b"a", "big.bin": b"x" * (real.MAX_FILE + 1), ".git/HEAD": b"ref"})
    _skill(repo / "skills" / "runs", "---\nname: runs\ndescription: d\n---\nRun !`git status` first.\n")
    _skill(repo / "skills" / "hooked", "---\nname: hooked\ndescription: d\nhooks:\n  Stop: []\n---\nbody\n")
    _skill(repo / "skills" / "outer", "---\nname: outer\ndescription: d\n---\nbody\n")
    _skill(repo / "skills" / "outer" / "inner", "---\nname: inner\ndescription: d\n---\nbody\n")
    _skill(repo / "other" / "plain", "---\nname: twin\ndescription: d\n---\nbody\n")
    assert [f.relative_to(repo).as_posix() for f in real.skill_folders(repo)] == [
        "other/plain", "skills/hooked", "skills/outer/inner", "skills/plain", "skills/runs"]

    (batch,) = real.batches([repo], "claude-code", 1, 10, 24)
    by_folder = {s.folder: s for s in batch.skills}
    assert sorted(by_folder) == ["hooked", "inner", "plain", "runs"]  # one "plain" of two
    assert by_folder["runs"].call is None and by_folder["hooked"].call is None  # never run a stranger's commands
    assert by_folder["inner"].call == "inner" and by_folder["inner"].root == ".claude/skills"
    files = next(s for s in batch.skills if s.folder == "plain").files
    assert "big.bin" not in files and ".git/HEAD" not in files
    assert {s.tags for s in batch.skills} == {("real", "repo:owner+repo")}
    assert sum(bool(s.arguments) for s in batch.skills) == 2  # every other one

    (codex,) = real.batches([repo], "codex", 1, 10, 24)
    calls = {s.folder: s.call for s in codex.skills}
    assert calls["runs"] == "runs"  # only Claude Code runs commands on activation
    assert calls.get("plain") in ("Plain One", "twin")  # the declared name
    assert codex.skills[0].root == ".agents/skills"
    assert len(real.batches([repo], "codex", 1, 3, 2)) == 2  # 3 skills in batches of 2


def test_copilot_is_called_by_the_name_it_lists(tmp_path: Path) -> None:
    """Copilot CLI lists and activates `name: MindList Protocol` as `MindList-Protocol` (seed 11 of the
    real runs: called by the name as written, the release and skill-lsp both found nothing, counted as
    agreement): the tester calls it by the listed name and its entry is that skill's."""
    from capture.diff.compare import _owns  # noqa: PLC0415

    repo = tmp_path / "owner+repo"
    _skill(repo / "skills" / "mind", "---\nname: MindList Protocol\ndescription: d\n---\nbody\n")
    _skill(repo / "skills" / "spaced", "---\nname: ' a  b   c '\ndescription: d\n---\nbody\n")
    _skill(repo / "skills" / "plain", "---\nname: plain\ndescription: d\n---\nbody\n")
    calls = {s.folder: s.call for s in real.batches([repo], "copilot", 1, 10, 24)[0].skills}
    assert calls == {"mind": "MindList-Protocol", "spaced": "a-b-c", "plain": "plain"}  # probed: `a  b` is `a-b`
    assert {s.folder: s.call for s in real.batches([repo], "codex", 1, 10, 24)[0].skills}["mind"] == "MindList Protocol"
    (mind,) = [s for s in real.batches([repo], "copilot", 1, 10, 24)[0].skills if s.folder == "mind"]
    assert _owns("copilot", "MindList-Protocol", mind)
    mind.call = "MindList Protocol"  # a generated skill called by the name as written (grammar: name-spaces)
    assert _owns("copilot", "MindList-Protocol", mind) and not _owns("copilot", "MindList", mind)
