"""How OpenCode 1.18.33 reads a SKILL.md.

Read from the release (its Bun binary's bundled JavaScript): the skill loader calls
``ConfigMarkdown.parse(path)``, which reads the file and hands its text to ``parse``:
``try { return matter(text) } catch { return matter(sanitize(text)) }`` (gray-matter 4 with
js-yaml 3's ``safeLoad``); a second failure leaves the skill out. It keeps a skill whose data is
an object with a string `name` and a `description` that is a string or not given (the catalog then
leaves it out; the skill tool loads it by name).

gray-matter (read in the bundle): a leading BOM is dropped; the file must start with `---` not
followed by a fourth `-`; the rest of that line, trimmed, names the language (none: YAML); the
matter runs from there to the first `\\n---` anywhere (a line starting with `---` closes it), without
that line break, or to the end (then the content is ''); a matter of comment lines and blanks only
gives `{}`. The content is what follows `\\n---`, one `\\r` and then one `\\n` dropped.

``sanitize`` (the retry): in the block its regex ``/^---\\r?\\n([\\s\\S]*?)\\r?\\n---/`` finds, each
line that is not blank, a comment or indented and matches ``^([a-zA-Z_][a-zA-Z0-9_]*)\\s*:\\s*(.*)$``
with a trimmed value holding ':' that does not start with a quote and is not `>` or `|`, becomes
``key: |-`` and the value indented by two spaces; the lines are joined with `\\n` and put in place of
the first occurrence of the block's text. A text the retry leaves as it was is gray-matter's cached
failure: no data, no skill.

js-yaml 3 is modelled on Gemini CLI's js-yaml 4 model (gemini_frontmatter.py: tabs, duplicate keys,
tags, merges) with js-yaml 3's implicit types: `012` is octal, `1:30` sexagesimal, `08` and `0o7`
are strings, a plain date is a Date.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

from skill_lsp.engine.activation.jsstr import JS_WHITESPACE, js_trim

from . import gemini_frontmatter as _g
from .datarecord import datarecord
from .lazyre import lazy_re

if TYPE_CHECKING:
    from skill_lsp.engine.document import SkillDocument
    from skill_lsp.engine.yamlnodes import Node

_WS = "[" + re.escape(JS_WHITESPACE) + "]"
_DOT = "[^\n\r\u2028\u2029]"
_LINE_BREAK = lazy_re(r"\r?\n")
_SANITIZE_BLOCK = lazy_re(r"---\r?\n(.*?)\r?\n---", re.S)
_KEY_LINE = lazy_re(f"([a-zA-Z_][a-zA-Z0-9_]*){_WS}*:{_WS}*({_DOT}*)")
# gray-matter's emptiness test: /^\s*#[^\n]+/gm removed (JavaScript's `^` with m: after any line terminator).
_COMMENT_LINES = lazy_re(f"(?:(?<=[\n\r\u2028\u2029])|^){_WS}*#[^\n]+", re.M)

# js-yaml 3's DEFAULT_SAFE_SCHEMA: the plain scalars that are not strings.
_INT3 = (r"[-+]?(?:0|0b[01_]*[01][01_]*(?<!_)|0x[0-9a-fA-F_]*[0-9a-fA-F][0-9a-fA-F_]*(?<!_)"
         r"|0[0-7_]*[0-7][0-7_]*(?<!_)|[1-9][0-9_]*(?<!_)|[1-9][0-9_]*(?::[0-5]?[0-9])+)")
_FLOAT3 = (r"(?:[-+]?(?:0|[1-9][0-9_]*)(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9_]+(?:[eE][-+]?[0-9]+)?"
           r"|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))(?<!_)")
_NOT_STRING3 = lazy_re(f"{_g._NULL}|{_g._BOOL}|{_g._DATE}|{_INT3}|{_FLOAT3}")

_QUOTED_VALUE_LINE = lazy_re(r"^( *)(?:- +)*[^\s#'\"][^#\n]*?[ \t]*:[ \t]+[\"']", re.M)

_LINE_BREAKS = lazy_re(r"\r\n|\r|\n")

NOT_STRING = False  # a value given that is not a string


@datarecord(frozen=True)
class OpenCodeFrontmatter:
    front: bool  # gray-matter found an opening `---`
    data: dict[str, str | bool] | None  # `name`/`description` as read: a string, or NOT_STRING (None: no data)
    content: str  # gray-matter's content (the skill tool hands it over trimmed)
    retried: bool = False  # the YAML failed and the sanitized text was read

    @property
    def name(self) -> str | None:
        value = (self.data or {}).get("name")
        return value if isinstance(value, str) else None

    @property
    def description(self) -> str | None:
        value = (self.data or {}).get("description")
        return value if isinstance(value, str) else None

    @property
    def skill(self) -> bool:
        """Whether the release loads it (its skill tool does; the catalog needs a description too)."""
        return self.name is not None and (self.data is None or self.data.get("description", "") is not NOT_STRING)

    @property
    def listed(self) -> bool:
        """Whether its catalog lists it."""
        return self.skill and self.description is not None


class _Thrown(Exception):
    pass


def _is_string3(node: Node) -> bool:
    node = node.target()
    if node.kind != "scalar":
        return False
    if node.tag is not None:
        return node.tag in (_g._YAML_TAG + "str", "!")
    return node.style != "" or _NOT_STRING3.fullmatch(node.value) is None


def _fields(root: Node | None) -> dict[str, str | bool] | None:
    """`name` and `description` of js-yaml 3's result (None: not an object); raises _Thrown."""
    if root is None or root.target().kind != "map":
        return None
    found: dict[str, Node] = {}
    merged: set[str] = set()
    for k, v in root.target().items:
        kt = k.target()
        if kt.kind != "scalar":
            continue
        key = kt.value
        if key == "<<" and kt.style == "" and kt.tag is None:
            sources = [v.target()] if v.target().kind == "map" else [s.target() for s in v.target().items]
            if v.target().kind == "scalar" or any(s.kind != "map" for s in sources):
                raise _Thrown
            for source in sources:
                for mk, mv in source.items:
                    mkey = mk.target().value
                    if mk.target().kind == "scalar" and mkey not in found:
                        found[mkey] = mv
                        merged.add(mkey)
            continue
        if key in found and key not in merged:
            raise _Thrown  # duplicated mapping key
        merged.discard(key)
        found[key] = v
    out: dict[str, str | bool] = {}
    for key in ("name", "description"):
        if key in found:
            node = found[key]
            out[key] = node.target().value if _is_string3(node) else NOT_STRING
    return out


def safe_load(matter: str) -> dict[str, str | bool] | None:
    """js-yaml 3's ``safeLoad`` of ``matter``: its `name` and `description` (None: not an object);
    raises _Thrown where it throws."""
    from skill_lsp.engine.yamlnodes import compose  # noqa: PLC0415

    block = matter
    if block and block[-1] not in "\n\r":
        block += "\n"
    if block.startswith("\ufeff"):
        block = block[1:]
    if "..." in block and _g._second_document(block):
        raise _Thrown
    written = block.split("\n") if "\r" not in block else None
    root, err, _ = compose(block)
    tabbed = False
    if ((err is not None and ("\t" in block or _g._COMMENT_ODD.search(block))
         or err is None and root is not None and _g._quoted_line_end(root, block)) and not _g._PRIVATE.search(block)):
        block = _g._tabs_as_js_yaml_reads_them(block, leading_tabs=True)
        root, err, _ = compose(block)
        tabbed = True
    for _ in range(8):
        # js-yaml 3 reads a key after a quoted value on the same line (`a: "x" b: y`) as the next key.
        if err is None or not err.message.startswith("expected <block end>, but found"):
            break
        head = block[:err.offset].rstrip(" \t")
        if not head.endswith(('"', "'")) or block[err.offset:err.offset + 1] in ("", "#", "\n", "\r"):
            break
        owner = next((m for m in reversed(list(_QUOTED_VALUE_LINE.finditer(head)))), None)
        indent = len(owner.group(1)) if owner is not None else 0  # the mapping's, as js-yaml 3 takes it
        # ... when the line the quote closes on is indented as much (spaces only: it skips tabs).
        line = _LINE_BREAKS.split(head)[-1]
        if written is not None and len(written) == head.count("\n") + block.count("\n", len(head)) + 1:
            line = written[head.count("\n")]
        if len(line) - len(line.lstrip(" ")) != indent:
            break
        block = f"{head}\n{' ' * indent}{block[err.offset:]}"
        root, err, _ = compose(block)
    if tabbed and err is None and root is not None:
        _g._untab(root)
    if err is not None:
        raise _Thrown
    if root is not None and _g._CONTENT_LINE.search(_g._DOCUMENT_END.sub("", block[root.end:])):
        raise _Thrown  # more after the first document (skill-lsp's parser reads the first only)
    if root is not None and _g._unknown_tag(root):
        raise _Thrown
    return _fields(root)


def _matter(text: str) -> tuple[str, str, str] | None:
    """gray-matter's split: (language, matter, content), or None when the text opens no matter."""
    if not text.startswith("---") or text[3:4] == "-":
        return None
    rest = text[3:]
    nl = _LINE_BREAK.search(rest)
    raw = rest[:nl.start()] if nl is not None else rest[:-1]  # JavaScript's slice(0, -1)
    language = js_trim(raw)
    if language:
        rest = rest[len(raw):]
    end = rest.find("\n---")
    if end == -1:
        return language, rest, ""
    content = rest[end + 4:]
    if content[:1] == "\r":
        content = content[1:]
    if content[:1] == "\n":
        content = content[1:]
    return language, rest[:end], content


def _gray_matter(text: str, doc: SkillDocument | None = None) -> OpenCodeFrontmatter:
    """gray-matter's result; raises _Thrown where its engine throws."""
    if text.startswith("\ufeff"):
        text = text[1:]
    split = _matter(text) if text else None
    if split is None:
        return OpenCodeFrontmatter(False, {}, text)
    language, matter, content = split
    if not js_trim(_COMMENT_LINES.sub("", matter)):
        return OpenCodeFrontmatter(True, {}, content)
    lang = language.lower() or "yaml"
    if lang in ("yaml", "yml"):
        fast = _document_values(doc, text, matter) if doc is not None else None
        data = fast[1] if fast is not None else safe_load(matter)
    elif lang == "json":
        try:
            value = json.loads(matter)
        except ValueError:
            raise _Thrown from None
        data = ({k: value[k] if isinstance(value[k], str) else NOT_STRING
                 for k in ("name", "description") if k in value} if isinstance(value, dict) else None)
    else:
        raise _Thrown  # no such engine (JavaScript's is eval: not modelled)
    return OpenCodeFrontmatter(True, data, content)


def sanitize(text: str) -> str:
    """OpenCode's ``ConfigMarkdown.sanitize`` (the text its retry parses)."""
    m = _SANITIZE_BLOCK.match(text)
    if m is None:
        return text
    block = m.group(1)
    out: list[str] = []
    for line in _LINE_BREAK.split(block):
        trimmed = js_trim(line)
        if trimmed.startswith("#") or not trimmed or line[:1] in JS_WHITESPACE:
            out.append(line)
            continue
        km = _KEY_LINE.fullmatch(line)
        if km is None:
            out.append(line)
            continue
        value = js_trim(km.group(2))
        if value in ("", ">", "|") or value.startswith(('"', "'")) or ":" not in value:
            out.append(line)
            continue
        out.extend((f"{km.group(1)}: |-", f"  {value}"))
    return text.replace(block, "\n".join(out), 1)


def read(text: str, doc: SkillDocument | None = None) -> OpenCodeFrontmatter:
    """A SKILL.md's text as OpenCode's ``ConfigMarkdown.parse`` reads it. ``doc``: skill-lsp's parse
    of the same text, whose values are taken where they are js-yaml 3's (no second YAML parse)."""
    try:
        return _gray_matter(text, doc)
    except _Thrown:
        pass
    again = sanitize(text)
    if again == text:
        return OpenCodeFrontmatter(True, None, "", retried=True)  # gray-matter's cached failure
    try:
        got = _gray_matter(again)
    except _Thrown:
        return OpenCodeFrontmatter(True, None, "", retried=True)
    return OpenCodeFrontmatter(got.front, got.data, got.content, retried=True)


def read_document(doc: SkillDocument) -> OpenCodeFrontmatter:
    """:func:`read` of a checked document's text, with skill-lsp's parse of it; kept on the document."""
    got = doc.memo.get("opencode")
    if got is None:
        # The byte order mark (kept apart from the text) matters to the retry: its regex then
        # finds no block, the text stays as it was and gray-matter's cached failure is all it reads.
        got = doc.memo["opencode"] = read(("\ufeff" if doc.bom and not doc.text.startswith("\ufeff") else "")
                                          + doc.text, doc)
    return got  # type: ignore[no-any-return]


def _document_values(doc: SkillDocument, text: str, matter: str) -> tuple[bool, dict[str, str | bool] | None] | None:
    """(True, what js-yaml 3 gives for ``matter``) where skill-lsp's parse of ``doc`` stands for it;
    None where it does not (then the block is parsed again). Raises _Thrown where js-yaml throws."""
    if doc.text.lstrip("\ufeff") != text or not matter.startswith("\n") or matter.endswith("\r") or "\ufeff" in matter:
        return None
    usable, _ = _g._document_values(doc, matter[1:])
    if not usable:
        return None
    if doc.yaml_error is not None:
        if "'" in matter or '"' in matter:
            return None  # js-yaml 3 may read a key after a quoted value on its line
        raise _Thrown  # the same text fails in js-yaml too (_g._document_values checked)
    sp = doc.split
    assert sp is not None
    if doc.root is not None and _g._CONTENT_LINE.search(_g._DOCUMENT_END.sub("", doc.text[doc.root.end:sp.yaml_end])):
        return None  # more after the first document, which skill-lsp's parser leaves unread
    if doc.root is None or doc.root.kind != "map":
        return True, None
    yaml = doc.text[sp.yaml_start:sp.yaml_end]
    if "!" in yaml and _g._unknown_tag(doc.root):
        raise _Thrown
    if any(e.value.target().kind == "scalar" and e.value.target().style in ("|", ">")
           for k, e in doc.entries.items() if k in ("name", "description")):
        return None  # a kept block at the end: read again
    out: dict[str, str | bool] = {}
    for key in ("name", "description"):
        entry = doc.entries.get(key)
        if entry is not None:
            out[key] = entry.value.target().value if _is_string3(entry.value) else NOT_STRING
    return True, out
