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

from .ruststr import RUST_WHITESPACE, rust_lines


def _valid_alone(scalar: str) -> bool:
    """Whether serde_yaml reads the value as a document of its own: it parses, and nothing but a
    comment follows its node (``{m} sync`` is refused: held-out seed 9003)."""
    from .yamlnodes import compose  # noqa: PLC0415 - only a refused frontmatter comes here

    root, err, _ = compose(scalar, 0, libyaml=True)
    if err is not None:
        return False
    rest = (scalar[root.end:] if root is not None else "").lstrip(" \t")  # YAML's own blanks
    return not rest or rest[0] == "#"


def quotes(scalar: str) -> bool:
    """Whether the repair quotes ``scalar`` (an unquoted value, not a block indicator, its comment
    and trailing blanks taken off): it holds `:` before whitespace, or opens with `[`, `{`, `@` or a
    backtick without being valid YAML alone."""
    separator = any(ch == ":" and nxt in RUST_WHITESPACE for ch, nxt in zip(scalar, scalar[1:], strict=False))
    return separator or (scalar[:1] in ("[", "{", "@", "`") and not _valid_alone(scalar))


def repair(frontmatter: str) -> str | None:
    """The frontmatter (the lines between the two ``---``, joined by ``\\n``) as Codex rewrites it
    for its second parse; None when no line changes (Codex then keeps its first error)."""
    changed = False
    block_indent: int | None = None
    out: list[str] = []
    for line in rust_lines(frontmatter):
        indent = len(line) - len(line.lstrip(" "))
        if block_indent is not None:
            if not line.strip(RUST_WHITESPACE) or indent > block_indent:
                out.append(line)
                continue
            block_indent = None
        key, colon, value = line.partition(":")
        if not colon or not key.strip(RUST_WHITESPACE) or (value and value[0] not in RUST_WHITESPACE):
            out.append(line)
            continue
        rest = value.lstrip(RUST_WHITESPACE)
        leading = value[: len(value) - len(rest)]
        scalar, comment = rest, ""
        for i, ch in enumerate(rest):
            if ch == "#" and (i == 0 or rest[i - 1] in RUST_WHITESPACE):
                cut = len(rest[:i].rstrip(RUST_WHITESPACE))
                scalar, comment = rest[:cut], rest[cut:]
                break
        scalar = scalar.rstrip(RUST_WHITESPACE)
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
        if not quotes(scalar):
            out.append(line)
            continue
        quoted = "'" + scalar.replace("'", "''") + "'"
        out.append(f"{key}:{leading}{quoted}{comment}")
        changed = True
    return "\n".join(out) if changed else None
