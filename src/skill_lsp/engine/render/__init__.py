"""Model-facing renderings of skill tool results and catalogs, one module per harness dialect.

All dialects are fed from the same structured results (:mod:`..activation.results`)
and :class:`~skill_lsp.engine.activation.records.SkillRecord` catalogs.
See ``docs/dialects.md`` for what each one reproduces and how faithfully.
"""

from __future__ import annotations

from collections.abc import Sequence

from skill_lsp.engine.activation.records import SkillRecord
from skill_lsp.engine.activation.results import Result

from .agentskills import AgentSkillsDialect
from .base import BudgetWarning, CatalogEntryReport, Dialect
from .claude_code import ClaudeCodeDialect
from .codex import CodexDialect
from .copilot import CopilotDialect
from .dsh import DshDialect
from .gemini import GeminiDialect
from .opencode import OpenCodeDialect
from .skill_tool import SkillToolDialect

__all__ = [
    "DEFAULT_DIALECT",
    "DIALECTS",
    "BudgetWarning",
    "CatalogEntryReport",
    "Dialect",
    "catalog_report",
    "get_dialect",
    "render_catalog",
    "render_result",
]

DEFAULT_DIALECT = "skill-tool"

#: name -> dialect instance (default settings).
DIALECTS: dict[str, Dialect] = {
    d.name: d
    for d in (
        SkillToolDialect(),
        DshDialect(),
        AgentSkillsDialect(),
        ClaudeCodeDialect(),
        CodexDialect(),
        OpenCodeDialect(),
        GeminiDialect(),
        CopilotDialect(),
    )
}


def get_dialect(dialect: str | Dialect) -> Dialect:
    if isinstance(dialect, Dialect):
        return dialect
    try:
        return DIALECTS[dialect]
    except KeyError:
        raise ValueError(f"unknown dialect {dialect!r}; known: {', '.join(DIALECTS)}") from None


def render_result(result: Result, dialect: str | Dialect = DEFAULT_DIALECT) -> str:
    return get_dialect(dialect).render(result)


def render_catalog(records: Sequence[SkillRecord], dialect: str | Dialect = DEFAULT_DIALECT) -> str:
    return get_dialect(dialect).render_catalog(records)


def catalog_report(
    record: SkillRecord, dialect: str | Dialect = DEFAULT_DIALECT
) -> CatalogEntryReport:
    """Catalog entry text, size in characters, estimated tokens and budget warnings."""
    return get_dialect(dialect).report(record)
