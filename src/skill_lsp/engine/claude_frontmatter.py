"""How Claude Code 2.1.332 reads a SKILL.md's frontmatter.

Read from the release: the block is what its regex `^---\\s*\\n([\\s\\S]*?)---\\s*\\n?` takes (it ends
at the first `---` anywhere, even inside a value), after one leading byte order mark is dropped;
the block is parsed as YAML (Bun.YAML, modelled by skill-lsp's YAML 1.2 parser); when that fails
it is parsed once more with every one-line `key: value` whose value holds one of
``{}[]*&#!|>%@` `` or `: ` put in double quotes (backslashes and quotes escaped) and leading tabs
made two spaces each; when that fails too no field is read. The regexes below spell JavaScript's
`\\s`, `\\S` and `.` out, since Python's differ (NEL, U+FEFF, U+2028/9).
"""

from __future__ import annotations

import re
from typing import Any

from skill_lsp.engine.activation.jsstr import JS_WHITESPACE

from .datarecord import datarecord
from .lazyre import lazy_re

_WS = "[" + re.escape(JS_WHITESPACE) + "]"
_NOT_WS = "[^" + re.escape(JS_WHITESPACE) + "]"
_DOT = "[^\n\r\u2028\u2029]"  # JavaScript's `.`: anything but a line terminator

_BLOCK = lazy_re(f"---{_WS}*\n((?:.|\n)*?)---{_WS}*\n?", re.S)
KEY_LINE = lazy_re(f"([a-zA-Z_-]+):{_WS}+({_NOT_WS}{_DOT}*)")
_NEEDS_QUOTES = lazy_re(r"[{}\[\]*&#!|>%@`]|: ")
_LEADING_TABS = lazy_re("(?:^|(?<=[\n\r\u2028\u2029]))\t+")


@datarecord(frozen=True)
class ClaudeFrontmatter:
    block: bool  # a frontmatter block was found
    fields: dict[str, Any]  # what it read ({} when the block did not parse)
    parsed: bool  # the block parsed, at once or on the retry
    content: str  # the text after the block (the whole text, mark included, without one)


# Bun.YAML takes tabs where skill-lsp's parser (PyYAML's scanner) refuses them: as the space after
# `key:`, inside and after a plain value. Outside block scalars they are handed to the parser as a
# private-use stand-in (a tab after `key:` or at a line's end as nothing: Bun drops those) and
# turned back into tabs in the values read.
_TAB = "\ue000"
_BLOCK_START = lazy_re(r"( *)[^\s#].*?:[ \t]+[|>][-+0-9]*[ \t]*(?:#.*)?")
_KEY_SEPARATION = lazy_re(r"( *[^\s:#][^:]*?):[ \t]*\t[ \t]*")
# And it takes a line `: value` (a key that is empty), which PyYAML refuses.
_EMPTY_KEY = lazy_re(r": ")


def _tabs_as_bun_reads_them(text: str) -> str:
    out = []
    block_indent: int | None = None
    for line in text.split("\n"):
        indent = len(line) - len(line.lstrip(" "))
        if block_indent is not None:
            if not line.strip(" ") or indent > block_indent:
                out.append(line)
                continue
            block_indent = None
        if _EMPTY_KEY.match(line):
            continue
        if _BLOCK_START.fullmatch(line):
            block_indent = indent
            out.append(line)
            continue
        if "\t" in line and not line.startswith("\t"):
            line = _KEY_SEPARATION.sub(r"\1: ", line, count=1).rstrip(" \t")
            head, rest = line[:indent], line[indent:]
            if not _KEY_SEPARATION.match(rest) and ":" not in rest.split(" ", 1)[0]:
                rest = rest.lstrip("\t")  # a continuation line: folding drops leading tabs
            line = head + rest.replace("\t", _TAB)
        out.append(line)
    return "\n".join(out)


def _untab(value: Any) -> Any:
    if isinstance(value, str):
        return value.replace(_TAB, "\t")
    if isinstance(value, dict):
        return {_untab(k): _untab(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_untab(v) for v in value]
    return value


def _parse(text: str) -> tuple[bool, Any]:
    from skill_lsp.engine.yamlnodes import compose, to_python  # noqa: PLC0415

    root, err, _ = compose(text)
    if err is not None and ("\t" in text or ": " in text):
        tabbed = _tabs_as_bun_reads_them(text)
        root, err, _ = compose(tabbed)
        if err is None:
            return (False, None) if _bun_refuses(tabbed, root) else (
                True, None if root is None else _untab(to_python(root)))
    if err is not None or _bun_refuses(text, root):
        return False, None
    return True, None if root is None else to_python(root)


# What may follow the `---` closing skill-lsp's split on its line (frontmatter.split).
_CLOSING_REST = lazy_re(r"[ \t]*(?:\r\n|\r|\n|$)")
# A quoted value running onto more lines opens with a quote after `key:` and has no closing one on
# that line.
_OPEN_QUOTE = lazy_re(r"""^[ \t]*[^\s#][^\n]*?:[ \t]+(?:"(?:[^"\\\n]|\\.)*|'(?:[^'\n]|'')*)$""", re.M)


def _bun_refuses(text: str, root: Any) -> bool:
    """Whether Bun.YAML refuses a block skill-lsp's parser took: a quoted value of a block mapping
    continued on a line (its closing quote's included) not indented past its key (the seed-11
    real-skill run on unseen repositories, 16 skills; probed: `description: "a` then `b"` at the
    key's column, a blank line before it or `"` alone there, a single-quoted one and a nested key
    alike; one space more, or a tab, is taken)."""
    if root is None or _OPEN_QUOTE.search(text) is None:
        return False
    todo = [root.target()]
    while todo:
        node = todo.pop()
        if node.kind != "map" or node.style:
            continue  # a flow collection, a list or a scalar: not what was probed
        for k, v in node.items:
            value = v.target()
            if value.kind == "map":
                todo.append(value)
                continue
            if v.alias_of is not None or value.kind != "scalar" or value.style not in ('"', "'"):
                continue
            column = k.start - (text.rfind("\n", 0, k.start) + 1)
            for line in text[v.start:v.end].split("\n")[1:]:
                if line.strip(" \t") and len(line) - len(line.lstrip(" \t")) <= column:
                    return True
    return False


def _is_list(value: str) -> bool:
    ok, parsed = _parse(value)
    return ok and isinstance(parsed, list)


def quoted_retry(block: str) -> str:
    """The block as the release's retry rewrites it."""
    out = []
    for line in block.split("\n"):
        m = KEY_LINE.fullmatch(line)
        if m:
            key, value = m.groups()
            if (value[:1] == '"' and value.endswith('"')) or (value[:1] == "'" and value.endswith("'")):
                pass
            elif value.startswith("[") and value.endswith("]") and _is_list(value):
                pass
            elif _NEEDS_QUOTES.search(value):
                escaped = value.replace("\\", "\\\\").replace('"', '\\"')
                line = f'{key}: "{escaped}"'
        out.append(line)
    return _LEADING_TABS.sub(lambda t: "  " * len(t.group(0)), "\n".join(out))


def same_block(text: str) -> bool:
    """Whether the release's block is the one skill-lsp splits off (its first `---` after the
    opening one starts a line): where skill-lsp's parse of it succeeded, the release reads the same
    values, and callers on a hot path keep theirs instead of parsing again."""
    if text.startswith("\ufeff"):
        text = text[1:]
    at = text.find("---", 3)
    if not (at > 0 and text[at - 1] == "\n" and _CLOSING_REST.match(text, at + 3)):
        return False  # `--- x`: the release's block ends there and its content starts at `x`
    # A quoted value continued at its key's column: Bun.YAML refuses what skill-lsp's parser took.
    return _OPEN_QUOTE.search(text, 0, at) is None or _parse(text[text.find("\n") + 1:at])[0]


def read(text: str) -> ClaudeFrontmatter:
    """The frontmatter of a SKILL.md's text as Claude Code reads it."""
    whole = text
    if text.startswith("\ufeff"):
        text = text[1:]
    m = _BLOCK.match(text) if text.find("---", 3) >= 0 else None
    if m is None:
        return ClaudeFrontmatter(False, {}, False, whole)
    block = m.group(1)
    ok, value = _parse(block)
    if not ok:
        ok, value = _parse(quoted_retry(block))
    fields = value if ok and isinstance(value, dict) else {}
    return ClaudeFrontmatter(True, fields, ok, text[m.end():])
