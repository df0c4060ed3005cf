"""Golden model-facing text for the sample workspace, per dialect.

`skill-lsp preview` and `skill-lsp catalog` output for every sample skill and
dialect is compared byte for byte with `tests/golden/preview/` (tests/goldens.py
lists the cases). The repository path is written as `<ROOT>` so the files hold
on any checkout. The server tests compare `skill-lsp.previewActivation` with the
same files.

After an intended change: `python tests/golden/regen.py` shows the diff, `--write` applies it.
"""

from __future__ import annotations

import pytest

from goldens import HOOK_DECISIONS, PREVIEW, SKILLS, hook_session, preview_cases, run_cli
from skill_lsp.engine.config import DIALECT_NAMES

CASES = preview_cases()


@pytest.mark.parametrize("name", sorted(CASES))
def test_preview_matches_golden(name: str) -> None:
    path = PREVIEW / name
    assert path.exists(), f"missing golden file {path}; see `python tests/golden/regen.py`"
    assert CASES[name]() == path.read_text(encoding="utf-8"), f"{name} differs: python tests/golden/regen.py"


def test_every_golden_file_has_a_case() -> None:
    files = {p.relative_to(PREVIEW).as_posix() for p in PREVIEW.rglob("*.txt")}
    assert files == set(CASES)


# Where the real releases differ from the skill-tool contract (exit 0 = an activation is shown):
# a name that differs from its folder and invalid YAML read as `key: value` lines still activate
# (capture cases name-mismatch, broken-frontmatter) where the harness reads the root at all;
# Claude Code does not read .agents/skills, Codex and Gemini CLI do not read .claude/skills, and
# Copilot CLI does not load invalid YAML (capture case broken-frontmatter). A skill folder that is a
# link into the workspace is followed by every release (capture case skill-links).
AGENTS = {".agents/skills/api-conventions", ".agents/skills/release-notes"}
CLAUDE = {".claude/skills/pdf-toolkit", ".claude/skills/name-mismatch", ".claude/skills/unquoted-colon",
          ".claude/skills/linked-outside"}
ACTIVATES = {
    "claude-code": CLAUDE,
    # Codex, OpenCode and Gemini CLI read no disable-model-invocation: asked by name, they load the
    # skill (capture case hidden-by-name).
    "codex": AGENTS | {".agents/skills/deploy-preview"},
    "opencode": AGENTS | CLAUDE | {".agents/skills/deploy-preview"},
    "gemini": AGENTS | {".agents/skills/deploy-preview"},
    "copilot": AGENTS | CLAUDE - {".claude/skills/unquoted-colon"},
}


@pytest.mark.parametrize("dialect", DIALECT_NAMES)
def test_preview_exit_code_says_whether_the_skill_activates(dialect: str) -> None:
    got = [(skill, run_cli("preview", f"sample-workspace/{skill}", "--dialect", dialect)[0]) for skill, _ in SKILLS]
    if dialect in ACTIVATES:
        assert got == [(skill, 0 if skill in ACTIVATES[dialect] else 1) for skill, _ in SKILLS]
    else:
        assert got == SKILLS


@pytest.mark.parametrize(("decision", "code"), HOOK_DECISIONS)
def test_hook_decisions_refuse_the_activation(decision: str, code: str) -> None:
    result = hook_session(decision)
    assert result.kind == "error" and result.error.code == code
