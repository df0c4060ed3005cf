"""A YAML escape of a surrogate in a skill's frontmatter (`"\\ud83c\\udfdb"`, found in the seed-11
real-skill run on unseen repositories): a pair is the one character JavaScript's parsers read, a
lone one reaches the output as U+FFFD, as Node writes it; catalogs and previews crashed on both."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import SRC, run_cli
from skill_lsp.engine.document import parse

DIALECTS = ["claude-code", "codex", "opencode", "gemini", "copilot", "skill-tool", "agentskills", "dsh"]


def test_an_escaped_pair_is_the_character_it_encodes():
    doc = parse('---\nname: s\ndescription: "a \\ud83c\\udfdb b \\ud83c c"\n---\n', "SKILL.md")
    assert doc.value("description") == "a \U0001f3db b \ud83c c"  # the lone one stays, as in JavaScript


@pytest.mark.parametrize("dialect", DIALECTS)
def test_catalog_and_preview_write_a_lone_surrogate_as_the_replacement_character(tmp_path: Path, dialect: str):
    for root in (".claude/skills", ".agents/skills", ".github/skills"):
        (tmp_path / root / "s-lone").mkdir(parents=True)
        (tmp_path / root / "s-lone" / "SKILL.md").write_text(
            '---\nname: s-lone\ndescription: "x \\ud83c y \\ud83c\\udfdb z"\n---\nBody\n', encoding="utf-8")
    catalog = run_cli("catalog", ".", "--dialect", dialect, cwd=tmp_path)
    preview = run_cli("preview", "s-lone", "--dialect", dialect, cwd=tmp_path)
    for proc in (catalog, preview):
        assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    if dialect == "copilot":  # its YAML parser (libyaml) refuses the escape: capture case copilot-surrogate-escapes
        assert "<name>" not in catalog.stdout and "escapes a surrogate code point" in catalog.stderr + preview.stderr
        return
    assert "\ufffd" in catalog.stdout + preview.stdout or "x   y" in catalog.stdout  # Claude Code's listing: a space


@pytest.mark.skipif(os.name != "posix", reason="a file name that is not UTF-8")
def test_a_file_name_that_is_not_utf8_is_printed_as_its_bytes(tmp_path: Path):
    folder = os.path.join(os.fsencode(tmp_path), b".claude", b"skills", b"bad\xffname")
    os.makedirs(folder)
    with open(os.path.join(folder, b"SKILL.md"), "w", encoding="utf-8") as f:
        f.write("---\nname: other\ndescription: d\n---\n")
    proc = subprocess.run([sys.executable, "-m", "skill_lsp", "check", "."], cwd=tmp_path, capture_output=True,
                          env={**os.environ, "PYTHONPATH": str(SRC)}, timeout=60)
    assert proc.returncode == 0 and b"Traceback" not in proc.stderr  # NAME_MISMATCH, a warning
    assert b"bad\xffname/SKILL.md" in proc.stdout  # the file's own bytes, not U+FFFD
