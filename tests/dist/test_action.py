"""action.yml (the composite GitHub Action), run outside GitHub.

Every `run:` step is executed the way the runner does it (`bash --noprofile
--norc -eo pipefail`, the step's `env:` with `${{ inputs.* }}` and
`${{ github.action_path }}` filled in, GITHUB_PATH lines prepended to PATH for
the later steps) against a scratch workspace. The `uses:` step (setup-python)
is stood in for by the Python running the tests.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parents[2]
ACTION = YAML(typ="safe").load(ROOT / "action.yml")
EXPR = re.compile(r"\$\{\{\s*([\w.-]+)\s*\}\}")

BAD = "---\nname: release-notes\ndescription: Formats release notes. Use when asked for release notes.\n---\n\n# Notes\n"
GOOD = "---\nname: good-skill\ndescription: Drafts changelog entries from merged pull requests. Use when preparing a release.\n---\n\n# Notes\n"


def inputs_with(**given: str) -> dict[str, str]:
    values = {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()}
    for name, value in given.items():
        assert name.replace("_", "-") in values, name
        values[name.replace("_", "-")] = value
    return values


def evaluate(text: str, inputs: dict[str, str]) -> str:
    def one(m: re.Match[str]) -> str:
        expr = m.group(1)
        if expr.startswith("inputs."):
            return inputs[expr.removeprefix("inputs.")]
        if expr == "github.action_path":
            return str(ROOT)
        raise AssertionError(f"action.yml uses an expression the test does not provide: {expr}")

    return EXPR.sub(one, text)


def run_action(workspace: Path, tmp: Path, **given: str) -> list[subprocess.CompletedProcess[str]]:
    inputs = inputs_with(**given)
    github_path = tmp / "github_path"
    github_path.write_text("")
    runner_temp = tmp / "runner_temp"
    runner_temp.mkdir(exist_ok=True)
    base_path = f"{Path(sys.executable).parent}{os.pathsep}/usr/bin{os.pathsep}/bin"
    results = []
    for step in ACTION["runs"]["steps"]:
        if "uses" in step:
            assert step["uses"].startswith("actions/setup-python@"), step
            continue
        assert step["shell"] == "bash"
        assert "${{" not in step["run"], "run scripts must take inputs through env:"
        extra = [line for line in github_path.read_text().splitlines() if line]
        env = {
            "PATH": os.pathsep.join([*reversed(extra), base_path]),
            "HOME": str(tmp),
            "RUNNER_TEMP": str(runner_temp),
            "GITHUB_PATH": str(github_path),
            "GITHUB_WORKSPACE": str(workspace),
            "GITHUB_ACTIONS": "true",
            "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        }
        for key in ("PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_FIND_LINKS", "PIP_CONFIG_FILE", "XDG_CACHE_HOME"):
            if key in os.environ:
                env[key] = os.environ[key]
        env.update({k: evaluate(str(v), inputs) for k, v in (step.get("env") or {}).items()})
        script = tmp / "step.sh"
        script.write_text(step["run"])
        proc = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
            cwd=workspace, env=env, capture_output=True, text=True, timeout=600,
        )
        results.append(proc)
        if proc.returncode != 0:
            break
    return results


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    ws = tmp_path_factory.mktemp("ws")
    for folder, text in (("bad-skill", BAD), ("good-skill", GOOD)):
        skill = ws / "skills" / folder / "SKILL.md"
        skill.parent.mkdir(parents=True)
        skill.write_text(text)
    return ws


def test_inputs_are_documented() -> None:
    assert ACTION["runs"]["using"] == "composite"
    for name, spec in ACTION["inputs"].items():
        assert spec.get("description"), name
    assert {"paths", "fail-on", "profile", "sarif-file", "python-version"} <= set(ACTION["inputs"])


def test_action_annotates_and_writes_sarif(workspace: Path, tmp_path: Path) -> None:
    install, check = run_action(workspace, tmp_path, sarif_file="skill-lsp.sarif")
    assert install.returncode == 0, install.stdout + install.stderr
    assert install.stdout.strip().startswith("skill-lsp "), install.stdout
    # The skill-lsp that ran is the action's own venv, not the test's.
    assert str(tmp_path / "runner_temp" / "skill-lsp-venv") in (tmp_path / "github_path").read_text()
    assert check.returncode == 1, check.stdout + check.stderr
    lines = check.stdout.splitlines()
    assert any(
        line.startswith("::error file=skills/bad-skill/SKILL.md,line=2,") and "title=NAME_MISMATCH::" in line
        for line in lines
    ), check.stdout
    assert not any("good-skill" in line for line in lines), check.stdout
    sarif = json.loads((workspace / "skill-lsp.sarif").read_text())
    assert sarif["version"] == "2.1.0"
    rule_ids = {r["ruleId"] for r in sarif["runs"][0]["results"]}
    assert "NAME_MISMATCH" in rule_ids


def test_action_fail_on_never_passes(workspace: Path, tmp_path: Path) -> None:
    _, check = run_action(workspace, tmp_path, fail_on="never", paths="skills/bad-skill")
    assert check.returncode == 0, check.stdout + check.stderr
    assert "title=NAME_MISMATCH::" in check.stdout


def test_action_usage_error_fails(workspace: Path, tmp_path: Path) -> None:
    _, check = run_action(workspace, tmp_path, profile="no-such-profile", sarif_file="x.sarif")
    assert check.returncode == 2, check.stdout + check.stderr
    assert "no-such-profile" in check.stderr
