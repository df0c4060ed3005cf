"""Proof that `skill-lsp check --fix` changes only findings' spans and never code.

    python benchmarks/fix_safety.py DIR [DIR...] [--unsafe-fixes] [--json OUT] [--keep]

Copies each DIR to a temporary folder (the sources are never written), lists the findings
of the copy with `check --format json`, runs `check --fix` on it, and compares every file
of the copy with its source:

- a file that changed must be a skill file the check listed;
- every changed region of it must lie inside the span of a finding reported before the fix;
- no changed region may touch code: a fenced or indented code block, a code span, a
  `<code>`-like element, an HTML block or an HTML comment;
- the page the body renders to must stay the same (markdown-it, CommonMark with tables;
  invisible characters, link destinations and blanks at a line's end set aside), unless a fix
  meant to change shown text ran there (BACKSLASH_PATH, ABSOLUTE_LINK).

Code is found here by a scanner of its own (markdown-it-py block maps, CommonMark backtick
runs), not by the engine's parse, so an engine bug does not hide itself. The report is per
changed file, then totals; exit 1 when any region broke a rule.

`--unsafe-fixes` audits `check --fix --unsafe-fixes` instead: those fixes may edit code by
design, so code regions are expected there (the test suite uses it to show the audit sees them).
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

from markdown_it import MarkdownIt

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "hardening"))
from _common import skill_lsp_cmd  # noqa: E402
from rendered_page import SHOWN_TEXT_FIXES, page  # noqa: E402

_LINE = re.compile(r"\r\n|\r|\n")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_CODE_ELEMENT = re.compile(r"<(code|kbd|samp|pre|tt|var)\b[^>]*>.*?</\1\s*>", re.S | re.I)
_TICKS = re.compile(r"`+")
_CONTAINER = re.compile(r"(?:[ \t]*(?:>|[-*+]|\d{1,9}[.)])(?=[ \t]))*[ \t]*")
# A closing fence on a line of its own, whatever ends the line (CRLF files: the audit of the seventh
# batch saw a CRLF frontmatter compared as body text).
_FENCE_CLOSE = re.compile(r"(?:(?<=[\r\n])|\A)(?:---|\.\.\.)[ \t]*(?=\r\n|\r|\n|\Z)")


@dataclass
class FileReport:
    path: str
    regions: int = 0  # changed regions (in the original text)
    inside_findings: int = 0
    outside_findings: list[str] = field(default_factory=list)  # "line L: 'old' -> 'new'"
    in_code: list[str] = field(default_factory=list)
    codes: list[str] = field(default_factory=list)  # codes of the findings whose spans changed
    page: str = ""  # the first line of the rendered body that changed ("" when none did)


@dataclass
class Audit:
    sources: list[str]
    unsafe: bool
    skills: int = 0
    files_compared: int = 0
    findings_before: int = 0
    files_changed: list[FileReport] = field(default_factory=list)
    unexpected_files: list[str] = field(default_factory=list)  # changed, but not a checked skill file
    code_spans: int = 0  # code spans in the changed files
    pages_compared: int = 0  # changed files whose page was rendered before and after
    # Findings whose fix the guard made unsafe (JSON `unsafeBecause`), by "CODE: reason".
    guarded: dict[str, int] = field(default_factory=dict)

    @property
    def regions(self) -> int:
        return sum(f.regions for f in self.files_changed)

    @property
    def outside(self) -> int:
        return sum(len(f.outside_findings) for f in self.files_changed)

    @property
    def in_code(self) -> int:
        return sum(len(f.in_code) for f in self.files_changed)

    @property
    def pages(self) -> int:
        return sum(bool(f.page) for f in self.files_changed)

    @property
    def ok(self) -> bool:
        return not (self.outside or self.unexpected_files or ((self.in_code or self.pages) and not self.unsafe))


# --------------------------------------------------------------------------- code spans


def _line_starts(text: str) -> list[int]:
    return [0] + [m.end() for m in _LINE.finditer(text)]


def body_start(text: str) -> int:
    """Where the Markdown body starts: after a closed `---` frontmatter, else 0."""
    first = _LINE.search(text)
    if not text.startswith("---") or first is None or text[3:first.start()].strip(" \t"):
        return 0
    m = _FENCE_CLOSE.search(text, first.end())
    if m is None or m.group(0).startswith("..."):
        return 0
    nl = _LINE.match(text, m.end())
    return nl.end() if nl else len(text)


def code_spans(text: str) -> list[tuple[int, int, str]]:
    """Code and raw HTML in a SKILL.md body: (start, end, kind), as document offsets."""
    base = body_start(text)
    body = text[base:]
    # markdown-it wants \n line ends; CRLF and CR become one character each, so map back.
    norm = body.replace("\r\n", "\n").replace("\r", "\n")
    to_doc = _offset_map(body)
    lines = norm.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    out: list[tuple[int, int, str]] = []
    prose: list[tuple[int, int]] = []
    for tok in _md().parse(norm):
        if tok.map is None:
            continue
        first, last = tok.map
        s = starts[first]
        e = starts[last] - 1 if last < len(starts) else len(norm)
        if tok.type in ("fence", "code_block"):
            out.append((s, e, "code block"))
        elif tok.type == "html_block":
            # A block inside a list item or quote: its first line starts after the container's marker.
            out.append((s + _CONTAINER.match(norm, s).end(), e, "html"))
        elif tok.type in ("paragraph_open", "heading_open", "table_open"):
            prose.append((s, e))
    for s, e in prose:
        chunk = norm[s:e]
        masked = list(chunk)
        for cs, ce in _backtick_spans(chunk):
            out.append((s + cs, s + ce, "inline code"))
            masked[cs:ce] = " " * (ce - cs)
        rest = "".join(masked)
        out += [(s + m.start(), s + m.end(), "html") for m in _COMMENT.finditer(rest)]
        out += [(s + m.start(), s + m.end(), "inline code") for m in _CODE_ELEMENT.finditer(rest)]
    return sorted((base + to_doc(s), base + to_doc(e), k) for s, e, k in out)


_MD: MarkdownIt | None = None


def _md() -> MarkdownIt:
    global _MD
    if _MD is None:  # blocks only: inline code is scanned here, from the paragraphs' text
        _MD = MarkdownIt("commonmark").enable("table").disable("inline")
    return _MD


def page_of(text: str) -> str:
    """The body of a SKILL.md as a page, without what a page never shows (rendered_page.py)."""
    return page(text[body_start(text):])


def _backtick_spans(chunk: str) -> list[tuple[int, int]]:
    """CommonMark code spans: a backtick run closed by the next run of the same length."""
    spans = []
    runs = [(m.start(), m.end()) for m in _TICKS.finditer(chunk)]
    i = 0
    while i < len(runs):
        s, e = runs[i]
        if s > 0 and chunk[s - 1] == "\\":
            i += 1  # an escaped backtick opens nothing
            continue
        n = e - s
        j = next((k for k in range(i + 1, len(runs)) if runs[k][1] - runs[k][0] == n), None)
        if j is None:
            i += 1
            continue
        spans.append((s, runs[j][1]))
        i = j + 1
    return spans


def _offset_map(body: str):
    """Offsets in the \\n-normalised body -> offsets in ``body`` (CRLF counts two there)."""
    if "\r\n" not in body:
        return lambda i: i
    extra = []  # normalised offsets just after each CRLF's \n
    n = 0
    for m in re.finditer(r"\r\n|\r|\n", body):
        if m.group(0) == "\r\n":
            extra.append(m.start() - n + 1)
            n += 1
    from bisect import bisect_right

    return lambda i: i + bisect_right(extra, i)


# --------------------------------------------------------------------------- the audit


def _decode(data: bytes) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return data.decode("utf-8", "replace")


def _offset(starts: list[int], text: str, line: int, col: int) -> int:
    """1-based line and code point column -> offset."""
    return min(starts[line - 1] + col - 1, len(text)) if line - 1 < len(starts) else len(text)


def _regions(old: str, new: str) -> list[tuple[int, int, str, str]]:
    """Changed regions as (start, end in old, old text, new text).

    With as many lines before as after (most fixes edit inside lines), line i is compared with
    line i: a line diff would pair whitespace-only lines of a block however it likes, and
    report a trimmed line as a deletion here and an insertion there. Otherwise a line diff,
    then a character diff inside each changed block.
    """
    out = []
    a, b = old.splitlines(keepends=True), new.splitlines(keepends=True)
    a_starts = [0]
    for line in a:
        a_starts.append(a_starts[-1] + len(line))
    b_starts = [0]
    for line in b:
        b_starts.append(b_starts[-1] + len(line))
    if len(a) == len(b):
        opcodes = [("replace", i, i + 1, i, i + 1) for i in range(len(a)) if a[i] != b[i]]
    else:
        opcodes = difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    for tag, i1, i2, j1, j2 in opcodes:
        if tag == "equal":
            continue
        o0, n0 = a_starts[i1], b_starts[j1]
        o, n = old[o0:a_starts[i2]], new[n0:b_starts[j2]]
        for t2, k1, k2, l1, l2 in difflib.SequenceMatcher(None, o, n, autojunk=False).get_opcodes():
            if t2 != "equal":
                out.append((o0 + k1, o0 + k2, o[k1:k2], n[l1:l2]))
    return out


def _tree(root: Path) -> dict[str, bytes]:
    out = {}
    for dirpath, _dirs, files in os.walk(root):
        for f in files:
            p = Path(dirpath) / f
            if p.is_symlink() or not p.is_file():
                continue
            out[str(p.relative_to(root))] = p.read_bytes()
    return out


def run_cli(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*skill_lsp_cmd(), *args], capture_output=True, text=True, cwd=cwd, timeout=3600)


def audit(sources: list[Path], work: Path, *, unsafe: bool = False) -> Audit:
    result = Audit([str(s) for s in sources], unsafe)
    copies = []
    for i, src in enumerate(sources):
        dst = work / f"{i}-{src.name}"
        shutil.copytree(src, dst, symlinks=True)
        copies.append((src, dst))
    before = {}
    for _src, dst in copies:
        before[dst] = _tree(dst)
    names = [str(dst.relative_to(work)) for _s, dst in copies]
    proc = run_cli(["check", "--format", "json", "--fail-on", "never", *names], work)
    if proc.returncode != 0:
        raise SystemExit(f"check failed (rc {proc.returncode}): {proc.stderr[-2000:]}")
    data = json.loads(proc.stdout)
    result.skills = data["summary"]["skills"]
    result.findings_before = len(data["findings"])
    spans: dict[str, list[tuple[int, int, str]]] = {}
    texts: dict[str, str] = {}
    for f in data["findings"]:
        for fx in f.get("fixes", [])[:1]:
            if fx.get("unsafeBecause"):
                key = f"{f['code']}: {fx['unsafeBecause']}"
                result.guarded[key] = result.guarded.get(key, 0) + 1
        path = os.path.realpath(f["path"])
        if path not in texts:
            try:
                texts[path] = _decode(Path(path).read_bytes())
            except OSError:
                continue
        text = texts[path]
        starts = _line_starts(text)
        spans.setdefault(path, []).append((_offset(starts, text, f["line"], f["column"]),
                                           _offset(starts, text, f["endLine"], f["endColumn"]), f["code"]))
    skill_files = {os.path.realpath(s["path"]) for s in data["skills"]}
    fix = ["check", "--fix", "--format", "json", "--fail-on", "never", *names]
    if unsafe:
        fix.insert(2, "--unsafe-fixes")
    proc = run_cli(fix, work)
    if proc.returncode != 0:
        raise SystemExit(f"check --fix failed (rc {proc.returncode}): {proc.stderr[-2000:]}")
    for _src, dst in copies:
        after = _tree(dst)
        for rel in sorted(set(before[dst]) | set(after)):
            result.files_compared += 1
            old_b, new_b = before[dst].get(rel), after.get(rel)
            if old_b == new_b:
                continue
            path = os.path.realpath(dst / rel)
            if path not in skill_files or old_b is None or new_b is None:
                result.unexpected_files.append(str(dst / rel))
                continue
            old, new = _decode(old_b), _decode(new_b)
            report = FileReport(str(dst.relative_to(work) / rel))
            code = code_spans(old)
            result.code_spans += len(code)
            found = spans.get(path, [])
            starts = _line_starts(old)
            codes = set()
            for s, e, was, now in _regions(old, new):
                report.regions += 1
                where = f"line {_line_of(starts, s) + 1}: {was!r} -> {now!r}"
                hit = [c for fs, fe, c in found if (fs <= s and e <= fe)]
                if hit:
                    report.inside_findings += 1
                    codes.update(hit)
                else:
                    report.outside_findings.append(where)
                for cs, ce, kind in code:
                    if (s < ce and e > cs) if e > s else (cs < s < ce):
                        report.in_code.append(f"{where} ({kind})")
                        break
            report.codes = sorted(codes)
            if not codes & SHOWN_TEXT_FIXES:
                result.pages_compared += 1
                was_page, now_page = page_of(old).split("\n"), page_of(new).split("\n")
                changed = next((f"{a!r} -> {b!r}" for a, b in zip(was_page, now_page, strict=False) if a != b),
                               "" if was_page == now_page else "lines added or removed")
                report.page = changed[:300]
            result.files_changed.append(report)
    return result


def _line_of(starts: list[int], offset: int) -> int:
    from bisect import bisect_right

    return bisect_right(starts, offset) - 1


def render(a: Audit) -> str:
    lines = [f"sources: {', '.join(a.sources)}",
             f"mode: check --fix{' --unsafe-fixes' if a.unsafe else ''}",
             f"skills checked: {a.skills}; findings before: {a.findings_before}; files compared: {a.files_compared}",
             ""]
    for f in a.files_changed:
        status = "ok" if not (f.outside_findings or f.in_code or f.page) else "VIOLATION"
        lines.append(f"{f.path}: {f.regions} changed regions, {f.inside_findings} inside findings' spans "
                     f"({', '.join(f.codes) or '-'}), {len(f.outside_findings)} outside, {len(f.in_code)} in code: {status}")
        lines += [f"    outside: {w}" for w in f.outside_findings]
        lines += [f"    in code: {w}" for w in f.in_code]
        lines += [f"    page rendered otherwise: {f.page}"] if f.page else []
    lines += [f"unexpected change: {p}" for p in a.unexpected_files]
    if a.guarded:
        lines += ["", "fixes left out as unsafe by the guard (code, raw HTML, examples of what not to do):"]
        lines += [f"    {k}: {n}" for k, n in sorted(a.guarded.items())]
    lines += ["",
              f"files changed: {len(a.files_changed)}; changed regions: {a.regions}; outside findings' spans: "
              f"{a.outside}; in code: {a.in_code} (of {a.code_spans} code spans in the changed files); "
              f"pages rendered otherwise: {a.pages} (of {a.pages_compared} compared); other files changed: {len(a.unexpected_files)}",
              "result: " + ("OK" if a.ok else "VIOLATIONS")]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sources", nargs="+", type=Path)
    ap.add_argument("--unsafe-fixes", action="store_true")
    ap.add_argument("--json", type=Path, help="also write the audit as JSON here")
    ap.add_argument("--keep", action="store_true", help="keep the fixed copy (its path is printed)")
    args = ap.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="fix-safety-"))
    try:
        a = audit([s.resolve() for s in args.sources], work, unsafe=args.unsafe_fixes)
        sys.stdout.write(render(a))
        if args.json:
            args.json.write_text(json.dumps({**asdict(a), "regions": a.regions, "outside": a.outside,
                                             "in_code": a.in_code, "pages": a.pages, "ok": a.ok}, indent=2) + "\n")
        if args.keep:
            print(f"fixed copy: {work}")
        return 0 if a.ok else 1
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
