"""`skill-lsp preview` / `catalog` say what the harness does (issue 10, item 4 and its acceptance)."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import REPO, run_cli, write_skill

PLACEHOLDERS = REPO / "capture/cases/placeholders/skills/all-placeholders/SKILL.md"


def test_claude_code_arguments_substitute_as_the_release_does(tmp_path: Path):
    # The capture case's skill, with the acceptance's arguments: `$0` is the first argument,
    # `$1` the second with its quotes removed, `$ARGUMENTS[N]` 0-based (capture: claude-code@2.1.332
    # case placeholders, which ran `foo "b c" d`).
    root = tmp_path / ".claude/skills"
    write_skill(root, "all-placeholders", PLACEHOLDERS.read_text(encoding="utf-8"))
    proc = run_cli("preview", str(root / "all-placeholders"), "--dialect", "claude-code",
                   "--arguments", 'foo "b c"', cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    skill_dir = root / "all-placeholders"
    lines = proc.stdout.split("\n")
    assert lines[0] == f"Base directory for this skill: {skill_dir}"
    assert 'all=foo "b c"' in lines
    assert "zero=foo one=b c two=$2 three=$3" in lines
    assert "idx0=foo idx1=b c idx5=$ARGUMENTS[5]" in lines
    assert "escaped=$ARGUMENTS escaped0=$0" in lines
    assert f"dir={skill_dir}" in lines
    assert "ARGUMENTS:" not in proc.stdout  # the body has placeholders: nothing appended


def test_claude_code_preview_of_agents_skills_says_it_is_never_loaded():
    proc = run_cli("preview", "sample-workspace/.agents/skills/release-notes", "--dialect", "claude-code", cwd=REPO)
    assert proc.returncode == 1
    assert proc.stdout == ""  # no activation the release would never send
    assert "Claude Code 2.1.332 does not read .agents/skills (skills there are never loaded)" in proc.stderr
    as_json = run_cli("preview", "sample-workspace/.agents/skills/release-notes", "--dialect", "claude-code",
                      "--format", "json", cwd=REPO)
    got = json.loads(as_json.stdout)
    assert got["kind"] == "not_listed" and got["text"] == "" and "does not read .agents/skills" in got["reason"]


def test_catalog_lists_skipped_skills_with_the_reason_beside_the_exact_text():
    proc = run_cli("catalog", "sample-workspace", "--dialect", "claude-code", cwd=REPO)
    assert "- api-conventions:" not in proc.stdout  # .agents/skills: not read by Claude Code
    assert ("# skipped by claude-code: sample-workspace/.agents/skills/api-conventions/SKILL.md: "
            "Claude Code 2.1.332 does not read .agents/skills (skills there are never loaded)") in proc.stderr
    got = json.loads(run_cli("catalog", "sample-workspace", "--dialect", "claude-code", "--format", "json",
                             cwd=REPO).stdout)
    skipped = {Path(s["path"]).parent.name: s["reason"] for s in got["skipped"]}
    assert "does not read .agents/skills" in skipped["api-conventions"]
    # A skill folder that is a link into the workspace: read through it, as every release reads it
    # (capture case skill-links).
    assert "linked-outside" not in skipped
    (linked,) = [d for d in got["decisions"] if Path(d["path"]).parent.name == "linked-outside"]
    assert linked["state"] == "listed" and not linked.get("reason")
    assert "- linked-outside: Reached through a symlink from .claude/skills" in proc.stdout
    assert got["text"] == proc.stdout  # stdout is exactly the catalog text
    assert got["verified"] is True and got["proof"].startswith("capture: claude-code@2.1.332")


def test_a_skill_folder_linked_from_outside_the_workspace_is_read_through_the_link(tmp_path: Path):
    """Every release lists and activates it (capture case skill-links): the catalog and the preview read
    it through the link, as they do; the check grades the link by what the targets do with it and
    reports nothing of the file out there. A link out to a sensitive folder stays unread."""
    outside = tmp_path / "elsewhere" / "far"
    outside.mkdir(parents=True)
    (outside / "SKILL.md").write_text("---\nname: far\ndescription: Far away. Use it. \n---\n# x\n", encoding="utf-8")
    secret = tmp_path / "secrets" / "keys"
    secret.mkdir(parents=True)
    (secret / "SKILL.md").write_text("---\nname: keys\ndescription: Keys. Use it.\n---\n# x\n", encoding="utf-8")
    ws = tmp_path / "ws"
    (ws / ".claude/skills").mkdir(parents=True)
    (ws / ".claude/skills/far").symlink_to(outside, target_is_directory=True)
    (ws / ".claude/skills/keys").symlink_to(secret, target_is_directory=True)
    inside = ws / "shared" / "near"
    inside.mkdir(parents=True)
    (inside / "SKILL.md").write_text("---\nname: near\ndescription: Near. Use it.\n---\n# x\n", encoding="utf-8")
    (ws / ".claude/skills/near").symlink_to(Path("../../shared/near"), target_is_directory=True)
    proc = run_cli("catalog", ".", "--dialect", "claude-code", cwd=ws)
    assert "- near: Near. Use it." in proc.stdout and "- far: Far away. Use it." in proc.stdout
    assert "- keys" not in proc.stdout
    assert "not shown here: .claude/skills/far" not in proc.stderr
    assert "not shown here: .claude/skills/keys/SKILL.md" in proc.stderr
    preview = run_cli("preview", "far", "--dialect", "claude-code", cwd=ws)
    assert preview.returncode == 0 and "Base directory for this skill: " in preview.stdout
    assert "# x" in preview.stdout
    check = run_cli("check", ".", "--target", "claude-code", cwd=ws)
    assert "info OUTSIDE_WORKSPACE" in check.stdout and "Claude Code lists the skill through the link" in check.stdout
    assert "TRAILING_WHITESPACE" not in check.stdout  # the description's trailing space is not this workspace's
    assert run_cli("check", ".", "--target", "skill-tool", cwd=ws).returncode == 1  # the skill tool refuses it


def test_a_skill_below_a_root_is_listed_by_the_harnesses_that_search_recursively(tmp_path: Path):
    """Capture case nested-folders: OpenCode and Copilot CLI list `root/group/skill`; Claude Code does not;
    Copilot CLI does not look inside another skill's folder."""
    write_skill(tmp_path / ".claude/skills", "top", "---\nname: top\ndescription: Top. Use it.\n---\n# x\n")
    write_skill(tmp_path / ".claude/skills/group", "deep", "---\nname: deep\ndescription: Deep. Use it.\n---\n# x\n")
    write_skill(tmp_path / ".claude/skills/top", "inner", "---\nname: inner\ndescription: Inner. Use it.\n---\n# x\n")

    def catalog(dialect: str) -> dict:
        return json.loads(run_cli("catalog", ".", "--dialect", dialect, "--format", "json", cwd=tmp_path).stdout)

    opencode = catalog("opencode")
    assert all(f"<name>{n}</name>" in opencode["text"] for n in ("top", "deep", "inner"))
    copilot = catalog("copilot")
    assert "<name>deep</name>" in copilot["text"] and "<name>inner</name>" not in copilot["text"]
    (inner,) = [d for d in copilot["decisions"] if Path(d["path"]).parent.name == "inner"]
    assert inner["state"] == "skipped" and "inside another skill's folder" in inner["reason"]
    claude = catalog("claude-code")
    assert "- top:" in claude["text"] and "- deep:" not in claude["text"]
    (deep,) = [d for d in claude["decisions"] if Path(d["path"]).parent.name == "deep"]
    assert deep["state"] == "not-read" and deep["reason"] == (
        "Claude Code 2.1.332 looks for skill folders in its roots only; this one is 2 folders below .claude/skills")


def test_copilot_catalog_skips_a_description_over_1024_with_the_reason(tmp_path: Path):
    # capture: copilot@1.0.102 case long-description-1100 (the skill is not loaded at all)
    write_skill(tmp_path / ".github/skills", "long", f"---\nname: long\ndescription: {'d' * 1100}\n---\n# x\n")
    write_skill(tmp_path / ".github/skills", "short", "---\nname: short\ndescription: Short. Use it.\n---\n# x\n")
    got = json.loads(run_cli("catalog", ".", "--dialect", "copilot", "--format", "json", cwd=tmp_path).stdout)
    assert "<name>short</name>" in got["text"] and "<name>long</name>" not in got["text"]
    (skip,) = got["skipped"]
    assert skip["name"] == "long" and "over 1,024 UTF-16 code units" in skip["reason"]


def test_findings_appear_beside_the_preview_not_instead():
    proc = run_cli("preview", "sample-workspace/.claude/skills/name-mismatch", "--dialect", "claude-code", cwd=REPO)
    assert proc.returncode == 0 and proc.stdout.startswith("Base directory for this skill: ")
    assert "NAME_MISMATCH" not in proc.stdout and "NAME_MISMATCH" in proc.stderr
    got = json.loads(run_cli("preview", "sample-workspace/.claude/skills/name-mismatch", "--dialect", "claude-code",
                             "--format", "json", cwd=REPO).stdout)
    assert got["kind"] == "ok" and [f["code"] for f in got["findings"]] == ["NAME_MISMATCH"]


def test_unverified_dialects_say_so_first():
    proc = run_cli("preview", "sample-workspace/.agents/skills/api-conventions", "--dialect", "agentskills", cwd=REPO)
    assert proc.stderr.splitlines()[0].startswith("skill-lsp: agentskills activation: documented, not verified")
    got = json.loads(run_cli("preview", "sample-workspace/.agents/skills/api-conventions", "--dialect", "agentskills",
                             "--format", "json", cwd=REPO).stdout)
    assert got["verified"] is False and "client guide" in got["proof"]
    proven = run_cli("preview", "sample-workspace/.agents/skills/api-conventions", "--dialect", "codex", cwd=REPO)
    assert "not verified" not in proven.stderr


def test_preview_by_name_finds_only_what_the_harness_reads():
    # release-notes is in .agents/skills and .claude/skills: Claude Code activates its own root's copy;
    # api-conventions is only in .agents/skills: Claude Code does not know it.
    proc = run_cli("preview", "release-notes", "--workspace", "sample-workspace", "--dialect", "claude-code", cwd=REPO)
    assert proc.returncode == 0 and "/.claude/skills/release-notes" in proc.stdout.split("\n")[0]
    missing = run_cli("preview", "api-conventions", "--workspace", "sample-workspace", "--dialect", "claude-code",
                      cwd=REPO)
    # The nearest name the release would suggest: the declared name with a zero-width space.
    assert missing.returncode == 1 and missing.stdout == "Unknown skill: api-conventions. Did you mean api\u200bconventions?"


def test_claude_code_hands_over_a_file_without_frontmatter_with_its_byte_order_mark(tmp_path: Path):
    """The differential tester (seed 2026, eight activations): a SKILL.md that starts with a byte order
    mark and has no frontmatter block (or one that never closes) is handed over whole, the mark
    included; after a closed frontmatter the mark goes with it (capture case bom-start)."""
    root = tmp_path / ".claude" / "skills"
    for name, text in (("loose", "# Title\n\nBody.\n"), ("empty", ""), ("unclosed", "---\ndescription: d\nbody\n"),
                       ("closed", "---\nname: closed\ndescription: d\n---\nBody.\n")):
        (root / name).mkdir(parents=True)
        (root / name / "SKILL.md").write_bytes(b"\xef\xbb\xbf" + text.encode())
    out = {name: run_cli("preview", name, "--dialect", "claude-code", "--arguments", "a b", cwd=tmp_path).stdout
           for name in ("loose", "empty", "unclosed", "closed")}
    assert out["loose"].endswith("/loose\n\n\ufeff# Title\n\nBody.\n\n\nARGUMENTS: a b")
    assert out["empty"].endswith("/empty\n\n\ufeff\n\nARGUMENTS: a b")
    assert "/unclosed\n\n\ufeff---\ndescription: d\nbody\n" in out["unclosed"]
    assert out["closed"].endswith("/closed\n\nBody.\n\n\nARGUMENTS: a b")


def test_copilot_loads_a_skill_asked_for_in_another_case(tmp_path: Path):
    """The differential tester (seed 2026): Copilot CLI's skill tool loads `Audit-X` when asked for
    `audit-x`, and names it as listed."""
    write_skill(tmp_path / ".github/skills", "audit-x", "---\nname: Audit-X\ndescription: Audits. Use it.\n---\nBody.\n")
    proc = run_cli("preview", "audit-x", "--dialect", "copilot", cwd=tmp_path)
    assert proc.returncode == 0 and proc.stdout.startswith('<skill-context name="Audit-X">\n')


def test_codex_preview_says_when_a_mention_injects_nothing(tmp_path: Path):
    """Codex 0.171.0 injects no skill for `$skill-creator` when a project skill shares the name of
    its system skill (capture case builtin-name-skill-creator), nor for a name two skills hold
    (duplicate-declared-name): the preview shows the skill's text and says so."""
    (tmp_path / ".git").mkdir()
    root = tmp_path / ".agents/skills"
    write_skill(root, "skill-creator", "---\nname: skill-creator\ndescription: Creates skills. Use it.\n---\nBody.\n")
    write_skill(root, "one", "---\nname: twin\ndescription: One. Use it.\n---\nBody.\n")
    write_skill(root, "two", "---\nname: twin\ndescription: Two. Use it.\n---\nBody.\n")
    write_skill(root, "alone", "---\nname: alone\ndescription: Alone. Use it.\n---\nBody.\n")
    proc = run_cli("preview", "skill-creator", "--dialect", "codex", cwd=tmp_path)
    assert proc.stdout.startswith("<skill>\n<name>skill-creator</name>")
    assert "a `$skill-creator` mention injects no skill in Codex 0.171.0: its own system skill" in proc.stderr
    data = json.loads(run_cli("preview", "twin", "--dialect", "codex", "--format", "json", cwd=tmp_path).stdout)
    assert "it lists 2 skills named twin" in data["mention"]
    alone = run_cli("preview", "alone", "--dialect", "codex", cwd=tmp_path)
    assert alone.returncode == 0 and "mention" not in alone.stderr
    # Other harnesses have no such mention: nothing is said.
    assert "mention" not in run_cli("preview", "skill-creator", "--dialect", "claude-code", cwd=tmp_path).stderr


def test_the_body_after_a_closing_fence_with_text_on_its_line(tmp_path: Path):
    """Claude Code's block ends at `---` whatever follows it on the line (`--- x`: probed on the
    release, it hands over `x` and the lines after); OpenCode's gray-matter, at `---` followed by
    anything (`---# Title`). skill-lsp's own split takes neither for a closing line."""
    for folder, text in (("five", "---\nname: five\ndescription: Demo five\n--- x\nBody five.\n"),
                         ("title", "---\nname: title\ndescription: Demo\n---# Title\nBody text.\n")):
        (tmp_path / ".claude" / "skills" / folder).mkdir(parents=True)
        (tmp_path / ".claude" / "skills" / folder / "SKILL.md").write_text(text, encoding="utf-8")
    five = run_cli("preview", "five", "--dialect", "claude-code", cwd=tmp_path)
    assert five.stdout.endswith("/five\n\nx\nBody five.\n"), five.stdout
    title = run_cli("preview", "title", "--dialect", "opencode", cwd=tmp_path)
    assert "# Skill: title\n\n# Title\nBody text.\n\nBase directory" in title.stdout, title.stdout
