"""Golden model-facing text for the sample workspace, per dialect.

`skill-lsp preview` and `skill-lsp catalog` output for every sample skill and
dialect is compared byte for byte with `tests/golden/preview/`. The repository
path is written as `<ROOT>` so the files hold on any checkout. The server tests
compare `skill-lsp.previewActivation` with the same files.

Regenerate after an intended change: `UPDATE_GOLDEN=1 python -m pytest tests/cli/test_golden_previews.py`.
"""

from __future__ import annotations

import io
import os
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from skill_lsp.cli import main
from skill_lsp.engine.activation import SkillSession
from skill_lsp.engine.config import DIALECT_NAMES, Settings
from skill_lsp.engine.discovery import scan_roots
from skill_lsp.engine.preview import records_for, session
from skill_lsp.engine.workspace import check_file, link_skills

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "sample-workspace"
GOLDEN = REPO / "tests" / "golden" / "preview"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"

# (skill folder relative to the sample workspace, why it is here)
SKILLS = [
    ".agents/skills/api-conventions",  # ok with resources in all three folders
    ".agents/skills/release-notes",  # ok; shadows the .claude copy
    ".agents/skills/deploy-preview",  # disable-model-invocation: DISABLED for the model
    ".claude/skills/pdf-toolkit",  # more than 10 scripts: "(... N more)"
    ".claude/skills/name-mismatch",  # NAME_MISMATCH
    ".claude/skills/unquoted-colon",  # INVALID_FRONTMATTER (YAML)
    ".claude/skills/linked-outside",  # OUTSIDE_WORKSPACE
    ".claude/skills/broken-io",  # IO_ERROR
    "team/secrets/skills/rotate-keys",  # SENSITIVE
]


def normalise(text: str) -> str:
    return text.replace(str(SAMPLE), "<ROOT>/sample-workspace").replace(str(REPO), "<ROOT>")


def run_cli(*args: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = main(list(args))
    finally:
        os.chdir(cwd)
    return code, out.getvalue()


def compare(name: str, text: str) -> None:
    path = GOLDEN / name
    text = normalise(text)
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="")
        return
    assert path.exists(), f"missing golden file {path}; run with UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8"), f"{name} differs from its golden file"


def golden_activation(dialect: str, skill: str) -> str:
    return normalise((GOLDEN / dialect / f"{skill.replace('/', '__')}.txt").read_text(encoding="utf-8"))


@pytest.mark.parametrize("dialect", DIALECT_NAMES)
@pytest.mark.parametrize("skill", SKILLS)
def test_preview_activation_matches_golden(dialect: str, skill: str) -> None:
    code, out = run_cli("preview", f"sample-workspace/{skill}", "--dialect", dialect)
    compare(f"{dialect}/{skill.replace('/', '__')}.txt", out)
    assert code in (0, 1)


@pytest.mark.parametrize("dialect", DIALECT_NAMES)
def test_preview_with_arguments_matches_golden(dialect: str) -> None:
    _, out = run_cli("preview", "release-notes", "--workspace", "sample-workspace", "--dialect", dialect,
                     "--arguments", "v1.2.0 v1.3.0")
    compare(f"{dialect}/release-notes--arguments.txt", out)
    _, out = run_cli("preview", "deploy-preview", "--workspace", "sample-workspace", "--dialect", dialect,
                     "--as-user", "--arguments", '{"branch": "feature/x", "region": "eu-west-1"}')
    compare(f"{dialect}/deploy-preview--as-user--named.txt", out)


@pytest.mark.parametrize("dialect", DIALECT_NAMES)
@pytest.mark.parametrize("name", ["release-note", "zzz-unknown", "Bad_Name"])
def test_not_found_and_invalid_names_match_golden(dialect: str, name: str) -> None:
    _, out = run_cli("preview", name, "--workspace", "sample-workspace", "--dialect", dialect)
    compare(f"{dialect}/name--{name}.txt", out)


@pytest.mark.parametrize("dialect", DIALECT_NAMES)
@pytest.mark.parametrize("state", ["first", "replacement"])
def test_catalog_matches_golden(dialect: str, state: str) -> None:
    _, out = run_cli("catalog", "sample-workspace", "--dialect", dialect, "--state", state)
    compare(f"{dialect}/catalog--{state}.txt", out)


def _records():
    settings = Settings(roots=(".agents/skills", ".claude/skills", "team/secrets/skills"))
    roots = settings.resolved_roots(str(SAMPLE))
    results = [check_file(loc.path, settings, loc) for loc in scan_roots(roots, settings.sensitive_patterns)]
    link_skills(results, settings)
    return settings, records_for(results, len(roots))


@pytest.mark.parametrize("dialect", DIALECT_NAMES)
def test_already_loaded_and_empty_catalog_match_golden(dialect: str) -> None:
    settings, records = _records()
    s: SkillSession = session(records, settings, dialect)
    s.activate({"name": "api-conventions"}, turn=3)
    compare(f"{dialect}/already-loaded--turn.txt", s.activate({"name": "api-conventions"}).output)
    from skill_lsp.engine.preview import catalog

    for state, update in (("first", False), ("replacement", True)):
        text, _ = catalog([], dialect, update=update)
        compare(f"{dialect}/catalog--empty-{state}.txt", text)


@pytest.mark.parametrize("decision, code", [("deny", "PERMISSION_DENIED"), ("ask", "PERMISSION_DENIED"),
                                            ("untrusted-deny", "NOT_TRUSTED")])
def test_hook_decisions_match_golden(decision: str, code: str) -> None:
    from skill_lsp.engine.activation import SessionConfig

    settings, records = _records()
    untrusted = decision.startswith("untrusted")
    verdict = "deny" if untrusted else decision
    s = SkillSession(records, SessionConfig(
        permission_hook=lambda request: verdict,
        untrusted_project_skills="hook_required" if untrusted else "allow"))
    result = s.activate({"name": "api-conventions"})
    assert result.kind == "error" and result.error.code == code
    compare(f"skill-tool/hook--{decision}.txt", result.output)
