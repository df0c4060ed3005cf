"""The shape of a fix: text edits (or a folder rename) with a title and how safe it is, and the
small text helpers every fix builder shares."""

from __future__ import annotations

import json

from .datarecord import datarecord
from .document import SkillDocument
from .findings import DISPLAY_ONLY, SAFE, UNSAFE
from .lazyre import lazy_re
from .yamlnodes import Node, resolve_scalar


@datarecord(frozen=True, slots=True)
class Edit:
    """Replace ``text[start:end]`` with ``text``."""

    start: int
    end: int
    text: str


@datarecord(frozen=True, slots=True)
class Fix:
    """A titled set of edits offered for a finding, with how safe it is."""

    title: str
    edits: tuple[Edit, ...]
    safe: bool = False  # part of fix-all and `check --fix`
    preferred: bool = False
    rename: tuple[str, str] | None = None  # (old folder, new folder): rename the skill folder
    # Why a fix its builder called safe is not (a key of protected.REASONS), else None.
    unsafe_because: str | None = None

    @property
    def applicability(self) -> str:
        if self.rename is not None:
            return DISPLAY_ONLY
        return SAFE if self.safe else UNSAFE


_PLAIN_OK = lazy_re(r"^[A-Za-z0-9][A-Za-z0-9 _./()+-]*$")


def yaml_string(value: str) -> str:
    """A YAML scalar for ``value``: plain when unambiguous, double-quoted otherwise."""
    if _PLAIN_OK.match(value) and not value.endswith(" ") and resolve_scalar(Node("scalar", 0, 0, value=value)) == value:
        return value
    return json.dumps(value, ensure_ascii=False)


def _line_span(doc: SkillDocument, start: int, end: int) -> tuple[int, int]:
    """Whole lines covering [start, end), including the final line break."""
    src = doc.src
    first = src.line_of(start)
    last = src.line_of(max(start, end - 1)) if end > start else first
    s = src.line_start(first)
    e = src.line_starts[last + 1] if last + 1 < src.line_count else len(src.text)
    return s, e


def _newline(doc: SkillDocument) -> str:
    text = doc.text
    i = text.find("\n")
    return "\r\n" if i > 0 and text[i - 1] == "\r" else "\n"
