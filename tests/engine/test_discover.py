"""discover(): one inventory for `check` and the server; classify() puts a single path where it would."""

from __future__ import annotations

import errno
import os
from pathlib import Path

from helpers import skill_text, write_skill
from skill_lsp.engine import discovery
from skill_lsp.engine.config import Settings
from skill_lsp.engine.discover import discover, watch_globs
from skill_lsp.engine.discovery import find_skill_files


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


def _git(cwd: Path, *args: str) -> None:
    import subprocess  # noqa: PLC0415

    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                   env={**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_SYSTEM": os.devnull})


def _fenced_tree(tmp_path: Path) -> Path:
    """A workspace with every kind of folder the walk and classify() must treat alike."""
    ws = tmp_path / "ws"
    outside = tmp_path / "outside"
    write_skill(outside, "far", skill_text("far"))
    (outside / "loose.md").write_text(skill_text("loose"))
    write_skill(ws / ".claude/skills", "alpha", skill_text("alpha"))
    write_skill(ws / ".claude/skills/secrets", "in-root", skill_text("in-root"))  # not a root child
    write_skill(ws / "team/secrets/skills", "rotate", skill_text("rotate"))  # sensitive
    both = write_skill(ws / "plugins/p/skills", "both", skill_text("both")).parent
    (both / "skill.md").write_text(skill_text("both"))
    lower = ws / "plugins/p/skills/lower"
    lower.mkdir(parents=True)
    (lower / "skill.md").write_text(skill_text("lower"))
    odd = ws / "plugins/p/skills/odd"
    odd.mkdir()
    (odd / "Skill.md").write_text(skill_text("odd"))  # harnesses miss it: listed to say so
    (ws / ".claude/skills/upper").mkdir(parents=True)
    (ws / ".claude/skills/upper/SKILL.MD").write_text(skill_text("upper"))
    (ws / "plugins/p/skills/far-link").symlink_to(outside / "far", target_is_directory=True)
    md_link = ws / "plugins/p/skills/md-link"
    md_link.mkdir()
    (md_link / "SKILL.md").symlink_to(outside / "loose.md")
    write_skill(ws / "ignored", "gone", skill_text("gone"))
    write_skill(ws / ".git/skills", "internal", skill_text("internal"))
    write_skill(ws / "deep/.venv/lib", "pkg", skill_text("pkg"))
    (ws / ".gitignore").write_text("ignored/\n")
    _git(ws, "init", "-q")
    return ws


def test_classify_agrees_with_the_scan_on_fenced_and_odd_folders(tmp_path: Path) -> None:
    ws = _fenced_tree(tmp_path)
    inv = discover(str(ws), Settings())
    rel = {os.path.relpath(loc.path, ws): (loc.root_index, loc.problem[0] if loc.problem else None) for loc in inv.all}
    assert rel == {
        ".claude/skills/alpha/SKILL.md": (0, None),  # the first default root that exists
        ".claude/skills/upper/SKILL.MD": (0, "SKILL_FILE_CASE"),
        "plugins/p/skills/odd/Skill.md": (-1, "SKILL_FILE_CASE"),
        ".claude/skills/secrets/in-root/SKILL.md": (-1, "SENSITIVE"),
        "plugins/p/skills/both/SKILL.md": (-1, None),  # SKILL.md wins over skill.md
        "plugins/p/skills/far-link/SKILL.md": (-1, "OUTSIDE_WORKSPACE"),
        "plugins/p/skills/lower/skill.md": (-1, None),  # the lower-case name is one of the two
        "plugins/p/skills/md-link/SKILL.md": (-1, "OUTSIDE_WORKSPACE"),
        "team/secrets/skills/rotate/SKILL.md": (-1, "SENSITIVE"),
    }
    for loc in inv.all:
        assert inv.classify(loc.path) == loc, loc.path
    for path in ("plugins/p/skills/both/skill.md", "ignored/gone/SKILL.md", ".git/skills/internal/SKILL.md",
                 "deep/.venv/lib/pkg/SKILL.md", "plugins/../../outside/far/SKILL.md"):
        assert inv.classify(str(ws / path)) is None, path
    # The workspace folder itself holds no skill file, and a file that is no skill file is none.
    assert inv.classify(str(ws / "SKILL.md")) is None
    assert inv.classify(str(ws / "plugins/p/skills/both/README.md")) is None


def test_a_workspace_that_is_a_skill_lists_itself_first_and_the_skills_below_it(tmp_path: Path) -> None:
    """A collection's SKILL.md at the top of its repository hid the 12 skills below it (unseen
    muratcankoylan/Agent-Skills-for-Context-Engineering): the skills of a folder are the ones a
    check of its parent lists there, whichever of the two is opened."""
    write_skill(tmp_path, "solo", skill_text("solo"))
    write_skill(tmp_path / "solo/skills", "inner", skill_text("inner"))
    (tmp_path / "solo/templates").mkdir()
    (tmp_path / "solo/templates/skill.md").write_text(skill_text("template"))  # one of its files
    inv = discover(str(tmp_path / "solo"), Settings())
    (top,) = inv.loose
    assert (top.dir, top.path, top.root_index, top.root, top.problem) == (
        str(tmp_path / "solo"), str(tmp_path / "solo/SKILL.md"), -1, str(tmp_path), None)
    (inner,) = inv.locations  # `skills/` of the folder opened is one of the roots harnesses read
    assert (inner.path, inner.root_index) == (str(tmp_path / "solo/skills/inner/SKILL.md"), 0)
    for loc in inv.all:
        assert inv.classify(loc.path) == loc
    above = discover(str(tmp_path), Settings())
    assert [loc.path for loc in above.all] == [top.path, inner.path]
    assert inv.classify(str(tmp_path / "solo/templates/skill.md")) is None


def test_build_and_dist_folders_are_walked_only_where_they_hold_skills(tmp_path: Path) -> None:
    """Real repositories name a skill `build` (imgly/agent-skills plugins/cesdk/skills/build) or
    group skill folders under `build/` (georgefin/seo-geo-claude-skills); a build's output
    stays out."""
    write_skill(tmp_path / "plugins/p/skills", "build", skill_text("build"))
    write_skill(tmp_path / "plugins/build/skills", "compile", skill_text("compile"))  # a plugin named build
    write_skill(tmp_path / "build", "seo", skill_text("seo"))
    write_skill(tmp_path / "dist/bundle/skills", "copy", skill_text("copy"))  # skills two levels down
    (tmp_path / "dist/bundle/index.js").write_text("")
    write_skill(tmp_path / "web/build/static/skills", "asset", skill_text("asset"))
    inv = discover(str(tmp_path), Settings())
    rel = sorted(os.path.relpath(loc.path, tmp_path) for loc in inv.all)
    assert rel == ["build/seo/SKILL.md", "plugins/build/skills/compile/SKILL.md", "plugins/p/skills/build/SKILL.md"]
    for loc in inv.all:
        assert inv.classify(loc.path) == loc
    for path in ("dist/bundle/skills/copy/SKILL.md", "web/build/static/skills/asset/SKILL.md"):
        assert inv.classify(str(tmp_path / path)) is None, path


def test_watch_globs_are_every_default_root_the_configured_ones_inside_and_plugin_layouts(tmp_path: Path) -> None:
    from skill_lsp.engine.config import DEFAULT_ROOTS  # noqa: PLC0415

    inv = discover(str(tmp_path), Settings(roots=("custom/skills", ".claude/skills", "../elsewhere")))
    assert watch_globs(inv) == [*(f"{r}/*" for r in DEFAULT_ROOTS), "custom/skills/*", "**/skills/*"]


def test_a_single_skill_workspace_in_a_sensitive_folder_is_refused_and_classified_so(tmp_path: Path) -> None:
    write_skill(tmp_path / "team/secrets", "solo", skill_text("solo"))
    inv = discover(str(tmp_path / "team/secrets/solo"), Settings())
    (loc,) = inv.all
    assert loc.problem is not None and loc.problem[0] == "SENSITIVE"
    assert inv.classify(loc.path) == loc


def test_classify_a_root_child_leading_outside_or_into_a_sensitive_root(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    far = write_skill(tmp_path / "outside", "far", skill_text("far")).parent
    write_skill(ws / ".claude/skills", "alpha", skill_text("alpha"))
    (ws / ".claude/skills/far").symlink_to(far, target_is_directory=True)
    write_skill(ws / "team/secrets/skills", "rotate", skill_text("rotate"))
    inv = discover(str(ws), Settings(roots=(".claude/skills", "team/secrets/skills")))
    problems = {os.path.basename(loc.dir): loc.problem and loc.problem[0] for loc in inv.locations}
    assert problems == {"alpha": None, "far": "OUTSIDE_WORKSPACE", "rotate": "SENSITIVE"}
    for loc in inv.locations:
        assert inv.classify(loc.path) == loc, loc.path


def test_a_skill_file_appearing_in_the_workspace_folder_is_where_the_walk_lists_it(tmp_path: Path) -> None:
    """The walk always lists its top folder, even one holding pyvenv.cfg; classify() agrees."""
    (tmp_path / "pyvenv.cfg").write_text("home = /usr\n")
    write_skill(tmp_path / "skills", "alpha", skill_text("alpha"))
    inv = discover(str(tmp_path), Settings())
    md = write_skill(tmp_path, ".", skill_text("top"))  # created after the scan
    assert [p for p, _ in find_skill_files(str(tmp_path))] == [str(md), str(tmp_path / "skills/alpha/SKILL.md")]
    loc = inv.classify(str(md))
    assert loc is not None
    assert (loc.dir, loc.path, loc.root_index, loc.root, loc.problem) == (str(tmp_path), str(md), -1,
                                                                          str(tmp_path.parent), None)
    assert loc == discover(str(tmp_path), Settings()).loose[0]  # where a scan started now lists it


def test_a_linked_folder_outside_that_cannot_be_listed_is_still_outside(tmp_path: Path, monkeypatch) -> None:
    """The walk finds SKILL.md in a linked folder outside by its name alone, in a folder it may search but
    not list (mode 711, as a home folder often is): discover() hands that file to locate(), which fences it."""
    ws = tmp_path / "ws"
    far = write_skill(tmp_path / "home/bob", "tool", skill_text("tool")).parent
    (ws / "plugins").mkdir(parents=True)
    (ws / "plugins/tool").symlink_to(far, target_is_directory=True)
    real_listdir = os.listdir

    def listdir(path="."):
        if os.path.realpath(path) == os.path.realpath(far):  # what mode 711 does for a user other than root
            raise PermissionError(errno.EACCES, "Permission denied", path)
        return real_listdir(path)

    monkeypatch.setattr(discovery.os, "listdir", listdir)
    inv = discover(str(ws), Settings())
    (loc,) = inv.all
    assert loc.path == str(ws / "plugins/tool/SKILL.md")
    assert loc.problem is not None and loc.problem[0] == "OUTSIDE_WORKSPACE"


def test_skills_named_during_the_walk_are_where_the_inventory_lists_them(tmp_path: Path) -> None:
    """``early``: a server checks skills while the walk goes on and keeps only results whose
    location the inventory confirms, so every location named early must be the inventory's own
    (anything else is checked twice), and every skill the walk can place alone is named."""
    _tree(tmp_path / "a")
    ws = _fenced_tree(tmp_path / "b")
    root = ws / "custom"
    write_skill(root, "configured", skill_text("configured"))
    os.symlink(root / "configured", root / "alias")  # a symlinked root child: the walk's path for it
    write_skill(ws / "plugins/x/skills", "dup", skill_text("dup"))
    for folder, settings in ((tmp_path / "a", Settings()), (ws, Settings()),
                             (ws, Settings(roots=("custom", ".claude/skills"))),
                             (ws, Settings(exclude=((str(ws), "plugins/x/skills/dup/SKILL.md"),)))):
        early: list[discovery.Location] = []
        inv = discover(str(folder), settings, early=early.append)
        assert [loc for loc in early if loc not in inv.all] == []
        assert len({loc.path for loc in early}) == len(early)
        # Not named: a lowercase skill.md (listed only once its head is read), a link leading out
        # of the workspace (never walked), and what only a root's own listing finds.
        missed = {os.path.relpath(loc.path, folder) for loc in inv.all} - {
            os.path.relpath(loc.path, folder) for loc in early}
        assert missed <= {"plugins/p/skills/lower/skill.md", "plugins/p/skills/far-link/SKILL.md",
                          "custom/alias/SKILL.md"}, missed
