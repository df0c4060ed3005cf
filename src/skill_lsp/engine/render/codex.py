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

import json
import os
from collections.abc import Iterable, Sequence
from itertools import groupby

from skill_lsp.engine.activation.records import SkillRecord
from skill_lsp.engine.activation.results import NotFoundResult, OkResult
from skill_lsp.engine.harness.data import CODEX_BUILTINS, HARNESSES
from skill_lsp.engine.listing import Listing, record_listing

from ..datarecord import datarecord
from ..lazyre import lazy_re
from ..lenient import fields, text_value
from .base import BudgetWarning, Dialect

__all__ = ["CodexDialect", "CodexCatalog", "DEFAULT_SKILL_METADATA_CHAR_BUDGET", "budget_catalog"]

DEFAULT_SKILL_METADATA_CHAR_BUDGET = 8000
#: The context window Codex 0.171.0 assumed in the captures (fallback model metadata);
#: the skills budget is 2 % of it, in approximate tokens.
DEFAULT_CONTEXT_WINDOW = 272_000
CONTEXT_WINDOW_PERCENT = 2
#: Tokens of the catalog header Codex would send with absolute paths instead of the
#: roots table (measured against 0.171.0: the table's extra tokens over this come
#: out of the skills budget, so long root paths leave less room for descriptions).
ABSOLUTE_HEADER_TOKENS = 113
_INTRO = (
    "A skill is a set of local instructions to follow that is stored in a `SKILL.md` file. "
    "Below is the list of skills that can be used. Each entry includes a name, description, "
    "and a short path that can be expanded into an absolute path using the skill roots table."
)
MAX_DESCRIPTION_CHARS = 1024


_BUILTIN_NAMES = frozenset(name for name, *_ in CODEX_BUILTINS)


def _real(path: str) -> str:
    return os.path.realpath(path) if os.path.isabs(path) and os.path.lexists(path) else path


# A `$name` mention is read as ASCII letters, digits, `_`, `-` and `:` (openai/codex
# codex-rs/core-skills/src/injection.rs is_mention_name_char, is_common_env_var): a skill whose
# name holds a space or any other character is never injected by one (the differential tester:
# 79 of the seed-2026 run's activations), nor one named like a common environment variable.
_MENTION = lazy_re(r"[A-Za-z0-9_:-]+")
_ENV_VARS = frozenset({"PATH", "HOME", "USER", "SHELL", "PWD", "TMPDIR", "TEMP", "TMP", "LANG", "TERM",
                       "XDG_CONFIG_HOME"})


def mentionable(name: str) -> bool:
    """Whether a ``$name`` mention can name the skill called ``name``."""
    return _MENTION.fullmatch(name) is not None and name.upper() not in _ENV_VARS


def _mentioned(records: Sequence[SkillRecord], name: str) -> list[SkillRecord]:
    """The listed skills a `$name` mention names (none when it cannot name one)."""
    return [r for r in listed(records) if codex_name(r) == name] if mentionable(name) else []


def _below(record: SkillRecord) -> str:
    """The skill folder relative to its root (`group/skill` for a nested one; capture case nested-folders)."""
    rel = os.path.relpath(record.dir, record.root).replace(os.sep, "/") if record.root else record.folder
    return record.folder if rel.startswith("..") or rel == "." else rel


def codex_name(record: SkillRecord) -> str:
    # Without a name, the folder as Codex canonicalises the path: a skill folder that is a link goes
    # by the name of the folder it leads to (held-out seed 9004: a nested link inside the workspace).
    folder = os.path.basename(_real(record.dir))
    name = text_value(fields(record).get("name")) or folder or record.folder
    plugin = _plugin(record.dir)
    return f"{plugin or folder}:{name}" if plugin is not None else name


def _plugin(skill_dir: str) -> str | None:
    """A skill folder holding `.claude-plugin/plugin.json` is a Claude plugin to Codex, which lists
    its skill as `plugin:skill` (capture case codex-plugin-folder; 14 real skills of capture diff
    --real): the name plugin.json gives ("" when it gives none: the folder's), None when there is
    no such file or it is no JSON object."""
    try:
        with open(os.path.join(skill_dir, ".claude-plugin", "plugin.json"), encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    name = data.get("name")
    return name if isinstance(name, str) else ""


def _description(record: SkillRecord) -> str:
    # A record read from a file holds Codex's reading already (readings.record_read_by: the text as
    # written); one built in memory may hold a number or boolean.
    return text_value(fields(record).get("description")) or ""


def codex_description(record: SkillRecord) -> str:
    text = " ".join(_description(record).split())
    if len(text) > MAX_DESCRIPTION_CHARS:
        text = text[: MAX_DESCRIPTION_CHARS - 3] + "..."
    return text


def _path_key(record: SkillRecord) -> str:
    # Two skills of one name go by their canonical path's text (capture case same-name-paths: a
    # link by where it leads, `m-plain/` before `m/plain/`; held-out seed 9005, batch 34).
    return _real(record.path)


def listed(records: Sequence[SkillRecord]) -> list[SkillRecord]:
    """Who Codex lists (engine.listing: a non-empty description), even two with
    one name; ordered by scope (``root_index``), name (code points), then canonical path."""
    # The name is read once a record (a nameless one resolves its folder's links).
    keyed = sorted((((r.root_index, codex_name(r)), r) for r in records if record_listing(r, "codex").listed),
                   key=lambda kr: kr[0])
    out: list[SkillRecord] = []
    for _, group in groupby(keyed, key=lambda kr: kr[0]):
        same = [r for _, r in group]
        # Only a name's twins pay for resolving links.
        out.extend(sorted(same, key=_path_key) if len(same) > 1 else same)
    return out


def catalogued(records: Sequence[SkillRecord]) -> list[SkillRecord]:
    """``listed`` without the skills whose agents/openai.yaml turns implicit invocation off: Codex
    loads them (a `$name` mention injects one) but leaves them out of the model's catalog."""
    return [r for r in listed(records) if _implicit(r)]


def _implicit(record: SkillRecord) -> bool:
    from ..rules.codex_openai_yaml import implicit_invocation  # noqa: PLC0415 - a stat first, below

    if not os.path.isfile(os.path.join(record.dir, "agents", "openai.yaml")):
        return True
    return implicit_invocation(record.dir)


def system_root() -> str:
    """Where Codex keeps its system skills ($CODEX_HOME/skills/.system)."""
    home = os.environ.get("CODEX_HOME") or os.path.join(os.path.expanduser("~"), ".codex")
    return os.path.join(home, "skills", ".system")


def builtins(root: str | None = None) -> list[tuple[str, str, str]]:
    """The release's system skills as ``(name, stand-in description, root)``: the recorded
    length, with multi-byte characters where the real ones are (the budget counts UTF-8 bytes)."""
    out = []
    for name, chars, multibyte in CODEX_BUILTINS:
        text = ["x"] * chars
        for index, width in multibyte:
            text[index] = {2: "\u00e9", 3: "\u2014", 4: "\U0001f600"}[width]
        out.append((name, "".join(text), root or system_root()))
    return out


def _line(name: str, description: str, path: str) -> str:
    if description:
        return f"- {name}: {description} (file: {path})"
    return f"- {name}: (file: {path})"


@datarecord(frozen=True)
class CodexCatalog:
    lines: tuple[str, ...]
    kept_description_chars: dict[str, int]  # name -> description chars kept
    omitted: tuple[str, ...]  # names dropped entirely
    truncated: dict[str, int]  # name -> description chars cut


def _units(text: str, measure: str) -> int:
    return len(text) if measure == "chars" else len(text.encode("utf-8", "surrogatepass"))


def _cost(units: int, measure: str) -> int:
    # Codex's approx_token_count: ceil(UTF-8 bytes / 4).
    return units if measure == "chars" else (units + 3) // 4


def budget_catalog(
    items: Sequence[tuple[str, str, str]],
    budget: int = DEFAULT_SKILL_METADATA_CHAR_BUDGET,
    measure: str = "chars",
) -> CodexCatalog:
    """Apply the Codex budget to ``(name, description, path)`` items, in order.

    ``measure`` is ``"chars"`` (the character budget) or ``"tokens"`` (a share of
    the context window, each line + newline costing ceil(UTF-8 bytes / 4)). When
    the full lines do not fit, descriptions grow one character at a time,
    round-robin, while the cost of the grown line still fits; so under a token
    budget a line fills its last token.  Only when even the description-less
    lines do not fit are trailing skills dropped.
    """
    full = [_line(n, d, p) for n, d, p in items]
    if sum(_cost(_units(line + "\n", measure), measure) for line in full) <= budget:
        return CodexCatalog(tuple(full), {n: len(d) for n, d, _ in items}, (), {})
    fixed = [_units(_line(n, "", p) + "\n", measure) for n, _, p in items]
    cur = [_cost(f, measure) for f in fixed]
    if sum(cur) <= budget:
        remaining = budget - sum(cur)
        alloc = [0] * len(items)
        used = [0] * len(items)  # units of the kept description, plus its separator
        changed = True
        while changed:
            changed = False
            for i, (_, desc, _) in enumerate(items):
                if alloc[i] >= len(desc):
                    continue
                grown = used[i] + _units(desc[alloc[i]], measure) + (1 if alloc[i] == 0 else 0)
                cost = _cost(fixed[i] + grown, measure)
                if cost - cur[i] <= remaining:
                    remaining -= cost - cur[i]
                    cur[i], used[i] = cost, grown
                    alloc[i] += 1
                    changed = True
        lines = tuple(_line(n, d[: alloc[i]], p) for i, (n, d, p) in enumerate(items))
        truncated = {n: len(d) - alloc[i] for i, (n, d, _) in enumerate(items) if alloc[i] < len(d)}
        return CodexCatalog(
            lines, {n: alloc[i] for i, (n, _, _) in enumerate(items)}, (), truncated
        )
    spent = 0
    kept: list[str] = []
    omitted: list[str] = []
    for (name, _desc, p) in items:
        line = _line(name, "", p)
        cost = _cost(_units(line + "\n", measure), measure)
        if spent + cost <= budget:
            spent += cost
            kept.append(line)
        else:
            omitted.append(name)
    truncated = {n: len(d) for n, d, _ in items if d}
    return CodexCatalog(tuple(kept), {n: 0 for n, _, _ in items}, tuple(omitted), truncated)


class CodexDialect(Dialect):
    name = "codex"
    label = "Codex CLI"
    harness = "codex"

    def __init__(self, budget: int | None = None, context_window: int | None = DEFAULT_CONTEXT_WINDOW,
                 system_skills: bool = True) -> None:
        """``budget`` = a character budget; otherwise 2 % of ``context_window`` in tokens
        (no window known: Codex's 8,000-character default). ``system_skills``: the release's
        built-in skills share the budget (as they do in every capture)."""
        self.system_skills = system_skills
        if budget is not None:
            self.budget, self.measure = budget, "chars"
        elif context_window:
            self.budget, self.measure = max(1, context_window * CONTEXT_WINDOW_PERCENT // 100), "tokens"
        else:
            self.budget, self.measure = DEFAULT_SKILL_METADATA_CHAR_BUDGET, "chars"

    def _budget_text(self) -> str:
        return f"{self.budget} {'characters' if self.measure == 'chars' else 'tokens'}"

    def order(self, records: Iterable[SkillRecord]) -> list[SkillRecord]:
        """The catalog's order: scope, then the name as Codex reads it (``listed``)."""
        return catalogued(list(records))

    def listing(self, record: SkillRecord) -> Listing:
        got = super().listing(record)
        if got.listed and not _implicit(record):
            return Listing(self.name, False, "Codex leaves it out of its catalog: agents/openai.yaml sets "
                                             "policy.allow_implicit_invocation: false (a $name mention still loads it)")
        return got

    def _items(self, records: Sequence[SkillRecord]) -> list[tuple[str, str, str]]:
        return [(codex_name(r), codex_description(r), r.path.replace("\\", "/")) for r in catalogued(records)]

    def render_ok(self, result: OkResult) -> str:
        # The whole SKILL.md, unsubstituted: a mention carries no arguments.
        contents = result.source_text if result.source_text is not None else result.body
        return (
            # The path is canonicalised (a skill folder that is a link shows where it leads; capture
            # gen-codex-skill-listing-link-inside-description-block-astral); the catalog keeps the link's.
            f"<skill>\n<name>{result.name}</name>\n<path>{_real(result.path)}</path>\n{contents}\n</skill>"
        )

    def render_not_found(self, result: NotFoundResult) -> str:
        return f"(skill {result.name} is not installed)"

    def catalog_entry(self, record: SkillRecord) -> str:
        return _line(codex_name(record), codex_description(record), record.path.replace("\\", "/"))

    def render_catalog(self, records: Sequence[SkillRecord], roots: Sequence[str] | None = None,
                       hidden: Sequence[tuple[str, str, str]] | None = None) -> str:
        """The ``<skills_instructions>`` block.

        ``roots``: the release's roots in its order; the table shows those that hold a
        listed skill (default: the roots of ``records`` by ``root_index``, the system root
        after those in the home folder).
        ``hidden``: ``(name, description, root)`` of skills listed before these that take part
        of the budget but are not shown; default: the release's system skills
        (``CODEX_BUILTINS``, numbers recorded from 0.171.0), as Codex installs them.
        """
        chosen = catalogued(records)
        if hidden is None:
            hidden = builtins() if self.system_skills else []
        if roots is None:
            roots = list(dict.fromkeys(r.root for r in sorted(records, key=lambda r: r.root_index)))
            if hidden:
                # The table lists the system root after the home roots (capture order).
                home = os.path.expanduser("~").rstrip("/") + "/"
                at = max((i + 1 for i, root in enumerate(roots) if root.startswith(home)), default=0)
                roots = [*roots[:at], hidden[0][2], *[r for r in roots[at:] if r != hidden[0][2]]]
        used = {r.root.rstrip("/") for r in chosen} | {root.rstrip("/") for _, _, root in hidden}
        table_roots = [root for root in roots if root.rstrip("/") in used]
        labels = {root.rstrip("/"): f"r{i}" for i, root in enumerate(table_roots)}
        items = [(name, description, f"{labels.get(root.rstrip('/'), root)}/{name}/SKILL.md")
                 for name, description, root in hidden]
        items += [(codex_name(r), codex_description(r),
                   f"{labels.get(r.root.rstrip('/'), r.root)}/{_below(r)}/SKILL.md") for r in chosen]
        table = [f"- `r{i}` = `{root}`" for i, root in enumerate(table_roots)]
        budget = max(0, self.budget - self._table_cost(table))
        lines = budget_catalog(items, budget, self.measure).lines[len(hidden):]
        header = ["<skills_instructions>", "## Skills", _INTRO, "### Skill roots", *table, "### Available skills"]
        return "\n".join([*header, *lines, "</skills_instructions>"])

    def _table_cost(self, table: Sequence[str]) -> int:
        """What the roots table costs beyond the absolute-path header (tokens only)."""
        if self.measure != "tokens":
            return 0
        header = "\n" + "\n".join(["## Skills", _INTRO, "### Skill roots", *table, "### Available skills"]) + "\n"
        return max(0, _cost(_units(header, "tokens"), "tokens") - ABSOLUTE_HEADER_TOKENS)

    def activation_record(self, records: Sequence[SkillRecord], name: str) -> SkillRecord | None:
        """A ``$name`` mention injects the skill only when exactly one skill has that name, the name
        is all mention characters and is no common environment variable (``mentionable``). Codex's
        own system skills count: a project skill named skill-creator is listed beside Codex's, and
        `$skill-creator` injects neither (capture case builtin-name-skill-creator)."""
        matches = _mentioned(records, name)
        return matches[0] if len(matches) == 1 and name not in _BUILTIN_NAMES else None

    def mention_conflict(self, records: Sequence[SkillRecord], name: str) -> str | None:
        """Why a `$name` mention injects no skill although Codex lists one by that name (None: it
        injects it, or lists none)."""
        matches = _mentioned(records, name)
        if not matches:
            return None
        who = f"Codex {HARNESSES['codex'].version}"
        if name in _BUILTIN_NAMES:
            return (f"a `${name}` mention injects no skill in {who}: its own system skill is named {name} "
                    "too (the model may still open the SKILL.md the catalog lists)")
        if len(matches) > 1:
            return (f"a `${name}` mention injects no skill in {who}: it lists {len(matches)} skills named {name} "
                    "(the model may still open the SKILL.md the catalog lists)")
        return None

    def includes(self, record: SkillRecord) -> bool:
        return self.listing(record).listed

    def entry_warnings(self, record: SkillRecord) -> list[BudgetWarning]:
        cost = _cost(_units(self.catalog_entry(record) + "\n", self.measure), self.measure)
        if cost <= self.budget:
            return []
        unit = "chars" if self.measure == "chars" else "tokens"
        return [
            BudgetWarning(
                self.name,
                "codex-entry-over-budget",
                f"this entry alone is {cost} {unit}; the Codex skills budget is {self._budget_text()}",
                self.budget,
                cost,
            )
        ]

    def catalog_warnings(self, records: Sequence[SkillRecord]) -> list[BudgetWarning]:
        # The system skills come first and share the budget (they are never warned about).
        system = [(n, d, f"{root}/{n}/SKILL.md") for n, d, root in builtins()] if self.system_skills else []
        items = self._items(records)
        result = budget_catalog(system + items, self.budget, self.measure)
        total = sum(_cost(_units(_line(n, d, p) + "\n", self.measure), self.measure) for n, d, p in system + items)
        unit = "chars" if self.measure == "chars" else "tokens"
        out: list[BudgetWarning] = []
        paths = {codex_name(r): r.path for r in listed(records)}  # as given (items carry '/' paths)
        for name, desc, _ in items:
            path = paths.get(name)
            if name in result.omitted:
                out.append(
                    BudgetWarning(
                        self.name,
                        "codex-skill-dropped",
                        f"skill {name!r} is dropped: the catalog is {total} {unit}, over the {self._budget_text()} Codex budget even without descriptions",
                        self.budget,
                        total,
                        path=path,
                    )
                )
            elif name in result.truncated:
                keep = result.kept_description_chars[name]
                out.append(
                    BudgetWarning(
                        self.name,
                        "codex-description-truncated",
                        f"description of {name!r} is cut to {keep} of {len(desc)} chars: the catalog is {total} {unit}, over the {self._budget_text()} Codex budget",
                        self.budget,
                        total,
                        kept=desc[:keep],
                        cut=desc[keep:],
                        path=path,
                    )
                )
        return out
