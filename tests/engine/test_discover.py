"""discover(): one inventory for `check` and the server; classify() puts a single path where it would."""

from __future__ import annotations

import os
from pathlib import Path

from helpers import skill_text, write_skill
from skill_lsp.engine.config import Settings
from skill_lsp.engine.discover import discover, watch_globs


def _tree(tmp_path: Path) -> None:
    write_skill(tmp_path / ".claude/skills", "alpha", skill_text("alpha"))
    write_skill(tmp_path / "skills", "alpha", skill_text("alpha"))
    write_skill(tmp_path / "plugins/p/skills", "beta", skill_text("beta"))
    write_skill(tmp_path / "plugins/p/skills/beta/nested", "gamma", skill_text("gamma"))
    write_skill(tmp_path / "node_modules/x/skills", "hidden", skill_text("hidden"))
    write_skill(tmp_path / "venv-like", "v", skill_text("v"))
    (tmp_path / "venv-like" / "pyvenv.cfg").write_text("home = /usr\n")


def test_roots_first_then_nested_layouts(tmp_path: Path) -> None:
    _tree(tmp_path)
    inv = discover(str(tmp_path), Settings())
    rel = lambda locs: [os.path.relpath(loc.path, tmp_path) for loc in locs]  # noqa: E731
    assert rel(inv.locations) == [".claude/skills/alpha/SKILL.md", "skills/alpha/SKILL.md"]
    assert [loc.root_index for loc in inv.locations] == [0, 1]  # among the default roots that exist
    assert rel(inv.loose) == ["plugins/p/skills/beta/SKILL.md", "plugins/p/skills/beta/nested/gamma/SKILL.md"]


def test_classify_agrees_with_the_scan_for_every_path(tmp_path: Path) -> None:
    _tree(tmp_path)
    inv = discover(str(tmp_path), Settings())
    for loc in inv.all:
        assert inv.classify(loc.path) == loc
    assert inv.classify(str(tmp_path / "node_modules/x/skills/hidden/SKILL.md")) is None
    assert inv.classify(str(tmp_path / "venv-like/v/SKILL.md")) is None
    assert inv.classify(str(tmp_path / "plugins/p/skills/beta/README.md")) is None
    assert inv.classify(str(tmp_path.parent / "elsewhere/SKILL.md")) is None


def test_a_skill_folder_as_workspace_is_one_skill(tmp_path: Path) -> None:
    write_skill(tmp_path, "solo", skill_text("solo"))
    inv = discover(str(tmp_path / "solo"), Settings())
    assert [loc.path for loc in inv.all] == [str(tmp_path / "solo" / "SKILL.md")]
    assert inv.classify(str(tmp_path / "solo" / "SKILL.md")) == inv.loose[0]


def test_watch_globs_cover_roots_and_plugin_layouts(tmp_path: Path) -> None:
    inv = discover(str(tmp_path), Settings())
    globs = watch_globs(inv)
    assert ".claude/skills/*" in globs and "**/skills/*" in globs
