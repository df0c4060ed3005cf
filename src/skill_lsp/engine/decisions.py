"""Listing decisions: for every skill and a target harness, what the harness does with it.

One answer per skill, in the harness's terms, computed from the same dialect the catalog
preview renders (so the two never disagree):

- ``listed``     in the catalog as written;
- ``cut``        listed, its description cut at ``kept`` characters;
- ``name-only``  listed by name only (the listing budget ran out before it);
- ``dropped``    left out by a budget (Codex drops whole entries past its own);
- ``skipped``    never listed, and why (the harness cannot read it, a field keeps it out, ...);
- ``shadowed``   another skill of the same name wins (``winner``);
- ``not-read``   in a root the harness does not read at all.

The CLI prints them (`catalog`, `preview`), JSON carries them, hover and code lens show a
skill's own, and `check` reports the skips as findings naming the harness.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from .budgets import BUDGETED, could_reach
from .datarecord import datarecord, replace
from .harness import HARNESSES, not_read, session_reader

TYPE_CHECKING = False  # typing itself costs a one-skill check 2 ms; type checkers take this as True

if TYPE_CHECKING:
    from .activation.records import SkillRecord

LISTED, CUT, NAME_ONLY, DROPPED, SKIPPED, SHADOWED, NOT_READ = (
    "listed", "cut", "name-only", "dropped", "skipped", "shadowed", "not-read")
STATES = (LISTED, CUT, NAME_ONLY, DROPPED, SKIPPED, SHADOWED, NOT_READ)
# States in which the model sees the skill's description in full / at all.
SEEN = frozenset({LISTED, CUT, NAME_ONLY})

# A catalog warning of a dialect that decides a skill's state, and the state it gives.
_WARNINGS = {
    "claude-code-name-only": NAME_ONLY,
    "copilot-name-only": NAME_ONLY,
    "claude-code-listing-cap": CUT,
    "codex-description-truncated": CUT,
    "codex-skill-dropped": DROPPED,
    "dsh-description-cap": CUT,
}
#: Records no catalog shows: skill-lsp's own fence (never read, or unreadable).
_FENCED = ("IO_ERROR", "SENSITIVE", "OUTSIDE_WORKSPACE")


@datarecord(frozen=True, slots=True)
class Decision:
    """How one harness lists one skill (in full, by name only, cut, skipped, shadowed, never read) and why."""

    dialect: str
    label: str  # "Claude Code 2.1.332"
    path: str  # the SKILL.md
    name: str  # the name the skill goes by in skill-lsp (its frontmatter name, else its folder)
    state: str
    reason: str = ""  # why (everything but ``listed``), in the harness's terms
    winner: str | None = None  # shadowed: the SKILL.md listed instead
    kept: int | None = None  # cut: the characters of the description that stay

    @property
    def seen(self) -> bool:
        """Whether the model finds the skill in the catalog at all."""
        return self.state in SEEN

    def sentence(self) -> str:
        """One line for people: "Claude Code 2.1.332 lists this skill by name only: …"."""
        if self.state == LISTED:
            return f"{self.label} lists this skill: {self.reason}" if self.reason else f"{self.label} lists this skill"
        if self.state == SHADOWED:
            return f"{self.reason} ({self.winner})" if self.winner else self.reason
        if self.reason.startswith(self.label.split(" ")[0]) or self.reason.startswith(self.label):
            return self.reason  # already a sentence naming the harness
        verb = {CUT: "lists this skill with its description cut", NAME_ONLY: "lists this skill by name only",
                DROPPED: "leaves this skill out of its catalog", SKIPPED: "never lists this skill",
                NOT_READ: "never reads this skill"}[self.state]
        return f"{self.label} {verb}: {self.reason}" if self.reason else f"{self.label} {verb}"

    def to_json(self) -> dict:
        out: dict = {"dialect": self.dialect, "path": self.path, "name": self.name, "state": self.state}
        if self.reason:
            out["reason"] = self.reason
        if self.winner is not None:
            out["winner"] = self.winner
        if self.kept is not None:
            out["kept"] = self.kept
        out["text"] = self.sentence()
        return out


def decide(records: Sequence[SkillRecord], dialect: str, workspace: str | None = None) -> list[Decision]:
    """The decision of ``dialect``'s harness (or reference) on every record, in path order.
    ``workspace``: where a harness that lists commands with the skills finds them (Claude Code:
    they share its listing budget)."""
    from .listing import shadowed_reason, unread_link  # noqa: PLC0415 - the dialects (and rapidfuzz) only when a listing is built
    from .readings import records_read_by  # noqa: PLC0415
    from .render import get_dialect  # noqa: PLC0415

    d = get_dialect(dialect)
    records = records_read_by(records, d.harness)
    label = d.label or dialect
    h = HARNESSES.get(d.harness) if d.harness else None
    out: dict[str, Decision] = {}
    candidates: list[SkillRecord] = []
    reads = session_reader(h, (r.dir for r in records), workspace) if h is not None else None
    for r in records:
        if reads is not None and h is not None and reads(r.dir) is False:
            out[r.path] = Decision(dialect, label, r.path, r.name, NOT_READ, not_read(h, r.dir))
        elif (link := unread_link(h, r.path, r.error)) is not None:
            out[r.path] = Decision(dialect, label, r.path, r.name, LISTED, link)
        elif r.error is not None and r.error[0] in _FENCED:
            out[r.path] = Decision(dialect, label, r.path, r.name, SKIPPED, r.error[1])
        else:
            candidates.append(r)
    if not hasattr(d, "activation_record"):
        # A reference's catalog is built from what its own selection keeps (one copy of a name,
        # what its registry refuses left out), as ``preview.catalog_view`` builds it.
        chosen, dropped = d.select(candidates)
        left = {e["path"]: e["reason"] for e in dropped}
        for r in candidates:
            if r.path in left:
                twin = next((w for w in chosen if d.entry_name(w) == d.entry_name(r)), None)
                out[r.path] = (Decision(dialect, label, r.path, r.name, SKIPPED, left[r.path]) if twin is None else
                               Decision(dialect, label, r.path, r.name, SHADOWED, shadowed_reason(h, label),
                                        winner=os.path.relpath(twin.path, os.path.dirname(r.path))))
        candidates = [r for r in candidates if r.path not in left]
    shown = d.order(candidates)
    shown_paths = {r.path for r in shown}
    states: dict[str, tuple[str, str, int | None]] = {}
    warnings = d.catalog_warnings(candidates, workspace) if d.name == "claude-code" else d.catalog_warnings(candidates)  # type: ignore[call-arg]
    for w in warnings:
        state = _WARNINGS.get(w.code)
        path = w.path or _path_named(shown, w.message)
        if state is None or path is None:
            continue
        kept = len(w.kept) if state == CUT and w.kept is not None else None
        # A name-only or dropped entry outranks a cut of the same entry.
        if path not in states or state in (NAME_ONLY, DROPPED):
            states[path] = (state, w.message, kept)
    for r in shown:
        state, why, kept = states.get(r.path, (LISTED, "", None))
        out[r.path] = Decision(dialect, label, r.path, r.name, state, "" if state == LISTED else why, kept=kept)
    for r in candidates:
        if r.path in shown_paths:
            continue
        got = d.listing(r)
        if not got.listed:
            out[r.path] = Decision(dialect, label, r.path, r.name, SKIPPED, got.reason or f"{label} does not list it")
            continue
        winner = next((w for w in shown if w.name == r.name or w.folder == r.folder), None)
        where = os.path.relpath(winner.path, os.path.dirname(r.path)) if winner is not None else None
        out[r.path] = Decision(dialect, label, r.path, r.name, SHADOWED, shadowed_reason(h, label), winner=where)
    return [out[p] for p in sorted(out)]


def _path_named(shown: Sequence[SkillRecord], message: str) -> str | None:
    """The record a budget warning without a path is about: the one whose quoted name it names."""
    for r in shown:
        if f"'{r.name}'" in message or f"'{r.folder}'" in message:
            return r.path
    return None


def skill_decisions(path: str, results: Sequence, settings, record_of: Callable | None = None,
                    workspace: str | None = None) -> list[Decision]:
    """What each target harness of the skill at ``path`` does with it, among ``results`` (the
    skills of its workspace folder, as a scan index holds them: documents optional). With
    ``workspace``, skill folders that are links to skills not among them (out of the workspace)
    are read through the link (``preview.link_targets``).

    Each harness decides among the skills of its roots. Only a budget makes the others matter
    beyond the skill's namesakes, so the whole listing is built (``record_of`` re-reading the
    skills without a document) only when their descriptions could reach a budget."""
    from .preview import link_targets, read_through_links, record_for  # noqa: PLC0415
    from .workspace import targets_for  # noqa: PLC0415

    me = next((r for r in results if r.path == path), None)
    if me is None:
        return []
    linked = link_targets(results, workspace, settings) if workspace is not None else []
    record_of = record_of or (lambda r: record_for(r if r.doc is not None else _reread(r, settings)))
    out = []
    from .render import DIALECTS  # noqa: PLC0415

    for harness in targets_for(settings, path):
        if harness not in HARNESSES or harness not in DIALECTS:
            continue  # a target read from documentation alone (VS Code, Goose): no listing is modelled
        pool = [r for r in results if r is me or (r.location is not None and r.location.root_index >= 0
                                                  and harness in targets_for(settings, r.path))]
        if not could_reach(harness, pool):
            pool = [r for r in pool if r is me or r.name == me.name or r.folder == me.folder]
        roots = 1 + max((r.location.root_index for r in pool if r.location is not None), default=0)
        records = []
        for r in pool:
            rec = record_of(r)
            in_root = r.location is not None and r.location.root_index >= 0
            records.append(rec if in_root else replace(rec, root_index=roots))
        records = read_through_links(records, [*results, *linked], record_of)  # skill folders that are links
        out += [d for d in decide(records, harness) if d.path == path]
    return out


def _reread(result, settings):
    from .workspace import check_file  # noqa: PLC0415

    return check_file(result.path, settings, result.location)


def budget_findings(results: list, settings) -> None:  # (SkillResult, Settings): workspace imports us not
    """LISTING_BUDGET on each skill a budgeted harness lists by name only, cuts or drops, among the
    skills of its roots, added to ``results``' cross-skill findings (`check`, after link_skills).

    Results whose targets include the harness are re-read whole only when their catalog entries
    could fill the budget (the common workspace never gets near it)."""
    from .workspace import targets_for  # noqa: PLC0415

    for harness in BUDGETED:
        mine = [r for r in results if r.location is not None and r.location.root_index >= 0
                and harness in targets_for(settings, r.path)]
        if not could_reach(harness, mine):
            continue
        # The listing's modules only when one is built (a one-skill `check` loads none of them).
        from .config import apply_settings  # noqa: PLC0415
        from .findings import make  # noqa: PLC0415
        from .preview import records_for  # noqa: PLC0415
        from .workspace import with_document  # noqa: PLC0415

        full = [r if r.doc is not None else with_document(r, settings) for r in mine]
        by_path = {r.path: r for r in mine}
        roots = 1 + max((r.location.root_index for r in mine), default=0)
        for d in decide(records_for(full, roots), harness):
            if d.state in (NAME_ONLY, DROPPED) or (d.state == CUT and harness == "codex"):
                r = by_path.get(d.path)
                if r is not None:
                    start, end = r.anchor
                    r.cross.extend(apply_settings([make("LISTING_BUDGET", d.sentence(), start, end,
                                                        {"harness": harness, "state": d.state})], settings))
