"""``codex``: Codex CLI, proven against the 0.171.0 release (tests/golden/harness).

The catalog is a ``<skills_instructions>`` block: fixed prose, a ``### Skill
roots`` table (`` - `r0` = `/abs/root` ``) and ``- name: description (file:
rK/folder/SKILL.md)`` entries ordered by scope (system, repo, user) then
name; whitespace in a description collapses to single spaces and a
description over 1,024 characters is cut to 1,021 + ``...``.

Older notes on the overall budget (from the source, not re-proven):

Catalog lines ``- {name}: {description} (file: {path})`` inside a character
budget (default 8,000; 2 % of the context window when known).  When the full
lines do not fit, descriptions are shortened one character at a time across
all skills (round-robin) before any skill is dropped; if even the
description-less lines do not fit, trailing skills are omitted.  Costs count
each line plus its newline, in code points.  Activation (a ``$name`` mention)
injects the whole SKILL.md file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from skill_lsp.engine.activation.records import SkillRecord
from skill_lsp.engine.activation.results import NotFoundResult, OkResult

from .base import BudgetWarning, Dialect, record_description
from .lenient import fields, text_value

__all__ = ["CodexDialect", "CodexCatalog", "DEFAULT_SKILL_METADATA_CHAR_BUDGET", "budget_catalog"]

DEFAULT_SKILL_METADATA_CHAR_BUDGET = 8000
MAX_DESCRIPTION_CHARS = 1024
_PREAMBLE = (
    "<skills_instructions>\n## Skills\n"
    "A skill is a set of local instructions to follow that is stored in a `SKILL.md` file. "
    "Below is the list of skills that can be used. Each entry includes a name, description, "
    "and a short path that can be expanded into an absolute path using the skill roots table.\n"
    "### Skill roots"
)


def codex_name(record: SkillRecord) -> str:
    return text_value(fields(record).get("name")) or record.folder


def _description(record: SkillRecord) -> str:
    value = fields(record).get("description")
    return value if isinstance(value, str) else ""


def codex_description(record: SkillRecord) -> str:
    text = " ".join(_description(record).split())
    if len(text) > MAX_DESCRIPTION_CHARS:
        text = text[: MAX_DESCRIPTION_CHARS - 3] + "..."
    return text


def listed(records: Sequence[SkillRecord]) -> list[SkillRecord]:
    """Who Codex lists: every skill with a non-empty description, even two with
    one name; ordered by scope (``root_index``) then name (code points)."""
    ok = [r for r in records if _description(r).strip()]
    return sorted(ok, key=lambda r: (r.root_index, codex_name(r), r.path))


def _line(name: str, description: str, path: str) -> str:
    if description:
        return f"- {name}: {description} (file: {path})"
    return f"- {name}: (file: {path})"


@dataclass(frozen=True)
class CodexCatalog:
    lines: tuple[str, ...]
    kept_description_chars: dict[str, int]  # name -> description chars kept
    omitted: tuple[str, ...]  # names dropped entirely
    truncated: dict[str, int]  # name -> description chars cut


def budget_catalog(
    items: Sequence[tuple[str, str, str]], budget: int = DEFAULT_SKILL_METADATA_CHAR_BUDGET
) -> CodexCatalog:
    """Apply the Codex character budget to ``(name, description, path)`` items."""
    full = [_line(n, d, p) for n, d, p in items]
    if sum(len(line) + 1 for line in full) <= budget:
        return CodexCatalog(tuple(full), {n: len(d) for n, d, _ in items}, (), {})
    minimum = [_line(n, "", p) for n, _, p in items]
    minimum_cost = sum(len(line) + 1 for line in minimum)
    if minimum_cost <= budget:
        remaining = budget - minimum_cost
        alloc = [0] * len(items)
        changed = True
        while changed:
            changed = False
            for i, (_, desc, _) in enumerate(items):
                if alloc[i] >= len(desc):
                    continue
                delta = 2 if alloc[i] == 0 else 1  # the first char also pays for its separator
                if delta <= remaining:
                    alloc[i] += 1
                    remaining -= delta
                    changed = True
        lines = tuple(_line(n, d[: alloc[i]], p) for i, (n, d, p) in enumerate(items))
        truncated = {n: len(d) - alloc[i] for i, (n, d, _) in enumerate(items) if alloc[i] < len(d)}
        return CodexCatalog(
            lines, {n: alloc[i] for i, (n, _, _) in enumerate(items)}, (), truncated
        )
    used = 0
    kept: list[str] = []
    omitted: list[str] = []
    for (name, _desc, _), line in zip(items, minimum, strict=True):
        if used + len(line) + 1 <= budget:
            used += len(line) + 1
            kept.append(line)
        else:
            omitted.append(name)
    truncated = {n: len(d) for n, d, _ in items if d}
    return CodexCatalog(tuple(kept), {n: 0 for n, _, _ in items}, tuple(omitted), truncated)


class CodexDialect(Dialect):
    name = "codex"
    label = "Codex CLI"

    def __init__(self, budget: int = DEFAULT_SKILL_METADATA_CHAR_BUDGET) -> None:
        self.budget = budget

    def _items(self, records: Sequence[SkillRecord]) -> list[tuple[str, str, str]]:
        return [
            (r.name, record_description(r), r.path.replace("\\", "/")) for r in self.order(records)
        ]

    def render_ok(self, result: OkResult) -> str:
        # The whole SKILL.md, unsubstituted: a mention carries no arguments.
        contents = result.source_text if result.source_text is not None else result.body
        return (
            f"<skill>\n<name>{result.name}</name>\n<path>{result.path}</path>\n{contents}\n</skill>"
        )

    def render_not_found(self, result: NotFoundResult) -> str:
        return f"(skill {result.name} is not installed)"

    def catalog_entry(self, record: SkillRecord) -> str:
        return _line(record.name, record_description(record), record.path.replace("\\", "/"))

    def render_catalog(self, records: Sequence[SkillRecord], roots: Sequence[str] | None = None) -> str:
        """The ``<skills_instructions>`` block; ``roots`` is the release's root table
        (default: the roots of ``records``, in order)."""
        chosen = listed(records)
        if roots is None:
            roots = list(dict.fromkeys(r.root for r in sorted(records, key=lambda r: r.root_index)))
        labels = {root.rstrip("/"): f"r{i}" for i, root in enumerate(roots)}
        lines = [_PREAMBLE, *(f"- `r{i}` = `{root}`" for i, root in enumerate(roots)), "### Available skills"]
        for r in chosen:
            label = labels.get(r.root.rstrip("/"), r.root)
            path = f"{label}/{r.folder}/SKILL.md"
            description = codex_description(r)
            lines.append(f"- {codex_name(r)}: {description} (file: {path})" if description
                         else f"- {codex_name(r)}: (file: {path})")
        lines.append("</skills_instructions>")
        return "\n".join(lines)

    def activation_record(self, records: Sequence[SkillRecord], name: str) -> SkillRecord | None:
        """A ``$name`` mention injects the skill only when exactly one skill has that name."""
        matches = [r for r in records if codex_name(r) == name and _description(r).strip()]
        return matches[0] if len(matches) == 1 else None

    def entry_warnings(self, record: SkillRecord) -> list[BudgetWarning]:
        cost = len(self.catalog_entry(record)) + 1
        if cost <= self.budget:
            return []
        return [
            BudgetWarning(
                self.name,
                "codex-entry-over-budget",
                f"this entry alone is {cost} chars; the Codex skills budget is {self.budget}",
                self.budget,
                cost,
            )
        ]

    def catalog_warnings(self, records: Sequence[SkillRecord]) -> list[BudgetWarning]:
        items = self._items(records)
        result = budget_catalog(items, self.budget)
        total = sum(len(_line(n, d, p)) + 1 for n, d, p in items)
        out: list[BudgetWarning] = []
        for name, desc, _ in items:
            if name in result.omitted:
                out.append(
                    BudgetWarning(
                        self.name,
                        "codex-skill-dropped",
                        f"skill {name!r} is dropped: the catalog is {total} chars, over the {self.budget}-char Codex budget even without descriptions",
                        self.budget,
                        total,
                    )
                )
            elif name in result.truncated:
                keep = result.kept_description_chars[name]
                out.append(
                    BudgetWarning(
                        self.name,
                        "codex-description-truncated",
                        f"description of {name!r} is cut to {keep} of {len(desc)} chars: the catalog is {total} chars, over the {self.budget}-char Codex budget",
                        self.budget,
                        total,
                        kept=desc[:keep],
                        cut=desc[keep:],
                    )
                )
        return out
