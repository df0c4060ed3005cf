"""A finding as `check --format json` writes it, as JSON text.

Written in the worker that checked the skill, from the whole text and the fixes built there
(``workspace.slim_for_check``), and by the report for findings added afterwards: both go
through ``finding_json``, so a finding reads the same whichever wrote it. Each piece is the
text ``json.dumps(..., ensure_ascii=False)`` makes of the report's dicts.
"""

from __future__ import annotations

from .findings import APPLICABILITIES, Finding
from .jsontext import dumps, string
from .result import fixes_key
from .text import Encoding, PositionTable, SourceText

TYPE_CHECKING = False  # type checkers take this as True
if TYPE_CHECKING:
    from .edits import Fix

Src = SourceText | PositionTable


def range_json(src: Src | None, start: int, end: int) -> str:
    """An LSP range (UTF-16 characters) of a span."""
    sl, sc = src.position(start, Encoding.UTF16) if src is not None else (0, 0)
    el, ec = src.position(end, Encoding.UTF16) if src is not None else (0, 0)
    return f'{{"start": {{"line": {sl}, "character": {sc}}}, "end": {{"line": {el}, "character": {ec}}}}}'


def fix_json(src: Src, fix: Fix) -> str:
    parts = [f'{{"title": {string(fix.title)}, "applicability": "{fix.applicability}"']
    if fix.unsafe_because:
        parts.append(f', "unsafeBecause": {string(fix.unsafe_because)}')
    if fix.rename is not None:
        parts.append(f', "rename": {{"from": {string(fix.rename[0])}, "to": {string(fix.rename[1])}}}')
    edits = ", ".join(f'{{"range": {range_json(src, e.start, e.end)}, "newText": {string(e.text)}}}'
                      for e in fix.edits)
    parts.append(f', "edits": [{edits}]}}')
    return "".join(parts)


def finding_json(path: str, src: Src | None, f: Finding, menu: list[Fix] | None,
                 srcs: dict[str, Src | None]) -> str:
    """``f`` of the file ``path`` (already as JSON text) with the fixes of ``menu``; ``srcs``: the
    positions of the files its related information points into."""
    sl, s32, s16 = src.columns(f.start) if src is not None else (0, 0, 0)
    el, e32, e16 = src.columns(f.end) if src is not None else (0, 0, 0)
    item = (f'{{"path": {path}, "code": {string(f.code)}, "severity": "{f.severity.label}", '
            f'"message": {string(f.message)}, "line": {sl + 1}, "column": {s32 + 1}, '
            f'"endLine": {el + 1}, "endColumn": {e32 + 1}, "range": {{"start": {{"line": {sl}, '
            f'"character": {s16}}}, "end": {{"line": {el}, "character": {e16}}}}}')
    # Optional keys only when they carry something.
    if f.data:
        item += ', "data": ' + dumps(f.data)
    if f.related:
        related = ", ".join(f'{{"path": {string(rel.path)}, "message": {string(rel.message)}, '
                            f'"range": {range_json(srcs.get(rel.path), rel.start, rel.end)}}}'
                            for rel in f.related)
        item += f', "related": [{related}]'
    if menu and src is not None:
        item += ', "fixes": [' + ", ".join(fix_json(src, fix) for fix in menu) + "]"
    return item + "}"


def best(menu: list[Fix] | None) -> str | None:
    """The best applicability among the fixes (safe before unsafe before display-only), or None."""
    return min((f.applicability for f in menu), key=APPLICABILITIES.index) if menu else None


def prerendered(path: str, src: SourceText, findings: list[Finding], fixes: dict) -> list[tuple[Finding, str, str | None]]:
    """(finding, its JSON text, its best fix's applicability) of each finding whose related
    information stays in its own file (``fixes``: ``SkillResult.fixes``)."""
    from .fixes import has_fixes  # noqa: PLC0415 - the report only

    own: dict[str, Src | None] = {path: src}
    quoted = string(path)
    out = []
    for f in findings:
        if any(rel.path != path for rel in f.related):
            continue  # positions in another file: only the report has them
        menu = fixes.get(fixes_key(f)) if has_fixes(f.code) else None
        out.append((f, finding_json(quoted, src, f, menu, own), best(menu)))
    return out
