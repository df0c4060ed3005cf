"""Output formats of `check`: text, json, sarif, github.

Text and GitHub columns are 1-based code points; JSON carries both 1-based
code point columns and a 0-based UTF-16 LSP range; SARIF declares UTF-16 columns.
"""

from __future__ import annotations

import os
from collections import Counter

from .. import __version__
from ..engine import document
from ..engine.config import Settings
from ..engine.findingjson import best, finding_json
from ..engine.findings import APPLICABILITIES, RULES, Finding, Severity
from ..engine.jsontext import dumps, string
from ..engine.result import fixes_key
from ..engine.text import Encoding, PositionTable, SourceText
from ..engine.workspace import SkillResult

TYPE_CHECKING = False  # typing itself costs a one-skill check 2 ms; type checkers take this as True
if TYPE_CHECKING:
    from typing import Any, TextIO

    from ..engine.edits import Fix

DOCS = "https://github.com/skill-lsp/skill-lsp/blob/main/docs/rules.md"
_COLORS = {Severity.ERROR: "\033[31m", Severity.WARNING: "\033[33m", Severity.INFO: "\033[36m", Severity.HINT: "\033[2m"}


def use_color(mode: str, stream: TextIO) -> bool:
    if mode == "always":
        return True
    if mode == "never" or os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):  # force-color.org: set and non-empty; NO_COLOR wins, as in CPython
        return True
    return hasattr(stream, "isatty") and stream.isatty()


def _rel(path: str) -> str:
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("../../") else rel


def _pos(src: SourceText | PositionTable | None, offset: int, enc: Encoding = Encoding.UTF32) -> tuple[int, int]:
    if src is None:
        return 0, 0
    return src.position(offset, enc)


Rows = list[tuple[SkillResult, list[Finding]]]  # each skill with the findings reported for it


def rows_of(results: list[SkillResult], settings: Settings | None = None) -> Rows:
    """Each result with what is reported of it: ``shown(settings)``, or every finding without settings."""
    return [(r, r.shown(settings) if settings is not None else r.all_findings) for r in results]


def summary(rows: Rows) -> dict[str, int]:
    counts = {"error": 0, "warning": 0, "info": 0, "hint": 0}
    for _, findings in rows:
        for f in findings:
            counts[f.severity.label] += 1
    counts["skills"] = len(rows)
    counts["skills_with_findings"] = sum(1 for _, findings in rows if findings)
    return counts


def write(rows: Rows, fmt: str, out: TextIO, *, color: bool = False, quiet: bool = False) -> None:
    """The report in ``fmt``. ``quiet``: the findings only (no summary line; nothing when clean);
    JSON and SARIF are whole documents either way."""
    {"text": _text, "json": _json, "sarif": _sarif, "github": _github}[fmt](rows, out, color, quiet)


def statistics(rows: Rows, fmt: str, out: TextIO) -> None:
    """How many findings of each code, most frequent first (as `ruff --statistics`)."""
    counts = Counter(f.code for _, findings in rows for f in findings)
    order = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    if fmt == "json":
        import json  # noqa: PLC0415 - indented JSON: the package; `check` alone writes it with jsontext

        out.write(json.dumps([{"code": code, "count": n, "title": RULES[code].title if code in RULES else code}
                              for code, n in order], ensure_ascii=False, indent=2) + "\n")
        return
    width = max((len(str(n)) for _, n in order), default=1)
    code_width = max((len(c) for c, _ in order), default=0)
    for code, n in order:
        title = RULES[code].title if code in RULES else ""
        out.write(f"{n:>{width}}  {code.ljust(code_width)}  {title}\n")


def _text(rows: Rows, out: TextIO, color: bool, quiet: bool) -> None:
    reset = "\033[0m" if color else ""
    for r, findings in rows:
        path = _rel(r.path)
        for f in findings:
            line, col = _pos(r.src, f.start)
            sev = f.severity.label
            if color:
                sev = f"{_COLORS[f.severity]}{sev}{reset}"
            out.write(f"{path}:{line + 1}:{col + 1}: {sev} {f.code} {f.message}\n")
    if quiet:
        return
    c = summary(rows)
    parts = [f"{c[k]} {k}{'s' if c[k] != 1 and k != 'info' else ''}" for k in ("error", "warning", "info", "hint") if c[k]]
    skills = f"{c['skills']} skill{'s' if c['skills'] != 1 else ''}"
    line = (", ".join(parts) + f" in {c['skills_with_findings']} of {skills}") if parts else f"no findings in {skills}"
    out.write(f"{line}\n")


def _menu(r: SkillResult, f: Finding, parsed: list) -> list[Fix] | None:
    """``f``'s fixes: built by the worker that checked the skill, or from its kept text for a finding
    added afterwards (UNKNOWN_SKILL); ``parsed`` keeps that text's parse for the skill's next one."""
    from ..engine.fixes import fixes_for, has_fixes  # noqa: PLC0415 - a clean check never needs the fix builders

    if r.src is None or not has_fixes(f.code):
        return None
    menu = (r.fixes or {}).get(fixes_key(f))
    if menu is None:
        if not parsed:
            parsed.append(r.doc if r.doc is not None or not isinstance(r.src, SourceText)
                          else document.parse(r.src.text, r.path))
        menu = fixes_for(parsed[0], f) if parsed[0] is not None else []
    return menu


def _json(rows: Rows, out: TextIO, color: bool, quiet: bool) -> None:
    srcs = {r.path: r.src for r, _ in rows}
    skills = [{"path": r.path, "name": r.name, "root": r.location.root if r.location and r.location.root_index >= 0 else None,
               "rootIndex": r.location.root_index if r.location else -1} for r, _ in rows]
    # Each finding as JSON text with its best fix's applicability: written by the worker that
    # checked the skill (``findingjson.prerendered``), here for the others (cross-skill findings,
    # related information in other files).
    texts: list[list[str]] = []
    fixable = dict.fromkeys(APPLICABILITIES, 0)  # findings by the best fix they offer
    for r, findings in rows:
        if not findings:
            continue
        done = {id(f): (text, how) for f, text, how in r.rendered or ()}
        parsed: list = []
        items = []
        for f in findings:
            got = done.get(id(f))
            if got is None:
                menu = _menu(r, f, parsed)
                got = (finding_json(string(r.path), r.src, f, menu, srcs), best(menu))
            items.append(got[0])
            if got[1] is not None:
                fixable[got[1]] += 1
        texts.append(items)
    head = dumps({"version": __version__, "summary": {**summary(rows), "fixable": fixable},
                           "skills": skills})
    out.write(head[:-1] + ', "findings": [')
    for n, items in enumerate(texts):
        chunk = ", ".join(items)
        out.write(", " + chunk if n else chunk)
    out.write("]}\n")


def _sarif(rows: Rows, out: TextIO, color: bool, quiet: bool) -> None:
    level = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note", Severity.HINT: "note"}
    srcs = {r.path: r.src for r, _ in rows}

    def region(src: SourceText | None, start: int, end: int) -> dict[str, int]:
        sl, sc = _pos(src, start, Encoding.UTF16)
        el, ec = _pos(src, end, Encoding.UTF16)
        return {"startLine": sl + 1, "startColumn": sc + 1, "endLine": el + 1, "endColumn": ec + 1}

    def location(path: str, src: SourceText | None, start: int, end: int, message: str | None = None) -> dict[str, Any]:
        loc: dict[str, Any] = {"physicalLocation": {"artifactLocation": {"uri": _rel(path).replace(os.sep, "/")},
                                                    "region": region(src, start, end)}}
        if message:
            loc["message"] = {"text": message}
        return loc

    sarif_results = []
    for r, findings in rows:
        for f in findings:
            item: dict[str, Any] = {
                "ruleId": f.code,
                "level": level[f.severity],
                "message": {"text": f.message},
                "locations": [location(r.path, r.src, f.start, f.end)],
            }
            if f.related:
                item["relatedLocations"] = [location(x.path, srcs.get(x.path), x.start, x.end, x.message) for x in f.related]
            sarif_results.append(item)
    rules = [{"id": code, "name": code, "shortDescription": {"text": rule.title},
              "fullDescription": {"text": rule.doc}, "helpUri": f"{DOCS}#{code.lower()}",
              "defaultConfiguration": {"level": level[rule.severity]}} for code, rule in RULES.items()]
    doc = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "skill-lsp", "version": __version__, "informationUri": DOCS, "rules": rules}},
            "columnKind": "utf16CodeUnits",
            "results": sarif_results,
        }],
    }
    out.write(dumps(doc))
    out.write("\n")


def _escape_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_prop(s: str) -> str:
    return _escape_data(s).replace(":", "%3A").replace(",", "%2C")


def _github(rows: Rows, out: TextIO, color: bool, quiet: bool) -> None:
    kind = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice", Severity.HINT: "notice"}
    for r, findings in rows:
        path = _rel(r.path)
        for f in findings:
            line, col = _pos(r.src, f.start)
            eline, ecol = _pos(r.src, f.end)
            props = f"file={_escape_prop(path)},line={line + 1},col={col + 1},endLine={eline + 1},endColumn={ecol + 1},title={_escape_prop(f.code)}"
            out.write(f"::{kind[f.severity]} {props}::{_escape_data(f.message)}\n")
    if quiet:
        return
    c = summary(rows)
    out.write(f"skill-lsp: {c['error']} errors, {c['warning']} warnings in {c['skills']} skills\n")
