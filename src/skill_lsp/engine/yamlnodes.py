"""YAML frontmatter as a tree of nodes with exact spans.

Built from PyYAML's event stream (its pure-Python parser, the one
``yaml.safe_load`` uses; libyaml for very large texts) by an iterative composer, so:

* every node carries code point offsets into the whole document;
* nothing is ever constructed: tags such as ``!!python/object`` stay inert,
  timestamps stay strings (`yaml.safe_load` raises ValueError on ``2025-13-45``);
* alias expansion is counted, never performed, so an alias bomb is reported in
  linear time instead of exploding when a tree walk expands it;
* nesting depth is capped without recursion (a recursive composer hits
  RecursionError near depth 300).
"""

from __future__ import annotations

import re
import sys

from .datarecord import datarecord, field
from .lazyre import lazy_re

TYPE_CHECKING = False  # typing itself costs a one-skill check 2 ms; type checkers take this as True
if TYPE_CHECKING:
    from typing import Any

_CParser: Any = None  # a libyaml event parser, imported on first use

MAX_DEPTH = 64
# Standard tags (`!!str` and friends) are harmless; anything else is reported, never constructed.
_CORE_TAGS = frozenset(f"tag:yaml.org,2002:{n}" for n in ("str", "int", "float", "bool", "null", "seq", "map"))
MAX_EXPANDED_NODES = 10_000


@datarecord(slots=True, eq=False)
class Node:
    """A YAML node with its span in the document."""

    kind: str  # "scalar" | "map" | "seq"
    start: int
    end: int
    tag: str | None = None
    anchor: str | None = None
    value: str = ""  # scalar text as parsed (escapes and folding applied)
    style: str = ""  # scalar style: "" plain, '"', "'", "|", ">"; flow "[" / "{" for collections
    items: list[Any] = field(default_factory=list)  # seq: [Node]; map: [(Node, Node)]
    alias_of: Node | None = None  # set on alias nodes (which share the target's kind)
    size: int = 1  # nodes in the expanded subtree

    @property
    def is_alias(self) -> bool:
        return self.alias_of is not None

    def target(self) -> Node:
        return self.alias_of if self.alias_of is not None else self


@datarecord(frozen=True, slots=True)
class YamlError:
    """Why a frontmatter's YAML could not be read, and where."""

    message: str
    offset: int  # code point offset in the document
    limit: bool = False  # a safety limit, not a syntax error


# YAML 1.2 core schema resolution of plain scalars (what js-yaml and ruamel use).
_NULL = lazy_re(r"^(?:~|null|Null|NULL|)$")
_BOOL_TRUE = lazy_re(r"^(?:true|True|TRUE)$")
_BOOL_FALSE = lazy_re(r"^(?:false|False|FALSE)$")
_INT = lazy_re(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$")
_NUMBER_FIRST = frozenset("+-.0123456789")  # what an _INT or _FLOAT match starts with
_FLOAT = lazy_re(r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$")


def resolve_scalar(node: Node) -> Any:
    """Plain Python value of a scalar: None, bool, int, float or str."""
    # Quoted, or tagged (the non-specific tag "!" included, YAML 1.2 §6.9.1): not resolved.
    if node.style != "" or node.tag is not None:
        if node.tag in ("tag:yaml.org,2002:bool",) and node.value in ("true", "false"):
            return node.value == "true"
        return node.value
    v = node.value
    # Each pattern is tried only when the first character could start one of its matches, so
    # plain words ask for none of them to be compiled (lazy_re).
    first = v[:1]
    if first in ("", "~", "n", "N", "\n") and _NULL.match(v):  # "$" also matches before a last "\n"
        return None
    if first in ("t", "T") and _BOOL_TRUE.match(v):
        return True
    if first in ("f", "F") and _BOOL_FALSE.match(v):
        return False
    if first in _NUMBER_FIRST and _INT.match(v):
        try:
            return int(v, 0) if v[:2] in ("0o", "0x") else int(v)
        except ValueError:
            return v
    if first in _NUMBER_FIRST and _FLOAT.match(v):
        # Python's float() reads "inf"/"nan" but not YAML's ".inf"/".nan".
        low = v.lower()
        if low.endswith(".inf"):
            return float("-inf") if low[0] == "-" else float("inf")
        if low == ".nan":
            return float("nan")
        return float(v)
    return v


def to_python(node: Node) -> Any:
    """Expand a node into plain values, following aliases.

    Bounded: a self-referencing alias or an expansion past the composer's limit
    yields None for the part beyond it, never a hang.
    """
    budget = [MAX_EXPANDED_NODES]
    return _to_python(node, budget, 0)


def _to_python(node: Node, budget: list[int], depth: int) -> Any:
    budget[0] -= 1
    if budget[0] < 0 or depth > MAX_DEPTH:
        return None
    node = node.target()
    if node.kind == "scalar":
        return resolve_scalar(node)
    if node.kind == "seq":
        return [_to_python(item, budget, depth + 1) for item in node.items]
    out: dict[Any, Any] = {}
    for k, v in node.items:
        key = _to_python(k, budget, depth + 1)
        if isinstance(key, (list, dict)) or key is None and k.target().kind != "scalar":
            key = str(key)
        out[key] = _to_python(v, budget, depth + 1)
    return out


def _c_parser_class() -> Any:
    global _CParser
    if _CParser is None:
        try:
            from yaml._yaml import CParser  # noqa: PLC0415 - PyYAML's libyaml binding

            _CParser = CParser
        except ImportError:  # pragma: no cover - PyYAML wheels without libyaml
            _CParser = False
    return _CParser


# PyYAML's pure parser decides, the one `yaml.safe_load` uses: libyaml builds disagree
# with it at the edges (ruamel's bundled libyaml rejected ':' inside flow plain scalars,
# `[http://x]`, `[a:b]`; libyaml 0.2.5 accepts `[!,-]`). libyaml runs first because it is
# fast on hostile input the pure scanner is quadratic on (5,000 `[` on a line): its
# safety limits stand, and past PURE_PARSER_LIMIT its verdict does. Only 14 of the
# 3,223 corpus frontmatters reach either (see compose_simple), but 339 of 4,913 and 419 of 3,048
# in the two halves of the held-out repositories (nested maps, flow maps, quoted lines).
# tests/engine/test_yaml_differential.py compares the result with PyYAML and js-yaml.
PURE_PARSER_LIMIT = 65_536

# Where libyaml accepts a text without any of these, the two parsers give the same
# events (tests/engine/test_yaml_fast_path.py checks generated texts; when
# measured, about 2 million): tags, tabs, CR, NEL/LS/PS/BOM and a block scalar header running into '#'
# anywhere; inside flow collections also '?', anchors, aliases, comments, reserved
# indicators and keys with empty values ('{a: }'). Skipping the pure parser there
# halves the time of a typical frontmatter with lists and `description: |`.
# Searched one part at a time, each only where its literal is present: as one alternation the
# regex engine tried every position (22 of the 31 us a frontmatter the fast path refused cost
# here, on the held-out tune half). The parts: tabs and the other characters, a tag, a block
# scalar header running into '#'.
_PARSERS_MAY_DIFFER = (lazy_re(r"[\t\r\x85\u2028\u2029\ufeff]"), lazy_re(r"(?:^|[\s\[{,])!"),
                       lazy_re(r"[|>][-+0-9]*#"))
# A flow collection opens where a node starts: after whitespace, a quote, '[', '{' or ','.
# One-line quoted scalars are dropped first: `argument-hint: "[file]"` opens none.
_QUOTED = lazy_re(r""""(?:[^"\\\n]|\\.)*"|'(?:[^'\n]|'')*'""")
_FLOW_START = lazy_re(r"""(?:^|[\s\[{,"'])[\[{]""")
_FLOW_MAY_DIFFER = lazy_re(r"(?:^|[\s\[{,])[&*#]|[?%@`|>]|:[ \n]*[\]},]")


def libyaml_suffices(text: str, flows: list[tuple[int, int]] | None = None) -> bool:
    """Whether libyaml's acceptance of ``text`` is PyYAML's too, with the same events.

    ``flows``: where libyaml's parse found the outermost flow collections (``_flow_spans``); the
    shapes only a flow collection parts on are then searched there alone, not in the whole text
    (a `metadata: {"openclaw": ...}` line beside a description with a backtick or `|`: unseen
    AgentWorkers/skills, 1,248 of 18,427 frontmatters parsed twice)."""
    breaks, tag, header = _PARSERS_MAY_DIFFER
    if breaks.search(text) or ("!" in text and tag.search(text)) or (
            "#" in text and ("|" in text or ">" in text) and header.search(text)):
        return False
    if "[" not in text and "{" not in text:
        return True  # no flow collection opens
    if flows is not None:
        return not any(_FLOW_MAY_DIFFER.search(text, start, end) for start, end in flows)
    return _FLOW_START.search(_QUOTED.sub("", text)) is None or not _FLOW_MAY_DIFFER.search(text)


def _flow_spans(root: Node | None, base: int) -> list[tuple[int, int]]:
    """The spans of ``root``'s outermost flow collections, relative to the text (offsets less ``base``)."""
    out: list[tuple[int, int]] = []
    todo = [root] if root is not None else []
    while todo:
        node = todo.pop()
        if node.alias_of is not None:
            continue  # its target is visited where it is written
        if node.kind != "scalar" and node.style:
            out.append((node.start - base, node.end - base))
            continue
        for item in node.items:
            todo.extend(item if isinstance(item, tuple) else (item,))
    return out


def _parser(text: str, libyaml: bool) -> Any:
    if libyaml:
        return _CParser(text)
    import yaml  # noqa: PLC0415 - PyYAML

    return yaml.parse(text, Loader=yaml.SafeLoader)


def _mark_offset(exc: Any, text: str = "", libyaml: bool = False) -> int:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    if mark is None:
        # ReaderError (control characters, NUL) has no mark, only the character's
        # position -- a UTF-8 byte offset from libyaml's reader, code points elsewhere.
        position = getattr(exc, "position", None)
        if not isinstance(position, int) or position < 0:
            return 0
        if libyaml and not text.isascii():
            return len(text.encode("utf-8", "surrogatepass")[:position].decode("utf-8", "ignore"))
        return position
    return int(getattr(mark, "index", 0) or 0)


def _message(exc: Any) -> str:
    problem = getattr(exc, "problem", None)
    context = getattr(exc, "context", None)
    if problem:
        return f"{problem} ({context})" if context else str(problem)
    return str(exc).split("\n")[0]


# NEL, LS and PS are line breaks to YAML 1.1 (PyYAML, libyaml) but ordinary characters to
# YAML 1.2, which every captured release parses with: a scalar holding one keeps it
# (capture/diff/FINDINGS.md). They are swapped for private-use stand-ins of the same length
# for the parse, so offsets hold, and swapped back in the values.
YAML11_BREAKS = "\x85\u2028\u2029"


def compose(text: str, base: int = 0, *, yaml11: bool = False,
            libyaml: bool = False) -> tuple[Node | None, YamlError | None, list[Node]]:
    """Compose the first YAML document of ``text``: YAML 1.2 line breaks, or 1.1's with ``yaml11``
    (the parsers of Codex and Copilot CLI); with ``libyaml``, libyaml's verdict alone (a harness that
    parses with libyaml: tabs between words and after `key:` taken, a block scalar's line that starts
    with a tab refused).

    Returns (root, error, tagged) where offsets are shifted by ``base``; root is
    None for an empty document. ``tagged`` lists nodes with explicit tags.
    """
    if not yaml11 and ("\x85" in text or "\u2028" in text or "\u2029" in text):
        return _compose_with_stand_ins(text, base, libyaml)
    return _compose_either(text, base, libyaml)


def _compose_with_stand_ins(text: str, base: int,
                            libyaml: bool = False) -> tuple[Node | None, YamlError | None, list[Node]]:
    present = set(text)
    stand_ins = "".join([c for c in map(chr, range(0xE000, 0xF900)) if c not in present][:3])
    if len(stand_ins) < 3:  # a text holding nearly every private-use character: parse as YAML 1.1
        return _compose_either(text, base, libyaml)
    root, err, tagged = _compose_either(text.translate(str.maketrans(YAML11_BREAKS, stand_ins)), base, libyaml)
    back = str.maketrans(stand_ins, YAML11_BREAKS)
    todo: list[Node] = ([root] if root is not None else []) + tagged
    while todo:
        node = todo.pop()
        node.value = node.value.translate(back)
        if node.alias_of is None:  # an alias shares its target's items, visited there
            for item in node.items:
                todo.extend(item if isinstance(item, tuple) else (item,))
    if err is not None:
        err = YamlError(err.message.translate(back), err.offset, err.limit)
    return root, err, tagged


def _compose_either(text: str, base: int, libyaml: bool = False) -> tuple[Node | None, YamlError | None, list[Node]]:
    if _c_parser_class():
        fast = _compose(text, base, libyaml=True)
        if libyaml:
            return fast
        if (fast[1] is not None and fast[1].limit) or len(text) > PURE_PARSER_LIMIT:
            return fast
        if fast[1] is None and libyaml_suffices(text, _flow_spans(fast[0], base)):
            return fast
    return _compose(text, base, libyaml=False)


def _compose(text: str, base: int, libyaml: bool) -> tuple[Node | None, YamlError | None, list[Node]]:
    try:
        parser = _parser(text, libyaml)
    except Exception as exc:  # the C parser validates the input eagerly
        return None, YamlError(_message(exc), base + _mark_offset(exc, text, libyaml)), []
    get = parser.get_event if hasattr(parser, "get_event") else parser.__next__
    anchors: dict[str, Node] = {}
    stack: list[Node] = []
    pending_key: list[Node | None] = []
    root: Node | None = None
    tagged: list[Node] = []
    expanded = 0
    try:
        while True:
            ev = get()
            name = type(ev).__name__
            if name in ("StreamStartEvent", "DocumentStartEvent"):
                continue
            if name == "DocumentEndEvent":
                # Content after a `...` line is a second document: every harness's parser but
                # Gemini CLI's line reader refuses the block (capture case document-end).
                try:
                    after = type(get()).__name__
                except Exception:  # noqa: BLE001 - PyYAML wants `---` before it: a second document all the same
                    after = "DocumentStartEvent"
                if after != "StreamEndEvent":
                    return None, YamlError("content after the document end marker '...' (a second YAML "
                                           "document)", base + ev.start_mark.index), tagged
                break
            if name == "StreamEndEvent":
                break
            if name in ("MappingEndEvent", "SequenceEndEvent"):
                node = stack.pop()
                pending_key.pop()
                node.end = base + ev.end_mark.index
                node.size = 1 + sum(
                    (k.size + v.size) for k, v in node.items
                ) if node.kind == "map" else 1 + sum(i.size for i in node.items)
                _attach(stack, pending_key, node)
                if not stack:
                    root = node
                continue
            start = base + ev.start_mark.index
            end = base + ev.end_mark.index
            if name == "AliasEvent":
                target = anchors.get(ev.anchor)
                if target is None:
                    return root, YamlError(f"found undefined alias '{ev.anchor}'", start), tagged
                expanded += target.size
                if expanded > MAX_EXPANDED_NODES:
                    return None, YamlError(
                        f"aliases expand to more than {MAX_EXPANDED_NODES:,} nodes (alias bomb?)", start, limit=True
                    ), tagged
                node = Node(target.kind, start, end, value=target.value, style=target.style,
                            items=target.items, alias_of=target, size=target.size)
            else:
                if ev.anchor and ev.anchor in anchors:
                    # PyYAML's composer refuses a redefined anchor; safe_load fails.
                    return None, YamlError(f"found duplicate anchor '{ev.anchor}'", start), tagged
                tag = ev.tag
                node = Node(
                    "scalar" if name == "ScalarEvent" else "map" if name == "MappingStartEvent" else "seq",
                    start, end, tag=tag, anchor=ev.anchor,
                )
                if tag not in (None, "!") and tag not in _CORE_TAGS:
                    tagged.append(node)
                if name == "ScalarEvent":
                    node.value = _paired(ev.value) if ev.style == '"' and "\\u" in text else ev.value
                    node.style = ev.style or ""
                else:
                    node.style = "[" if name == "SequenceStartEvent" and ev.flow_style else (
                        "{" if ev.flow_style else "")
                    if len(stack) >= MAX_DEPTH:
                        return None, YamlError(f"nesting deeper than {MAX_DEPTH} levels", start, limit=True), tagged
                    if ev.anchor:
                        anchors[ev.anchor] = node
                    stack.append(node)
                    pending_key.append(None)
                    continue
                if ev.anchor:
                    anchors[ev.anchor] = node
            _attach(stack, pending_key, node)
            if not stack:
                root = node
    except RecursionError:
        return None, YamlError(f"nesting deeper than {MAX_DEPTH} levels", base, limit=True), tagged
    except Exception as exc:  # every parser failure becomes a finding, never a crash
        if "maximum nesting depth" in str(exc):  # libyaml's own cap (1,000 levels)
            return None, YamlError(f"nesting deeper than {MAX_DEPTH} levels", base, limit=True), tagged
        return None, YamlError(_message(exc), base + _mark_offset(exc, text, libyaml)), tagged
    return root, None, tagged


_SURROGATE = lazy_re("[\ud800-\udfff]")


def _paired(value: str) -> str:
    """A double-quoted value as JavaScript's parsers hold it: escapes of a surrogate pair
    (`"\\ud83c\\udfdb"`) are the one character they encode, where PyYAML leaves two lone surrogates
    that no UTF-8 output takes (the sixth real-skill run's seed 11: a catalog and preview crashed); a
    lone one stays."""
    if _SURROGATE.search(value) is None:
        return value
    return value.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def _attach(stack: list[Node], pending_key: list[Node | None], node: Node) -> None:
    if not stack:
        return
    parent = stack[-1]
    if parent.kind == "seq":
        parent.items.append(node)
    elif pending_key[-1] is None:
        pending_key[-1] = node
    else:
        parent.items.append((pending_key[-1], node))
        pending_key[-1] = None


# --- The common case without the parser -------------------------------------------
#
# Most frontmatter is `key: value` lines, optionally one nested level of the same
# (metadata), a list of plain items (allowed-tools), a one-line flow list of plain words
# (`tags: [a, b]`), a `|` / `>` block scalar or a single-quoted one over several lines
# (description). Building those nodes directly skips the parser's Python event objects,
# which are most of the frontmatter cost of a check. Anything else -- flow maps, escapes,
# anchors, tags, comments after values, tabs, indentation indicators, more-indented folded
# lines, blank lines holding spaces -- returns None and goes through ``compose``; tests
# compare both on real files and generated texts.

# No ': ' or ' #'. Runs of ordinary characters are taken whole and never given back (possessive,
# Python 3.11+; 3.10 takes them one at a time): the lazy form tried the line's end after every
# character, 3x slower on a long description. Trailing spaces are the plain scalar's here;
# ``_scalar`` drops them.
_PLAIN_REST = r"(?:[^:#\n]++|:(?=\S)|(?<! )#)*+" if sys.version_info >= (3, 11) else r"(?:[^:#\n]|:(?=\S)|(?<! )#)*"
_PLAIN = r"([^\s\-?:,\[\]{}#&*!|>'\"%@`]" + _PLAIN_REST + ")"
# Inside single quotes '' is a quote (runs taken whole on 3.11+, as above).
_SINGLE_REST = r"(?:[^'\n]++|'')*+" if sys.version_info >= (3, 11) else r"(?:[^'\n]|'')*"
# Inside double quotes the escapes real descriptions use (\" \\ \n \t and \uXXXX short of a
# surrogate half, which the parsers pair or refuse); any other takes the line to the parser.
_DOUBLE_REST = (r"(?:[^\"\\\n]++|\\[nt\"\\]|\\u(?![dD][89a-fA-F])[0-9A-Fa-f]{4})*+" if sys.version_info >= (3, 11)
                else r"(?:[^\"\\\n]|\\[nt\"\\]|\\u(?![dD][89a-fA-F])[0-9A-Fa-f]{4})*")
_SCALAR = r"\"(" + _DOUBLE_REST + r")\"" r"|'(" + _SINGLE_REST + r")'|" + _PLAIN  # double-quoted, single, plain
_ESCAPE = lazy_re(r"\\(?:u([0-9A-Fa-f]{4})|(.))")
_ESCAPED = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
_SIMPLE_LINE = lazy_re(r"( *)([A-Za-z0-9_][A-Za-z0-9_.-]*):(?:( +)(?:" + _SCALAR + r"))?( *)")
_SEQ_ITEM = lazy_re(r"( *- +)(?:" + _SCALAR + r")( *)")  # (1) up to the item's first character
_BLOCK_HEADER = lazy_re(r"([A-Za-z0-9_][A-Za-z0-9_.-]*): +([|>])([-+]?) *")
# `key: [a, b c, d]` on one line: (1) indentation, (2) key, (3) from the key's end to the '[',
# (4) the inside. Its words are checked one by one (_FLOW_WORD): no quotes, colons, comments,
# nested collections or indicators, where the parser has rules of its own.
_FLOW_LINE = lazy_re(r"( *)([A-Za-z0-9_][A-Za-z0-9_.-]*)(: +)\[([^\[\]{}\n]*)\] *")
_FLOW_WORD = lazy_re(r"[A-Za-z0-9_][A-Za-z0-9_ ./()+@=-]*")
# `key: 'text` whose closing quote is on a later line: (1) indentation, (2) key, (3) up to the quote.
_QUOTE_OPEN = lazy_re(r"( *)([A-Za-z0-9_][A-Za-z0-9_.-]*)(: +)'")


# A line continuing a plain value (spaces around it stripped): what may start a plain scalar, and
# no ': ' or ' #' after (the parser has rules of its own for a line that opens with an indicator).
_CONTINUED = lazy_re(_PLAIN)


_ASCII_CONTROL = lazy_re("[\x00-\x09\x0b-\x1f\x7f]")
# Every character outside YAML's printable set but \n (its complement, written out: the negated
# class took 5 ms to compile, a fifth of a one-skill `check`'s own start-up; both give the same
# verdict on every code point).
_NOT_PLAIN_SAFE = lazy_re("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]")


def _scalar(m: re.Match, group: int, start: int) -> Node:
    """The scalar of ``_SCALAR``'s groups ``group``..``group + 2``, its text at ``start``."""
    if m.group(group) is not None:
        raw = m.group(group)
        value = _ESCAPE.sub(_unescape, raw) if "\\" in raw else raw
        return Node("scalar", start, start + len(raw) + 2, value=value, style='"')
    if m.group(group + 1) is not None:
        raw = m.group(group + 1)
        return Node("scalar", start, start + len(raw) + 2, value=raw.replace("''", "'"), style="'")
    plain = m.group(group + 2).rstrip(" ")
    return Node("scalar", start, start + len(plain), value=plain)


def _unescape(m: re.Match) -> str:
    return chr(int(m.group(1), 16)) if m.group(1) is not None else _ESCAPED[m.group(2)]


def _block_scalar(text: str, pos: int, folded: bool, chomp: str) -> tuple[str, int] | None:
    """Value and end of a block scalar whose content starts at ``pos`` (after the header's
    break), under a key at column 0; None where only the parser can tell."""
    n = len(text)
    indent = -1
    parts: list[str] = []
    empties = 0  # empty lines since the last content line
    while pos < n:
        nl = text.find("\n", pos)
        end = n if nl < 0 else nl
        if end == pos:
            if indent < 0:
                return None  # a leading empty line: kept as a line break, and rare
            empties += 1
            pos = end + 1
            continue
        line = text[pos:end]
        stripped = line.lstrip(" ")
        here = len(line) - len(stripped)
        if not stripped:
            return None  # spaces only: may set the indentation or belong to the content
        if indent < 0:
            if here == 0:
                return None  # no content at all
            indent = here
        if here < indent:
            break  # the next key, or a comment
        if nl < 0:
            return None  # the last line has no break: chomping differs
        if folded and here > indent:
            return None  # more-indented lines keep their breaks
        content = line[indent:]
        if not parts:
            parts.append(content)
        elif folded:
            parts.append(("\n" * empties if empties else " ") + content)
        else:
            parts.append("\n" * (empties + 1) + content)
        empties = 0
        pos = end + 1
    if not parts:
        return None
    value = "".join(parts)
    if chomp == "":
        value += "\n"
    elif chomp == "+":
        value += "\n" * (empties + 1)
    return value, min(pos, n)


def _flow_list(line: str, at: int) -> Node | None:
    """The one-line flow list of plain words ``line`` ends with (``_FLOW_LINE``), its text at
    ``at``; None for any other shape."""
    m = _FLOW_LINE.fullmatch(line)
    if m is None:
        return None
    start = m.end(3)  # the '['
    seq = Node("seq", at + start, at + m.end(4) + 1, style="[")
    inside = m.group(4)
    if inside.strip(" "):
        pos = m.start(4)
        for word in inside.split(","):
            core = word.strip(" ")
            if not _FLOW_WORD.fullmatch(core):
                return None  # quoted, empty (`[a,,b]`, a trailing comma) or anything unusual
            s = pos + len(word) - len(word.lstrip(" "))
            seq.items.append(Node("scalar", at + s, at + s + len(core), value=core))
            pos += len(word) + 1
    seq.size = 1 + len(seq.items)
    return seq


def _plain_lines(text: str, pos: int, indent: int, first: Node, base: int) -> tuple[Node, int] | None:
    """The plain value ``first`` with the lines from ``pos`` that continue it (indented past its
    key, at column ``indent``), and where the line after them starts; ``first`` itself when none
    does. None where the parser must decide (a line it may read otherwise). Offsets in ``text``
    are ``base`` less than the nodes'."""
    n = len(text)
    value = first.value
    end = -1
    empties = 0  # empty lines since the last content line
    while pos < n:
        if text[pos] != " " and text[pos] != "\n":
            break  # a line at column 0 (the next key, most often): never indented past a key
        nl = text.find("\n", pos)
        stop = n if nl < 0 else nl
        line = text[pos:stop]
        piece = line.strip(" ")
        if not piece:
            empties += 1
            pos = stop + 1
            continue
        lead = len(line) - len(line.lstrip(" "))
        if lead <= indent or piece[0] == "#":
            break  # the next key, or a comment: the value ends (what follows is the caller's)
        if _CONTINUED.fullmatch(piece) is None:
            return None
        # Folded as YAML folds a plain scalar: a line break is a space, each empty line a break.
        value += ("\n" * empties if empties else " ") + piece
        empties = 0
        end = base + pos + lead + len(piece)
        pos = stop + 1
    pos = min(pos, n)
    return (first, pos) if end < 0 else (Node("scalar", first.start, end, value=value), pos)


def _quoted_lines(text: str, quote: int, indent: int) -> tuple[Node, int] | None:
    """The single-quoted scalar opened at ``text[quote]`` and closed on a later line (under a key
    at column ``indent``), and where the line after its closing one starts; None where the
    parser must decide (no closing quote, text after it, a continuation line not indented
    past the key, a first line without text)."""
    i = quote + 1
    while True:
        close = text.find("'", i)
        if close < 0:
            return None
        if text.startswith("'", close + 1):
            i = close + 2  # '' stands for a quote
            continue
        break
    nl = text.find("\n", close)
    line_end = len(text) if nl < 0 else nl
    if text[close + 1:line_end].strip(" "):
        return None  # a comment or more text after the closing quote
    lines = text[quote + 1:close].split("\n")
    if len(lines) < 2 or not lines[0].strip(" "):
        return None
    for line in lines[1:]:
        if line.strip(" ") and len(line) - len(line.lstrip(" ")) <= indent:
            return None  # not indented past the key: the parsers disagree there
    # Folded as YAML folds a flow scalar: a line break between two lines is a space, each empty
    # line between them a line break; the closing quote's line counts even without text.
    value = lines[0].rstrip(" ")
    empties = 0
    for line in lines[1:-1]:
        piece = line.strip(" ")
        if not piece:
            empties += 1
            continue
        value += ("\n" * empties if empties else " ") + piece
        empties = 0
    value += ("\n" * empties if empties else " ") + lines[-1].lstrip(" ")
    node = Node("scalar", quote, close + 1, value=value.replace("''", "'"), style="'")
    return node, line_end + 1


def compose_simple(text: str, base: int = 0) -> Node | None:
    """The mapping of ``text`` if it only holds the simple shapes above, else None."""
    if text.isascii():
        if "\t" in text or "\r" in text or _ASCII_CONTROL.search(text):
            return None
    elif _NOT_PLAIN_SAFE.search(text):
        return None  # control characters, NEL, U+2028/9, BOM: the parser has rules for each
    n = len(text)
    root = Node("map", base, base + n)
    items = root.items
    pending = -1  # index in items of a `key:` with nothing after it, decided by the lines below
    child: Node | None = None  # the nested map or list under it, once its first line is seen
    child_indent = -1
    pos = 0
    while pos < n:
        nl = text.find("\n", pos)
        end = n if nl < 0 else nl
        line = text[pos:end]
        stripped = line.lstrip(" ")
        if not stripped or stripped[0] == "#":
            pos = end + 1
            continue
        indent = len(line) - len(stripped)
        if stripped[0] == "-" and stripped[1:2] in (" ", ""):
            # A list item: of the `key:` above, at one indentation (column 0 included).
            m = _SEQ_ITEM.fullmatch(line)
            if m is None or pending < 0:
                return None
            if child is None:
                child = Node("seq", base + pos + indent, -1)
                child_indent = indent
                items[pending] = (items[pending][0], child)
            elif child.kind != "seq" or indent != child_indent:
                return None
            child.items.append(_scalar(m, 2, base + pos + m.end(1)))
            pos = end + 1
            continue
        if indent == 0:
            if child is not None:
                child.end = base + pos  # a block collection ends where the next key starts
            child = None
            pending = -1
            b = _BLOCK_HEADER.fullmatch(line) if "|" in line or ">" in line else None
            if b is not None:
                block = _block_scalar(text, end + 1, b.group(2) == ">", b.group(3))
                if block is None:
                    return None
                key = Node("scalar", base + pos, base + pos + len(b.group(1)), value=b.group(1))
                items.append((key, Node("scalar", base + pos + b.start(2), base + block[1], value=block[0],
                                        style=b.group(2))))
                pos = block[1]
                continue
        m = _SIMPLE_LINE.fullmatch(line)
        after = end + 1  # where the next line starts
        if m is not None:
            _, k, spaces, double, single, plain, _ = m.groups()
            key_len = len(k)
            if spaces is None:
                value = None
            elif plain is None:
                at = base + pos + m.end(3)
                if double is not None:
                    value = Node("scalar", at, at + len(double) + 2, value=_ESCAPE.sub(_unescape, double)
                                 if "\\" in double else double, style='"')
                else:
                    value = Node("scalar", at, at + len(single) + 2, value=single.replace("''", "'"), style="'")
            else:
                at = base + pos + m.end(3)
                plain = plain.rstrip(" ")
                value = Node("scalar", at, at + len(plain), value=plain)
                # A plain value: the lines below may continue it (only an indented or empty line can).
                if after < n and (text[after] == " " or text[after] == "\n"):
                    got = _plain_lines(text, after, indent, value, base)
                    if got is None:
                        return None
                    value, after = got
        elif (flow := _flow_list(line, base + pos) if "[" in line else None) is not None:
            value = flow
            key_len = line.index(":") - indent
        else:
            q = _QUOTE_OPEN.match(line)
            got = _quoted_lines(text, pos + q.end() - 1, indent) if q is not None else None
            if q is None or got is None:
                return None
            value, after = got
            value.start += base
            value.end += base
            key_len = len(q.group(2))
        key = Node("scalar", base + pos + indent, base + pos + indent + key_len, value=line[indent:indent + key_len])
        if indent == 0:
            if value is None:
                # Either an empty value or the start of a nested map or list: decided by the next line.
                value = Node("scalar", key.end + 1, key.end + 1, value="")
                pending = len(items)
            items.append((key, value))
            pos = after
            continue
        # Indented: a nested map under the `key:` above, one level deep.
        if pending < 0 or value is None:
            return None  # under a key with a value, or a deeper level: leave it to the parser
        if child is None:
            child = Node("map", key.start, -1)
            child_indent = indent
            items[pending] = (items[pending][0], child)
        elif child.kind != "map" or indent != child_indent:
            return None
        child.items.append((key, value))
        pos = after
    if not items:
        return None  # only comments: let the parser say what it is
    if child is not None:
        child.end = base + n
    root.start = items[0][0].start
    for _, v in items:
        if v.kind == "map":
            v.size = 1 + sum(1 + w.size for _, w in v.items)
        elif v.style != "[":  # a flow list has its size already
            v.size = 1 + len(v.items)
    root.size = 1 + sum(1 + v.size for _, v in items)
    return root
