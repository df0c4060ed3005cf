"""`check --fix` / `--fix --diff`: apply the same safe fixes as the editor's fix-all (and the unsafe
ones too with `--unsafe-fixes`; engine/fixes.py says which is which)."""

from __future__ import annotations

import difflib
import os
from collections import Counter
from dataclasses import dataclass, field
from typing import TextIO

from ..engine.config import Settings
from ..engine.discovery import ReadError, read_skill_file
from ..engine.document import decode
from ..engine.skillgraph import link_mentions
from ..engine.workspace import SkillResult, check_file, check_text, fix_all_text, link_skills


@dataclass(slots=True)
class FixLog:
    """Per file, how many findings of each code the fixes removed (or would remove, with --diff)."""

    files: list[tuple[str, Counter[str]]] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(sum(c.values()) for _, c in self.files)

    def write(self, out: TextIO, *, pending: bool) -> None:
        verb = "would fix" if pending else "fixed"
        for path, codes in self.files:
            what = ", ".join(f"{code} x{n}" if n > 1 else code for code, n in sorted(codes.items()))
            out.write(f"{_rel(path)}: {verb} {_count(sum(codes.values()))} ({what})\n")
        files = len(self.files)
        out.write(f"{verb} {_count(self.total)} in {files} file{'s' if files != 1 else ''}\n")


def _count(n: int) -> str:
    return f"{n} finding{'s' if n != 1 else ''}"


def _rel(path: str) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:
        return path


def _removed(before: list, after: list) -> Counter[str]:
    return Counter(f.code for f in before) - Counter(f.code for f in after)


def apply_fixes(results: list[SkillResult], settings: Settings, *, diff: bool,
                out: TextIO, unsafe: bool = False) -> tuple[list[SkillResult], FixLog]:
    fixed: list[SkillResult] = []
    log = FixLog()
    for r in results:
        if r.src is None or not r.findings:
            fixed.append(r)
            continue
        try:
            raw, size = read_skill_file(r.path)  # never blocks on a FIFO swapped in meanwhile
        except ReadError:
            fixed.append(r)
            continue
        if size > len(raw):
            fixed.append(r)  # past the analysis limit: never rewrite what was not read whole
            continue
        text, issue = decode(raw)
        if issue is not None:
            fixed.append(r)  # never rewrite a file we could not decode faithfully
            continue
        new = fix_all_text(text, r.path, settings, unsafe=unsafe)
        if new == text:
            fixed.append(r)
            continue
        if diff:
            rel = os.path.relpath(r.path)
            out.writelines(difflib.unified_diff(text.splitlines(keepends=True), new.splitlines(keepends=True),
                                                f"a/{rel}", f"b/{rel}"))
            _, after = check_text(new, r.path, settings)
            log.files.append((r.path, _removed(r.findings, after) or Counter({"(formatting)": 1})))
            fixed.append(r)
            continue
        bom = "\ufeff" if raw.startswith(b"\xef\xbb\xbf") else ""
        with open(r.path, "w", encoding="utf-8", newline="") as fh:
            fh.write(bom + new)
        again = check_file(r.path, settings, r.location).slim()
        log.files.append((r.path, _removed(r.findings, again.findings) or Counter({"(formatting)": 1})))
        fixed.append(again)
    if not diff:
        link_skills([r for r in fixed if r.location is not None and r.location.root_index >= 0], settings)
        link_mentions(fixed, settings)
    return fixed, log
