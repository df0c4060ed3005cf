"""Codex's second try at a frontmatter its YAML parser refused (harness fact ``scalar_repair``).

Codex 0.171.0 parses the frontmatter with serde_yaml (libyaml). When that fails it rewrites the
block line by line and parses once more; when the second parse fails too, the first error
stands and the skill is left out (openai/codex codex-rs/core-skills/src/loader.rs,
``repair_frontmatter_scalar_fields``; the differential tester, seed 2026). A line ``key: value``
whose value is unquoted, not a block indicator, and either holds a ``:`` followed by whitespace
or starts with ``[``, ``{``, ``@`` or a backtick without being valid YAML on its own, gets the
value single-quoted (a trailing `` #comment`` kept outside the quotes). The lines of a ``|`` or
``>`` block are left as they are.
"""

from __future__ import annotations

# Rust's char::is_whitespace: the Unicode White_Space property (str.isspace() also takes
# U+001C..U+001F, which Rust does not), for its trim_start / trim_end.
_WHITE = ("\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
          "\u2009\u200a\u2028\u2029\u202f\u205f\u3000")


def lines(text: str) -> list[str]:
    """Rust's str::lines: split at ``\\n``, a ``\\r`` before it dropped, no empty last line."""
    out = text.split("\n")
    if out and out[-1] == "":
        out.pop()
    return [line[:-1] if line.endswith("\r") else line for line in out]


def _valid_alone(scalar: str) -> bool:
    from .yamlnodes import compose  # noqa: PLC0415 - only a refused frontmatter comes here

    _, err, _ = compose(scalar, 0, libyaml=True)
    return err is None


def repair(frontmatter: str) -> str | None:
    """The frontmatter (the lines between the two ``---``, joined by ``\\n``) as Codex rewrites it
    for its second parse; None when no line changes (Codex then keeps its first error)."""
    changed = False
    block_indent: int | None = None
    out: list[str] = []
    for line in lines(frontmatter):
        indent = len(line) - len(line.lstrip(" "))
        if block_indent is not None:
            if not line.strip(_WHITE) or indent > block_indent:
                out.append(line)
                continue
            block_indent = None
        key, colon, value = line.partition(":")
        if not colon or not key.strip(_WHITE) or (value and value[0] not in _WHITE):
            out.append(line)
            continue
        rest = value.lstrip(_WHITE)
        leading = value[: len(value) - len(rest)]
        scalar, comment = rest, ""
        for i, ch in enumerate(rest):
            if ch == "#" and (i == 0 or rest[i - 1] in _WHITE):
                cut = len(rest[:i].rstrip(_WHITE))
                scalar, comment = rest[:cut], rest[cut:]
                break
        scalar = scalar.rstrip(_WHITE)
        if not scalar:
            out.append(line)
            continue
        first = scalar[0]
        if first in "|>":
            block_indent = indent
            out.append(line)
            continue
        if first in "'\"":
            out.append(line)
            continue
        separator = any(ch == ":" and nxt in _WHITE for ch, nxt in zip(scalar, scalar[1:], strict=False))
        if not separator and not (first in "[{@`" and not _valid_alone(scalar)):
            out.append(line)
            continue
        quoted = "'" + scalar.replace("'", "''") + "'"
        out.append(f"{key}:{leading}{quoted}{comment}")
        changed = True
    return "\n".join(out) if changed else None
