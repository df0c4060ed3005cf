"""Issue 11 (precision): findings and command-line behaviour pinned with minimal skills of our own."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import run_cli, skill_text, write_skill


def _codes(proc) -> list[str]:
    return [f["code"] for f in json.loads(proc.stdout)["findings"]]


def test_flow_scalars_with_colons_are_valid_yaml(tmp_path: Path):
    # ruamel's libyaml rejected ':' inside flow plain scalars; PyYAML and js-yaml accept them.
    extra = "links: [http://example.com]\ntags: [a:b]\nx: {k: a:b}"
    write_skill(tmp_path / ".agents/skills", "flow", skill_text(name="flow", extra=extra))
    proc = run_cli("check", ".", "--format", "json", "--profile", "agentskills", cwd=tmp_path)
    assert "INVALID_FRONTMATTER" not in _codes(proc)
    assert json.loads(proc.stdout)["summary"]["skills"] == 1
    catalog = run_cli("catalog", ".", cwd=tmp_path)
    assert "flow" in catalog.stdout
    assert run_cli("preview", "flow", cwd=tmp_path).returncode == 0


def test_a_case_variant_of_skill_md_is_an_error_not_zero_skills(tmp_path: Path):
    write_skill(tmp_path, "demo", skill_text(), filename="SKILL.MD")
    for target in (".", "demo", "demo/SKILL.MD"):
        proc = run_cli("check", target, "--color", "never", cwd=tmp_path)
        assert proc.returncode == 1, target
        assert "error SKILL_FILE_CASE 'SKILL.MD' is not 'SKILL.md'" in proc.stdout
        assert proc.stdout.splitlines()[-1] == "1 error in 1 of 1 skill"


def test_a_lowercase_skill_md_is_read_and_reported_where_a_target_never_finds_it(tmp_path: Path):
    """skills-ref reads `skill.md`; none of the five captured releases does (capture case
    skill-file-names): a plugin's `skills/transcribe/skill.md` in an unseen repository was silent."""
    write_skill(tmp_path / ".claude/skills", "low", skill_text(name="low"), filename="skill.md")
    proc = run_cli("check", ".", "--color", "never", cwd=tmp_path)
    assert proc.returncode == 1 and "1:1: error SKILL_FILE_CASE 'skill.md' is not 'SKILL.md'" in proc.stdout
    assert run_cli("check", ".", "--target", "agentskills", cwd=tmp_path).stdout.startswith("no findings")
    write_skill(tmp_path / ".claude/skills", "up", skill_text(name="up"))
    assert "up/SKILL.md" not in run_cli("check", ".", cwd=tmp_path).stdout


def test_every_option_and_path_has_help_and_every_command_shows_examples():
    import argparse  # noqa: PLC0415

    from skill_lsp.cli import build_parser  # noqa: PLC0415

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    missing = [(name, a.dest) for name, sp in sub.choices.items() for a in sp._actions
               if not a.help and not isinstance(a, argparse._HelpAction)]
    assert missing == []
    for name in sub.choices:
        assert "examples:" in run_cli(name, "--help").stdout, name


def test_fix_prints_what_it_fixed_per_file_and_in_total(tmp_path: Path):
    root = tmp_path / ".agents/skills"
    write_skill(root, "one", skill_text(name="one", body="# T \nx \n"))
    write_skill(root, "two", skill_text(name="two", body="[a](" + str(root / "two" / "SKILL.md") + ")\n"))
    write_skill(root, "clean", skill_text(name="clean"))
    proc = run_cli("check", "--fix", ".", "--color", "never", cwd=tmp_path)
    lines = proc.stdout.splitlines()
    assert ".agents/skills/one/SKILL.md: fixed 2 findings (TRAILING_WHITESPACE x2)" in lines
    assert ".agents/skills/two/SKILL.md: fixed 1 finding (ABSOLUTE_LINK)" in lines
    assert "fixed 3 findings in 2 files" in lines
    assert proc.returncode == 0


def test_fix_diff_exits_1_while_fixes_are_pending(tmp_path: Path):
    write_skill(tmp_path / ".agents/skills", "one", skill_text(name="one", body="# T \n"))
    proc = run_cli("check", "--fix", "--diff", ".", cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stdout.startswith("--- a/.agents/skills/one/SKILL.md")
    assert "would fix 1 finding in 1 file" in proc.stderr
    run_cli("check", "--fix", ".", cwd=tmp_path)
    clean = run_cli("check", "--fix", "--diff", ".", cwd=tmp_path)
    assert (clean.returncode, clean.stdout) == (0, "")


def test_diff_without_fix_is_a_usage_error(tmp_path: Path):
    proc = run_cli("check", "--diff", ".", cwd=tmp_path)
    assert proc.returncode == 2 and proc.stdout == ""
    assert "--diff needs --fix" in proc.stderr


def test_missing_config_or_path_stops_before_linting(tmp_path: Path):
    write_skill(tmp_path / ".agents/skills", "one", skill_text(name="one", body="# T \n"))
    for args, error in ((("--config", "nope.toml", "."), "config file not found: nope.toml"),
                        (("nope",), "no such file or folder: nope"),
                        ((".", "nope"), "no such file or folder: nope")):
        proc = run_cli("check", *args, cwd=tmp_path)
        assert (proc.returncode, proc.stdout) == (2, ""), args
        assert proc.stderr == f"skill-lsp: {error}\n"
    proc = run_cli("catalog", "nope", cwd=tmp_path)
    assert (proc.returncode, proc.stdout, proc.stderr) == (2, "", "skill-lsp: no such file or folder: nope\n")


def test_preview_by_name_finds_every_skill_catalog_lists(tmp_path: Path):
    for plugin, name in (("p1", "alpha"), ("p2", "beta")):
        write_skill(tmp_path / "plugins" / plugin / "skills", name, skill_text(name=name))
    listed = [e["name"] for e in json.loads(run_cli("catalog", ".", "--format", "json", cwd=tmp_path).stdout)["entries"]]
    assert listed == ["alpha", "beta"]
    for name in listed:
        proc = run_cli("preview", name, cwd=tmp_path)
        assert proc.returncode == 0, proc.stdout
        assert f'<skill name="{name}"' in proc.stdout or name in proc.stdout


def test_force_color_is_honoured_and_no_color_wins(tmp_path: Path):
    write_skill(tmp_path / ".agents/skills", "one", skill_text(name="one", body="# T \n"))
    env = {"FORCE_COLOR": "1", "NO_COLOR": ""}
    assert "\033[" in run_cli("check", ".", cwd=tmp_path, env=env).stdout
    assert "\033[" not in run_cli("check", ".", cwd=tmp_path, env={"FORCE_COLOR": "1", "NO_COLOR": "1"}).stdout
    assert "\033[" not in run_cli("check", ".", "--color", "never", cwd=tmp_path, env=env).stdout
