"""Dialect base class: one structured result, many model-facing renderings."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import ClassVar

from skill_lsp.engine.activation.records import SkillRecord
from skill_lsp.engine.activation.results import (
    AlreadyLoadedResult,
    ErrorResult,
    NotFoundResult,
    OkResult,
    Result,
)
from skill_lsp.engine.listing import Listing, record_listing
from skill_lsp.engine.tokens import estimate_tokens

from ..datarecord import datarecord, replace

__all__ = [
    "BudgetWarning",
    "CatalogEntryReport",
    "Dialect",
    "record_description",
    "record_display_name",
    "unsubstituted_body",
]


@datarecord(frozen=True)
class BudgetWarning:
    """Something a harness cuts or drops from what the author wrote."""

    dialect: str
    code: str
    message: str
    limit: int
    actual: int
    kept: str | None = None  # the text that survives, when it is a cut
    cut: str | None = None  # the text that is lost
    path: str | None = None  # the SKILL.md it is about, for a whole-catalog warning


@datarecord(frozen=True)
class CatalogEntryReport:
    dialect: str
    name: str
    included: bool  # False when the harness does not list this skill at all
    entry: str
    chars: int  # code points of ``entry``
    tokens: int  # :func:`skill_lsp.engine.tokens.estimate_tokens` of ``entry``
    warnings: tuple[BudgetWarning, ...] = ()


def record_description(record: SkillRecord) -> str:
    value = record.frontmatter.get("description")
    return value if isinstance(value, str) else ""


def record_display_name(record: SkillRecord) -> str:
    return record.name


def unsubstituted_body(result: OkResult) -> str:
    """The body as written (harnesses that substitute do it themselves, others not at all)."""
    return result.raw_body if result.raw_body or not result.body else result.body


class Dialect:
    """Base renderer.  Subclasses override what their harness does differently."""

    name: ClassVar[str] = ""
    label: ClassVar[str] = ""
    #: The harness (engine.harness.HARNESSES) whose facts say who this dialect lists; "" when
    #: the dialect keeps its own rule (the skill-tool contract, skills-ref, DSH).
    harness: ClassVar[str] = ""
    #: Whether a skill declaring named `arguments` takes its arguments as one string (Claude Code
    #: fills `$name` from it); the skill-tool contract wants an object there (spec 000 §4.3).
    string_for_named_arguments: ClassVar[bool] = False

    def listing(self, record: SkillRecord) -> Listing:
        """Whether the harness lists ``record`` and, if not, why (engine.listing)."""
        if self.harness:
            return record_listing(record, self.harness)
        if self.includes(record):
            return Listing(self.name, True, None, record.name)
        reason = record.error[1] if record.error is not None else f"{self.label} does not list it"
        return Listing(self.name, False, reason)

    # -- activation ---------------------------------------------------------
    def render(self, result: Result) -> str:
        if isinstance(result, OkResult):
            return self.render_ok(result)
        if isinstance(result, AlreadyLoadedResult):
            return self.render_already_loaded(result)
        if isinstance(result, NotFoundResult):
            return self.render_not_found(result)
        if isinstance(result, ErrorResult):
            return self.render_error(result)
        raise TypeError(f"not a skill tool result: {result!r}")

    def render_ok(self, result: OkResult) -> str:
        raise NotImplementedError

    def render_already_loaded(self, result: AlreadyLoadedResult) -> str:
        # Most harnesses have no dedupe: a second call loads the skill again.
        if result.previous is not None:
            return self.render_ok(result.previous)
        return (
            f'(Skill "{result.name}" is already active in this session. No new content was added.)'
        )

    def render_not_found(self, result: NotFoundResult) -> str:
        raise NotImplementedError

    def render_error(self, result: ErrorResult) -> str:
        return f"Error [{result.error.code}]: {result.error.message}"

    # -- catalog --------------------------------------------------------------
    def includes(self, record: SkillRecord) -> bool:
        """Whether the harness lists this skill in its catalog."""
        return record.error is None

    def select(self, records: Sequence[SkillRecord]) -> tuple[list[SkillRecord], list[dict[str, str]]]:
        """The records this dialect's catalog is built from, and the others with the reason
        (``{"name", "path", "reason"}``). By default: skills without errors, one per name,
        the lower root index first (as the skill-tool contract builds its catalog)."""
        chosen: dict[str, SkillRecord] = {}
        skipped: list[dict[str, str]] = []
        for r in sorted(records, key=self.select_key):
            if r.error is not None:
                # The skill-tool contract's verdict: this dialect's own loader is not modelled.
                skipped.append({"name": r.name, "path": r.path,
                                "reason": f"left out as the skill-tool contract refuses it ({r.error[0]}): {r.error[1]}"})
            elif r.name in chosen:
                skipped.append({"name": r.name, "path": r.path,
                                "reason": f"another skill of the same name wins: {chosen[r.name].path}"})
            else:
                chosen[r.name] = r
        return list(chosen.values()), skipped

    def session_records(self, records: Sequence[SkillRecord]) -> list[SkillRecord]:
        """The records as the preview's skill-tool session is to rank them (lower ``root_index`` wins)."""
        return list(records)

    def select_key(self, record: SkillRecord) -> tuple:
        """Of one name, the copy ``select`` keeps comes first in this order."""
        return (record.root_index, record.path)

    def entry_name(self, record: SkillRecord) -> str:
        """The name the catalog lists ``record`` under."""
        return record.name

    def entry_error(self, record: SkillRecord) -> tuple[str, str] | None:
        """(code, message) when the catalog lists ``record`` although activating it fails."""
        return None

    def order(self, records: Iterable[SkillRecord]) -> list[SkillRecord]:
        return sorted((r for r in records if self.includes(r)), key=lambda r: r.name)

    def catalog_entry(self, record: SkillRecord) -> str:
        raise NotImplementedError

    def render_catalog(self, records: Sequence[SkillRecord]) -> str:
        return "\n".join(self.catalog_entry(r) for r in self.order(records))

    def entry_warnings(self, record: SkillRecord) -> list[BudgetWarning]:
        return []

    def catalog_warnings(self, records: Sequence[SkillRecord]) -> list[BudgetWarning]:
        """Whole-catalog warnings (e.g. a total budget); per-entry ones included."""
        out: list[BudgetWarning] = []
        for record in self.order(records):
            out.extend(w if w.path is not None else replace(w, path=record.path) for w in self.entry_warnings(record))
        return out

    def report(self, record: SkillRecord) -> CatalogEntryReport:
        entry = self.catalog_entry(record)
        return CatalogEntryReport(
            dialect=self.name,
            name=record.name,
            included=self.includes(record),
            entry=entry,
            chars=len(entry),
            tokens=estimate_tokens(entry),
            warnings=tuple(self.entry_warnings(record)),
        )
