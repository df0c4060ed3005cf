"""Cases on disk: how one is laid out for a harness, and how captures are normalised.

A case folder holds ``case.toml`` (which skill to activate, with which
arguments), and any of ``skills/`` (copied into the harness's own project
root), ``workspace/`` (copied as is into the workspace) and ``home/`` (copied
as is into the fresh home folder).  Shared by the drivers and by the tests that
render the same workspace with skill-lsp.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from skill_lsp.capture.normalise import HOME_TOKEN, WORKSPACE_TOKEN, normalise

__all__ = ["CASES", "GOLDEN", "HOME_TOKEN", "PROJECT_ROOT", "WORKSPACE_TOKEN", "Case", "cases", "materialise",
           "normalise"]

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

REPO = Path(__file__).resolve().parent.parent
CASES = REPO / "capture" / "cases"
GOLDEN = REPO / "tests" / "golden" / "harness"

#: Where each harness's own project skills go when a case has ``skills/``.
PROJECT_ROOT = {
    "claude-code": ".claude/skills",
    "codex": ".agents/skills",
    "opencode": ".opencode/skills",
    "gemini": ".gemini/skills",
    "copilot": ".github/skills",
}



@dataclass(frozen=True)
class Case:
    name: str
    folder: Path
    skill: str
    arguments: str
    per_harness: dict[str, str]  # harness -> skill to activate there, when it differs
    skip: dict[str, str]  # harness -> why this case is not captured there (e.g. not reproducible)
    # harness -> why skill-lsp is known to disagree with the release here (capture/diff/FINDINGS.md):
    # tests/engine/test_harness_captures.py expects those comparisons to fail until the model is fixed
    disagrees: dict[str, str] = field(default_factory=dict)

    def skill_for(self, harness: str) -> str:
        return self.per_harness.get(harness, self.skill)

    @property
    def description(self) -> str:
        return str(tomllib.loads((self.folder / "case.toml").read_text(encoding="utf-8")).get("about", ""))


def findings(folder: Path) -> list[dict]:
    """A case's known disagreements (``finding.json``): one object per release, or a list of them
    when the case disagrees with several releases (a probe run on every release)."""
    path = folder / "finding.json"
    if not path.is_file():
        return []
    data = json.loads(path.read_text(encoding="utf-8"))
    return data if isinstance(data, list) else [data]


def cases() -> list[Case]:
    out = []
    for folder in sorted(p for p in CASES.iterdir() if (p / "case.toml").is_file()):
        data = tomllib.loads((folder / "case.toml").read_text(encoding="utf-8"))
        out.append(Case(folder.name, folder, data["skill"], data.get("arguments", ""),
                        dict(data.get("skill_by_harness", {})), dict(data.get("skip", {})),
                        dict(data.get("disagrees", {}))))
    return out


def materialise(case: Case, harness: str, base: Path) -> tuple[Path, Path]:
    """Lay ``case`` out for ``harness`` under ``base``: returns (workspace, home)."""
    workspace, home = base / "ws", base / "home"
    workspace.mkdir(parents=True)
    home.mkdir(parents=True)
    # Symlinks are copied as links (relative ones keep pointing inside the laid-out case);
    # `outside/` sits beside the workspace, for links that lead out of it.
    for part, dest in (("workspace", workspace), ("home", home), ("outside", base / "outside")):
        if (case.folder / part).is_dir():
            shutil.copytree(case.folder / part, dest, dirs_exist_ok=True, symlinks=True)
    if (case.folder / "skills").is_dir():
        shutil.copytree(case.folder / "skills", workspace / PROJECT_ROOT[harness], dirs_exist_ok=True,
                        symlinks=True)
    # Codex reads repo-scope skills only inside a git repository; the others do not care.
    subprocess.run(["git", "init", "-q", str(workspace)], check=True)
    return workspace, home
