"""`check --fix` over skills shaped like real ones: no code span changes, nothing outside findings.

benchmarks/fix_safety.py does the audit (a copy, the real CLI, its own Markdown scan of
code); the same script runs over the corpus and held-out repositories (docs/fixes.md).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import fix_safety_cases as cases
from helpers import CORPUS, REPO
from skill_lsp.engine import document, protected

sys.path.insert(0, str(REPO / "benchmarks"))
import fix_safety  # noqa: E402


@pytest.fixture
def fixtures(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    cases.write(src)
    return src


def test_check_fix_changes_no_code_and_nothing_outside_findings(fixtures: Path, tmp_path: Path):
    before = {p: p.read_bytes() for p in fixtures.rglob("*") if p.is_file()}
    work = tmp_path / "work"
    work.mkdir()
    a = fix_safety.audit([fixtures], work)
    assert a.ok, fix_safety.render(a)
    assert (a.in_code, a.outside, a.unexpected_files) == (0, 0, [])
    # Every case had a safe fix to apply, and the audit looked at code in each.
    assert len(a.files_changed) == len(cases.SKILLS)
    assert a.regions >= sum(len(v) for v in cases.FIXED.values()) and a.code_spans >= 15
    for name in cases.SKILLS:
        fixed = (work / "0-src" / "skills" / name / "SKILL.md").read_bytes().decode("utf-8")
        assert all(k in fixed for k in cases.KEPT[name])
        assert all(after in fixed for _b, after in cases.FIXED[name])
    # The sources were only read.
    assert {p: p.read_bytes() for p in fixtures.rglob("*") if p.is_file()} == before


def test_the_audit_sees_a_fix_that_edits_code(fixtures: Path, tmp_path: Path):
    """--unsafe-fixes edits the code on purpose: the audit must report those regions."""
    work = tmp_path / "work"
    work.mkdir()
    a = fix_safety.audit([fixtures], work, unsafe=True)
    kinds = {w.rsplit("(", 1)[1] for f in a.files_changed for w in f.in_code}
    assert {"code block)", "inline code)", "html)"} <= kinds, fix_safety.render(a)
    assert a.outside == 0  # unsafe fixes still edit only findings' spans


def test_the_audit_sees_a_page_rendered_otherwise(tmp_path: Path):
    """A blank after a backslash: trimmed, the backslash breaks the line. The fix is only offered,
    so `--fix` leaves the page alone and `--fix --unsafe-fixes` changes it, which the audit's own
    rendering must see. Three spaces that break a line keep two either way."""
    skill = tmp_path / "src" / "poem"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: poem\ndescription: Writes poems. Use when asked for one.\n---\n"
                                    "# Poem\n\nRoses are red,   \nviolets are blue,\\ \nsugar is sweet.\n")
    for unsafe, pages, text in ((False, 0, "red,  \nviolets are blue,\\ \n"), (True, 1, "red,  \nviolets are blue,\\\n")):
        work = tmp_path / f"work-{unsafe}"
        work.mkdir()
        a = fix_safety.audit([tmp_path / "src"], work, unsafe=unsafe)
        assert a.pages == pages, fix_safety.render(a)
        assert text in (work / "0-src" / "poem" / "SKILL.md").read_text()
        assert a.ok


def test_the_audit_script_reports_and_exits_zero(fixtures: Path, tmp_path: Path):
    out = tmp_path / "audit.json"
    assert fix_safety.main([str(fixtures), "--json", str(out)]) == 0
    assert '"ok": true' in out.read_text()


def _unprotected(text: str, path: str) -> list[tuple[str, str]]:
    """Code spans of the audit's scan with a character the engine does not protect (line breaks aside)."""
    doc = document.parse(text, path)
    merged: list[list[int]] = []
    for sp in protected.spans(doc):
        if merged and sp.start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], sp.end)
        else:
            merged.append([sp.start, sp.end])
    out = []
    for s, e, kind in fix_safety.code_spans(text):
        gaps, at = [], s
        for a, b in merged:
            if b <= at or a >= e:
                continue
            gaps.append(text[at:a] if a > at else "")
            at = max(at, b)
        gaps.append(text[at:e] if at < e else "")
        if any(g.strip("\r\n") for g in gaps):
            out.append((kind, text[s:e][:60]))
    return out


@pytest.mark.parametrize("name", list(cases.SKILLS))
def test_the_audit_scanner_and_the_engine_agree_on_code(name: str):
    """The audit finds code by its own scan; every code span it finds the engine protects whole."""
    text = cases.SKILLS[name]
    assert fix_safety.code_spans(text)
    assert _unprotected(text, f"/w/{name}/SKILL.md") == []


def test_scanner_and_engine_agree_on_the_corpus():
    """Every code span the audit's scanner finds in a real skill is protected by the engine
    (every third skill; the whole corpus agrees too, in 12 s)."""
    files = sorted(CORPUS.rglob("SKILL.md"))[::3] if CORPUS.is_dir() else []
    if not files:
        pytest.skip(f"no corpus at {CORPUS}")
    missed = [(str(p), m) for p in files for m in _unprotected(fix_safety._decode(p.read_bytes()), str(p))]
    assert not missed, missed[:10]


def test_trimmed_whitespace_only_lines_are_regions_of_their_own():
    """A block of whitespace-only lines (a folded description) trimmed line by line: each line
    is its own region, where a line diff paired them off and reported insertions elsewhere."""
    old, new = "a\n\n  \n\n  \nb\n", "a\n\n\n\n\nb\n"
    assert fix_safety._regions(old, new) == [(3, 5, "  ", ""), (7, 9, "  ", "")]
    # A fix that removes lines (a block list written as one string) still diffs by lines first.
    old, new = "k:\n  - a\n  - b\nx\n", "k: a b\nx\n"
    assert [(was, now) for _s, _e, was, now in fix_safety._regions(old, new)] and \
        all(old[s:e] == was for s, e, was, _n in fix_safety._regions(old, new))


def test_unsafe_fixes_needs_fix(tmp_path: Path):
    from helpers import run_cli  # noqa: PLC0415

    proc = run_cli("check", "--unsafe-fixes", ".", cwd=tmp_path)
    assert proc.returncode == 2 and "--unsafe-fixes needs --fix" in proc.stderr


@pytest.mark.parametrize("nl", ["\n", "\r\n", "\r"])
def test_the_audit_finds_the_body_after_a_frontmatter_of_any_line_end(nl: str):
    """A CRLF frontmatter was read as body text: a quoted value there counted as a change of what the
    page shows (the eighth real-skill run's audit)."""
    text = nl.join(["---", "name: a", "description: 'x: y'", "---", "Body.", ""])
    assert text[fix_safety.body_start(text):] == "Body." + nl
    assert fix_safety.body_start(nl.join(["---", "name: a", "--- not a fence", "Body."])) == 0
