"""The parsed SKILL.md: text, frontmatter split, YAML nodes and Markdown body.

Parsing is staged and lazy: the body is parsed only when a rule asks for it, and
field access never runs when the frontmatter did not parse.
"""

from __future__ import annotations

import os

from . import frontmatter, markdown, yamlnodes
from .datarecord import datarecord, field
from .lazyre import lazy_re
from .text import SourceText

TYPE_CHECKING = False  # typing itself costs a one-skill check 2 ms; type checkers take this as True
if TYPE_CHECKING:
    from typing import Any

# Frontmatter larger than this is not parsed (a 10 MB value must not stall a keystroke).
MAX_FRONTMATTER_CHARS = 256 * 1024
# Text beyond this is not analysed; one FILE_TOO_LARGE finding says so.
MAX_ANALYSED_CHARS = 1024 * 1024
# A closing fence line anywhere after the opening one (used only on text cut at the limit).
_CLOSING_FENCE = lazy_re(r"(?:\r\n|\r|\n)---[ \t]*(?:\r\n|\r|\n|$)")


@datarecord(frozen=True)
class DecodeIssue:
    """A byte that is not UTF-8, or another problem decoding the file."""

    message: str
    offset: int


def decode(data: bytes) -> tuple[str, DecodeIssue | None]:
    """Bytes from disk -> text, the way harnesses read it (UTF-8), plus what went wrong."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        enc = "utf-16"
        try:
            text = data.decode(enc)
        except UnicodeDecodeError:
            text = data.decode("utf-8", "replace")
        return text.lstrip("\ufeff"), DecodeIssue(
            "file is UTF-16 (byte-order mark); harnesses read SKILL.md as UTF-8 -- save it as UTF-8", 0)
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
        issue = None
    except UnicodeDecodeError as exc:
        text = data.decode("utf-8", "replace")
        good = data[: exc.start].decode("utf-8", "replace")
        issue = DecodeIssue(f"invalid UTF-8 byte 0x{data[exc.start]:02x}; harnesses fail to read this file", len(good))
    nul = text.find("\x00")
    if nul >= 0 and issue is None:
        issue = DecodeIssue("NUL byte in text; many tools treat the file as binary", nul)
    return text, issue


@datarecord(slots=True)
class Entry:
    """One top-level frontmatter key and its value node."""

    key: str
    key_node: yamlnodes.Node
    value: yamlnodes.Node


@datarecord(slots=True)
class SkillDocument:
    """One parsed SKILL.md: its text, frontmatter entries and body."""

    path: str  # absolute SKILL.md path (may not exist for unsaved buffers)
    src: SourceText
    full_length: int  # length of the text before truncation
    decode_issue: DecodeIssue | None = None
    split: frontmatter.Split | None = None
    root: yamlnodes.Node | None = None
    yaml_error: yamlnodes.YamlError | None = None
    too_large_frontmatter: bool = False
    bom: bool = False  # the file (or buffer) starts with a UTF-8 byte order mark; not part of ``text``
    yaml11: bool = False  # parsed with YAML 1.1's line breaks (NEL, LS, PS), as some harnesses read it
    libyaml: bool = False  # parsed by libyaml alone (Harness.libyaml), not PyYAML's pure parser
    entries: dict[str, Entry] = field(default_factory=dict)
    duplicates: list[tuple[yamlnodes.Node, yamlnodes.Node]] = field(default_factory=list)
    tagged: list[yamlnodes.Node] = field(default_factory=list)
    _body: markdown.Body | None = None
    # Results of cheap scans that several rules and indexes ask for, by scan name.
    memo: dict[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return self.src.text

    @property
    def folder(self) -> str:
        return os.path.basename(os.path.dirname(self.path))

    @property
    def skill_dir(self) -> str:
        return os.path.dirname(self.path)

    @property
    def truncated(self) -> bool:
        return self.full_length > len(self.src.text)

    @property
    def frontmatter_ok(self) -> bool:
        """True when fields can be read: the frontmatter exists, closed, parsed, and is a mapping."""
        return (self.split is not None and self.split.has_frontmatter and self.split.closed
                and self.yaml_error is None and not self.too_large_frontmatter
                and (self.root is None or self.root.kind == "map"))

    @property
    def body_start(self) -> int:
        assert self.split is not None
        return self.split.body_start

    @property
    def body_text(self) -> str:
        return self.src.text[self.body_start:]

    @property
    def body(self) -> markdown.Body:
        if self._body is None:
            self._body = markdown.parse(self.body_text, self.body_start)
        return self._body

    @property
    def links(self) -> list[markdown.Link]:
        """``body.links``, without the full parse when the HTML settles them (markdown.links_fast)."""
        return self._short_of_parse("links", markdown.links_fast)  # type: ignore[no-any-return]

    @property
    def code_blocks(self) -> list[tuple[int, int]]:
        """``body.code_blocks``, without the full parse when the HTML confirms a scan of the fences
        (markdown.code_blocks_fast). Shared, not to be changed."""
        return self._short_of_parse("code_blocks", markdown.code_blocks_fast)  # type: ignore[no-any-return]

    def _short_of_parse(self, part: str, shortcut: Any) -> Any:
        """``body``'s ``part``: from the parse when it has run, else from ``shortcut`` (kept in
        ``memo``), else from the parse after all."""
        if self._body is not None:
            return getattr(self._body, part)
        key = "fast " + part  # not the rules' own memo keys (bodyscan's inexact "code_blocks")
        hit = self.memo.get(key)
        if hit is None:
            hit = shortcut(self.body_text, self.body_start)
            if hit is None:
                hit = getattr(self.body, part)
            self.memo[key] = hit
        return hit

    def value(self, key: str) -> Any:
        """Plain value of a top-level field (None when absent)."""
        entry = self.entries.get(key)
        return None if entry is None else yamlnodes.to_python(entry.value)

    def frontmatter_values(self) -> dict[str, Any]:
        if not self.frontmatter_ok:
            return {}
        return {k: yamlnodes.to_python(e.value) for k, e in self.entries.items()}


_TRAILING_BLANKS = lazy_re(r"[ \t]+(?=\r\n|\r|\n|$)")


def complex_key(text: str, node: yamlnodes.Node) -> str:
    """Identity of a non-scalar key (`? [a, b]`): its source without trailing blanks, so that
    removing trailing whitespace never turns two keys into duplicates."""
    return _TRAILING_BLANKS.sub("", text[node.start:node.end]).strip()


def parse(text: str, path: str, decode_issue: DecodeIssue | None = None, *, yaml11: bool = False,
          libyaml: bool = False) -> SkillDocument:
    full = len(text)
    full_text = text
    if full > MAX_ANALYSED_CHARS:
        cut = text.rfind("\n", 0, MAX_ANALYSED_CHARS) + 1 or MAX_ANALYSED_CHARS
        text = text[:cut]
    src = SourceText(text)
    doc = SkillDocument(path=path, src=src, full_length=full, decode_issue=decode_issue, bom=text.startswith("\ufeff"),
                        yaml11=yaml11, libyaml=libyaml)
    sp = frontmatter.split(src)
    doc.split = sp
    if not sp.has_frontmatter or not sp.closed:
        if sp.has_frontmatter and full > len(text) and _CLOSING_FENCE.search(full_text, sp.open_end) is not None:
            # The frontmatter closes, but past the analysis limit (a 10 MB value): a size
            # finding, not a misleading "no closing ---".
            doc.too_large_frontmatter = True
        return doc
    if sp.yaml_end - sp.yaml_start > MAX_FRONTMATTER_CHARS:
        doc.too_large_frontmatter = True
        return doc
    yaml_text = text[sp.yaml_start:sp.yaml_end]
    simple = None if libyaml else yamlnodes.compose_simple(yaml_text, sp.yaml_start)
    root: yamlnodes.Node | None
    err: yamlnodes.YamlError | None
    tagged: list[yamlnodes.Node]
    if simple is not None:
        root, err, tagged = simple, None, []
    else:
        root, err, tagged = yamlnodes.compose(yaml_text, sp.yaml_start, yaml11=yaml11, libyaml=libyaml)
    doc.root, doc.yaml_error, doc.tagged = root, err, tagged
    if err is None and root is not None and root.kind == "map":
        for k, v in root.target().items:
            kt = k.target()
            key = kt.value if kt.kind == "scalar" else complex_key(text, k)
            if key in doc.entries:
                doc.duplicates.append((k, doc.entries[key].key_node))
                continue
            doc.entries[key] = Entry(key, k, v)
    return doc


def load(path: str, data: bytes) -> SkillDocument:
    text, issue = decode(data)
    return parse(text, path, issue)
