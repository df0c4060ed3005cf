"""engine/discovery.py below the scan: the path predicates, the skill-file pick, locate()'s
problems, the roots' listing, the recursive walk's edges and git's ignored folders."""

from __future__ import annotations

import errno
import itertools
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from helpers import require, skill_text, write_skill
from skill_lsp.engine import discovery
from skill_lsp.engine.config import Settings
from skill_lsp.engine.discover import discover
from skill_lsp.engine.discovery import (
    find_skill_files,
    git_ignored_dirs,
    is_inside,
    is_sensitive,
    locate,
    scan_roots,
)

CASE_MESSAGE = ("'Skill.md' is not 'SKILL.md': Claude Code, Codex, OpenCode, Gemini CLI and Copilot CLI look for "
                "the exact name, so on a case-sensitive file system (Linux) this skill is not found; rename it to SKILL.md")


# --------------------------------------------------------------------- path predicates


def test_no_sensitive_patterns_means_nothing_is_sensitive() -> None:
    assert is_sensitive("/w/secrets/demo", ()) is False
    assert is_sensitive("/w/secrets/demo", []) is False


def test_a_trailing_separator_does_not_change_what_is_sensitive() -> None:
    assert is_sensitive("/w/secrets/", ("**/secrets",))
    assert is_sensitive("/w/SANDBOX/", ("**/SANDBOX",))
    assert is_sensitive("/w/SANDBOX", ("**/SANDBOX",))  # the name's own last letters are kept
    assert not is_sensitive("/w/SANDBO", ("**/SANDBOX",))


def test_an_inside_pattern_matches_the_folder_itself() -> None:
    """`**/secrets/**` is what lies in secrets/, and secrets/ itself: a skill folder named so is sensitive."""
    assert is_sensitive("/w/team/secrets", ("**/secrets/**",))
    assert is_sensitive("/w/team/secrets/demo", ("**/secrets/**",))
    assert not is_sensitive("/w/team/secretsX", ("**/secrets/**",))


def test_is_inside_with_a_root_ending_in_a_separator() -> None:
    assert is_inside("/a/b/c", "/a/b/")
    assert is_inside("/a/b", "/a/b")
    assert not is_inside("/a/bc", "/a/b/")
    assert not is_inside("/a/bc", "/a/b")
    assert is_inside("/a", "/")


# --------------------------------------------------------------------- the skill file of a folder


@pytest.mark.parametrize(("names", "expected"), [
    (("SKILL.md", "skill.md", "Skill.md", "SKILL.MD"), "SKILL.md"),  # although "SKILL.MD" < "SKILL.md"
    (("skill.md", "SKILL.MD", "sKILL.md"), "skill.md"),
    (("Skill.md", "SKILL.MD", "skill.MD"), "SKILL.MD"),  # case variants only: the first by name
    (("README.md", "skill.mdx", "SKILL.markdown"), None),
])
def test_the_pick_is_the_same_whatever_the_listing_order(names: tuple[str, ...], expected: str | None) -> None:
    """SKILL.md, else skill.md, else the first case variant by name."""
    for order in itertools.permutations(names):
        assert discovery._pick_skill_file(list(order)) == expected, order


def test_an_entry_that_cannot_be_stat_ed_is_not_a_folder(tmp_path: Path) -> None:
    os.symlink("loop", tmp_path / "loop")
    with os.scandir(tmp_path) as it:
        (entry,) = it
    with pytest.raises(OSError):
        entry.is_dir()  # the stat behind it: ELOOP
    assert discovery._is_dir(entry) is False


# --------------------------------------------------------------------- locate()


def test_problem_locations_keep_their_root(tmp_path: Path) -> None:
    root = tmp_path / "root"
    elsewhere = write_skill(tmp_path / "elsewhere", "far", skill_text("far")).parent
    root.mkdir()
    os.symlink(elsewhere, root / "far")
    write_skill(root, "secrets", skill_text("secrets"))
    write_skill(root, "odd", skill_text("odd"), filename="Skill.md")
    fence = [str(root)]
    far = locate(str(root / "far"), str(root), 3, fence, ("**/secrets/**",))
    assert far is not None
    assert (far.root, far.root_index, far.problem) == (
        str(root), 3, ("OUTSIDE_WORKSPACE", f"Skill directory is outside all configured workspace roots: {elsewhere}"))
    sensitive = locate(str(root / "secrets"), str(root), 3, fence, ("**/secrets/**",))
    assert sensitive is not None
    assert (sensitive.root, sensitive.problem) == (
        str(root), ("SENSITIVE", f"Refusing to activate skill in sensitive path: {root / 'secrets'}"))
    secret = tmp_path / "secret.md"
    secret.write_text(skill_text("linked"))
    (root / "linked").mkdir()
    os.symlink(secret, root / "linked/SKILL.md")
    linked = locate(str(root / "linked"), str(root), 3, fence, ())
    assert linked is not None
    assert (linked.root, linked.problem) == (
        str(root), ("OUTSIDE_WORKSPACE", f"SKILL.md resolves outside its skill folder: {secret}"))
    odd = locate(str(root / "odd"), str(root), 3, fence, ())
    assert odd is not None
    assert (odd.path, odd.root, odd.problem) == (str(root / "odd/Skill.md"), str(root), ("SKILL_FILE_CASE", CASE_MESSAGE))


def test_a_symlinked_skill_folder_leading_into_a_sensitive_folder_is_sensitive(tmp_path: Path) -> None:
    """The link's own path looks harmless; where it leads (inside the fence) is what counts."""
    target = write_skill(tmp_path / "team/secrets", "rotate", skill_text("rotate")).parent
    root = tmp_path / "skills"
    root.mkdir()
    os.symlink(target, root / "rotate")
    loc = locate(str(root / "rotate"), str(root), 0, [str(tmp_path)], ("**/secrets/**",))
    assert loc is not None
    assert loc.problem == ("SENSITIVE", f"Refusing to activate skill in sensitive path: {root / 'rotate'}")
    plain = locate(str(root / "rotate"), str(root), 0, [str(tmp_path)], ("**/private/**",))
    assert plain is not None and plain.problem is None


# --------------------------------------------------------------------- scan_roots()


def test_a_folder_pattern_naming_the_root_marks_none_of_its_skills(tmp_path: Path) -> None:
    """`**/private-*` names folders: the root private-skills/ matches it, its skill demo/ does not."""
    root = tmp_path / "private-skills"
    write_skill(root, "demo", skill_text("demo"))
    write_skill(root, "private-notes", skill_text("private-notes"))
    settings = Settings(roots=("private-skills",), sensitive_patterns=("**/private-*",))
    expected = {"demo": None, "private-notes": "SENSITIVE"}
    alone = scan_roots(settings.resolved_roots(str(tmp_path)), settings.sensitive_patterns)
    assert {os.path.basename(loc.dir): loc.problem and loc.problem[0] for loc in alone} == expected
    inv = discover(str(tmp_path), settings)  # the roots read from the walk's listings
    assert inv.locations == alone


def test_roots_read_from_the_walk_when_it_could_not_tell_a_symlink(tmp_path: Path, monkeypatch) -> None:
    """The walk records None when it cannot tell whether a skill file is a symlink: the skill is still
    listed, and locate() finds out itself (a linked SKILL.md leaving its folder stays OUTSIDE_WORKSPACE)."""
    root = tmp_path / ".agents/skills"
    write_skill(root, "plain", skill_text("plain"))
    secret = tmp_path / "secret.md"
    secret.write_text(skill_text("linked"))
    (root / "linked").mkdir()
    os.symlink(secret, root / "linked/SKILL.md")
    settings = Settings()
    alone = scan_roots(settings.resolved_roots(str(tmp_path)), settings.sensitive_patterns)
    monkeypatch.setattr(discovery, "_is_link", lambda entry: None)
    inv = discover(str(tmp_path), settings)
    assert inv.locations == alone
    assert [(os.path.basename(loc.dir), loc.problem and loc.problem[0]) for loc in inv.locations] == [
        ("linked", "OUTSIDE_WORKSPACE"), ("plain", None)]


# --------------------------------------------------------------------- find_skill_files()


class _Listing:
    """What os.scandir() returns, over a chosen list of entries."""

    def __init__(self, entries: list[os.DirEntry[str]]) -> None:
        self.entries = entries

    def __enter__(self):
        return iter(self.entries)

    def __exit__(self, *exc: object) -> None:
        return None


def _links_first(monkeypatch) -> None:
    """Make every listing put symlinks first, then names in order (the real order is the file system's)."""
    real = os.scandir

    def scandir(path):
        with real(path) as it:
            return _Listing(sorted(it, key=lambda e: (not e.is_symlink(), e.name)))

    monkeypatch.setattr(discovery.os, "scandir", scandir)


def _rel(found: list[tuple[str, str]], top: Path) -> list[str]:
    return [os.path.relpath(md, top) for md, _ in found]


def test_a_folder_that_cannot_be_listed_is_skipped_not_the_end_of_the_walk(tmp_path: Path, monkeypatch) -> None:
    write_skill(tmp_path / "a", "x", skill_text("x"))
    write_skill(tmp_path / "b", "y", skill_text("y"))
    real = os.scandir

    def scandir(path):
        if os.fspath(path) == str(tmp_path / "a"):  # what chmod 000 does for a user other than root
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real(path)

    monkeypatch.setattr(discovery.os, "scandir", scandir)
    assert _rel(find_skill_files(str(tmp_path), ignored=frozenset()), tmp_path) == ["b/y/SKILL.md"]


def test_a_link_back_into_the_walk_skips_only_itself(tmp_path: Path, monkeypatch) -> None:
    write_skill(tmp_path / "a/z-after-the-link", "x", skill_text("x"))
    os.symlink(tmp_path, tmp_path / "a" / "back")  # listed first: its siblings must still be walked
    _links_first(monkeypatch)
    assert _rel(find_skill_files(str(tmp_path), ignored=frozenset()), tmp_path) == ["a/z-after-the-link/x/SKILL.md"]


def test_two_links_to_one_folder_outside_report_it_once(tmp_path: Path) -> None:
    far = write_skill(tmp_path / "outside", "far", skill_text("far")).parent
    top = tmp_path / "ws"
    top.mkdir()
    os.symlink(far, top / "one")
    os.symlink(far, top / "two")
    found = find_skill_files(str(top), ignored=frozenset())
    assert len(found) == 1
    ((md, real),) = found
    assert real == str(far) and os.path.basename(md) == "SKILL.md"


def test_two_links_to_one_folder_inside_walk_it_once_more_in_name_order(tmp_path: Path) -> None:
    """The folder itself is walked, and through the first link by name; the second link is a repeat."""
    write_skill(tmp_path / "real", "x", skill_text("x"))
    for folder, link in (("p", "one"), ("q", "two")):
        (tmp_path / folder).mkdir()
        os.symlink(tmp_path / "real", tmp_path / folder / link)
    assert _rel(find_skill_files(str(tmp_path), ignored=frozenset()), tmp_path) == [
        "p/one/x/SKILL.md", "real/x/SKILL.md"]


def test_a_link_leading_outside_is_reported_never_walked(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    write_skill(outside / "pack/skills", "deep", skill_text("deep"))  # below the link: never looked at
    lower = write_skill(outside, "lower", skill_text("lower"), filename="skill.md").parent
    top = tmp_path / "ws"
    top.mkdir()
    os.symlink(outside / "pack", top / "pack")
    os.symlink(lower, top / "lower")
    assert find_skill_files(str(top), ignored=frozenset()) == [(str(top / "lower/skill.md"), str(lower))]


def test_a_link_inside_is_walked_below_it(tmp_path: Path) -> None:
    write_skill(tmp_path / "vendor/pack/skills", "deep", skill_text("deep"))
    (tmp_path / "plugins").mkdir()
    os.symlink(tmp_path / "vendor/pack", tmp_path / "plugins/pack")
    assert _rel(find_skill_files(str(tmp_path), ignored=frozenset()), tmp_path) == [
        "plugins/pack/skills/deep/SKILL.md", "vendor/pack/skills/deep/SKILL.md"]


def test_the_walk_stops_at_max_files_taking_folders_in_name_order(tmp_path: Path) -> None:
    for name in ("c", "a", "b"):
        write_skill(tmp_path / name, "s", skill_text("s"))
    found = find_skill_files(str(tmp_path), max_files=2, ignored=frozenset())
    assert _rel(found, tmp_path) == ["a/s/SKILL.md", "b/s/SKILL.md"]
    assert _rel(find_skill_files(str(tmp_path), max_files=1, ignored=frozenset()), tmp_path) == ["a/s/SKILL.md"]


# --------------------------------------------------------------------- git_ignored_dirs()

_NO_USER_CONFIG = {"GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_SYSTEM": os.devnull}


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.email=a@b", "-c", "user.name=n", *args], cwd=cwd, check=True,
                   capture_output=True, env={**os.environ, **_NO_USER_CONFIG})


def test_a_workspace_below_the_git_top_level_still_skips_ignored_folders(tmp_path: Path) -> None:
    require(shutil.which("git"), "git", "install git")
    repo = tmp_path / "repo"
    ws = repo / "docs" / "ws"
    (ws / "generated").mkdir(parents=True)
    (ws / "kept").mkdir()
    (repo / ".gitignore").write_text("generated/\n")
    _git(repo, "init", "-q")
    assert git_ignored_dirs(str(ws)) == frozenset({str(ws / "generated")})


def test_outside_a_git_work_tree_git_is_not_run(tmp_path: Path, monkeypatch) -> None:
    if any(os.path.exists(os.path.join(p, ".git")) for p in (tmp_path, *tmp_path.parents)):
        pytest.skip("the temporary folder is inside a git work tree")

    def no_git(*args, **kwargs):
        raise AssertionError(f"git was run: {args}")

    monkeypatch.setattr(subprocess, "run", no_git)  # discovery imports it when it asks git
    assert git_ignored_dirs(str(tmp_path)) == frozenset()


def test_a_repository_core_fsmonitor_is_not_run(tmp_path: Path) -> None:
    """An untrusted repository's .git/config names a command; asking git for ignored folders must not run it."""
    require(shutil.which("git"), "git", "install git")
    marker = tmp_path / "PWNED"
    repo = tmp_path / "repo"
    (repo / "ignored").mkdir(parents=True)
    (repo / "a").write_text("x")
    (repo / ".gitignore").write_text("ignored/\n")
    _git(repo, "init", "-q")
    _git(repo, "add", "a", ".gitignore")
    _git(repo, "commit", "-qm", "x")
    _git(repo, "config", "core.fsmonitor", f"touch {marker}; echo")
    assert git_ignored_dirs(str(repo)) == frozenset({str(repo / "ignored")})
    assert not marker.exists()


def test_an_ignored_folder_whose_name_is_not_utf8_is_not_walked(tmp_path: Path) -> None:
    # git's answer is decoded as scandir decodes names (surrogateescape); decoded with
    # "replace" it never matched, and the ignored folder's skill was found.
    require(shutil.which("git"), "git", "install git")
    odd = os.path.join(os.fsencode(tmp_path), b"gen\xff")
    os.mkdir(odd)
    write_skill(Path(os.fsdecode(odd)), "hidden", skill_text("hidden"))
    write_skill(tmp_path / "kept", "shown", skill_text("shown"))
    (tmp_path / "generated").mkdir()
    (tmp_path / ".gitignore").write_text("gen*/\n")
    _git(tmp_path, "init", "-q")
    ignored = git_ignored_dirs(str(tmp_path))
    assert ignored == frozenset({str(tmp_path / "generated"), os.fsdecode(odd)})
    assert _rel(find_skill_files(str(tmp_path)), tmp_path) == ["kept/shown/SKILL.md"]


def test_which_of_two_links_in_one_folder_is_walked_does_not_depend_on_the_listing(tmp_path: Path,
                                                                                 monkeypatch) -> None:
    write_skill(tmp_path / "real", "x", skill_text("x"))
    (tmp_path / "p").mkdir()
    for link in ("b-link", "a-link"):
        os.symlink(tmp_path / "real", tmp_path / "p" / link)
    real = os.scandir
    answers = []
    for reverse in (False, True):
        def scandir(path, reverse=reverse):
            with real(path) as it:
                return _Listing(sorted(it, key=lambda e: e.name, reverse=reverse))
        monkeypatch.setattr(discovery.os, "scandir", scandir)
        answers.append(_rel(find_skill_files(str(tmp_path), ignored=frozenset()), tmp_path))
    assert answers[0] == answers[1] == ["p/a-link/x/SKILL.md", "real/x/SKILL.md"]


def test_a_link_skipped_or_reported_does_not_stop_the_links_after_it(tmp_path: Path) -> None:
    top = tmp_path / "ws"
    write_skill(top / "real", "x", skill_text("x"))
    far = write_skill(tmp_path / "outside", "far", skill_text("far")).parent
    (top / "p").mkdir()
    os.symlink(top, top / "p" / "a-back")  # back into the walk: skipped
    os.symlink(far, top / "p" / "b-out")  # outside: reported, never walked
    os.symlink(top / "real", top / "p" / "c-in")  # inside: walked
    assert _rel(find_skill_files(str(top), ignored=frozenset()), top) == [
        "p/b-out/SKILL.md", "p/c-in/x/SKILL.md", "real/x/SKILL.md"]


def test_a_walk_asks_whether_it_is_still_wanted_every_few_hundred_folders(tmp_path: Path) -> None:
    for i in range(2 * discovery.CANCEL_EVERY + 10):
        (tmp_path / f"d{i:04d}").mkdir()
    write_skill(tmp_path / "d0000", "demo", skill_text("demo"))
    asked: list[int] = []

    def wanted() -> bool:
        asked.append(1)
        return False

    assert find_skill_files(str(tmp_path), ignored=frozenset(), cancelled=wanted) == [
        (str(tmp_path / "d0000" / "demo" / "SKILL.md"), str(tmp_path / "d0000" / "demo"))]
    assert len(asked) == 2  # at folder CANCEL_EVERY and twice that (the top and the skill counted too)


def test_a_walk_no_longer_wanted_raises_cancelled(tmp_path: Path) -> None:
    for i in range(discovery.CANCEL_EVERY + 1):
        (tmp_path / f"d{i:04d}").mkdir()
    with pytest.raises(discovery.Cancelled):
        find_skill_files(str(tmp_path), ignored=frozenset(), cancelled=lambda: True)
    with pytest.raises(discovery.Cancelled):
        discover(str(tmp_path), Settings(), cancelled=lambda: True)
    # Below the first question a walk is never stopped.
    assert find_skill_files(str(tmp_path / "d0000"), ignored=frozenset(), cancelled=lambda: True) == []


def test_a_skill_md_inside_another_skill_is_one_of_its_files(tmp_path: Path) -> None:
    # Unseen vinnie357/claude-skills: `claude-skills/templates/skill.md`, a template of the skill
    # above it, was checked as a skill named "templates" (a NAME_MISMATCH error).
    outer = write_skill(tmp_path / "skills", "claude-skills", skill_text("claude-skills")).parent
    write_skill(outer, "templates", skill_text("your-skill-name"), "skill.md")
    write_skill(outer, "nested", skill_text("nested"))  # an exact SKILL.md below a skill is a skill (Codex, OpenCode)
    write_skill(tmp_path, "loose", skill_text("loose"), "skill.md")  # in no skill: a skill (SKILL_FILE_CASE)
    found = sorted(os.path.relpath(p, tmp_path) for p, _ in discovery.find_skill_files(str(tmp_path)))
    assert found == ["loose/skill.md", "skills/claude-skills/SKILL.md", "skills/claude-skills/nested/SKILL.md"]
    fence = [str(tmp_path)]
    assert discovery.locate(str(outer / "templates"), str(tmp_path / "skills"), 0, fence, ()) is None
    assert discovery.locate(str(tmp_path / "loose"), str(tmp_path), 0, fence, ()) is not None
    inv = discover(str(tmp_path), Settings())
    assert sorted(os.path.relpath(loc.path, tmp_path) for loc in inv.all) == found
