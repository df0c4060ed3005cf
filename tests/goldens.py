"""What each golden file holds, computed by the code under test.

The golden tests compare these texts with the files under tests/golden/ (and
docs/rules.md); ``python tests/golden/regen.py`` shows the difference and
rewrites the files only when asked. Nothing here writes a file.
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

from helpers import REPO
from helpers import run_cli as run_cli_subprocess
from skill_lsp.cli import main
from skill_lsp.commands.rules import render_markdown
from skill_lsp.engine.activation import SessionConfig, SkillSession
from skill_lsp.engine.config import DIALECT_NAMES, Settings
from skill_lsp.engine.discovery import scan_roots
from skill_lsp.engine.preview import catalog, records_for, session
from skill_lsp.engine.workspace import check_file, link_skills

SAMPLE = REPO / "sample-workspace"
GOLDEN = REPO / "tests" / "golden"
PREVIEW = GOLDEN / "preview"
SAMPLE_FINDINGS = GOLDEN / "sample-workspace.txt"
RULES_DOC = REPO / "docs" / "rules.md"

# (skill folder relative to the sample workspace, preview exit code, why it is here)
SKILLS = [
    (".agents/skills/api-conventions", 0),  # ok with resources in all three folders
    (".agents/skills/release-notes", 0),  # ok; shadows the .claude copy
    (".agents/skills/deploy-preview", 1),  # disable-model-invocation: DISABLED for the model
    (".claude/skills/pdf-toolkit", 0),  # more than 10 scripts: "(... N more)"
    (".claude/skills/name-mismatch", 1),  # NAME_MISMATCH
    (".claude/skills/unquoted-colon", 1),  # INVALID_FRONTMATTER (YAML)
    (".claude/skills/linked-outside", 1),  # OUTSIDE_WORKSPACE
    (".claude/skills/broken-io", 1),  # IO_ERROR
    ("team/secrets/skills/rotate-keys", 1),  # SENSITIVE
]
HOOK_DECISIONS = [("deny", "PERMISSION_DENIED"), ("ask", "PERMISSION_DENIED"), ("untrusted-deny", "NOT_TRUSTED")]


def normalise(text: str) -> str:
    # The home folder appears where a harness reads its own folders (Codex's system skills root).
    text = text.replace(str(SAMPLE), "<ROOT>/sample-workspace").replace(str(REPO), "<ROOT>")
    return text.replace(os.path.expanduser("~").rstrip("/") + "/", "<HOME>/")


def run_cli(*args: str) -> tuple[int, str]:
    """The CLI in-process from the repository root: (exit code, stdout)."""
    out, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = main(list(args))
    finally:
        os.chdir(cwd)
    return code, out.getvalue()


def _records():
    settings = Settings(roots=(".agents/skills", ".claude/skills", "team/secrets/skills"))
    roots = settings.resolved_roots(str(SAMPLE))
    results = [check_file(loc.path, settings, loc) for loc in scan_roots(roots, settings.sensitive_patterns)]
    link_skills(results, settings)
    return settings, records_for(results, len(roots))


def already_loaded(dialect: str) -> str:
    settings, records = _records()
    s: SkillSession = session(records, settings, dialect)
    s.activate({"name": "api-conventions"}, turn=3)
    return s.activate({"name": "api-conventions"}).output


def hook_session(decision: str):
    """The activation result of api-conventions under a permission hook that answers ``decision``."""
    _, records = _records()
    untrusted = decision.startswith("untrusted")
    verdict = "deny" if untrusted else decision
    s = SkillSession(records, SessionConfig(
        permission_hook=lambda request: verdict,
        untrusted_project_skills="hook_required" if untrusted else "allow"))
    return s.activate({"name": "api-conventions"})


def preview_cases() -> dict[str, Callable[[], str]]:
    """Golden file name under tests/golden/preview/ -> the text it must hold."""
    cases: dict[str, Callable[[], str]] = {}

    def add(name: str, produce: Callable[[], str]) -> None:
        cases[name] = lambda: normalise(produce())

    for d in DIALECT_NAMES:
        for skill, _ in SKILLS:
            add(f"{d}/{skill.replace('/', '__')}.txt",
                lambda d=d, skill=skill: run_cli("preview", f"sample-workspace/{skill}", "--dialect", d)[1])
        add(f"{d}/release-notes--arguments.txt", lambda d=d: run_cli(
            "preview", "release-notes", "--workspace", "sample-workspace", "--dialect", d,
            "--arguments", "v1.2.0 v1.3.0")[1])
        add(f"{d}/deploy-preview--as-user--named.txt", lambda d=d: run_cli(
            "preview", "deploy-preview", "--workspace", "sample-workspace", "--dialect", d, "--as-user",
            "--arguments", '{"branch": "feature/x", "region": "eu-west-1"}')[1])
        for name in ("release-note", "zzz-unknown", "Bad_Name"):
            add(f"{d}/name--{name}.txt", lambda d=d, name=name: run_cli(
                "preview", name, "--workspace", "sample-workspace", "--dialect", d)[1])
        for state in ("first", "replacement"):
            add(f"{d}/catalog--{state}.txt", lambda d=d, state=state: run_cli(
                "catalog", "sample-workspace", "--dialect", d, "--state", state)[1])
            add(f"{d}/catalog--empty-{state}.txt",
                lambda d=d, state=state: catalog([], d, update=state == "replacement")[0])
        add(f"{d}/already-loaded--turn.txt", lambda d=d: already_loaded(d))
    for decision, _ in HOOK_DECISIONS:
        add(f"skill-tool/hook--{decision}.txt", lambda decision=decision: hook_session(decision).output)
    return cases


def sample_findings() -> str:
    """``relative/path:line:col CODE`` per finding of ``check sample-workspace`` (1-based code point columns)."""
    proc = run_cli_subprocess("check", "sample-workspace", "--format", "json", "--fail-on", "never")
    assert proc.returncode == 0, proc.stderr
    lines = []
    for f in json.loads(proc.stdout)["findings"]:
        path = os.path.relpath(f["path"], REPO).replace(os.sep, "/")
        lines.append(f"{path}:{f['line']}:{f['column']} {f['code']}\n")
    return "".join(lines)


def all_goldens() -> dict[Path, Callable[[], str]]:
    """Every golden file -> the text it must hold."""
    out: dict[Path, Callable[[], str]] = {PREVIEW / name: produce for name, produce in preview_cases().items()}
    out[SAMPLE_FINDINGS] = sample_findings
    out[RULES_DOC] = render_markdown
    return out
