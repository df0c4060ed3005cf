"""Structured results of the skill tool (spec §3.1-§3.4).

Every result carries ``output``: the text a dialect rendered from the same
structured fields (``skill-tool`` by default).  ``datarecord.replace`` plus
:func:`skill_lsp.engine.render.render_result` re-renders for another dialect.
"""

from __future__ import annotations

from typing import Literal

from ..datarecord import datarecord, field

__all__ = [
    "ERROR_CODES",
    "ToolError",
    "OkResult",
    "AlreadyLoadedResult",
    "NotFoundResult",
    "ErrorResult",
    "Result",
]

ERROR_CODES = (
    "INVALID_PARAM",
    "NOT_FOUND",
    "SENSITIVE",
    "OUTSIDE_WORKSPACE",
    "INVALID_FRONTMATTER",
    "NAME_MISMATCH",
    "DISABLED",
    "NOT_TRUSTED",
    "PERMISSION_DENIED",
    "IO_ERROR",
)


@datarecord(frozen=True)
class ToolError:
    code: str
    message: str
    meta: dict = field(default_factory=dict)

    def format(self) -> str:
        """The reference one-line form ``Error [CODE]: message``."""
        return f"Error [{self.code}]: {self.message}"


@datarecord(frozen=True)
class OkResult:
    name: str
    dir: str
    path: str
    body: str  # frontmatter-stripped, substituted body (byte-exact otherwise)
    frontmatter: dict  # parsed frontmatter, allowed-tools normalised to a list
    resources: tuple[str, ...]  # "folder/name", at most 10 per folder + overflow marker
    bytes: int  # UTF-8 bytes of ``body``
    root_index: int = 0
    shadowed: tuple[str, ...] = ()
    allowed_tools: tuple[str, ...] = ()
    arguments: str | dict | None = None
    raw_body: str = ""  # body before substitution
    source_text: str | None = None  # whole SKILL.md text (for dialects that inject the file)
    bom: bool = False  # the file starts with a byte order mark (not part of source_text)
    warnings: tuple[str, ...] = ()
    output: str = ""
    kind: Literal["ok"] = "ok"


@datarecord(frozen=True)
class AlreadyLoadedResult:
    name: str
    at_turn: int | None = None
    previous: OkResult | None = None  # the first activation (dialects without dedupe replay it)
    output: str = ""
    kind: Literal["already_loaded"] = "already_loaded"


@datarecord(frozen=True)
class NotFoundResult:
    name: str
    siblings: tuple[str, ...] = ()
    output: str = ""
    kind: Literal["not_found"] = "not_found"


@datarecord(frozen=True)
class ErrorResult:
    error: ToolError
    name: object = None  # the requested name as given (may be any JSON value)
    output: str = ""
    kind: Literal["error"] = "error"

    @property
    def code(self) -> str:
        return self.error.code

    @property
    def message(self) -> str:
        return self.error.message


Result = OkResult | AlreadyLoadedResult | NotFoundResult | ErrorResult
