"""What a run shows of a skill's findings: selection, per-file ignores and in-file suppressions.

Suppressions are YAML comments in the frontmatter, where a parsing harness drops them
(an HTML comment in the body is text the model reads)::

    ---
    # skill-lsp: ignore[UNKNOWN_FIELD]            <- a line of its own: the whole file
    name: Legacy-Name  # skill-lsp: ignore[NAME_INVALID]   <- end of a line: that line only
    ---

A line directive silences the findings whose range starts on its line. Only comments
count: a ``#`` inside a quoted, plain or block scalar is text (the frontmatter's own node
spans say which, so no second parse). When the frontmatter does not parse, the structure
is unknown: only lines whose first non-blank character is ``#`` are read, as file-wide
directives, and no directive is reported unused (the rules that would use them did not
run). A file without a closed frontmatter has no directives.

``shown()`` is the pure step from a result's findings (its own, cross-skill and graph ones)
to what is reported, plus UNUSED_SUPPRESSION for each directive that silences nothing.
"""

from __future__ import annotations

import bisect

from . import selection
from .datarecord import datarecord
from .findings import RULES, Finding, make
from .lazyre import lazy_re

TYPE_CHECKING = False  # typing itself costs a one-skill check 2 ms; type checkers take this as True

if TYPE_CHECKING:
    from .config import Settings
    from .document import SkillDocument
    from .fixes import Fix

UNUSED = "UNUSED_SUPPRESSION"
# Findings computed across skills, after each file's own check: a directive naming one of
# these is unused only once they are known (``scope="all"``).
CROSS_CODES = frozenset({"SHADOWED", "DUPLICATE_NAME", "UNKNOWN_SKILL"})

_DIRECTIVE = lazy_re(r"#[ \t]*skill-lsp[ \t]*:")
_IGNORE = lazy_re(r"[ \t]*ignore[ \t]*\[([^\]\r\n]*)\]")


@datarecord(frozen=True)
class Directive:
    """One `# skill-lsp: ignore[...]` comment."""

    start: int  # its '#'
    end: int  # after its ']' (after the comment's last non-blank character when malformed)
    line_start: int
    line_end: int  # end of its line, before the break
    next_line: int  # start of the next line (the end of the text on the last one)
    comment_start: int  # the '#' opening the comment it is in (``start`` unless text precedes it)
    lead: int  # where the blanks before it start (what removing it removes from)
    file_wide: bool  # the comment is on a line of its own
    codes: tuple[tuple[str, int, int], ...]  # each code named, with its span
    brackets: tuple[int, int] | None  # the text between '[' and ']'; None: not `ignore[...]`


@datarecord(frozen=True)
class Suppressions:
    """The suppression comments of one frontmatter."""

    directives: tuple[Directive, ...]
    parsed: bool  # the frontmatter parsed: end-of-line directives count, unused ones are reported

    def offsets(self) -> set[int]:
        """Offsets an UNUSED_SUPPRESSION finding may start or end at (for position tables)."""
        out: set[int] = set()
        for d in self.directives:
            out.update((d.start, d.end))
            for _, s, e in d.codes:
                out.update((s, e))
        return out

    @property
    def names_cross_codes(self) -> bool:
        return any(c in CROSS_CODES for d in self.directives for c, _, _ in d.codes)


def _scalar_spans(doc: SkillDocument) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    stack = [doc.root] if doc.root is not None else []
    while stack:
        n = stack.pop()
        if n is None or n.is_alias:
            continue
        if n.kind == "scalar":
            spans.append((n.start, n.end))
        elif n.kind == "map":
            for k, v in n.items:
                stack.extend((k, v))
        else:
            stack.extend(n.items)
    spans.sort()
    return spans


def _inside(spans: list[tuple[int, int]], starts: list[int], offset: int) -> bool:
    i = bisect.bisect_right(starts, offset) - 1
    return i >= 0 and spans[i][0] <= offset < spans[i][1]


def scan(doc: SkillDocument) -> Suppressions | None:
    """The directives of a document (None when it has none: the common case costs one find)."""
    memo = doc.memo.get("suppressions", False)
    if memo is not False:
        return memo  # type: ignore[no-any-return]
    result = _scan(doc)
    doc.memo["suppressions"] = result
    return result


def _scan(doc: SkillDocument) -> Suppressions | None:
    sp = doc.split
    if sp is None or not sp.has_frontmatter or not sp.closed:
        return None
    text = doc.text
    if text.find("skill-lsp", sp.yaml_start, sp.yaml_end) < 0:
        return None
    parsed = doc.frontmatter_ok
    spans = _scalar_spans(doc) if parsed else []
    starts = [s for s, _ in spans]
    src = doc.src
    out = []
    for m in _DIRECTIVE.finditer(text, sp.yaml_start, sp.yaml_end):
        at = m.start()
        if parsed and _inside(spans, starts, at):
            continue  # text of a value or key, not a comment
        line = src.line_of(at)
        line_start, line_end = src.line_start(line), src.line_end(line)
        next_line = src.line_starts[line + 1] if line + 1 < src.line_count else len(text)
        comment = at
        if parsed:
            # The first '#' outside any scalar on the line opens the comment.
            j = text.find("#", line_start, at)
            while j >= 0:
                if not _inside(spans, starts, j) and (j == line_start or text[j - 1] in " \t"):
                    comment = j
                    break
                j = text.find("#", j + 1, at)
        file_wide = text[line_start:comment].strip(" \t") == ""
        lead = _back_over_blanks(text, at, line_start)
        if not parsed and not (file_wide and comment == at):
            continue  # unparsed: only `# skill-lsp: ...` lines of their own
        ig = _IGNORE.match(text, m.end(), line_end)
        if ig is None:
            end = _back_over_blanks(text, line_end, line_start)
            out.append(Directive(at, max(end, m.end()), line_start, line_end, next_line, comment, lead, file_wide,
                                 (), None))
            continue
        codes = []
        pos = ig.start(1)
        for part in ig.group(1).split(","):
            stripped = part.strip(" \t")
            if stripped:
                s = pos + part.index(stripped)
                codes.append((stripped, s, s + len(stripped)))
            pos += len(part) + 1
        out.append(Directive(at, ig.end(), line_start, line_end, next_line, comment, lead, file_wide,
                             tuple(codes), (ig.start(1), ig.end(1))))
    return Suppressions(tuple(out), parsed) if out else None


def _back_over_blanks(text: str, offset: int, floor: int) -> int:
    while offset > floor and text[offset - 1] in " \t":
        offset -= 1
    return offset


# --- the view ---

def shown(findings: list[Finding], sup: Suppressions | None, settings: Settings, path: str | None,
          scope: str = "all") -> list[Finding]:
    """The findings a run reports, sorted: selected, not ignored for this file, not suppressed,
    plus one UNUSED_SUPPRESSION per directive that silences something no longer there.

    ``scope`` says which findings are known, so which directives may be called unused:
    "all" (cross-skill findings included), "local" (this file's own: directives naming
    SHADOWED, DUPLICATE_NAME or UNKNOWN_SKILL are never called unused), "none".
    """
    enabled = settings.enabled
    off = selection.ignored_in(path, settings.per_file_ignores) if settings.per_file_ignores and path else frozenset()
    if not settings.selection and not off:
        kept = list(findings)
    else:
        kept = [f for f in findings if f.code in enabled and f.code not in off]
    if sup is None:
        kept = one_name_finding(kept)
        kept.sort(key=_order)
        return kept
    directives = sup.directives
    file_wide: dict[str, int] = {}
    for i, d in enumerate(directives):
        if d.file_wide:
            for code, _, _ in d.codes:
                file_wide.setdefault(code, i)
    lines = [(i, d) for i, d in enumerate(directives) if not d.file_wide]
    used: set[tuple[int, str]] = set()
    out = []
    for f in kept:
        hit = _silenced_by(f, file_wide, lines)
        if hit is None:
            out.append(f)
        else:
            used.add((hit, f.code))
    out = one_name_finding(out)
    if scope != "none" and sup.parsed and _reported(UNUSED, enabled, off, settings):
        severity = settings.severity.get(UNUSED)
        for i, d in enumerate(directives):
            u = _unused(i, d, used, enabled, off, settings, scope)
            if u is not None and _silenced_by(u, file_wide, lines) is None:
                out.append(u.with_severity(severity) if severity is not None else u)
    out.sort(key=_order)
    return out


def _order(f: Finding) -> tuple[int, int, str]:
    return f.start, f.end, f.code


def _silenced_by(f: Finding, file_wide: dict[str, int], lines: list[tuple[int, Directive]]) -> int | None:
    i = file_wide.get(f.code)
    if i is not None:
        return i
    for j, d in lines:
        if d.line_start <= f.start <= d.line_end and any(c == f.code for c, _, _ in d.codes):
            return j
    return None


def _reported(code: str, enabled: frozenset[str], off: frozenset[str], settings: Settings) -> bool:
    """Whether findings of ``code`` can be reported in this run (selected, not ignored, not off)."""
    return code in enabled and code not in off and not (code in settings.severity and settings.severity[code] is None)


def _unused(i: int, d: Directive, used: set[tuple[int, str]], enabled: frozenset[str], off: frozenset[str],
            settings: Settings, scope: str) -> Finding | None:
    where = "in this file" if d.file_wide else "on this line"
    reasons: list[tuple[str, int, int, str]] = []
    seen: set[str] = set()
    for code, s, e in d.codes:
        if code in seen:
            reasons.append((code, s, e, "listed twice"))
            continue
        seen.add(code)
        if (i, code) in used or code == UNUSED:
            continue
        if code not in RULES:
            reasons.append((code, s, e, "unknown code"))
        elif not _reported(code, enabled, off, settings) or (code in CROSS_CODES and scope != "all"):
            continue  # off in this run, or not known yet: whether it is needed cannot be told
        else:
            reasons.append((code, s, e, f"no {code} finding {where}"))
    if d.brackets is None:
        return make(UNUSED, "not a suppression: write `# skill-lsp: ignore[CODE, ...]`", d.start, d.end,
                    {"codes": [], "fix": _removal(d)}, tags=("unnecessary",))
    if not d.codes:
        return make(UNUSED, "suppression names no codes", d.start, d.end, {"codes": [], "fix": _removal(d)},
                    tags=("unnecessary",))
    if not reasons:
        return None
    message = "unused suppression: " + "; ".join(f"{c} ({why})" for c, _, _, why in reasons)
    names = [c for c, _, _, _ in reasons]
    remaining = []
    drop = {(s, e) for _, s, e, _ in reasons}
    for code, s, e in d.codes:
        if (s, e) not in drop and code not in remaining:
            remaining.append(code)
    if not remaining:
        return make(UNUSED, message, d.start, d.end, {"codes": names, "fix": _removal(d)}, tags=("unnecessary",))
    assert d.brackets is not None
    fix = [d.brackets[0], d.brackets[1], ", ".join(remaining)]
    return make(UNUSED, message, min(s for _, s, _, _ in reasons), max(e for _, _, e, _ in reasons),
                {"codes": names, "fix": fix}, tags=("unnecessary",))


def _removal(d: Directive) -> list:
    """[start, end, ""] deleting a directive: its whole line when it stands alone, else the
    comment from the blanks before it (or only the directive, inside a longer comment)."""
    if d.comment_start == d.start and d.file_wide:
        return [d.line_start, d.next_line, ""]
    return [d.lead, d.line_end if d.comment_start == d.start else d.end, ""]


# --- quick fixes ---

def insertion(doc: SkillDocument, f: Finding) -> Fix | None:
    """A quick-fix inserting a suppression of ``f``'s code: at the end of its line when that is
    a frontmatter line a comment can end, else file-wide after the opening `---`.
    None when the file has no closed frontmatter to hold one."""
    from .fixes import Edit, Fix, _newline  # noqa: PLC0415 - fixes imports the rules

    sp = doc.split
    if sp is None or not sp.has_frontmatter or not sp.closed or f.code == UNUSED:
        return None
    code = f.code
    text = doc.text
    src = doc.src
    sup = scan(doc)
    directives = sup.directives if sup is not None else ()
    line = src.line_of(min(f.start, len(text)))
    ls, le = src.line_start(line), src.line_end(line)
    if (doc.frontmatter_ok and sp.yaml_start <= ls < sp.yaml_end and text[ls:le].strip(" \t")
            and code != "TRAILING_WHITESPACE" and _comment_may_end(doc, le)):
        on_line = next((d for d in directives if not d.file_wide and d.line_start == ls and d.brackets), None)
        if on_line is not None:
            return Fix(f"Suppress {code} on this line", (_add_code(on_line, code, text),))
        return Fix(f"Suppress {code} on this line", (Edit(le, le, f"  # skill-lsp: ignore[{code}]"),))
    wide = next((d for d in directives if d.file_wide and d.brackets), None)
    if wide is not None:
        return Fix(f"Suppress {code} in this file", (_add_code(wide, code, text),))
    return Fix(f"Suppress {code} in this file",
               (Edit(sp.yaml_start, sp.yaml_start, f"# skill-lsp: ignore[{code}]{_newline(doc)}"),))


def _comment_may_end(doc: SkillDocument, offset: int) -> bool:
    """Whether a comment can be appended at ``offset``, a line's end: no scalar runs on past it
    (a block scalar's lines, a multi-line quoted or plain value are text, not YAML)."""
    return not any(s < offset < e for s, e in _scalar_spans(doc))


def _add_code(d: Directive, code: str, text: str):
    from .fixes import Edit  # noqa: PLC0415

    assert d.brackets is not None
    sep = ", " if text[d.brackets[0]:d.brackets[1]].strip(" \t") else ""
    return Edit(d.brackets[1], d.brackets[1], f"{sep}{code}")


def one_name_finding(found: list[Finding]) -> list[Finding]:
    """``found`` with one of NAME_INVALID and NAME_MISMATCH where both are reported on a name whose
    folder is a valid name: the more severe (NAME_INVALID at equal severity); either fix, the
    folder's name, ends both (held-out unseen24: 21 files had both, one an information beside the
    other's warning). Beside a folder that is no valid name either, NAME_INVALID suggests another
    name: both stay. Done on what is reported, so selections and suppressions see both, and so do
    the cross-skill checks (a mismatch says which name a harness lists)."""
    pair = [f for f in found if f.code in ("NAME_INVALID", "NAME_MISMATCH")]
    if len(pair) != 2 or pair[0].code == pair[1].code:
        return found
    invalid, mismatch = sorted(pair, key=lambda f: f.code)
    data = invalid.data if isinstance(invalid.data, dict) else {}
    if not data.get("folder") or data.get("suggestion") != data.get("folder"):
        return found
    drop = invalid if mismatch.severity < invalid.severity else mismatch
    return [f for f in found if f is not drop]
