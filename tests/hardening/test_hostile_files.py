"""Hostile and broken SKILL.md files: YAML bombs, odd text, huge files (engine + CLI).

Each case must give its findings with bounded memory (tracemalloc peak); how long each
takes is held to budgets by benchmarks/bench_hostile.py, not asserted here. The cases
themselves are in hostile_cases.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from skill_lsp.engine import document, yamlnodes
from skill_lsp.engine.config import Settings
from skill_lsp.engine.text import Encoding, SourceText
from skill_lsp.engine.workspace import check_file, check_text, fix_all_text

from .hostile_cases import BYTE_CASES, FM, TEXT_CASES, YAML_CASES, bomb

SETTINGS = Settings()
def _measure(fn):
    """(result, peak traced bytes) of ``fn()``."""
    tracemalloc.start()
    try:
        out = fn()
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return out, peak


def _assert_ranges(text: str, findings) -> None:
    src = SourceText(text if len(text) <= document.MAX_ANALYSED_CHARS else document.parse(text, "/v/x").text)
    n = len(src.text)
    for f in findings:
        assert 0 <= f.start <= f.end <= n, (f.code, f.start, f.end, n)
        for enc in Encoding:
            for off in (f.start, f.end):
                line, ch = src.position(off, enc)
                assert src.offset(line, ch, enc) == off or src.text[src.offset(line, ch, enc):off] in ("\r", ""), (
                    f.code, off, enc)


@pytest.mark.parametrize("name", sorted(YAML_CASES))
def test_hostile_yaml_is_a_bounded_finding(name):
    text, expected = YAML_CASES[name]
    (doc, findings), peak = _measure(lambda: check_text(text, "/v/demo/SKILL.md", SETTINGS, on_disk=False))
    codes = {f.code for f in findings}
    if expected is not None:
        assert expected <= codes, (name, codes, [f.message for f in findings])
    assert peak < 32 * 1024 * 1024, (name, peak)
    _assert_ranges(text, findings)
    # Every value a rule or preview could read is bounded too (aliases are counted, never expanded).
    (_, peak2) = _measure(lambda: (doc.frontmatter_values(), [yamlnodes.to_python(e.value)
                                                                        for e in doc.entries.values()]))
    assert peak2 < 32 * 1024 * 1024
    fixed = fix_all_text(text, "/v/demo/SKILL.md", SETTINGS, on_disk=False)
    assert fix_all_text(fixed, "/v/demo/SKILL.md", SETTINGS, on_disk=False) == fixed


def test_alias_bomb_is_linear_in_nodes():
    root, err, _ = yamlnodes.compose(bomb()[4:])
    assert err is not None and err.limit and "alias" in err.message
    assert root is None


def test_tags_are_never_constructed(tmp_path):
    """Nothing named by a tag is imported or executed: in a fresh interpreter, os.system/subprocess stay untouched."""
    marker = tmp_path / "pwned"
    text = (FM + f"x: !!python/object/apply:os.system ['touch {marker}']\n"
            f"y: !!python/object/apply:subprocess.check_call [['touch', '{marker}']]\n"
            "z: !!python/name:antigravity.fly ''\n"
            "w: !!python/module:this\n---\n")
    code = (
        "import sys, json\n"
        "from skill_lsp.engine.config import Settings\n"
        "from skill_lsp.engine.workspace import check_text, fix_all_text\n"
        "from skill_lsp.engine.preview import record_for\n"
        "before = set(sys.modules)\n"
        f"doc, f = check_text({text!r}, '/v/demo/SKILL.md', Settings(), on_disk=False)\n"
        "doc.frontmatter_values()\n"
        f"fix_all_text({text!r}, '/v/demo/SKILL.md', Settings(), on_disk=False)\n"
        "new = set(sys.modules) - before\n"
        "print(json.dumps({'codes': sorted({x.code for x in f}), 'new': sorted(new)}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    res = json.loads(out.stdout)
    assert "YAML_TAG" in res["codes"]
    assert not {"antigravity", "this", "subprocess"} & set(res["new"]), res["new"]
    assert not marker.exists()


@pytest.mark.parametrize("name", sorted(TEXT_CASES))
def test_odd_text_gives_findings_with_valid_ranges(name):
    text, expected = TEXT_CASES[name]
    (doc, findings), _ = _measure(lambda: check_text(text, "/v/demo/SKILL.md", SETTINGS, on_disk=False))
    codes = {f.code for f in findings}
    if expected is not None:
        assert expected <= codes, (name, codes)
        if expected == set():
            assert not {c for c in codes if c not in ("TRAILING_WHITESPACE",)}, (name, codes)
    _assert_ranges(text, findings)
    fixed = fix_all_text(text, "/v/demo/SKILL.md", SETTINGS, on_disk=False)
    assert fix_all_text(fixed, "/v/demo/SKILL.md", SETTINGS, on_disk=False) == fixed


def test_line_index_never_breaks_at_u2028_or_form_feed():
    src = SourceText("a\u2028b\x0cc\x85d\ne")
    assert src.line_count == 2
    assert src.position(len("a\u2028b\x0cc\x85d\n")) == (1, 0)


def test_ten_megabyte_single_line_value():
    text = FM.replace("Does a thing", "x" * 10_000_000) + "---\nbody\n"
    (_, findings), peak = _measure(lambda: check_text(text, "/v/demo/SKILL.md", SETTINGS, on_disk=False))
    codes = [f.code for f in findings]
    assert codes.count("FILE_TOO_LARGE") == 1
    assert "FRONTMATTER_LIMIT" in codes, [f.message for f in findings]
    assert peak < 64 * 1024 * 1024
    _assert_ranges(text, findings)


def test_large_frontmatter_below_the_analysis_limit():
    text = FM.replace("Does a thing", "x" * 600_000) + "---\nbody\n"
    (_, findings), _ = _measure(lambda: check_text(text, "/v/demo/SKILL.md", SETTINGS, on_disk=False))
    assert "FRONTMATTER_LIMIT" in {f.code for f in findings}


def _write(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("name", sorted(BYTE_CASES))
def test_bytes_on_disk(tmp_path, name):
    data, code = BYTE_CASES[name]
    path = _write(tmp_path / "skills" / "demo" / "SKILL.md", data)
    r, _ = _measure(lambda: check_file(str(path), SETTINGS))
    codes = {f.code for f in r.findings}
    if code is not None:
        assert code in codes, (name, codes)
    else:
        assert not codes, codes
    for f in r.findings:
        assert 0 <= f.start <= f.end <= len(r.doc.text)


def test_twenty_megabyte_skill_md(tmp_path):
    body = ("A line of body text that goes on for a while. " * 2 + "\n") * 220_000
    path = _write(tmp_path / "skills" / "demo" / "SKILL.md", (FM + "---\n" + body).encode())
    assert path.stat().st_size > 20_000_000
    r, peak = _measure(lambda: check_file(str(path), SETTINGS))
    codes = [f.code for f in r.findings]
    assert codes.count("FILE_TOO_LARGE") == 1, codes
    too_large = next(f for f in r.findings if f.code == "FILE_TOO_LARGE")
    assert f"{document.MAX_ANALYSED_CHARS // 1024} KiB" in too_large.message
    assert len(r.doc.text) <= document.MAX_ANALYSED_CHARS
    assert peak < 64 * 1024 * 1024  # the read stops at READ_LIMIT; nothing holds 20 MB


def test_cli_check_on_hostile_files(tmp_path):
    """`skill-lsp check` over a root of broken skills exits 1 with findings, never a traceback."""
    root = tmp_path / ".agents" / "skills"
    expected: dict[str, set[str]] = {}  # folder -> codes it must report
    for i, name in enumerate(sorted(YAML_CASES)):
        text, codes = YAML_CASES[name]
        _write(root / f"y{i}" / "SKILL.md", text.encode("utf-8", "surrogatepass"))
        expected[f"y{i}"] = codes or set()
    for i, name in enumerate(sorted(BYTE_CASES)):
        data, code = BYTE_CASES[name]
        _write(root / f"b{i}" / "SKILL.md", data)
        expected[f"b{i}"] = {code} if code else set()
    for i, name in enumerate(sorted(TEXT_CASES)):
        text, codes = TEXT_CASES[name]
        _write(root / f"t{i}" / "SKILL.md", text.encode("utf-8", "surrogatepass"))
        expected[f"t{i}"] = codes or set()
    out = subprocess.run([sys.executable, "-m", "skill_lsp", "check", "--format", "json", str(tmp_path)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 1, out.stderr
    assert "Traceback" not in out.stderr
    report = json.loads(out.stdout)
    assert sorted(Path(s["path"]).parent.name for s in report["skills"]) == sorted(expected)
    found: dict[str, set[str]] = {folder: set() for folder in expected}
    for f in report["findings"]:
        found[Path(f["path"]).parent.name].add(f["code"])
    # The CLI reports what the engine reports for each case (names differ from folders, hence NAME_MISMATCH).
    missing = {folder: codes - found[folder] for folder, codes in expected.items() if codes - found[folder]}
    assert not missing, missing
