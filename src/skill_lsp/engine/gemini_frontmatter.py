"""How Gemini CLI 0.61.0 reads a SKILL.md.

Read from the release (@google/gemini-cli-core dist/src/skills/skillLoader.js): the file matches
``FRONTMATTER_REGEX`` = `/^---\\r?\\n([\\s\\S]*?)\\r?\\n---(?:\\r?\\n([\\s\\S]*))?/` or is no skill
(the opening is exactly `---` and a line break; the block ends before the first line that starts
with `---`, without the line break before it; the body is what follows that `---` only when a line
break follows it at once, else ''). ``parseFrontmatter`` loads the block with js-yaml 4 and keeps
`name` and `description` when both are strings; otherwise (the YAML failed, is not a mapping, or
either is not a string) ``parseSimpleFrontmatter`` reads lines: ``^\\s*name:\\s*(.*)$`` and
``^\\s*description:\\s*(.*)$`` with the following lines matching ``^[ \\t]+\\S`` joined to the
description with a space, each trimmed; no skill unless both were found. The name is listed with
`:\\/<>*?"|` each made '-'; the body is JavaScript-trimmed.

js-yaml 4 is modelled by skill-lsp's YAML 1.2 parser (engine/yamlnodes.py) and the js-yaml
specifics that decide these two fields: its default schema's implicit types (a plain
`2024-01-01` is a Date, `1_000` and `0b1` numbers), a key given twice or an unknown tag is an
error. The regexes spell JavaScript's `\\s`, `\\S` and `.` out, since Python's differ.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from skill_lsp.engine.activation.jsstr import JS_DOT, JS_NOT_WS, JS_WS, js_trim

from .datarecord import datarecord
from .lazyre import lazy_re

if TYPE_CHECKING:
    from skill_lsp.engine.document import SkillDocument
    from skill_lsp.engine.yamlnodes import Node


_BLOCK = lazy_re(r"---\r?\n(.*?)\r?\n---(?:\r?\n(.*))?", re.S)
_LINES = lazy_re(r"\r?\n")
_NAME = lazy_re(f"{JS_WS}*name:{JS_WS}*({JS_DOT}*)")
_DESCRIPTION = lazy_re(f"{JS_WS}*description:{JS_WS}*({JS_DOT}*)")
_CONTINUED = lazy_re(f"[ \t]+{JS_NOT_WS}")
NAME_UNSAFE = lazy_re(r'[:\\/<>*?"|]')

# js-yaml 4's default schema: the plain scalars that are not strings.
_NULL = r"~|null|Null|NULL|"
_BOOL = r"true|True|TRUE|false|False|FALSE"
_INT = r"[-+]?(?:0b[01_]*[01][01_]*|0x[0-9a-fA-F_]*[0-9a-fA-F][0-9a-fA-F_]*|0o[0-7_]*[0-7][0-7_]*)"
_FLOAT = (r"[-+]?[0-9][0-9_]*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9_]+(?:[eE][-+]?[0-9]+)?"
          r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)")
_DATE = (r"[0-9]{4}-[0-9][0-9]-[0-9][0-9]"
         r"|[0-9]{4}-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?"
         r"(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?")
_NOT_STRING = lazy_re(f"(?:{_NULL}|{_BOOL}|{_DATE})|(?:{_INT}|{_FLOAT})(?<!_)")
_YAML_TAG = "tag:yaml.org,2002:"
_KNOWN_TAGS = frozenset(_YAML_TAG + t for t in (
    "str", "seq", "map", "null", "bool", "int", "float", "timestamp", "merge", "binary", "omap", "pairs", "set"))
# An explicit scalar tag whose text its type does not take is an error ("cannot resolve a node").
_TAGGED_SCALARS = {_YAML_TAG + t: lazy_re(p) for t, p in (
    ("null", _NULL), ("bool", _BOOL), ("int", f"(?:{_INT}|[-+]?[0-9][0-9_]*)(?<!_)"), ("float", f"(?:{_FLOAT})(?<!_)"),
    ("timestamp", _DATE), ("str", r"(?s:.*)"), ("binary", r"(?s:.*)"))}


@datarecord(frozen=True)
class GeminiFrontmatter:
    block: bool  # FRONTMATTER_REGEX matched
    name: str | None  # as read, before ':' and the like are made '-' (None: no skill)
    description: str | None
    yaml: bool  # the values came from the YAML (False: from the line reader, or none)
    body: str  # what activate_skill hands over: match[2]?.trim() ?? ''
    text: str = ""  # the block (match[1])

    @property
    def skill(self) -> bool:
        """Whether the release loads it as a skill."""
        return self.name is not None and self.description is not None

    @property
    def listed_name(self) -> str | None:
        return None if self.name is None else NAME_UNSAFE.sub("-", self.name)


def line_values(block: str) -> tuple[str | None, str | None]:
    """``parseSimpleFrontmatter``: (name, description) as its lines give them (None: not found)."""
    lines = _LINES.split(block)
    name = description = None
    i = 0
    while i < len(lines):
        line = lines[i]
        m = _NAME.fullmatch(line)
        if m:
            name = js_trim(m.group(1))
        else:
            m = _DESCRIPTION.fullmatch(line)
            if m:
                parts = [js_trim(m.group(1))]
                while i + 1 < len(lines) and _CONTINUED.match(lines[i + 1]):
                    parts.append(js_trim(lines[i + 1]))
                    i += 1
                description = " ".join(p for p in parts if p)
        i += 1
    return name, description


def _is_string(node: Node) -> bool:
    node = node.target()
    if node.kind != "scalar":
        return False
    if node.tag is not None:
        return node.tag in (_YAML_TAG + "str", "!")
    return node.style != "" or _NOT_STRING.fullmatch(node.value) is None


def _unknown_tag(root: Node) -> bool:
    todo = [root]
    while todo:
        node = todo.pop()
        if node.is_alias:
            continue
        if node.tag is not None and node.tag != "!":
            if node.tag not in _KNOWN_TAGS:
                return True
            pattern = _TAGGED_SCALARS.get(node.tag)
            if (pattern is None) != (node.kind != "scalar") or pattern is not None and not pattern.fullmatch(node.value):
                return True
        for item in node.items:
            todo.extend(item if isinstance(item, tuple) else (item,))
    return False


# js-yaml takes tabs where skill-lsp's parser (PyYAML's scanner) refuses them: as separation (after
# `key:`, `-`, an anchor or a tag, before a comment, at a line's end, after the spaces that indent a
# continuation line) and inside a plain scalar. Outside quoted and block scalars, separating tabs are
# handed to the parser as spaces (or nothing) and the others as a private-use stand-in, turned back
# into tabs in the values read. A tab that indents a key or a line of its own stays: both refuse it.
_TAB = "\ue000"
# And it takes, inside quotes, the characters PyYAML's reader refuses everywhere (DEL, C1 controls
# but NEL, U+FFFE and U+FFFF; js-yaml checks quoted scalars as JSON does), and anything but a NUL in
# a comment: the first as stand-ins (U+E100 onwards), the second dropped.
_ODD = lazy_re("[\x7f-\x84\x86-\x9f\ufffe\uffff]")
_COMMENT_ODD = lazy_re("[\x01-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ufffe\uffff]")
_STAND_INS = {c: chr(0xE100 + i) for i, c in enumerate(
    [*map(chr, range(0x7F, 0x85)), *map(chr, range(0x86, 0xA0)), "\ufffe", "\uffff"])}
# And it keeps the spaces and tabs that end a line inside a quoted scalar (`'a \nb'` is "a  b"), which
# YAML drops: handed over as stand-ins too.
_SPACE = "\ue001"
_BACK = str.maketrans({_TAB: "\t", _SPACE: " ", **{v: k for k, v in _STAND_INS.items()}})
_QUOTED_LINE_END = lazy_re(r"[^ \t\r\n][ \t]+[\r\n]")
_BREAKS = lazy_re(r"(\r\n|\r|\n)")
_PRIVATE = lazy_re("[\ue000\ue001\ue100-\ue1ff]")
_BLOCK_HEADER = lazy_re(r"( *)(?:[-?][ \t]+)*[^\s#].*?:[ \t]+(?:[&!]\S*[ \t]+)*[|>][-+0-9]*[ \t]*(?:#.*)?")
_KEY_OR_ITEM = lazy_re(r"[-?:](?:[ \t]|$)|[^\s#'\"][^:#]*?[ \t]*:(?:[ \t]|$)")
_WS_RUN = lazy_re(r"[ \t]+")
_OPENS_NODE = lazy_re(r"(?:^|[ \t])-[ \t]*$|:[ \t]*(?:[ \t]#.*)?$")


def _tabs_as_js_yaml_reads_them(text: str, *, leading_tabs: bool = False) -> str:
    """``leading_tabs``: as js-yaml 3 reads tabs that indent a line outside block scalars (skipped;
    the spaces before the first of them are the line's indent)."""
    out: list[str] = []
    block_indent: int | None = None
    quote = ""  # a quoted scalar open at the end of the line before
    flow = 0
    plain: int | None = None  # the indent of the line a plain scalar, still open, started on
    parts = _BREAKS.split(text)
    lines, breaks = parts[0::2], [*parts[1::2], ""]
    skip = 0
    # The indent of the line before, when the next content line can start a block node below it
    # (js-yaml 3 takes that node's column, tabs counted, as its indent).
    opens: int | None = -1
    for at, line in enumerate(lines):
        if at < skip:
            continue
        raw = line + breaks[at]
        indent = len(line) - len(line.lstrip(" "))
        if block_indent is not None:
            if not line.strip(" \t"):
                if "\t" in line:
                    # js-yaml ends a block scalar at a blank line holding a tab, the line breaks
                    # before it kept: the same as without it and the blank lines after it, when
                    # what follows is not inside the block anyway.
                    end = next((i for i in range(at + 1, len(lines)) if lines[i].strip(" \t")), len(lines))
                    rest = lines[end] if end < len(lines) else ""
                    if end == len(lines) or len(rest) - len(rest.lstrip(" ")) <= block_indent:
                        skip = end
                        block_indent = None
                        continue
                out.append(raw)
                continue
            if indent > block_indent:
                out.append(raw)
                continue
            block_indent = None
        blank = not line.strip(" \t")
        cont = plain is not None and not quote and flow == 0 and not blank and indent > plain
        column = opens is not None and len(line) - len(line.lstrip(" ")) > opens
        line_out, quote, flow, open_plain = _line_tabs(line, quote, flow, cont, leading_tabs and (
            "column" if column else "spaces"))
        if leading_tabs and not blank and not line.lstrip(" \t").startswith("#"):
            opens = indent if _OPENS_NODE.search(line_out) is not None else None
        if not blank:
            plain = (plain if cont else indent) if open_plain else None
        if not quote and flow == 0 and _BLOCK_HEADER.fullmatch(line_out):
            block_indent = indent
        out.append(line_out + breaks[at])
    return "".join(out)


def _line_tabs(line: str, quote: str, flow: int, cont: bool, leading_tabs: str | bool = False) -> tuple[str, str, int, bool]:
    """One line outside block scalars (``cont``: it continues a plain scalar): the line as handed to
    the parser, the quote and the flow depth open at its end, and whether a plain scalar is."""
    lead = _WS_RUN.match(line)
    i = 0
    out: list[str] = []
    if lead is not None and not quote:
        rest = line[lead.end():]
        if not rest:
            return "", quote, flow, False  # a blank line
        if leading_tabs and "\t" in lead.group():
            # js-yaml 3 skips them: the line's indent is the spaces before the first, but the column
            # where a block node starts is its indent.
            out.append(" " * lead.end() if leading_tabs == "column" else lead.group().split("\t", 1)[0])
            i = lead.end()
        elif "\t" in lead.group() and lead.group()[0] == " " and (cont or not _KEY_OR_ITEM.match(rest)):
            out.append(lead.group().replace("\t", ""))  # the spaces indent a continuation line
            i = lead.end()
    start = not cont  # where a token may start
    plain = cont  # inside a plain scalar
    n = len(line)
    while i < n:
        c = line[i]
        if quote:
            if c == "\\" and quote == '"':
                out.append(line[i:i + 2])
                i += 2
                continue
            if c == quote:
                if quote == "'" and line[i + 1:i + 2] == "'":
                    out.append("''")
                    i += 2
                    continue
                quote = ""
                start = True
            out.append(_STAND_INS.get(c, c))
            i += 1
            continue
        if c in " \t":
            j = _WS_RUN.match(line, i).end()  # type: ignore[union-attr]
            run = line[i:j]
            if "\t" in run:
                nxt = line[j:j + 1]
                after = line[j + 1:j + 2]
                if i == 0:
                    pass  # a tab indents the line: refused by both
                elif nxt == "":
                    run = ""
                elif nxt == "#" or start or (nxt == ":" and (after in ("", " ", "\t") or flow and after in ",]}")) \
                        or (flow and nxt in ",]}"):
                    run = " "
                else:
                    run = run.replace("\t", _TAB)
            out.append(run)
            i = j
            continue
        nxt = line[i + 1:i + 2]
        if c == "#" and (i == 0 or line[i - 1] in " \t"):
            out.append(_COMMENT_ODD.sub("", line[i:]))
            plain = False
            break
        if start:
            if c in "'\"":
                quote = c
                start = False
            elif c in "&!":
                j = i
                while j < n and line[j] not in " \t":
                    j += 1
                out.append(line[i:j])
                i = j
                continue
            elif c in "-?:|>" and nxt in ("", " ", "\t"):
                pass
            elif c in "[{":
                flow += 1
            else:
                start = c in ",]}" and flow > 0
                plain = not start
                if c in "]}" and flow > 0:
                    flow -= 1
        elif c == ":" and (nxt in ("", " ", "\t") or flow and nxt in ",[]{}"):
            start = True
            plain = False
        elif flow and c in ",[]{}":
            start = True
            plain = False
            flow += 1 if c in "[{" else -1 if c in "]}" else 0
        out.append(c)
        i += 1
    text = "".join(out)
    if quote:
        kept = text.rstrip(" \t")
        if kept and len(kept) < len(text):
            text = kept + text[len(kept):].replace(" ", _SPACE).replace("\t", _TAB)
    return text, quote, flow, plain and not quote and flow == 0


# A document end marker (`...`) with more after it: js-yaml refuses a second document.
_DOCUMENT_END = lazy_re(r"^\.\.\.(?:[ \t\r].*)?$", re.M)
_CONTENT_LINE = lazy_re(r"^[ \t]*[^\s#]", re.M)


def _second_document(block: str) -> bool:
    for m in _DOCUMENT_END.finditer(block):
        if _CONTENT_LINE.search(block, m.end()):
            return True
    return False


def _compose(block: str) -> Node | None:
    """The block as js-yaml loads it: its root node, or None where js-yaml throws."""
    from skill_lsp.engine.yamlnodes import compose  # noqa: PLC0415

    if block and block[-1] not in "\n\r":
        block += "\n"  # js-yaml adds a line break at the end when there is none
    if block.startswith("\ufeff"):
        block = block[1:]
    if "..." in block and _second_document(block):
        return None
    root, err, _ = compose(block)
    if ((err is not None and ("\t" in block or _COMMENT_ODD.search(block))
         or err is None and root is not None and _quoted_line_end(root, block)) and not _PRIVATE.search(block)):
        root, err, _ = compose(_tabs_as_js_yaml_reads_them(block))
        if err is None and root is not None:
            _untab(root)
    if err is not None or root is None or root.target().kind != "map" or _unknown_tag(root):
        return None
    return root


def _quoted_line_end(root: Node, text: str) -> bool:
    """Whether `name` or `description` is a quoted scalar with a line that ends in a space or tab."""
    if root.target().kind != "map":
        return False
    for k, v in root.target().items:
        v = v.target()
        if k.target().value in ("name", "description") and v.kind == "scalar" and v.style in ("'", '"') \
                and _QUOTED_LINE_END.search(text, v.start, v.end):
            return True
    return False


def _untab(root: Node) -> None:
    todo = [root]
    while todo:
        node = todo.pop()
        if node.is_alias:
            continue
        node.value = node.value.translate(_BACK)
        for item in node.items:
            todo.extend(item if isinstance(item, tuple) else (item,))


def yaml_values(block: str) -> tuple[str, str] | None:
    """What js-yaml's load gives ``parseFrontmatter`` (both strings), or None when it falls back."""
    root = _compose(block)
    if root is None:
        return None
    found: dict[str, Node] = {}
    merged: set[str] = set()  # keys a merge (`<<`) gave, which a key written later may replace
    for k, v in root.target().items:
        kt = k.target()
        if kt.kind != "scalar":
            continue
        key = kt.value
        if key == "<<" and kt.style == "" and kt.tag is None:
            sources = [v.target()] if v.target().kind == "map" else [s.target() for s in v.target().items]
            if v.target().kind == "scalar" or any(s.kind != "map" for s in sources):
                return None  # js-yaml: "cannot merge mappings"
            for source in sources:
                for mk, mv in source.items:
                    mkey = mk.target().value
                    if mk.target().kind == "scalar" and mkey not in found:
                        found[mkey] = mv
                        merged.add(mkey)
            continue
        if key in found and key not in merged:
            return None  # js-yaml: "duplicated mapping key"
        merged.discard(key)
        found[key] = v
    name, description = found.get("name"), found.get("description")
    if name is None or description is None or not _is_string(name) or not _is_string(description):
        return None
    return name.target().value, description.target().value


# Where skill-lsp's own parse of the same block stands for js-yaml's: no key given twice, no tag,
# no `...` or `<<`, no line break but `\n` and `\r\n`, and no kept block scalar that could reach
# the block's end (the release's regex takes the line break before the closing `---` away).
_KEEP = lazy_re(r"[|>][0-9]?\+|[|>]\+")
_LONE_CR = lazy_re(r"\r(?!\n)")
_BLANK_END = lazy_re(r"\n(?:\r?\n)+\Z")


def _document_values(doc: SkillDocument, block: str) -> tuple[bool, tuple[str, str] | None]:
    """(whether skill-lsp's parse of ``doc`` gives what js-yaml gives for ``block``, and then the
    values :func:`yaml_values` would return)."""
    sp = doc.split
    if (sp is None or not sp.closed or doc.truncated or doc.too_large_frontmatter or doc.yaml11
            or sp.open_start != 0 or not block):
        return False, None
    yaml = doc.text[sp.yaml_start:sp.yaml_end]
    if yaml[len(block):] not in ("\n", "\r\n") or not yaml.startswith(block):
        return False, None
    if "\r" in yaml and _LONE_CR.search(yaml):
        return False, None
    if doc.yaml_error is not None:
        # The same text fails in js-yaml too, unless it holds what only js-yaml takes.
        return ("\t" not in yaml and not _COMMENT_ODD.search(yaml)), None
    if doc.root is None or doc.root.kind != "map":
        return True, None
    if doc.duplicates or doc.tagged or "..." in yaml or "<<" in yaml or _quoted_line_end(doc.root, doc.text):
        return False, None
    if "!" in yaml and _unknown_tag(doc.root):
        return True, None  # js-yaml refuses the tag: the line reader reads
    last = None  # a kept block scalar that the block's last line break ends
    if _KEEP.search(yaml) and yaml.endswith(("\n\n", "\n\r\n", " \n", "\t\n", " \r\n", "\t\r\n")):
        if not yaml.endswith(("\n\n", "\n\r\n")) or _BLANK_END.search(yaml) is None:
            return False, None
        last = max((v for _, v in doc.root.items), key=lambda v: v.end, default=None)
        if last is not None and not (last.kind == "scalar" and last.style in ("|", ">") and not last.is_alias
                                     and _KEEP.match(doc.text, last.start)):
            last = None
    name, description = doc.entries.get("name"), doc.entries.get("description")
    if name is None or description is None or not _is_string(name.value) or not _is_string(description.value):
        return True, None
    # js-yaml reads the block without the line break before the closing `---`: a kept block scalar
    # that runs to the end has one line break fewer.
    values = [v.value.target().value[:-1] if v.value is last and v.value.target().value.endswith("\n")
              else v.value.target().value for v in (name, description)]
    return True, (values[0], values[1])


def read(text: str, doc: SkillDocument | None = None) -> GeminiFrontmatter:
    """A SKILL.md's text as Gemini CLI's ``loadSkillFromFile`` reads it. ``doc``: skill-lsp's parse
    of the same text, whose values are taken where they are js-yaml's (no second YAML parse)."""
    m = _BLOCK.match(text)
    if m is None:
        return GeminiFrontmatter(False, None, None, False, "")
    block, rest = m.group(1), m.group(2)
    body = js_trim(rest) if rest is not None else ""
    usable, values = _document_values(doc, block) if doc is not None else (False, None)
    if not usable:
        values = yaml_values(block)
    if values is not None:
        return GeminiFrontmatter(True, values[0], values[1], True, body, block)
    name, description = line_values(block)
    if name is None or description is None:
        return GeminiFrontmatter(True, None, None, False, body, block)
    return GeminiFrontmatter(True, name, description, False, body, block)


def read_document(doc: SkillDocument) -> GeminiFrontmatter:
    """:func:`read` of a checked document's text, with skill-lsp's parse of it; kept on the document."""
    got = doc.memo.get("gemini")
    if got is None:
        got = doc.memo["gemini"] = read(doc.text, doc)
    return got  # type: ignore[no-any-return]
