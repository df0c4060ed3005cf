"""`check --fix` / `--fix --diff`: apply the same safe fixes as the editor's fix-all."""

from __future__ import annotations

import difflib
import os
from typing import TextIO

from ..engine.config import Settings
from ..engine.discovery import ReadError, read_skill_file
from ..engine.document import decode
from ..engine.skillgraph import link_mentions
from ..engine.workspace import SkillResult, check_file, fix_all_text, link_skills


def apply_fixes(results: list[SkillResult], settings: Settings, *, diff: bool, out: TextIO) -> list[SkillResult]:
    fixed: list[SkillResult] = []
    changed = 0
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
        new = fix_all_text(text, r.path, settings)
        if new == text:
            fixed.append(r)
            continue
        changed += 1
        if diff:
            rel = os.path.relpath(r.path)
            out.writelines(difflib.unified_diff(text.splitlines(keepends=True), new.splitlines(keepends=True),
                                                f"a/{rel}", f"b/{rel}"))
            fixed.append(r)
            continue
        bom = "\ufeff" if raw.startswith(b"\xef\xbb\xbf") else ""
        with open(r.path, "w", encoding="utf-8", newline="") as fh:
            fh.write(bom + new)
        fixed.append(check_file(r.path, settings, r.location).slim())
    if not diff:
        link_skills([r for r in fixed if r.location is not None and r.location.root_index >= 0], settings)
        link_mentions(fixed, settings)
    return fixed
