"""`check --fix` / `--fix --diff`: apply the same safe fixes as the editor's fix-all (and the unsafe
ones too with `--unsafe-fixes`; engine/fixes.py says which is which).

Files are written only through :mod:`..engine.writes`: read once, fixed, and replaced
atomically only if the disk still holds what was read and the file lies inside the
folders named on the command line. A file that cannot be written is reported and the
run goes on.
"""

from __future__ import annotations

import difflib
import os
from collections import Counter
from typing import TextIO

from ..engine.aliases import groups, real_of
from ..engine.config import Settings
from ..engine.datarecord import datarecord, field
from ..engine.document import decode
from ..engine.skillgraph import link_mentions
from ..engine.suppress import scan, shown
from ..engine.workspace import SkillResult, check_file, check_text, fix_all_text, link_skills
from ..engine.writes import WriteError, replace, snapshot


@datarecord(slots=True)
class FixLog:
    """Per file, how many findings of each code the fixes removed (or would remove, with --diff)."""

    files: list[tuple[str, Counter[str]]] = field(default_factory=list)
    failed: list[WriteError] = field(default_factory=list)  # files with fixes that were not written

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

    def write_failures(self, out: TextIO) -> None:
        for err in self.failed:
            out.write(f"skill-lsp: {_rel(err.path)}: not fixed: {err.message}\n")
        if self.failed:
            n = len(self.failed)
            out.write(f"skill-lsp: {n} file{'s' if n != 1 else ''} could not be written\n")


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
                out: TextIO, allowed: tuple[str, ...], unsafe: bool = False) -> tuple[list[SkillResult], FixLog]:
    """Fix every result's file inside ``allowed`` (real paths: folders and files named on the
    command line); with ``diff``, print the changes instead of writing them."""
    fixed: list[SkillResult] = []
    log = FixLog()
    done: set[str] = set()  # the files fixed (or diffed), by what discovery resolved their paths to
    # A file found at two places is fixed at the one reached without a link, the file the author
    # edits (aliases.canonical); the results keep their order.
    later = {id(m) for group in groups(results) for m in group[1:]}
    for r in [r for r in results if id(r) not in later] + [r for r in results if id(r) in later]:
        real = real_of(r)
        if real in done:
            # The same file at another place (a root linked to another root): fixed once; what
            # was checked at this place is no longer what the disk holds.
            fixed.append(r if diff else check_file(r.path, settings, r.location).slim())
            continue
        if r.src is None or not r.reportable:
            fixed.append(r)
            continue
        try:
            snap = snapshot(r.path, allowed)
        except WriteError as err:
            if err.kind == "outside":
                log.failed.append(err)
            fixed.append(r)  # unreadable or not a plain file: its findings say so already
            continue
        text, issue = decode(snap.data)
        if issue is not None:
            fixed.append(r)  # never rewrite a file we could not decode faithfully
            continue
        new = fix_all_text(text, r.path, settings, unsafe=unsafe)
        if new == text:
            fixed.append(r)
            continue
        done.add(real)
        if diff:
            rel = os.path.relpath(r.path)
            out.writelines(difflib.unified_diff(text.splitlines(keepends=True), new.splitlines(keepends=True),
                                                f"a/{rel}", f"b/{rel}"))
            doc, after = check_text(new, r.path, settings)
            log.files.append((r.path, _removed(r.shown(settings, "local"), shown(after, scan(doc), settings, r.path, "local"))
                              or Counter({"(formatting)": 1})))
            fixed.append(r)
            continue
        bom = b"\xef\xbb\xbf" if snap.data.startswith(b"\xef\xbb\xbf") else b""
        try:
            replace(snap, bom + new.encode("utf-8"))
        except WriteError as err:
            log.failed.append(err)
            fixed.append(r)
            continue
        again = check_file(r.path, settings, r.location).slim()
        log.files.append((r.path, _removed(r.shown(settings, "local"), again.shown(settings, "local"))
                          or Counter({"(formatting)": 1})))
        fixed.append(again)
    if later:
        at = {r.path: i for i, r in enumerate(results)}
        fixed.sort(key=lambda r: at[r.path])
    if not diff:
        link_skills([r for r in fixed if r.location is not None and r.location.root_index >= 0], settings)
        link_mentions(fixed, settings)
    return fixed, log
