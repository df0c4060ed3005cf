"""`skill-lsp check` as a subprocess (`python -m skill_lsp`): formats, exit codes, --fix, --profile, targets."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from helpers import REPO, bare_env, run_cli, skill_text, write_skill
from skill_lsp.engine.findings import RULES

TEXT_LINE = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning|info|hint) "
                       r"(?P<code>[A-Z_]+) (?P<msg>.+)$")


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    """A workspace with one clean skill, one with an error and one with a warning only."""
    root = tmp_path / ".agents/skills"
    write_skill(root, "clean", skill_text(name="clean"))
    write_skill(root, "broken", "---\nname: broken\n---\n# no description\n")
    write_skill(root, "warned", skill_text(name="warned", body="# Title\n[x](gone.md)\n"))
    return tmp_path


def only_warning_ws(tmp_path: Path) -> Path:
    write_skill(tmp_path / ".agents/skills", "warned", skill_text(name="warned", body="# Title\n[x](gone.md)\n"))
    return tmp_path


# --------------------------------------------------------------------- formats


def test_text_format_lines_and_summary(ws: Path):
    proc = run_cli("check", ".", "--color", "never", cwd=ws)
    lines = proc.stdout.splitlines()
    assert proc.stderr == ""
    found = [TEXT_LINE.match(line) for line in lines[:-1]]
    assert all(found), lines
    got = [(m["path"], int(m["line"]), int(m["col"]), m["sev"], m["code"]) for m in found if m]
    assert got == [
        (".agents/skills/broken/SKILL.md", 1, 1, "error", "MISSING_FIELD"),
        (".agents/skills/warned/SKILL.md", 6, 5, "warning", "BROKEN_LINK"),
    ]
    assert lines[-1] == "1 error, 1 warning in 2 of 3 skills"


def test_text_format_is_coloured_only_when_asked(ws: Path):
    assert "\033[" not in run_cli("check", ".", cwd=ws).stdout  # not a TTY
    assert "\033[31merror\033[0m" in run_cli("check", ".", "--color", "always", cwd=ws).stdout


def test_clean_summary(tmp_path: Path):
    write_skill(tmp_path / ".agents/skills", "clean", skill_text(name="clean"))
    proc = run_cli("check", ".", cwd=tmp_path)
    assert proc.stdout == "no findings in 1 skill\n"
    assert proc.returncode == 0


def test_json_format_schema(ws: Path):
    proc = run_cli("check", ".", "--format", "json", cwd=ws)
    data = json.loads(proc.stdout)
    assert set(data) == {"version", "summary", "skills", "findings"}
    # "fixable": findings by the best fix they have (the inserted description is a placeholder;
    # a broken link has none).
    assert data["summary"] == {"error": 1, "warning": 1, "info": 0, "hint": 0, "skills": 3,
                               "skills_with_findings": 2,
                               "fixable": {"safe": 0, "unsafe": 1, "display-only": 0}}
    assert {tuple(sorted(s)) for s in data["skills"]} == {("name", "path", "root", "rootIndex")}
    first = data["findings"][0]
    # "data", "related" and "fixes" appear only when they carry something.
    assert set(first) == {"path", "code", "severity", "message", "line", "column", "endLine", "endColumn",
                          "range", "data", "fixes"}
    (fix,) = first["fixes"]
    assert (fix["title"], fix["applicability"]) == ("Insert 'description'", "unsafe")
    assert fix["edits"][0]["newText"].startswith("description: ")
    assert data["findings"][1]["code"] == "BROKEN_LINK" and "fixes" not in data["findings"][1]
    assert (first["code"], first["severity"], first["line"], first["column"]) == ("MISSING_FIELD", "error", 1, 1)
    assert first["range"] == {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 3}}
    assert first["data"]["field"] == "description"
    assert Path(first["path"]).is_absolute()


def test_json_lists_a_safe_fix_with_its_edit(tmp_path: Path):
    write_skill(tmp_path / ".agents/skills", "demo", skill_text(body="# Demo\nText   \n"))
    data = json.loads(run_cli("check", ".", "--format", "json", cwd=tmp_path).stdout)
    (f,) = data["findings"]
    assert f["fixes"] == [{"title": "Trim trailing whitespace", "applicability": "safe",
                           "edits": [{"range": f["range"], "newText": ""}]}]
    assert data["summary"]["fixable"] == {"safe": 1, "unsafe": 0, "display-only": 0}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_json_fixes_of_worker_and_cross_skill_findings(tmp_path: Path, jobs: str):
    # Fixes built in the worker travel as positions (a fix edit past an astral character: UTF-16),
    # an UNKNOWN_SKILL fix is built afterwards from the text kept for a skill with mentions;
    # `-j 2` checks in worker processes.
    root = tmp_path / ".agents/skills"
    write_skill(root, "deploy", skill_text(name="deploy", body="# Deploy\n\U0001f600 x \n"))
    write_skill(root, "caller", skill_text(name="caller", body="# Caller\nThen run `/deplyo`.\n"))
    write_skill(root, "nodesc", "---\nname: nodesc\n---\n# x\n")
    data = json.loads(run_cli("check", ".", "--format", "json", "-j", jobs, "--fail-on", "never", cwd=tmp_path).stdout)
    by_code = {f["code"]: f for f in data["findings"]}
    trail = by_code["TRAILING_WHITESPACE"]
    assert trail["range"]["start"] == {"line": 5, "character": 4}
    assert trail["fixes"] == [{"title": "Trim trailing whitespace", "applicability": "safe",
                               "edits": [{"range": trail["range"], "newText": ""}]}]
    unknown = by_code["UNKNOWN_SKILL"]
    (fix,) = unknown["fixes"]
    assert fix["applicability"] == "unsafe" and fix["edits"] == [{"range": unknown["range"], "newText": "deploy"}]
    assert unknown["range"]["start"]["line"] == 5
    # An edit away from its finding's range: its position travels too.
    (insert,) = by_code["MISSING_FIELD"]["fixes"]
    assert insert["edits"][0]["range"] == {"start": {"line": 2, "character": 0}, "end": {"line": 2, "character": 0}}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_json_lists_the_fix_of_an_unused_suppression_whatever_the_skill_mentions(tmp_path: Path, jobs: str):
    # UNUSED_SUPPRESSION is found once every finding is known, after the workers: its fix is built
    # from the text the worker sends for a skill with suppressions. It was listed only for a skill
    # that also mentioned another (the text was kept for the mention's sake).
    root = tmp_path / ".agents/skills"
    for name, body in (("plain", "# Plain\n"), ("caller", "# Caller\nThen run `/plain`.\n")):
        write_skill(root, name, f"---\nname: {name}  # skill-lsp: ignore[NAME_MISMATCH]\n"
                                "description: Does a thing. Use when testing.\n---\n" + body)
    data = json.loads(run_cli("check", ".", "--format", "json", "-j", jobs, "--fail-on", "never", cwd=tmp_path).stdout)
    unused = [f for f in data["findings"] if f["code"] == "UNUSED_SUPPRESSION"]
    assert len(unused) == 2
    for f in unused:
        (fix,) = f["fixes"]
        assert fix["applicability"] == "safe" and fix["title"] == "Remove the unused suppression"


def test_json_range_is_utf16_and_columns_are_code_points(tmp_path: Path):
    write_skill(tmp_path / ".agents/skills", "demo", skill_text(body="😀 x \n"))
    data = json.loads(run_cli("check", ".", "--format", "json", cwd=tmp_path).stdout)
    (f,) = data["findings"]
    assert (f["line"], f["column"]) == (5, 4)
    assert f["range"]["start"] == {"line": 4, "character": 4}


# U+FFFF is the last one-unit character of UTF-16; U+10000 and the emoji take two units each.
WIDE_BODY = "\uffff x \n\U00010000 y \n😀😀 [a](/abs.md)\n"
# (code, 0-based line, UTF-16 start, UTF-16 end, 1-based code point column)
WIDE_FINDINGS = [
    ("TRAILING_WHITESPACE", 4, 3, 4, 4),
    ("TRAILING_WHITESPACE", 5, 4, 5, 4),
    ("ABSOLUTE_LINK", 6, 9, 16, 8),
]


def test_json_ranges_count_utf16_units_around_the_bmp_edge(tmp_path: Path):
    write_skill(tmp_path / ".agents/skills", "demo", skill_text(body=WIDE_BODY))
    data = json.loads(run_cli("check", ".", "--format", "json", cwd=tmp_path).stdout)
    got = [(f["code"], f["range"]["start"]["line"], f["range"]["start"]["character"],
            f["range"]["end"]["character"], f["column"]) for f in data["findings"]]
    assert got == WIDE_FINDINGS
    assert all(f["range"]["end"]["line"] == f["range"]["start"]["line"] for f in data["findings"])


def test_sarif_columns_count_utf16_units_around_the_bmp_edge(tmp_path: Path):
    write_skill(tmp_path / ".agents/skills", "demo", skill_text(body=WIDE_BODY))
    run = json.loads(run_cli("check", ".", "--format", "sarif", cwd=tmp_path).stdout)["runs"][0]
    assert run["columnKind"] == "utf16CodeUnits"
    got = [(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]) for r in run["results"]]
    assert got == [(code, {"startLine": line + 1, "startColumn": s + 1, "endLine": line + 1, "endColumn": e + 1})
                   for code, line, s, e, _ in WIDE_FINDINGS]


def test_name_with_spaces_around_it_matches_its_folder(tmp_path: Path):
    write_skill(tmp_path / ".agents/skills", "demo", skill_text(name="'  demo  '"))
    proc = run_cli("check", ".", "--profile", "agentskills", cwd=tmp_path)
    assert (proc.returncode, proc.stdout) == (0, "no findings in 1 skill\n")
    write_skill(tmp_path / "elsewhere/.agents/skills", "other", skill_text(name="'  demo  '"))
    proc = run_cli("check", ".", "--profile", "agentskills", "--format", "json", cwd=tmp_path / "elsewhere")
    assert [(Path(f["path"]).parent.name, f["code"]) for f in json.loads(proc.stdout)["findings"]] == [
        ("other", "NAME_MISMATCH")]


def test_sarif_format_structure(ws: Path):
    proc = run_cli("check", ".", "--format", "sarif", cwd=ws)
    doc = json.loads(proc.stdout)
    assert doc["version"] == "2.1.0"
    assert doc["$schema"].endswith("sarif-2.1.0.json")
    (run,) = doc["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "skill-lsp"
    assert [r["id"] for r in driver["rules"]] == list(RULES)
    assert all(r["helpUri"].endswith("#" + r["id"].lower()) for r in driver["rules"])
    assert run["columnKind"] == "utf16CodeUnits"
    results = run["results"]
    assert [(r["ruleId"], r["level"]) for r in results] == [("MISSING_FIELD", "error"),
                                                           ("BROKEN_LINK", "warning")]
    loc = results[0]["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == ".agents/skills/broken/SKILL.md"
    assert loc["region"] == {"startLine": 1, "startColumn": 1, "endLine": 1, "endColumn": 4}


def test_sarif_related_locations_for_shadowing(tmp_path: Path):
    write_skill(tmp_path / ".agents/skills", "demo", skill_text())
    write_skill(tmp_path / ".claude/skills", "demo", skill_text())
    doc = json.loads(run_cli("check", ".", "--format", "sarif", cwd=tmp_path).stdout)
    (result,) = doc["runs"][0]["results"]
    assert result["ruleId"] == "SHADOWED"
    (related,) = result["relatedLocations"]
    assert related["physicalLocation"]["artifactLocation"]["uri"] == ".agents/skills/demo/SKILL.md"


def test_github_format_annotations(ws: Path):
    proc = run_cli("check", ".", "--format", "github", cwd=ws)
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("::error file=.agents/skills/broken/SKILL.md,line=1,col=1,endLine=1,endColumn=4,"
                               "title=MISSING_FIELD::frontmatter missing required field 'description'; ")
    assert lines[1].startswith("::warning file=.agents/skills/warned/SKILL.md,line=6,col=5,")
    assert lines[-1] == "skill-lsp: 1 errors, 1 warnings in 3 skills"


def test_github_escapes_property_and_message_characters(tmp_path: Path):
    write_skill(tmp_path / ".agents/skills", "a,b", skill_text(name="a-b", extra="license: 100%"))
    lines = run_cli("check", ".", "--format", "github", cwd=tmp_path).stdout.splitlines()
    assert all(line.startswith("::") for line in lines[:-1])
    assert all("file=.agents/skills/a%2Cb/SKILL.md," in line for line in lines[:-1])
    license_line = next(line for line in lines if "UNKNOWN_LICENSE" in line)
    assert 'license "100%25"' in license_line


# --------------------------------------------------------------------- exit codes


def test_exit_0_when_clean(tmp_path: Path):
    write_skill(tmp_path / ".agents/skills", "clean", skill_text(name="clean"))
    assert run_cli("check", ".", cwd=tmp_path).returncode == 0


def test_exit_1_on_errors_by_default(ws: Path):
    assert run_cli("check", ".", cwd=ws).returncode == 1


def test_warnings_alone_exit_0_by_default_and_1_with_fail_on_warning(tmp_path: Path):
    only_warning_ws(tmp_path)
    assert run_cli("check", ".", cwd=tmp_path).returncode == 0
    assert run_cli("check", ".", "--fail-on", "warning", cwd=tmp_path).returncode == 1
    assert run_cli("check", ".", "--fail-on", "info", cwd=tmp_path).returncode == 1


def test_fail_on_never_exits_0_with_errors(ws: Path):
    assert run_cli("check", ".", "--fail-on", "never", cwd=ws).returncode == 0


def test_exit_2_on_usage_error(tmp_path: Path):
    proc = run_cli("check", "--format", "xml", cwd=tmp_path)
    assert proc.returncode == 2
    assert "invalid choice" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_exit_2_without_a_command(tmp_path: Path):
    assert run_cli(cwd=tmp_path).returncode == 2


def test_exit_2_on_invalid_config_naming_the_key(tmp_path: Path):
    write_skill(tmp_path / ".agents/skills", "clean", skill_text(name="clean"))
    (tmp_path / ".skill-lsp.toml").write_text('profile = "nope"\n[severity]\nNOT_A_CODE = "error"\n')
    proc = run_cli("check", ".", cwd=tmp_path)
    assert proc.returncode == 2
    assert "invalid 'profile'" in proc.stderr
    assert "NOT_A_CODE" in proc.stderr
    assert proc.stdout == ""  # a configuration error: nothing checked, no summary
    assert "configuration error: nothing was checked" in proc.stderr


def test_exit_2_on_missing_config_file_and_missing_path(tmp_path: Path):
    proc = run_cli("check", ".", "--config", "nope.toml", cwd=tmp_path)
    assert proc.returncode == 2 and "config file not found: nope.toml" in proc.stderr
    proc = run_cli("check", "missing-dir", cwd=tmp_path)
    assert proc.returncode == 2 and "no such file or folder: missing-dir" in proc.stderr


def test_config_from_pyproject_applies(tmp_path: Path):
    only_warning_ws(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.skill-lsp.severity]\nBROKEN_LINK = "error"\n')
    proc = run_cli("check", ".", cwd=tmp_path)
    assert proc.returncode == 1
    assert ": error BROKEN_LINK " in proc.stdout


def test_never_a_traceback_on_hostile_input(tmp_path: Path):
    root = tmp_path / ".agents/skills"
    write_skill(root, "nul", b"---\nname: nul\x00\n---\n")
    write_skill(root, "utf16", "---\nname: utf16\n---\n".encode("utf-16"))
    write_skill(root, "bomb", "---\na: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
                "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\n---\n")
    write_skill(root, "deep", "---\nx: " + "[" * 500 + "]" * 500 + "\n---\n")
    write_skill(root, "date", "---\nname: date\ndescription: d\nwhen: 2025-13-45\n---\n")
    (root / "dir" / "SKILL.md").mkdir(parents=True)
    proc = run_cli("check", ".", "--format", "json", cwd=tmp_path)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert json.loads(proc.stdout)["summary"]["skills"] == 6


# --------------------------------------------------------------------- targets and --profile


def test_path_to_a_skill_md_file(tmp_path: Path):
    p = write_skill(tmp_path, "demo", skill_text(body="[x](/abs)\n"))
    proc = run_cli("check", str(p), "--format", "json", cwd=tmp_path)
    data = json.loads(proc.stdout)
    assert [s["path"] for s in data["skills"]] == [str(p)]
    assert [f["code"] for f in data["findings"]] == ["ABSOLUTE_LINK"]


def test_path_to_a_skill_folder(tmp_path: Path):
    p = write_skill(tmp_path / "x", "demo", skill_text(name="other"))
    data = json.loads(run_cli("check", str(p.parent), "--format", "json", cwd=tmp_path).stdout)
    assert [f["code"] for f in data["findings"]] == ["NAME_MISMATCH"]
    assert data["skills"][0]["rootIndex"] == -1


def test_workspace_path_finds_nested_plugin_skills(tmp_path: Path):
    write_skill(tmp_path / ".agents/skills", "demo", skill_text())
    write_skill(tmp_path / "plugins/p/skills", "plugin-skill", skill_text(name="plugin-skill"))
    write_skill(tmp_path / "node_modules/pkg", "ignored", skill_text(name="ignored"))
    data = json.loads(run_cli("check", str(tmp_path), "--format", "json", cwd=REPO).stdout)
    assert sorted((Path(s["path"]).parent.name, s["rootIndex"]) for s in data["skills"]) == [
        ("demo", 0), ("plugin-skill", -1)]


def test_profile_option_changes_the_rules(tmp_path: Path):
    write_skill(tmp_path / ".agents/skills", "demo", skill_text(extra="author: x"))
    proc = run_cli("check", ".", "--fail-on", "warning", cwd=tmp_path)
    assert proc.returncode == 0 and "UNKNOWN_FIELD" not in proc.stdout
    proc = run_cli("check", ".", "--profile", "agentskills", cwd=tmp_path)
    assert proc.returncode == 1 and ": error UNKNOWN_FIELD " in proc.stdout


def test_profile_option_overrides_the_config(tmp_path: Path):
    write_skill(tmp_path / ".agents/skills", "技能", skill_text(name="技能"))
    (tmp_path / ".skill-lsp.toml").write_text('profile = "skill-tool"\n')
    assert run_cli("check", ".", cwd=tmp_path).returncode == 1
    assert run_cli("check", ".", "--profile", "agentskills", cwd=tmp_path).returncode == 0


# --------------------------------------------------------------------- --fix


FIXABLE = "---\nname: demo\ndescription: Use when: asked\n---\n# T  \t\n"
FIXED = '---\nname: demo\ndescription: "Use when: asked"\n---\n# T\n'


def test_fix_rewrites_files_and_reports_what_is_left(tmp_path: Path):
    p = write_skill(tmp_path / ".agents/skills", "demo", FIXABLE)
    proc = run_cli("check", ".", "--fix", cwd=tmp_path)
    assert p.read_text() == FIXED
    assert proc.returncode == 0
    assert proc.stdout == (".agents/skills/demo/SKILL.md: fixed 2 findings (INVALID_FRONTMATTER, TRAILING_WHITESPACE)\n"
                           "fixed 2 findings in 1 file\n"
                           "no findings in 1 skill\n")


def test_fix_keeps_bom_and_crlf(tmp_path: Path):
    p = write_skill(tmp_path / ".agents/skills", "demo", ("\ufeff" + FIXABLE.replace("\n", "\r\n")).encode())
    run_cli("check", ".", "--fix", cwd=tmp_path)
    assert p.read_bytes() == ("\ufeff" + FIXED.replace("\n", "\r\n")).encode()


def test_fix_diff_prints_a_unified_diff_and_writes_nothing(tmp_path: Path):
    p = write_skill(tmp_path / ".agents/skills", "demo", FIXABLE)
    proc = run_cli("check", ".", "--fix", "--diff", cwd=tmp_path)
    assert p.read_text() == FIXABLE
    assert proc.returncode == 1  # fixes pending, as `ruff --diff`
    assert proc.stdout == (
        "--- a/.agents/skills/demo/SKILL.md\n"
        "+++ b/.agents/skills/demo/SKILL.md\n"
        "@@ -1,5 +1,5 @@\n"
        " ---\n"
        " name: demo\n"
        "-description: Use when: asked\n"
        '+description: "Use when: asked"\n'
        " ---\n"
        "-# T  \t\n"
        "+# T\n"
    )


def test_fix_applies_fixes_that_show_only_after_a_first_fix(tmp_path: Path):
    # The camelCase key is reported only once the unquoted colon no longer breaks the YAML.
    p = write_skill(tmp_path / ".agents/skills", "demo",
                    "---\nname: demo\ndescription: Use when: asked\nallowedTools: Read\n---\n# T\n")
    proc = run_cli("check", ".", "--fix", cwd=tmp_path)
    assert p.read_text() == '---\nname: demo\ndescription: "Use when: asked"\nallowed-tools: Read\n---\n# T\n'
    assert proc.returncode == 0 and proc.stdout.endswith("\nno findings in 1 skill\n")
    again = run_cli("check", ".", "--fix", "--diff", cwd=tmp_path)
    assert (again.returncode, again.stdout) == (0, "")


def test_fix_never_rewrites_an_undecodable_file(tmp_path: Path):
    raw = b"---\nname: demo\ndescription: caf\xe9 \n---\n"
    p = write_skill(tmp_path / ".agents/skills", "demo", raw)
    run_cli("check", ".", "--fix", cwd=tmp_path)
    assert p.read_bytes() == raw


# --------------------------------------------------------------------- startup


def test_check_never_imports_pygls_or_lsprotocol(tmp_path: Path):
    write_skill(tmp_path / ".agents/skills", "demo", skill_text(body="[x](/abs) \n"))
    code = (
        "import sys\n"
        "from skill_lsp.cli import main\n"
        "for fmt in ('text', 'json', 'sarif', 'github'):\n"
        "    main(['check', '.', '--format', fmt, '--fix', '--diff'])\n"
        "    main(['check', '.', '--format', fmt])\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('pygls', 'lsprotocol'))\n"
        "sys.stderr.write('LOADED=' + ','.join(bad) + '\\n')\n"
    )
    import subprocess
    import sys

    env_proc = run_cli("--version", cwd=tmp_path)  # sanity: the module runs at all
    assert env_proc.returncode == 0
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=60,
                          env=bare_env(PATH=""))
    assert "LOADED=\n" in proc.stderr, proc.stderr


def test_check_import_time_has_no_lsp_modules(tmp_path: Path):
    write_skill(tmp_path / ".agents/skills", "demo", skill_text())
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "skill_lsp", "check", "."], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60, env=bare_env())
    assert proc.returncode == 0
    imported = {line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines() if "|" in line}
    assert "skill_lsp.engine.workspace" in imported
    assert not {m for m in imported if m.split(".")[0] in ("pygls", "lsprotocol")}


# Modules a one-skill `check` of a plain skill must not load: each is needed only by a run that
# meets what it is for (a config file, a misspelt key, a body whose links need the Markdown
# parse, a git repository, a frontmatter the simple reader cannot take, many skills, a finding
# with fixes); records are built without `dataclasses` (and its `inspect`), annotations need no
# `typing` (engine/datarecord.py).
HEAVY_FOR_ONE_SKILL = ("pygls", "lsprotocol", "rapidfuzz", "yaml", "ruamel", "markdown_it", "pyromark", "tomllib",
                       "difflib", "subprocess", "tempfile", "shutil", "urllib", "concurrent", "multiprocessing",
                       "importlib.resources", "skill_lsp.engine.rules.codex_openai_yaml",
                       "skill_lsp.engine.rules.arguments", "skill_lsp.engine.fixes", "dataclasses", "inspect",
                       "typing", "threading", "json")


def test_one_skill_check_imports_only_what_it_needs(tmp_path: Path):
    folder = tmp_path / ".claude/skills/release-notes"
    (folder / "references").mkdir(parents=True)
    (folder / "references/FORMAT.md").write_text("# Format\n", encoding="utf-8")
    (folder / "SKILL.md").write_text(
        "---\nname: release-notes\ndescription: Drafts release notes from merged pull requests. Use when "
        "preparing a release.\nlicense: MIT\n---\n\n# Release notes\n\nRead [the format](references/FORMAT.md).\n\n"
        "```sh\ngit log --merges --oneline\n```\n", encoding="utf-8")
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "skill_lsp", "check", "--format", "json", "."],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60,
                          env=bare_env(PATH=""))
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert json.loads(proc.stdout)["summary"]["skills"] == 1
    imported = {line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines() if "|" in line}
    assert "skill_lsp.engine.rules.files" in imported  # the check ran its rules
    assert not {m for m in imported for h in HEAVY_FOR_ONE_SKILL if m == h or m.startswith(h + ".")}
    # --version, --help and a mistyped command build no subcommand's options, so load no engine.
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "skill_lsp", "--version"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60, env=bare_env())
    assert proc.returncode == 0 and not [line for line in proc.stderr.splitlines() if "skill_lsp.engine" in line]


@pytest.mark.parametrize("options", [[], ["--no-cache"]])
def test_parallel_workers_report_exactly_what_a_single_process_reports(options: list[str]):
    """Without the cache the workers start on the skills the walk finds while it goes on."""
    import subprocess
    import sys

    def run(jobs: str) -> str:
        return subprocess.run([sys.executable, "-m", "skill_lsp", "check", "--format", "json", "--jobs", jobs,
                               *options, "sample-workspace"], capture_output=True, text=True, cwd=REPO).stdout

    assert run("1") == run("2")


def test_early_checks_keep_only_what_the_finished_walk_confirms(monkeypatch):
    """A skill the walk named early with another location, or not at all, is checked again; one it
    named and the inventory drops is not reported."""
    from skill_lsp.commands.check import EarlyChecks
    from skill_lsp.engine.config import Settings
    from skill_lsp.engine.datarecord import replace
    from skill_lsp.engine.discover import discover
    from skill_lsp.engine.workspace import check_job

    monkeypatch.setattr(EarlyChecks, "CHUNK", 2)
    settings = Settings()
    early = EarlyChecks(2, fixes=True)
    try:
        found = discover(str(REPO / "sample-workspace"), settings, early=lambda loc: early(loc, settings)).all
        assert len(found) > 4 and early.pool is not None and len(early.sent) >= 2
        moved = replace(found[1], root_index=found[1].root_index + 7)
        final = [found[0], moved, *found[3:]]  # found[2] dropped
        extra = replace(found[2], path=found[2].path + ".twin")  # never named early
        got = early.finish([*final, extra], settings)
    finally:
        early.close()
    assert [r.location for r in got] == [*final, extra]
    for r, loc in zip(got, [*final, extra], strict=True):
        assert r.findings == check_job((loc, settings, True)).findings


@pytest.mark.parametrize("root", ["sample-workspace", "corpus"])
def test_json_findings_written_in_the_worker_read_as_the_report_writes_them(root: str, monkeypatch):
    """The worker writes each finding's JSON from the whole text (``findingjson.prerendered``); the
    report writes those it gets without (cross-skill findings, related information in other files)
    from the positions kept. Both writers give the same report, byte for byte."""
    import contextlib  # noqa: PLC0415
    import io  # noqa: PLC0415

    from helpers import corpus  # noqa: PLC0415
    from skill_lsp import cli  # noqa: PLC0415
    from skill_lsp.engine import findingjson  # noqa: PLC0415

    path = Path(__file__).resolve().parents[2] / "sample-workspace" if root == "sample-workspace" else corpus()

    def report() -> str:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            cli.main(["check", "--format", "json", "--no-cache", "--jobs", "1", "--fail-on", "never", str(path)])
        return out.getvalue()

    rendered: list[int] = []
    real = findingjson.prerendered

    def counted(*args):  # noqa: ANN002, ANN202
        got = real(*args)
        rendered.append(len(got))
        return got

    monkeypatch.setattr(findingjson, "prerendered", counted)
    written = report()
    assert sum(rendered) > 20  # the workers wrote findings
    monkeypatch.setattr(findingjson, "prerendered", lambda *args: [])
    assert report() == written  # the report wrote every one
