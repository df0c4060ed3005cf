"""Harnesses as data: what each release reads, lists, cuts and refuses.

The bottom layer of the engine: ``HARNESSES`` (from :mod:`.data`) is the one table of
per-harness facts; :mod:`..targets` turns a set of them into the lint's view, and
:mod:`..listing` answers "does harness H list this skill, and if not, why" for catalogs
and previews. Nothing here imports anything above it.
"""

from __future__ import annotations

from .data import CLAUDE_FIELDS, DEFERRED_FIELDS, HARNESSES, SPEC_FIELDS
from .model import (
    ACTIONS,
    BLOCKING_ACTIONS,
    FLAG_READINGS,
    NON_STRING_READINGS,
    SAME_NAME,
    SURROGATE_ESCAPES,
    Effect,
    Fact,
    Flag,
    Harness,
    Root,
)
from .roots import not_read, reads_root, roots_reading, session_reader, win_rank

__all__ = [
    "ACTIONS",
    "BLOCKING_ACTIONS",
    "CLAUDE_FIELDS",
    "DEFERRED_FIELDS",
    "HARNESSES",
    "SPEC_FIELDS",
    "Effect",
    "FLAG_READINGS",
    "NON_STRING_READINGS",
    "SAME_NAME",
    "SURROGATE_ESCAPES",
    "Fact",
    "Flag",
    "Harness",
    "Root",
    "get",
    "read_by",
    "project_roots",
    "not_read",
    "reads_root",
    "session_reader",
    "roots_reading",
    "win_rank",
]

# Other spellings people use for a target.
ALIASES = {"skills-ref": "agentskills", "vs-code": "vscode", "claude": "claude-code", "gemini-cli": "gemini",
           "deepseek": "dsh"}


def get(name: str) -> Harness:
    """The harness called ``name`` (or an alias of it); ValueError naming the known ones otherwise."""
    key = ALIASES.get(name.strip().lower(), name.strip().lower())
    try:
        return HARNESSES[key]
    except KeyError:
        raise ValueError(f"unknown target {name!r}; known: {', '.join(HARNESSES)}") from None


def project_roots() -> tuple[str, ...]:
    """Every project-relative root some harness reads, in table order, without repeats."""
    out: list[str] = []
    for h in HARNESSES.values():
        out.extend(r.path for r in h.roots if r.project and r.path not in out)
    return tuple(out)


def read_by(key: str) -> str:
    """Who acts on a frontmatter field, in words: "Claude Code, Codex; deferred by the skill tool"."""
    readers = [h.title for h in HARNESSES.values() if key in h.reads and h.checked_by_default]
    deferring = [h.title for h in HARNESSES.values() if key in h.deferred]
    text = ", ".join(readers) if readers else "no harness"
    return text + (f"; deferred by {', '.join(deferring)}" if deferring else "")
