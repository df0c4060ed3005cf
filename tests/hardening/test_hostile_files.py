"""Hostile and broken SKILL.md files: YAML bombs, odd text, huge files (engine + CLI).

Each YAML case must give a finding within a bounded time (target 100 ms; asserted against
TIME_BOUND = 1 s so CI noise never flakes) and bounded memory (tracemalloc peak).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest

from skill_lsp.engine import document, yamlnodes
from skill_lsp.engine.config import Settings
from skill_lsp.engine.text import Encoding, SourceText
from skill_lsp.engine.workspace import check_file, check_text, fix_all_text

from .conftest import TIME_BOUND

SETTINGS = Settings()
FM = "---\nname: demo\ndescription: Does a thing. Use when testing.\n"


def _bomb(levels: int = 9, width: int = 9) -> str:
    lines = [FM.rstrip("\n"), "a0: &a0 [" + ", ".join(['"lol"'] * width) + "]"]
    for i in range(1, levels + 1):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * width) + "]")
    return "\n".join(lines) + "\n---\nbody\n"


def _merge_bomb() -> str:
    lines = [FM.rstrip("\n"), "m0: &m0 {k: v}"]
    for i in range(1, 40):
        lines.append(f"m{i}: &m{i} {{<<: *m{i - 1}, a: *m{i - 1}, b: *m{i - 1}}}")
    return "\n".join(lines) + "\n---\n"


YAML_CASES = {
    "billion-laughs": (_bomb(), {"FRONTMATTER_LIMIT"}),
    "billion-laughs-wide": (_bomb(levels=20, width=2), {"FRONTMATTER_LIMIT"}),
    "merge-key-bomb": (_merge_bomb(), {"FRONTMATTER_LIMIT"}),
    "self-alias": (FM + "x: &x [*x]\n---\n", None),
    "undefined-alias": (FM + "x: *nope\n---\n", {"INVALID_FRONTMATTER"}),
    "thousands-of-[": (FM + "x: " + "[" * 5000 + "\n---\n", {"FRONTMATTER_LIMIT"}),
    "thousands-of-{": (FM + "x: " + "{a: " * 5000 + "\n---\n", {"FRONTMATTER_LIMIT"}),
    "deep-block-nesting": (FM + "".join(" " * i + f"k{i}:\n" for i in range(400)) + "---\n", {"FRONTMATTER_LIMIT"}),
    "deep-block-seq": (FM + "x:\n" + "".join("  " * i + "-\n" for i in range(400)) + "---\n", {"FRONTMATTER_LIMIT"}),
    "many-closing-]": (FM + "x: " + "]" * 5000 + "\n---\n", {"INVALID_FRONTMATTER"}),
    "tab-indentation": ("---\nname: demo\n\tdescription: x\n---\n", {"INVALID_FRONTMATTER"}),
    "tab-in-nested": (FM + "metadata:\n\tk: v\n---\n", {"INVALID_FRONTMATTER"}),
    "duplicate-keys": ("---\nname: demo\nname: demo\ndescription: x\n---\n", {"DUPLICATE_KEY"}),
    "duplicate-nested": (FM + "metadata:\n  a: 1\n  a: 2\n---\n", {"DUPLICATE_KEY"}),
    "doc-is-list": ("---\n- name: demo\n- description: x\n---\n", {"INVALID_FRONTMATTER"}),
    "doc-is-scalar": ("---\njust text\n---\n", {"INVALID_FRONTMATTER"}),
    "doc-is-null": ("---\n~\n---\n", None),
    "two-documents": ("---\nname: demo\n...\n---\ndescription: x\n---\n", None),
    "python-object": (FM + "x: !!python/object/apply:os.system ['touch /tmp/skill-lsp-pwned']\n---\n", {"YAML_TAG"}),
    "python-name": ("---\nname: !!python/name:os.system demo\ndescription: x\n---\n", {"YAML_TAG"}),
    "python-module": (FM + "x: !!python/module:subprocess\n---\n", {"YAML_TAG"}),
    "custom-tags": (FM + "x: !custom {a: !other 1}\ny: !<tag:example.com,2000:app/foo> z\n---\n", {"YAML_TAG"}),
    "invalid-escape": ('---\nname: demo\ndescription: "bad \\q escape"\n---\n', {"INVALID_FRONTMATTER"}),
    "invalid-unicode-escape": ('---\nname: demo\ndescription: "\\uZZZZ \\U0011FFFF"\n---\n', {"INVALID_FRONTMATTER"}),
    "invalid-timestamp": (FM + "updated: 2025-13-45\ncreated: 2025-02-30T99:99:99\n---\n", None),
    "huge-int": (FM + "version: " + "9" * 5000 + "\n---\n", None),
    "huge-float": (FM + "x: 1e99999\ny: .nan\n---\n", None),
    "unclosed-quote": ('---\nname: "demo\ndescription: x\n---\n', {"INVALID_FRONTMATTER"}),
    "control-char": (FM + "x: a\x07b\n---\n", {"INVALID_FRONTMATTER"}),
    "directive": ("---\n%YAML 1.1\n---\nname: demo\n---\n", None),
    "complex-key": (FM + "? [a, b]\n: v\n? {x: y}\n: w\n---\n", None),
    "anchor-on-name": ("---\nname: &n demo\ndescription: *n\n---\n", None),
    "alias-as-key": ("---\nk: &k name\n*k : demo\ndescription: x\n---\n", None),
}


def _measure(fn):
    tracemalloc.start()
    t0 = time.perf_counter()
    try:
        out = fn()
    finally:
        elapsed = time.perf_counter() - t0
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return out, elapsed, peak


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
    (doc, findings), elapsed, peak = _measure(lambda: check_text(text, "/v/demo/SKILL.md", SETTINGS, on_disk=False))
    codes = {f.code for f in findings}
    if expected is not None:
        assert expected <= codes, (name, codes, [f.message for f in findings])
    assert elapsed < TIME_BOUND, (name, elapsed)
    assert peak < 32 * 1024 * 1024, (name, peak)
    _assert_ranges(text, findings)
    # Every value a rule or preview could read is bounded too (aliases are counted, never expanded).
    (_, elapsed2, peak2) = _measure(lambda: (doc.frontmatter_values(), [yamlnodes.to_python(e.value)
                                                                        for e in doc.entries.values()]))
    assert elapsed2 < TIME_BOUND and peak2 < 32 * 1024 * 1024
    fixed = fix_all_text(text, "/v/demo/SKILL.md", SETTINGS, on_disk=False)
    assert fix_all_text(fixed, "/v/demo/SKILL.md", SETTINGS, on_disk=False) == fixed


def test_alias_bomb_is_linear_in_nodes():
    root, err, _ = yamlnodes.compose(_bomb()[4:])
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


# --- text-level oddities -------------------------------------------------------------------

TEXT_CASES = {
    "nul-bytes": (FM + "---\nbo\x00dy\n", None),
    "nul-in-frontmatter": ("---\nname: de\x00mo\ndescription: x\n---\n", {"INVALID_FRONTMATTER"}),
    "lone-cr": ("---\rname: demo\rdescription: Does a thing. Use when testing.\r---\rbody\r", set()),
    "mixed-endings": ("---\r\nname: demo\ndescription: Does a thing. Use when testing.\r---\r\nbody\n\rmore\r\n", set()),
    "u2028-u2029-body": (FM + "---\nbo\u2028dy\u2029end\n", set()),
    "u2028-in-value": ("---\nname: demo\ndescription: a\u2028b\n---\n", None),
    "form-feeds": (FM + "---\n\x0c\nbody\x0cpage\n", None),
    "form-feed-in-value": ("---\nname: demo\ndescription: a\x0cb\n---\n", None),
    "zero-width-name": ("---\nname: de\u200bmo\ndescription: x\n---\n", {"NAME_SPOOFABLE"}),
    "zwj-name": ("---\nname: de\u200dmo\ndescription: x\n---\n", {"NAME_SPOOFABLE"}),
    "bidi-override-name": ("---\nname: demo\u202e\ndescription: x\n---\n", {"NAME_SPOOFABLE"}),
    "bidi-isolate-name": ("---\nname: \u2066demo\u2069\ndescription: x\n---\n", {"NAME_SPOOFABLE"}),
    "bom-in-name": ("---\nname: de\ufeffmo\ndescription: x\n---\n", {"NAME_SPOOFABLE"}),
    "soft-hyphen-name": ("---\nname: de\u00admo\ndescription: x\n---\n", {"NAME_SPOOFABLE"}),
    "arabic-mark-name": ("---\nname: demo\u061c\ndescription: x\n---\n", {"NAME_SPOOFABLE"}),
    "lone-surrogate": (FM + "---\nbad \ud800 surrogate\n", None),
    "astral": ("---\nname: demo\ndescription: 😀😀 𝔘𝔫𝔦𝔠𝔬𝔡𝔢\n---\n😀 [x](😀.md)\n", None),
    "empty": ("", {"MISSING_FRONTMATTER"}),
    "only-dashes": ("---", {"INVALID_FRONTMATTER"}),
    "only-dashes-newline": ("---\n", {"INVALID_FRONTMATTER"}),
    "two-fences": ("---\n---\n", {"MISSING_FIELD"}),
    "bom-only": ("\ufeff", {"MISSING_FRONTMATTER"}),
    "whitespace-only": (" \n\t\n  ", {"MISSING_FRONTMATTER"}),
    "crlf-only-fences": ("---\r\n---\r\n", {"MISSING_FIELD"}),
}


@pytest.mark.parametrize("name", sorted(TEXT_CASES))
def test_odd_text_gives_findings_with_valid_ranges(name):
    text, expected = TEXT_CASES[name]
    (doc, findings), elapsed, _ = _measure(lambda: check_text(text, "/v/demo/SKILL.md", SETTINGS, on_disk=False))
    codes = {f.code for f in findings}
    if expected is not None:
        assert expected <= codes, (name, codes)
        if expected == set():
            assert not {c for c in codes if c not in ("TRAILING_WHITESPACE",)}, (name, codes)
    assert elapsed < TIME_BOUND
    _assert_ranges(text, findings)
    fixed = fix_all_text(text, "/v/demo/SKILL.md", SETTINGS, on_disk=False)
    assert fix_all_text(fixed, "/v/demo/SKILL.md", SETTINGS, on_disk=False) == fixed


def test_line_index_never_breaks_at_u2028_or_form_feed():
    src = SourceText("a\u2028b\x0cc\x85d\ne")
    assert src.line_count == 2
    assert src.position(len("a\u2028b\x0cc\x85d\n")) == (1, 0)


def test_ten_megabyte_single_line_value():
    text = FM.replace("Does a thing", "x" * 10_000_000) + "---\nbody\n"
    (_, findings), elapsed, peak = _measure(lambda: check_text(text, "/v/demo/SKILL.md", SETTINGS, on_disk=False))
    codes = [f.code for f in findings]
    assert codes.count("FILE_TOO_LARGE") == 1
    assert "FRONTMATTER_LIMIT" in codes, [f.message for f in findings]
    assert elapsed < TIME_BOUND
    assert peak < 64 * 1024 * 1024
    _assert_ranges(text, findings)


def test_large_frontmatter_below_the_analysis_limit():
    text = FM.replace("Does a thing", "x" * 600_000) + "---\nbody\n"
    (_, findings), elapsed, _ = _measure(lambda: check_text(text, "/v/demo/SKILL.md", SETTINGS, on_disk=False))
    assert "FRONTMATTER_LIMIT" in {f.code for f in findings}
    assert elapsed < TIME_BOUND


def _write(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


BYTE_CASES = {
    "invalid-utf8": (b"---\nname: demo\ndescription: caf\xe9\n---\n", "INVALID_ENCODING"),
    "truncated-utf8": (b"---\nname: demo\ndescription: x\n---\n\xe2\x82", "INVALID_ENCODING"),
    "utf16-le-bom": ("\ufeff---\nname: demo\ndescription: x\n---\n".encode("utf-16-le"), "INVALID_ENCODING"),
    "utf16-be-bom": ("\ufeff---\nname: demo\ndescription: x\n---\n".encode("utf-16-be"), "INVALID_ENCODING"),
    "utf16-odd-length": (b"\xff\xfe-\x00-\x00-", "INVALID_ENCODING"),
    "nul-bytes": (b"---\nname: demo\ndescription: x\n---\nbo\x00dy\n", "INVALID_ENCODING"),
    "utf8-bom": (b"\xef\xbb\xbf---\nname: demo\ndescription: Does a thing. Use when testing.\n---\nbody\n", None),
    "empty": (b"", "MISSING_FRONTMATTER"),
    "only-dashes": (b"---", "INVALID_FRONTMATTER"),
}


@pytest.mark.parametrize("name", sorted(BYTE_CASES))
def test_bytes_on_disk(tmp_path, name):
    data, code = BYTE_CASES[name]
    path = _write(tmp_path / "skills" / "demo" / "SKILL.md", data)
    r, elapsed, _ = _measure(lambda: check_file(str(path), SETTINGS))
    codes = {f.code for f in r.findings}
    if code is not None:
        assert code in codes, (name, codes)
    else:
        assert not codes, codes
    assert elapsed < TIME_BOUND
    for f in r.findings:
        assert 0 <= f.start <= f.end <= len(r.doc.text)


def test_twenty_megabyte_skill_md(tmp_path):
    body = ("A line of body text that goes on for a while. " * 2 + "\n") * 220_000
    path = _write(tmp_path / "skills" / "demo" / "SKILL.md", (FM + "---\n" + body).encode())
    assert path.stat().st_size > 20_000_000
    r, elapsed, peak = _measure(lambda: check_file(str(path), SETTINGS))
    codes = [f.code for f in r.findings]
    assert codes.count("FILE_TOO_LARGE") == 1, codes
    too_large = next(f for f in r.findings if f.code == "FILE_TOO_LARGE")
    assert f"{document.MAX_ANALYSED_CHARS // 1024} KiB" in too_large.message
    assert len(r.doc.text) <= document.MAX_ANALYSED_CHARS
    assert elapsed < 5 * TIME_BOUND
    assert peak < 64 * 1024 * 1024  # the read stops at READ_LIMIT; nothing holds 20 MB


def test_cli_check_on_hostile_files(tmp_path):
    """`skill-lsp check` over a root of broken skills exits 1 with findings, never a traceback."""
    root = tmp_path / ".agents" / "skills"
    for i, name in enumerate(sorted(YAML_CASES)):
        _write(root / f"y{i}" / "SKILL.md", YAML_CASES[name][0].encode("utf-8", "surrogatepass"))
    for i, name in enumerate(sorted(BYTE_CASES)):
        _write(root / f"b{i}" / "SKILL.md", BYTE_CASES[name][0])
    for i, name in enumerate(sorted(TEXT_CASES)):
        _write(root / f"t{i}" / "SKILL.md", TEXT_CASES[name][0].encode("utf-8", "surrogatepass"))
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "skill_lsp", "check", "--format", "json", str(tmp_path)],
                         capture_output=True, text=True, timeout=120)
    assert time.perf_counter() - t0 < 60
    assert out.returncode == 1, out.stderr
    assert "Traceback" not in out.stderr
    data = json.loads(out.stdout)
    assert data
