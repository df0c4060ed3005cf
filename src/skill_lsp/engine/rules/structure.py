"""Stage 1: encoding, size, frontmatter presence, YAML syntax and shape."""

from __future__ import annotations

import os
from collections.abc import Iterator

from ..discovery import case_message
from ..document import MAX_ANALYSED_CHARS, MAX_FRONTMATTER_CHARS, SkillDocument, complex_key
from ..findings import Finding, make
from ..frontmatter import bare_fields, late_frontmatter
from ..lazyre import lazy_re
from .context import Context

_TOP_KEY = lazy_re(r"^([^\s#:][^:]*?):(?:[ \t]+(.*?))?[ \t]*$")
_COLON_PROBLEMS = ("mapping values are not allowed",)


def check(doc: SkillDocument, ctx: Context) -> Iterator[Finding]:
    src = doc.src
    if doc.path.endswith("skill.md") and _lowercase_unread(doc.path, ctx):
        end = src.line_end(0)
        yield make("SKILL_FILE_CASE", case_message("skill.md", " (skills-ref reads it)"), 0,
                   max(end, min(1, len(src.text))))
    if doc.decode_issue is not None:
        off = min(doc.decode_issue.offset, len(src.text))
        yield make("INVALID_ENCODING", doc.decode_issue.message, off, min(off + 1, len(src.text)))
    if doc.truncated:
        end = len(src.text)
        yield make("FILE_TOO_LARGE",
                   f"file is {doc.full_length:,} characters; only the first {MAX_ANALYSED_CHARS // 1024} KiB "
                   f"({end:,} characters) are analysed", max(0, end - 1), end)
    sp = doc.split
    assert sp is not None
    if not sp.has_frontmatter:
        end = src.line_end(0)
        if late_frontmatter(src.text) is not None:
            yield make("MISSING_FRONTMATTER", "SKILL.md must start with its YAML frontmatter: a comment comes before "
                       "the opening `---` line, and harnesses read frontmatter only at the very start of the file",
                       sp.open_start, max(end, sp.open_start), {"fix": "move-comment"})
        elif bare_fields(src.text) is not None:
            yield make("MISSING_FRONTMATTER", "SKILL.md must start with YAML frontmatter between two `---` lines: "
                       "the fields at its top have none around them, so harnesses read none of them",
                       sp.open_start, max(end, sp.open_start), {"fix": "fence-fields"})
        else:
            yield make("MISSING_FRONTMATTER", "SKILL.md must start with YAML frontmatter between two `---` lines "
                       "(name and description are required)", sp.open_start, max(end, sp.open_start),
                       {"fix": "insert-frontmatter"})
        return
    if not sp.closed and doc.too_large_frontmatter:
        yield make("FRONTMATTER_LIMIT",
                   f"frontmatter closes beyond the analysis limit ({MAX_ANALYSED_CHARS // 1024} KiB); skill-lsp "
                   f"parses frontmatter up to {MAX_FRONTMATTER_CHARS // 1024} KiB", sp.open_start, sp.open_end)
        return
    if not sp.closed:
        yield make("INVALID_FRONTMATTER",
                   "frontmatter has an opening `---` but no closing `---`; the file must have YAML between two `---` lines at the top",
                   sp.open_start, sp.open_end, {"reason": "unclosed"})
        return
    if doc.too_large_frontmatter:
        yield make("FRONTMATTER_LIMIT",
                   f"frontmatter is {(sp.yaml_end - sp.yaml_start) // 1024} KiB; skill-lsp parses frontmatter up to "
                   f"{MAX_FRONTMATTER_CHARS // 1024} KiB", sp.open_start, sp.open_end)
        return
    err = doc.yaml_error
    if err is not None:
        if err.limit:
            line = src.line_of(err.offset)
            yield make("FRONTMATTER_LIMIT", f"frontmatter not analysed: {err.message}",
                       src.line_start(line), src.line_end(line))
            return
        yield _syntax_finding(doc, err.message, err.offset)
        return
    root = doc.root
    if root is not None and root.kind != "map":
        what = "a list" if root.kind == "seq" else "a scalar"
        yield make("INVALID_FRONTMATTER", f"frontmatter must be a YAML mapping of fields, not {what}",
                   root.start, max(root.end, root.start + 1), {"reason": "not-mapping"})
        return
    if root is None:
        # Empty frontmatter: a mapping with no fields; field rules report what is missing.
        return
    for dup, first in doc.duplicates:
        yield _duplicate(doc, dup, first, top=True)
    for entry in doc.entries.values():
        value = entry.value.target()
        if value.kind == "map":
            seen: dict[str, object] = {}
            for k, _v in value.items:
                kt = k.target()
                key = kt.value if kt.kind == "scalar" else complex_key(doc.text, k)
                if key in seen:
                    yield _duplicate(doc, k, seen[key])
                else:
                    seen[key] = k
    for node in doc.tagged:
        yield make("YAML_TAG", f"explicit tag {node.tag} is ignored; the value is read as plain text",
                   node.start, max(node.end, node.start + 1))


def _duplicate(doc: SkillDocument, dup: object, first: object, top: bool = False) -> Finding:
    from ..findings import Related  # noqa: PLC0415

    start, end = dup.start, dup.end  # type: ignore[attr-defined]
    key = doc.text[start:end]
    line = doc.src.line_of(first.start) + 1  # type: ignore[attr-defined]
    # A top-level key is a field: harness effects may be keyed by it (DUPLICATE_KEY:name).
    data: dict[str, str] = {"key": key}
    target = dup.target()  # type: ignore[attr-defined]
    if top and target.kind == "scalar":
        data["field"] = target.value
    return make("DUPLICATE_KEY", f"duplicate key '{key}' (first defined on line {line})", start, end, data,
                related=(Related(doc.path, first.start, first.end, "first definition"),))  # type: ignore[attr-defined]


def _lowercase_unread(path: str, ctx: Context) -> bool:
    """A skill read from `skill.md` (skill-lsp, as skills-ref, takes it where no SKILL.md is beside it)
    that a target's harness never finds: each captured release lists SKILL.md only (capture case
    skill-file-names); unseen repositories hold such skills (a plugin's `skills/transcribe/skill.md`,
    431 in one OpenClaw mirror)."""
    from ..harness import HARNESSES  # noqa: PLC0415 - only a `skill.md` gets here

    if os.path.basename(path) != "skill.md":
        return False
    return any((h := HARNESSES.get(t)) is None or "skill.md" not in h.skill_files for t in ctx.profile.targets or ("",))


def _syntax_finding(doc: SkillDocument, message: str, offset: int) -> Finding:
    src = doc.src
    offset = min(max(offset, 0), len(src.text))
    line = src.line_of(offset)
    data: dict[str, object] = {"reason": "yaml"}
    start, end = offset, min(offset + 1, src.line_end(line))
    if end <= start:
        start, end = src.line_start(line), src.line_end(line)
    kind = _yaml_kind(message)
    if any(p in message for p in _COLON_PROBLEMS):
        colon = _unquoted_colon(doc, line)
        if colon is not None:
            data.update(colon)
            message += f"; the value of '{colon['key']}' contains ': ' -- quote it or make it a block scalar"
            start, end = colon["valueStart"], colon["valueEnd"]  # type: ignore[assignment]
            # A value on one line, or one continued on more lines: harness fallbacks differ there (Claude
            # Code quotes a one-line value and reads it; capture case invalid-yaml-kinds, the tester).
            kind = "colon" if src.line_of(start) == src.line_of(max(start, end - 1)) else "colon-continued"
            if kind == "colon" and not _read_as_written(doc):
                kind = "colon-misread"  # a second reading takes something else: graded as before (harness/data.py)
    if not kind:
        retried = _retried_as_written(doc, line)
        if retried is not None:
            # A one-line value opening with a character YAML reserves (`[a] [b]`, `*x*`, `@x`): Claude
            # Code quotes it and reads it as written (capture case invalid-yaml-retried); so does the fix.
            kind = "reserved"
            data.update(retried)
    if kind:
        data["yaml"] = kind
    return make("INVALID_FRONTMATTER", f"invalid YAML: {message}", start, end, data)


# Kinds of YAML error the harnesses' parsers (or their fallbacks) treat differently (capture case
# invalid-yaml-kinds); harness effects are keyed INVALID_FRONTMATTER:<kind>.
_YAML_KINDS = (("'\\t'", "tab"), ("while scanning a quoted scalar", "unclosed-quote"),
               ("while parsing a flow", "unclosed-flow"))


def _read_as_written(doc: SkillDocument) -> bool:
    """Whether every harness that reads a refused frontmatter again reads the one-line values
    holding ': ' as written, and the rest as valid YAML would (``colonreads``)."""
    from ..colonreads import read_as_written  # noqa: PLC0415 - only a frontmatter refused for ': '

    src = doc.src
    values = [(int(c["valueStart"]), int(c["valueEnd"]), str(c["value"])) for c in unquoted_colons(doc)]  # type: ignore[call-overload]
    one_line = [v for v in values if src.line_of(v[0]) == src.line_of(max(v[0], v[1] - 1))]
    return len(one_line) == len(values) and read_as_written(doc, one_line)


def _retried_as_written(doc: SkillDocument, line: int) -> dict[str, object] | None:
    """The value on the error's line, a one-line `key: value` (its key, text and span), when Claude
    Code's second reading of the refused frontmatter (``claude_frontmatter``) takes it and reads
    that value as written; else None."""
    from .. import claude_frontmatter  # noqa: PLC0415 - only a refused frontmatter gets here

    m = claude_frontmatter.KEY_LINE.fullmatch(doc.src.line_text(line))
    if m is None:
        return None
    read = claude_frontmatter.read(doc.text)
    if not (read.parsed and read.fields.get(m.group(1)) == m.group(2)):
        return None
    value = m.group(2).rstrip(" \t")
    start = doc.src.line_start(line) + m.start(2)
    return {"key": m.group(1), "value": value, "valueStart": start, "valueEnd": start + len(value)}


def _yaml_kind(message: str) -> str:
    return next((kind for needle, kind in _YAML_KINDS if needle in message), "")


def unquoted_colons(doc: SkillDocument) -> list[dict[str, object]]:
    """Every top-level plain value holding ': ' (what the parser would report one at a time).

    Fix-all quotes them in one pass instead of one per re-check (800 such values took 800
    passes). A value with '#' is left to the parser's own report: there ' #' may start a
    comment that is not part of the value.
    """
    sp = doc.split
    if sp is None or not sp.closed:
        return []
    src = doc.src
    out = []
    for line in range(src.line_of(sp.yaml_start), src.line_of(sp.close_start)):
        text = src.line_text(line)
        if not text[:1] or text[:1] in " \t#" or ": " not in text[text.find(":") + 1:] and not text.endswith(":"):
            continue
        found = _unquoted_colon(doc, line)
        if found is not None and "#" not in str(found["value"]):
            out.append(found)
    return out


def _unquoted_colon(doc: SkillDocument, error_line: int) -> dict[str, object] | None:
    """The top-level `key: value` whose plain value holds ': ' (the common real YAML error)."""
    src = doc.src
    sp = doc.split
    assert sp is not None
    first = src.line_of(sp.yaml_start)
    last = src.line_of(sp.close_start) - 1
    line = error_line
    while line >= first and (src.line_text(line)[:1] in (" ", "\t", "") or src.line_text(line).startswith("#")):
        line -= 1
    if line < first:
        return None
    m = _TOP_KEY.match(src.line_text(line))
    if m is None or not m.group(2):
        return None
    value = m.group(2)
    if value[0] in "\"'|>[{&*!":
        return None
    parts = [value]
    end_line = line
    nxt = line + 1
    while nxt <= last:
        t = src.line_text(nxt)
        if t.strip() == "":
            break
        if t[:1] not in (" ", "\t"):
            break
        parts.append(t.strip())
        end_line = nxt
        nxt += 1
    joined = " ".join(parts)
    if ": " not in joined and not joined.endswith(":"):
        return None
    ls = src.line_start(line)
    return {
        "reason": "unquoted-colon",
        "key": m.group(1),
        "value": joined,
        "valueStart": ls + m.start(2),
        "valueEnd": src.line_start(end_line) + len(src.line_text(end_line).rstrip(" \t")),
    }
