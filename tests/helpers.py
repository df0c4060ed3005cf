"""Shared helpers for the engine and CLI tests (imported as ``helpers``; tests/ is on sys.path via conftest)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from skill_lsp.engine import document, rules
from skill_lsp.engine.config import Settings
from skill_lsp.engine.findings import Finding
from skill_lsp.engine.targets import PROFILES
from skill_lsp.engine.text import Encoding, SourceText
from skill_lsp.engine.workspace import check_text

REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "src"

# The real skills the corpus tests read (never copied into the repository).
CORPUS = Path(os.environ.get("SKILL_LSP_CORPUS") or REPO.parent / "shared" / "corpus")


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def require(available: object, what: str, how: str) -> None:
    """Skip a test whose outside reference is missing -- but under CI=true fail: CI installs every one.

    ``how`` says how to provide it (the line of .ci/run that does).
    """
    if available:
        return
    if in_ci():
        pytest.fail(f"{what} is missing, and CI=true requires it: {how}", pytrace=False)
    pytest.skip(f"{what} is missing ({how})")


def editor_missing(reason: str) -> None:
    """Skip an editor test whose editor is missing; fail under CI=true (or SKILL_LSP_REQUIRE_EDITORS=1)."""
    if in_ci() or os.environ.get("SKILL_LSP_REQUIRE_EDITORS") == "1":
        pytest.fail(f"{reason} (editors are required under CI=true: . editors/ci-setup.sh)", pytrace=False)
    pytest.skip(reason)


def docs_editor_block(heading: str, lang: str) -> str:
    """The first ```lang block under ``## heading`` in docs/editors.md: what a user pastes."""
    section = (REPO / "docs" / "editors.md").read_text(encoding="utf-8").split(f"## {heading}", 1)[1]
    match = re.search(rf"```{lang}\n(.*?)```", section, re.S)
    assert match, f"docs/editors.md has no {lang} block under {heading!r}"
    return match.group(1)


# A skill in skills/pdf-tools/ whose name differs from its folder (NAME_MISMATCH), with
# trailing spaces on the description: what the editor tests expect the server to report.
MISMATCHED_SKILL = (
    "---\n"
    "name: pdf-toolkit\n"
    "description: Extracts text from PDF files. Use when the user asks about a PDF.   \n"
    "---\n\n# PDF\n\nRun the extractor.\n"
)


def corpus() -> Path:
    require(CORPUS.is_dir(), f"the skill corpus {CORPUS}", "set SKILL_LSP_CORPUS to a folder of real skills")
    return CORPUS


GOOD_FM = "---\nname: demo\ndescription: Does a thing. Use when testing.\n---\n"


def write_skill(root: Path, folder: str, text: str | bytes, filename: str = "SKILL.md") -> Path:
    """Write ``root/folder/SKILL.md`` and return its path."""
    d = root / folder
    d.mkdir(parents=True, exist_ok=True)
    p = d / filename
    if isinstance(text, bytes):
        p.write_bytes(text)
    else:
        p.write_bytes(text.encode("utf-8"))
    return p


def skill_text(name: str = "demo", description: str = "Does a thing. Use when testing.",
               extra: str = "", body: str = "\n# Body\n", nl: str = "\n") -> str:
    lines = ["---", f"name: {name}", f"description: {description}"]
    if extra:
        lines += extra.rstrip("\n").split("\n")
    lines.append("---")
    body = body.lstrip("\n")
    if nl != "\n":
        body = re.sub(r"(?<!\r)\n", nl, body)
    return nl.join(lines) + nl + body


def check(text: str, *, folder: str = "demo", profile: str = "skill-tool", on_disk: bool = False,
          path: str | None = None, settings: Settings | None = None) -> tuple[document.SkillDocument, list[Finding]]:
    """Check ``text`` as ``/virtual/<folder>/SKILL.md`` (not on disk unless ``path`` is given)."""
    s = settings or Settings(profile=profile)
    return check_text(text, path or f"/virtual/{folder}/SKILL.md", s, on_disk=on_disk)


def check_raw(text: str, *, folder: str = "demo", profile: str = "skill-tool",
              files: frozenset[str] | None = None) -> tuple[document.SkillDocument, list[Finding]]:
    """The rules without settings, with an explicit listing of the skill folder's files."""
    doc = document.parse(text, f"/virtual/{folder}/SKILL.md")
    ctx = rules.Context(profile=PROFILES[profile], _files=files)
    return doc, rules.check(doc, ctx)


def codes(findings: list[Finding]) -> list[str]:
    return [f.code for f in findings]


def only(findings: list[Finding], code: str) -> Finding:
    matching = [f for f in findings if f.code == code]
    assert len(matching) == 1, f"expected one {code}, got {[(f.code, f.message) for f in findings]}"
    return matching[0]


def rng(doc_or_src, f: Finding, enc: Encoding = Encoding.UTF16) -> tuple[tuple[int, int], tuple[int, int]]:
    """((line, char), (line, char)) of a finding, via SourceText.position."""
    src = doc_or_src if isinstance(doc_or_src, SourceText) else doc_or_src.src
    return src.position(f.start, enc), src.position(f.end, enc)


def run_cli(*args: str, cwd: Path | str = REPO, env: dict[str, str] | None = None,
            timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``python -m skill_lsp ARGS`` in a subprocess."""
    e = dict(os.environ)
    e.pop("NO_COLOR", None)
    e.pop("FORCE_COLOR", None)
    e["PYTHONPATH"] = str(SRC) + os.pathsep + e.get("PYTHONPATH", "")
    if env:
        e.update(env)
    return subprocess.run([sys.executable, "-m", "skill_lsp", *args], cwd=str(cwd), env=e,
                          capture_output=True, text=True, timeout=timeout, encoding="utf-8")


def bare_env(**extra: str) -> dict[str, str]:
    """The environment of a child started without the test run's own (its imports are measured):
    the source tree and the test run's cache folder (``conftest.result_cache_home``), never ~/.cache."""
    return {"PYTHONPATH": str(SRC), "SKILL_LSP_CACHE_DIR": os.environ.get("SKILL_LSP_CACHE_DIR", "off"), **extra}
