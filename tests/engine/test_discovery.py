"""Discovery (engine/discovery.py, commands/targets.py): roots, precedence, recursion, fence, IO errors."""

from __future__ import annotations

import errno
import os
import subprocess
import threading
from pathlib import Path

import pytest

from helpers import codes, only, skill_text, write_skill
from skill_lsp.commands.targets import collect
from skill_lsp.engine import discovery
from skill_lsp.engine.config import DEFAULT_ROOTS, Settings
from skill_lsp.engine.discover import discover
from skill_lsp.engine.discovery import (
    READ_LIMIT,
    ReadError,
    find_skill_files,
    read_skill_file,
    scan_roots,
)
from skill_lsp.engine.findings import Severity
from skill_lsp.engine.workspace import SkillResult, check_file, link_skills


def scan(ws: Path, settings: Settings | None = None) -> list[SkillResult]:
    settings = settings or Settings()
    locs = scan_roots(settings.resolved_roots(str(ws)), settings.sensitive_patterns)
    results = [check_file(loc.path, settings, loc) for loc in locs]
    link_skills(results, settings)
    return results


def _linked(tmp_path: Path, config: str, roots: tuple[str, ...] = (".agents/skills", ".claude/skills")) -> list[SkillResult]:
    """One skill `demo` in each of ``roots``, checked and linked under the config file ``config``."""
    (tmp_path / ".skill-lsp.toml").write_text(config)
    for root in roots:
        write_skill(tmp_path / root, "demo", skill_text())
    t = collect([str(tmp_path)], None, None)
    results = [check_file(loc.path, t.settings, loc) for loc in t.locations]
    link_skills(results, t.settings)
    return results


def rel(results: list[SkillResult], ws: Path) -> list[str]:
    return [os.path.relpath(r.path, ws) for r in results]


# --------------------------------------------------------------------- roots


def test_listing_a_root_asks_between_skills_and_stops_when_told(tmp_path: Path):
    """A server's scan lets a keystroke's analysis run while a large root is listed: the roots'
    10,000 skills were 20 ms of listing without a pause."""
    root = tmp_path / ".claude" / "skills"
    for i in range(discovery.CANCEL_EVERY * 3):
        write_skill(root, f"s{i:03d}", skill_text(f"s{i:03d}"))
    asked = []
    locs = scan_roots([str(root)], Settings().sensitive_patterns, cancelled=lambda: asked.append(1) or False)
    assert len(locs) == discovery.CANCEL_EVERY * 3 and len(asked) == 3
    with pytest.raises(discovery.Cancelled):
        scan_roots([str(root)], Settings().sensitive_patterns, cancelled=lambda: len(asked) > 4 or asked.append(1))


def test_default_roots_are_the_existing_ones_in_order(tmp_path: Path):
    for r in ("skills", ".claude/skills", ".agents/skills"):
        (tmp_path / r).mkdir(parents=True)
    assert Settings().resolved_roots(str(tmp_path)) == [
        str(tmp_path / ".agents/skills"), str(tmp_path / ".claude/skills"), str(tmp_path / "skills")]
    assert DEFAULT_ROOTS[:4] == (".agents/skills", ".claude/skills", ".skills", "skills")
    # Then every project root a harness reads (engine/harness/data.py), once each.
    assert {".github/skills", ".gemini/skills", ".opencode/skills", ".codex/skills", ".dsh/skills"} <= set(DEFAULT_ROOTS)
    assert len(set(DEFAULT_ROOTS)) == len(DEFAULT_ROOTS)


def test_no_walking_up_from_a_root(tmp_path: Path):
    write_skill(tmp_path, "above", skill_text(name="above"))
    ws = tmp_path / "ws"
    write_skill(ws / ".agents/skills", "demo", skill_text())
    assert rel(scan(ws), ws) == [".agents/skills/demo/SKILL.md"]


def test_only_immediate_subfolders_with_skill_md_are_skills(tmp_path: Path):
    root = tmp_path / ".agents/skills"
    write_skill(root, "demo", skill_text())
    write_skill(root, "lower", skill_text(name="lower"), filename="skill.md")
    write_skill(root / "nested" / "deeper", "x", skill_text(name="x"))
    (root / "empty").mkdir()
    (root / "README.md").write_text("not a skill")
    assert rel(scan(tmp_path), tmp_path) == [".agents/skills/demo/SKILL.md", ".agents/skills/lower/skill.md"]


def test_configured_roots_replace_the_defaults(tmp_path: Path):
    write_skill(tmp_path / ".agents/skills", "a", skill_text(name="a"))
    write_skill(tmp_path / "custom", "b", skill_text(name="b"))
    assert rel(scan(tmp_path, Settings(roots=("custom",))), tmp_path) == ["custom/b/SKILL.md"]


# --------------------------------------------------------------------- precedence


def test_the_copy_a_harness_lists_instead_is_named_with_those_that_list_this_one(tmp_path: Path):
    # Copilot CLI reads .agents/skills before .claude/skills; Claude Code reads only .claude/skills (unseen
    # AndreHahm/andres-cc-marketplace: "harnesses never load this copy" was wrong for it).
    write_skill(tmp_path / ".agents/skills", "demo", skill_text())
    write_skill(tmp_path / ".claude/skills", "demo", skill_text())
    winner, loser = scan(tmp_path)
    assert winner.location.root_index == 0 and winner.cross == []
    f = only(loser.cross, "SHADOWED")
    assert f.message == (f"skill 'demo' is shadowed by {winner.path}: GitHub Copilot CLI 1.0.102 lists that copy "
                         "instead; Claude Code 2.1.332 lists this one")
    assert f.severity is Severity.INFO and "unnecessary" not in f.tags
    assert f.data == {"name": "demo", "winner": winner.path}
    (related,) = f.related
    assert related.path == winner.path
    assert (related.start, related.end) == winner.anchor


def test_a_copy_no_target_loads_is_a_warning_naming_the_harness(tmp_path: Path):
    # Gemini CLI, the only reader of .gemini/skills, lists the .agents/skills copy (capture case
    # same-name-two-roots).
    write_skill(tmp_path / ".gemini/skills", "demo", skill_text())
    write_skill(tmp_path / ".agents/skills", "demo", skill_text())
    results = {str(Path(r.path).relative_to(tmp_path)): r for r in scan(tmp_path)}
    assert results[".agents/skills/demo/SKILL.md"].cross == []
    f = only(results[".gemini/skills/demo/SKILL.md"].cross, "SHADOWED")
    assert f.message.endswith(": Gemini CLI @google/gemini-cli-core 0.61.0 lists that copy instead; harnesses never "
                              "load this copy")
    assert f.severity is Severity.WARNING and "unnecessary" in f.tags


def test_the_copy_in_a_later_root_of_skill_lsp_may_be_the_one_a_harness_keeps(tmp_path: Path):
    # Copilot CLI keeps the .github/skills copy, which skill-lsp's own root order puts after the
    # others: that copy is shadowed by nothing, the two others for Copilot alone.
    for root in (".github/skills", ".agents/skills", ".claude/skills"):
        write_skill(tmp_path / root, "demo", skill_text())
    results = {str(Path(r.path).relative_to(tmp_path)): r for r in scan(tmp_path)}
    assert results[".github/skills/demo/SKILL.md"].cross == []
    for root in (".agents/skills", ".claude/skills"):
        f = only(results[f"{root}/demo/SKILL.md"].cross, "SHADOWED")
        assert f.data["winner"] == str(tmp_path / ".github/skills/demo/SKILL.md")
        assert "GitHub Copilot CLI 1.0.102 lists that copy instead; " in f.message and f.severity is Severity.INFO


def test_targets_that_read_one_copy_each_shadow_none(tmp_path: Path):
    results = _linked(tmp_path, 'targets = ["claude-code", "codex"]\n')
    assert [r.cross for r in results] == [[], []]


@pytest.mark.parametrize("targets", [["vscode"], ["opencode"], ["codex", "claude-code"]])
def test_a_harness_that_keeps_no_known_copy_claims_none(tmp_path: Path, targets: list[str]):
    # VS Code's order is read in its source, not run; OpenCode keeps either copy from run to run; Codex
    # lists both (capture case same-name-two-roots).
    results = _linked(tmp_path, f"targets = {targets!r}\n".replace("'", '"'),
                      (".agents/skills", ".claude/skills", ".codex/skills"))
    assert len(results) == 3 and [r.cross for r in results] == [[]] * 3


@pytest.mark.parametrize("other", ["vscode", "opencode"])
def test_no_claim_is_made_for_a_target_keeping_an_unknown_copy(tmp_path: Path, other: str):
    winner, loser = _linked(tmp_path, f'targets = ["copilot", "{other}"]\n')
    f = only(loser.cross, "SHADOWED")
    assert f.message == f"skill 'demo' is shadowed by {winner.path}: GitHub Copilot CLI 1.0.102 lists that copy instead"
    assert f.severity is Severity.WARNING and winner.cross == []


def test_the_skill_tool_contract_keeps_the_first_root(tmp_path: Path):
    winner, loser = _linked(tmp_path, 'profile = "skill-tool"\nroots = [".agents/skills", ".claude/skills"]\n')
    f = only(loser.cross, "SHADOWED")
    assert f.message == (f"skill 'demo' is shadowed by {winner.path} (root 0 wins over root 1); harnesses never "
                         "load this copy")


def test_an_invalid_skill_never_shadows_a_valid_one(tmp_path: Path):
    # NOTES §2: the reference implementation lets an invalid later skill win; we must not.
    write_skill(tmp_path / ".agents/skills", "demo", "---\nname: demo\n---\n")  # no description
    write_skill(tmp_path / ".claude/skills", "demo", skill_text())
    first, second = scan(tmp_path)
    assert codes(first.findings) == ["MISSING_FIELD"]
    assert first.cross == [] and second.cross == []


def test_duplicate_name_within_a_root_is_reported_on_both(tmp_path: Path):
    root = tmp_path / ".agents/skills"
    write_skill(root, "demo", skill_text())
    write_skill(root, "\uff44\uff45\uff4d\uff4f", skill_text())  # NFKC-equal folder
    a, b = scan(tmp_path)
    assert codes(a.cross) == ["DUPLICATE_NAME"] and codes(b.cross) == ["DUPLICATE_NAME"]
    assert a.cross[0].related[0].path == b.path and b.cross[0].related[0].path == a.path


def test_duplicates_in_the_winning_root_shadow_the_later_copy(tmp_path: Path):
    write_skill(tmp_path / ".agents/skills", "demo", skill_text())
    write_skill(tmp_path / ".agents/skills", "\uff44\uff45\uff4d\uff4f", skill_text())
    write_skill(tmp_path / ".claude/skills", "demo", skill_text())
    results = scan(tmp_path)
    assert [codes(r.cross) for r in results] == [["DUPLICATE_NAME"], ["DUPLICATE_NAME"], ["SHADOWED"]]


# --------------------------------------------------------------------- recursive search


def test_recursive_search_skips_vcs_dependencies_and_virtualenvs(tmp_path: Path):
    write_skill(tmp_path / "plugins/p/skills", "keep", skill_text(name="keep"))
    for skipped in (".git", "node_modules", "x/node_modules/pkg", ".venv"):
        write_skill(tmp_path / skipped, "skip", skill_text(name="skip"))
    venv = tmp_path / "myenv"
    (venv).mkdir()
    (venv / "pyvenv.cfg").write_text("home = /usr\n")
    write_skill(venv / "lib", "skip", skill_text(name="skip"))
    found = [os.path.relpath(p, tmp_path) for p, _ in find_skill_files(str(tmp_path))]
    assert found == ["plugins/p/skills/keep/SKILL.md"]


def test_recursive_search_skips_git_ignored_folders(tmp_path: Path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text("generated/\n")
    write_skill(tmp_path / "generated", "skip", skill_text(name="skip"))
    write_skill(tmp_path / "src", "keep", skill_text(name="keep"))
    found = [os.path.relpath(p, tmp_path) for p, _ in find_skill_files(str(tmp_path))]
    assert found == ["src/keep/SKILL.md"]


def test_recursive_search_finds_deep_plugin_layouts_and_survives_symlink_cycles(tmp_path: Path):
    write_skill(tmp_path / "a/b/c/d/plugins/x/skills", "deep", skill_text(name="deep"))
    os.symlink(tmp_path / "a", tmp_path / "a" / "b" / "loop")
    found = [os.path.relpath(p, tmp_path) for p, _ in find_skill_files(str(tmp_path))]
    assert found == ["a/b/c/d/plugins/x/skills/deep/SKILL.md"]


def test_roots_read_from_the_walk_equal_roots_listed_on_their_own(tmp_path: Path):
    """discover() lists each folder once: roots inside the workspace reuse the walk's listing.
    Every kind of root child must come out as scan_roots alone finds it."""
    root = tmp_path / ".agents/skills"
    write_skill(root, "plain", skill_text(name="plain"))
    write_skill(root, "lower", skill_text(name="lower"), filename="skill.md")
    both = write_skill(root, "both", skill_text(name="both")).parent
    (both / "skill.md").write_text(skill_text(name="both"))
    for variant in ("Skill.md", "SKILL.MD"):  # two case variants: the first by name, whatever the listing order
        write_skill(root, "variants", skill_text(name="variants"), filename=variant)
    secret = tmp_path / "secret.md"
    secret.write_text(skill_text(name="linked"))
    (root / "linked").mkdir()
    os.symlink(secret, root / "linked" / "SKILL.md")  # a symlinked SKILL.md leaving its folder
    os.symlink(root / "plain", root / "alias")  # a symlinked skill folder
    (root / "empty").mkdir()
    venv = root / "venv-like"
    write_skill(root, "venv-like", skill_text(name="venv-like"))
    (venv / "pyvenv.cfg").write_text("home = /usr\n")  # the walk skips it; the root lists it
    write_skill(tmp_path / "secrets/skills", "hidden", skill_text(name="hidden"))
    settings = Settings(roots=(".agents/skills", "secrets/skills"))
    alone = scan_roots(settings.resolved_roots(str(tmp_path)), settings.sensitive_patterns)
    inv = discover(str(tmp_path), settings)
    assert inv.locations == alone
    by_dir = {os.path.basename(loc.dir): loc for loc in alone}
    assert os.path.basename(by_dir["variants"].path) == "SKILL.MD"
    assert os.path.basename(by_dir["both"].path) == "SKILL.md"
    assert by_dir["linked"].problem is not None and by_dir["linked"].problem[0] == "OUTSIDE_WORKSPACE"
    assert by_dir["hidden"].problem is not None and by_dir["hidden"].problem[0] == "SENSITIVE"
    assert "venv-like" in by_dir and "empty" not in by_dir
    walked = [os.path.relpath(p, tmp_path) for p, _ in find_skill_files(str(tmp_path))]
    assert ".agents/skills/variants/SKILL.MD" in walked


def test_collect_on_a_workspace_keeps_roots_and_adds_loose_skills(tmp_path: Path):
    write_skill(tmp_path / ".agents/skills", "demo", skill_text())
    write_skill(tmp_path / "plugins/p/skills", "extra", skill_text(name="extra"))
    t = collect([str(tmp_path)], None, None)
    assert [os.path.relpath(loc.path, tmp_path) for loc in t.locations] == [".agents/skills/demo/SKILL.md"]
    assert [os.path.relpath(loc.path, tmp_path) for loc in t.loose] == ["plugins/p/skills/extra/SKILL.md"]
    assert t.loose[0].root_index == -1


def test_collect_on_a_skill_folder_and_a_file(tmp_path: Path):
    p = write_skill(tmp_path, "demo", skill_text())
    for target in (p.parent, p):
        t = collect([str(target)], None, None)
        assert t.locations == [] and [loc.path for loc in t.loose] == [str(p)]


def test_collect_reports_a_missing_path(tmp_path: Path):
    t = collect([str(tmp_path / "nope")], None, None)
    assert t.errors == [f"no such file or folder: {tmp_path / 'nope'}"]


# --------------------------------------------------------------------- fence


def test_symlinked_skill_escaping_the_roots_is_outside_and_never_read(tmp_path: Path, monkeypatch):
    target = write_skill(tmp_path / "elsewhere", "demo", skill_text()).parent
    (tmp_path / ".agents/skills").mkdir(parents=True)
    os.symlink(target, tmp_path / ".agents/skills/demo")
    opened: list[str] = []
    real = discovery.read_skill_file

    def spy(path: str):
        opened.append(path)
        return real(path)

    monkeypatch.setattr("skill_lsp.engine.workspace.read_skill_file", spy)
    (result,) = scan(tmp_path)
    f = only(result.findings, "OUTSIDE_WORKSPACE")
    assert str(target) in f.message
    assert opened == []


def test_dotdot_escape_is_outside(tmp_path: Path):
    write_skill(tmp_path / "elsewhere", "demo", skill_text())
    root = tmp_path / "root"
    root.mkdir()
    loc = discovery.locate(str(root / ".." / "elsewhere" / "demo"), str(root), 0, [str(root)], ())
    assert loc is not None and loc.problem is not None and loc.problem[0] == "OUTSIDE_WORKSPACE"


def test_skill_md_symlink_leaving_its_folder_is_outside(tmp_path: Path):
    secret = tmp_path / "secret.md"
    secret.write_text(skill_text())
    d = tmp_path / ".agents/skills/demo"
    d.mkdir(parents=True)
    os.symlink(secret, d / "SKILL.md")
    (result,) = scan(tmp_path)
    assert codes(result.findings) == ["OUTSIDE_WORKSPACE"]
    assert result.doc is None


def test_symlink_between_roots_stays_inside(tmp_path: Path):
    target = write_skill(tmp_path / ".claude/skills", "real", skill_text(name="real")).parent
    (tmp_path / ".agents/skills").mkdir(parents=True)
    os.symlink(target, tmp_path / ".agents/skills/real")
    results = scan(tmp_path)
    assert [codes(r.findings) for r in results] == [[], []]


@pytest.mark.parametrize("where", ["team/secrets/skills", "cfg/.env/skills"])
def test_sensitive_patterns(tmp_path: Path, where: str):
    write_skill(tmp_path / where, "demo", skill_text())
    (result,) = scan(tmp_path, Settings(roots=(where,)))
    assert codes(result.findings) == ["SENSITIVE"]
    assert result.doc is None


def test_custom_sensitive_pattern(tmp_path: Path):
    write_skill(tmp_path / "skills", "private-notes", skill_text(name="private-notes"))
    (result,) = scan(tmp_path, Settings(roots=("skills",), sensitive_patterns=("**/private-*",)))
    assert codes(result.findings) == ["SENSITIVE"]


# --------------------------------------------------------------------- IO errors


def test_skill_md_directory_is_io_error(tmp_path: Path):
    (tmp_path / ".agents/skills/demo/SKILL.md").mkdir(parents=True)
    (result,) = scan(tmp_path)
    f = only(result.findings, "IO_ERROR")
    assert f.message == "SKILL.md is a directory, not a regular file"


def test_fifo_skill_md_is_io_error_without_blocking(tmp_path: Path):
    d = tmp_path / ".agents/skills/demo"
    d.mkdir(parents=True)
    os.mkfifo(d / "SKILL.md")
    out: list[SkillResult] = []
    t = threading.Thread(target=lambda: out.extend(scan(tmp_path)), daemon=True)
    t.start()
    t.join(5)
    assert not t.is_alive(), "reading a FIFO blocked"
    (result,) = out
    assert only(result.findings, "IO_ERROR").message == "SKILL.md is a FIFO, not a regular file"


def test_unreadable_skill_md_is_io_error(tmp_path: Path, is_root: bool):
    if is_root:
        pytest.skip("root reads files whatever their mode")
    p = write_skill(tmp_path / ".agents/skills", "demo", skill_text())
    p.chmod(0)
    try:
        (result,) = scan(tmp_path)
    finally:
        p.chmod(0o644)
    assert only(result.findings, "IO_ERROR").message == "permission denied reading SKILL.md"


def test_permission_error_on_open_is_io_error(tmp_path: Path, monkeypatch):
    # Runs as root too: the errno mapping is what chmod 000 exercises for other users.
    p = write_skill(tmp_path, "demo", skill_text())

    def deny(*_a, **_k):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(discovery.os, "open", deny)
    with pytest.raises(ReadError) as exc:
        read_skill_file(str(p))
    assert exc.value.code == "IO_ERROR"
    assert exc.value.message == "permission denied reading SKILL.md"


def test_symlink_loop_is_io_error(tmp_path: Path):
    d = tmp_path / ".agents/skills/demo"
    d.mkdir(parents=True)
    os.symlink(d / "SKILL.md", d / "SKILL.md")
    (result,) = scan(tmp_path)
    f = only(result.findings, "IO_ERROR")
    assert "symlink loop" in f.message


def test_dangling_symlink_is_io_error(tmp_path: Path):
    d = tmp_path / ".agents/skills/demo"
    d.mkdir(parents=True)
    os.symlink(d / "missing.md", d / "SKILL.md")
    (result,) = scan(tmp_path)
    assert codes(result.findings) == ["IO_ERROR"]


def test_large_file_is_read_up_to_the_limit(tmp_path: Path):
    p = write_skill(tmp_path, "demo", skill_text(body="x" * 100 + "\n"))
    data, size = read_skill_file(str(p))
    assert size == len(data) == p.stat().st_size


@pytest.mark.parametrize("pad", [0, 1, 2, 3])
def test_a_read_cut_inside_a_character_is_not_an_encoding_error(tmp_path: Path, pad: int):
    # 4-byte characters after `pad` ASCII bytes: the cut at READ_LIMIT lands at each position in one.
    head = skill_text().encode() + b"x" * pad
    body = "😀".encode() * ((READ_LIMIT - len(head)) // 4 + 2)
    p = write_skill(tmp_path / ".agents/skills", "demo", head + body)
    r = check_file(str(p), Settings())
    assert codes(r.findings) == ["FILE_TOO_LARGE"]  # never INVALID_ENCODING for the cut
    assert r.doc.text.startswith(skill_text())


def test_locating_what_the_walk_found_is_asked_between_skills(tmp_path) -> None:
    # Skills outside the roots are located after the walk: a scan can be cancelled (and a server's
    # scan thread give way to an edit) there too, not only while folders are listed.
    for i in range(discovery.CANCEL_EVERY + 1):
        write_skill(tmp_path / "lib" / f"g{i:03d}", f"s{i:03d}", skill_text(f"s{i:03d}"))
    walk_calls: list[int] = []
    asked: list[int] = []
    inv = discover(str(tmp_path), Settings(), lambda: walk_calls.append(1) and False,
                   lambda: asked.append(1) and False)
    assert len(inv.loose) == discovery.CANCEL_EVERY + 1
    assert len(asked) == 2  # at the first skill and at the CANCEL_EVERY-th
    assert walk_calls  # the walk asks its own callable
    with pytest.raises(discovery.Cancelled):
        discover(str(tmp_path), Settings(), lambda: False, lambda: True)
