"""The JSON Schema of `.skill-lsp.toml`: generated from config.KEYS, shipped in the package,
accepting the sample workspace's config and rejecting broken ones as the loader does."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from helpers import REPO, require, run_cli, write_skill
from skill_lsp.engine.config import KEYS, RETIRED_KEYS
from skill_lsp.engine.config_schema import build

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

SHIPPED = REPO / "src/skill_lsp/schemas/skill-lsp.schema.json"


def validator() -> jsonschema.Draft7Validator:
    schema = json.loads(SHIPPED.read_text(encoding="utf-8"))
    jsonschema.Draft7Validator.check_schema(schema)
    return jsonschema.Draft7Validator(schema)


def messages(toml: str) -> list[str]:
    return sorted(e.message for e in validator().iter_errors(tomllib.loads(toml)))


def test_the_shipped_file_is_the_generator_output_and_the_cli_prints_it():
    proc = run_cli("schema", "config")
    assert proc.returncode == 0
    assert proc.stdout == SHIPPED.read_text(encoding="utf-8") == json.dumps(build(), ensure_ascii=False, indent=2) + "\n"
    # The frontmatter schema stays the default.
    assert json.loads(run_cli("schema").stdout)["title"] == "Agent Skill frontmatter (SKILL.md)"
    assert run_cli("schema", "frontmatter").stdout == run_cli("schema").stdout


def test_every_setting_is_in_the_schema_with_its_description():
    props = build()["properties"]
    for key in KEYS:
        assert props[key.name]["description"] == key.description
    assert set(props) == {k.name for k in KEYS} | {k for k in RETIRED_KEYS if "-" in k} | {"tool"}


def test_the_sample_workspace_config_is_valid_and_names_the_schema():
    text = (REPO / "sample-workspace/.skill-lsp.toml").read_text(encoding="utf-8")
    assert text.startswith("#:schema ../src/skill_lsp/schemas/skill-lsp.schema.json\n")
    assert list(validator().iter_errors(tomllib.loads(text))) == []


def test_a_full_config_and_tool_table_are_valid():
    full = """
targets = ["claude-code", "claude"]
roots = ".agents/skills"
dialect = "codex"
check-links = false
sensitive-patterns = ["**/private/**"]
select = ["NAME", "UNKNOWN_", "ALL"]
extend-select = ["SECRET"]
ignore = ["NAME_MISMATCH"]
exclude = ["vendor"]
extend-exclude = "fixtures"
debounce-ms = 100
inlay-hints = true
hide-builtin-duplicates = true
[severity]
UNKNOWN_FIELD = "warn"
[per-file-ignores]
".claude/skills/legacy-*" = ["NAME", "TRAILING_WHITESPACE"]
"""
    assert messages(full) == []
    assert messages("[tool.skill-lsp]\nprofile = \"codex\"\n") == []
    assert messages('targets = "claude-code, codex"') == []


# Three (and more) broken configs: what the schema says, and that `check` refuses each one too.
BROKEN = [
    ("checklinks = true\n", "Additional properties are not allowed ('checklinks' was unexpected)",
     "unknown setting 'checklinks' (did you mean 'check-links'?)"),
    ('dialect = "claude"\n', "'claude' is not one of ['skill-tool', 'dsh', 'agentskills', 'claude-code', 'codex', "
     "'opencode', 'gemini', 'copilot']", "invalid 'dialect': expected one of skill-tool, dsh, agentskills"),
    ('[severity]\nNOT_A_CODE = "error"\n', "'NOT_A_CODE' is not one of ['ABSOLUTE_LINK'",
     "invalid 'severity': unknown rule code 'NOT_A_CODE'"),
    ('select = ["NAM"]\n', "'NAM' is not one of ['ALL', 'ABSOLUTE_LINK'",
     "invalid 'select': unknown rule code or prefix 'NAM'"),
    ("debounce-ms = -1\n", "-1 is less than the minimum of 0", "invalid 'debounce-ms': expected an integer from 0 to 10000"),
    ('[per-file-ignores]\n"vendor/**" = "ALL"\n', "'ALL' is not of type 'array'",
     "invalid 'per-file-ignores': 'vendor/**': expected a list of rule codes or prefixes"),
]


@pytest.mark.parametrize(("toml", "schema_says", "check_says"), BROKEN)
def test_broken_configs_are_rejected_by_the_schema_and_by_check(tmp_path, toml, schema_says, check_says):
    found = messages(toml)
    assert len(found) == 1 and found[0].startswith(schema_says), found
    write_skill(tmp_path / ".agents/skills", "demo", "---\nname: demo\ndescription: d\n---\n")
    (tmp_path / ".skill-lsp.toml").write_text(toml)
    proc = run_cli("check", ".", cwd=tmp_path)
    assert proc.returncode == 2 and check_says in proc.stderr and proc.stdout == ""


def test_pyproject_tool_table_is_checked_the_same_way(tmp_path):
    write_skill(tmp_path / ".agents/skills", "demo", "---\nname: demo\ndescription: d\n---\n")
    (tmp_path / "pyproject.toml").write_text('[tool.skill-lsp]\ncheck_links = true\n')
    proc = run_cli("check", ".", cwd=tmp_path)
    assert proc.returncode == 2 and "unknown setting 'check_links' (did you mean 'check-links'?)" in proc.stderr


def test_docs_server_md_lists_every_setting_in_both_spellings():
    text = (REPO / "docs/server.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    for key in KEYS:
        assert any(line.startswith(f"| `{key.camel}` | `{key.name}` |") for line in rows), key.name


# --------------------------------------------------------------------------- taplo (Even Better TOML)
# The engine of Even Better TOML, run on the `#:schema` directive of the sample config. Installed
# outside the clone by .ci/run:
#     npm install --prefix "${SKILL_LSP_CACHE:-$HOME/.cache/skill-lsp}/taplo@0.7.0" @taplo/cli@0.7.0
# Without it the test skips locally and fails under CI=true.
TAPLO = "taplo@0.7.0"


def _taplo() -> Path | None:
    for cache in (os.environ.get("SKILL_LSP_TAPLO_PREFIX"),
                  str(Path(os.environ.get("SKILL_LSP_CACHE") or Path.home() / ".cache" / "skill-lsp") / TAPLO)):
        if cache and shutil.which("node") and (Path(cache) / "node_modules/.bin/taplo").is_file():
            return Path(cache) / "node_modules/.bin/taplo"
    return None


def test_taplo_validates_through_the_schema_directive(tmp_path):
    taplo = _taplo()
    require(taplo, f"node and {TAPLO}", "see the comment above this test for the install line")
    assert taplo is not None
    ok = subprocess.run([str(taplo), "lint", ".skill-lsp.toml"], cwd=REPO / "sample-workspace",
                        capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0, ok.stderr
    # The same relative directive in a broken copy: taplo reports what the schema says.
    (tmp_path / "src/skill_lsp/schemas").mkdir(parents=True)
    shutil.copy(SHIPPED, tmp_path / "src/skill_lsp/schemas")
    (tmp_path / "ws").mkdir()
    (tmp_path / "ws/.skill-lsp.toml").write_text(
        "#:schema ../src/skill_lsp/schemas/skill-lsp.schema.json\ncheckLinks = true\ndialect = \"claude\"\n")
    bad = subprocess.run([str(taplo), "lint", ".skill-lsp.toml"], cwd=tmp_path / "ws",
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode != 0
    assert "Additional properties are not allowed ('checkLinks' was unexpected)" in bad.stderr
    assert '"claude" is not one of ["skill-tool"' in bad.stderr
