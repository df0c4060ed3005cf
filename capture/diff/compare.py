"""One batch: run the release, ask skill-lsp, compare skill by skill and activation by activation."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from skill_lsp.capture import drivers
from skill_lsp.capture import expect as skill_lsp
from skill_lsp.capture.normalise import normalise
from skill_lsp.engine.render.opencode import MAX_FILES as OPENCODE_MAX_FILES
from skill_lsp.engine.render.opencode import config_folders as opencode_config_folders
from skill_lsp.engine.render.ripgrep import files as ripgrep_files

from .grammar import Skill
from .workspace import lay_out


@dataclass
class SkillVerdict:
    skill: Skill
    theirs: list[str]  # the release's entries for this skill
    mine: list[str]  # skill-lsp's
    # the release is known to answer differently from run to run here (see NONDETERMINISTIC)
    nondeterministic: bool = False

    @property
    def agrees(self) -> bool:
        return self.theirs == self.mine

    @property
    def kind(self) -> str:
        """"listing" when one side lists it and the other not (or another copy), "bytes" otherwise;
        "nondeterministic" when the release itself does not decide the same way twice."""
        if self.agrees:
            return "agree"
        if self.nondeterministic:
            return "nondeterministic"
        return "bytes" if len(self.theirs) == len(self.mine) else "listing"


@dataclass
class ActivationVerdict:
    call: str
    arguments: str
    theirs: str | None  # normalised; None when the release activated nothing
    mine: str | None
    nondeterministic: bool = False  # which copy the release activates changes from run to run

    @property
    def agrees(self) -> bool:
        return self.theirs == self.mine

    @property
    def kind(self) -> str:
        if self.agrees:
            return "agree"
        return "bytes" if (self.theirs is None) == (self.mine is None) else "listing"


@dataclass
class Outcome:
    harness: str
    skills: list[SkillVerdict]
    activations: list[ActivationVerdict]
    catalog_agrees: bool
    theirs_catalog: str
    mine_catalog: str
    unowned: list[str] = field(default_factory=list)  # entries no generated skill accounts for
    error: str | None = None

    def disagreements(self) -> list[tuple[str, str, object]]:
        """(what, kind, verdict) for every disagreement (the release's own non-determinism aside)."""
        out: list[tuple[str, str, object]] = [("skill", v.kind, v) for v in self.skills
                                              if not v.agrees and not v.nondeterministic]
        out += [("activation", v.kind, v) for v in self.activations if not v.agrees and not v.nondeterministic]
        return out


_SPACES = re.compile(r"\s+")
_NAME_LINE = re.compile(rb"^name:[ \t]*(.*?)[ \t]*\r?$", re.M)


def _declared(skill: Skill) -> bytes | None:
    """The `name:` line's value as written (quotes dropped; an empty or null one counts as ""), or None."""
    data = skill.files.get("SKILL.md")
    m = _NAME_LINE.search(data or b"")
    if m is None:
        return None
    value = m.group(1).strip(b"\"'")
    return b"" if value in (b"", b"~", b"null") else value


def _same_name_elsewhere(skill: Skill, skills: list[Skill]) -> bool:
    """Another skill of the batch with this one's folder name or declared name (two skills that both
    declare an empty name are two of one name too)."""
    mine = _declared(skill)
    return any(o is not skill and (o.folder.rsplit("/", 1)[-1] == skill.folder.rsplit("/", 1)[-1]
                                   or (o.call is not None and o.call == skill.call)
                                   or (mine is not None and _declared(o) == mine)) for o in skills)


#: Where a release is not deterministic, proven by running the same workspace twice (the
#: shrinker's first step; capture/diff/FINDINGS.md): OpenCode scans its roots in parallel, so
#: which of two skills of one name it keeps changes from run to run.
NONDETERMINISTIC = {"opencode": _same_name_elsewhere}


def _owns(harness: str, key: str, skill: Skill) -> bool:
    base = skill.folder.rsplit("/", 1)[-1]
    if harness == "claude-code":
        return key in (base, skill.folder.replace("/", ":"))
    if harness == "copilot":  # its entries hold the name, each run of whitespace one '-' (`a b` is `a-b`)
        return key in (base, skill.call, _SPACES.sub("-", skill.call.strip()) if skill.call else None)
    token = "<workspace>" if skill.where == "ws" else "<home>"
    places = [f"{token}/{skill.rel}/"]
    if harness == "codex":  # `(file: r0/<folder>/SKILL.md)`: the root is a label
        return any(f"/{skill.folder}/{name}" == key[key.find("/"):] for name in skill.files)
    if skill.link is not None:
        flat = skill.folder.replace("/", "--")
        places.append(f"<workspace>/linked/{flat}/" if skill.link == "inside" else f"/outside/{flat}/")
    return any(p in key for p in places)


def _settled(harness: str, text: str, entries: list[tuple[str, str]], unsettled: list[Skill]) -> str:
    """``text`` without the entries of the skills the release does not decide the same way twice
    (NONDETERMINISTIC), each with its line break: which of two skills of one name OpenCode keeps, and
    so the entry it lists, changes from run to run (seed 11 of the real runs: 2 of 8 catalogs)."""
    for key, entry in entries:
        if not any(_owns(harness, key, s) for s in unsettled):
            continue
        at = text.find(entry)
        if at >= 0:
            end = at + len(entry)
            text = text[:at] + text[end + 1 if text[end:end + 1] == "\n" else end:]
    return text


def _order_free(harness: str, text: str) -> str:
    """Gemini CLI's catalog order is not fixed (its glob is asynchronous): compare entries as a set."""
    if harness != "gemini":
        return text
    head, sep, rest = text.partition("<available_skills>\n")
    body, sep2, tail = rest.partition("</available_skills>")
    return head + sep + "".join(sorted(b + "</skill>\n" for b in body.split("</skill>\n") if b)) + sep2 + tail


def _sampled_alike(theirs: str, mine: str, base: str, ws: Path, home: Path) -> bool:
    """OpenCode's 10 of more files, in an order skill-lsp cannot know (expect.sampled_alike), and
    what that order decides in a result cut past the size limits (expect.cut_alike)."""
    eligible = {normalise(f"<file>{f}</file>", ws, home)
                for f in ripgrep_files(base, skip_names=frozenset({"SKILL.md"}),
                                       default_gitignores=opencode_config_folders(base))}
    return skill_lsp.sampled_alike(theirs, mine, eligible, OPENCODE_MAX_FILES) or \
        skill_lsp.cut_alike(theirs, mine, len(eligible), OPENCODE_MAX_FILES)


def run_batch(harness: str, argv: list[str], skills: list[Skill], calls: list[tuple[str, str]], top: Path,
              builtin_names: dict[str, int] | None, timeout: float = drivers.RUN_TIMEOUT) -> Outcome:
    ws, home = lay_out(skills, top)
    if not calls:
        calls = [("capture-missing-skill", "")]
    try:
        got = drivers.run(harness, argv, ws, home, calls, builtin_names, timeout)
    except drivers.CaptureError as err:
        return Outcome(harness, [], [], False, "", "", error=str(err))
    recs = skill_lsp.records(harness, ws, home)
    theirs_catalog = normalise(got.catalog or "", ws, home)
    mine_catalog = normalise(skill_lsp.catalog(harness, ws, home, got.builtins, recs), ws, home)
    theirs = [(skill_lsp.relpath_key(k, ws, home), e) for k, e in skill_lsp.entries(harness, theirs_catalog)]
    mine = [(skill_lsp.relpath_key(k, ws, home), e) for k, e in skill_lsp.entries(harness, mine_catalog)]
    verdicts = []
    owned: set[int] = set()
    for s in skills:
        t = [e for i, (k, e) in enumerate(theirs) if _owns(harness, k, s) and not owned.add(i)]  # type: ignore[func-returns-value]
        m = [e for k, e in mine if _owns(harness, k, s)]
        flaky = NONDETERMINISTIC.get(harness)
        verdicts.append(SkillVerdict(s, sorted(t), sorted(m), bool(flaky and flaky(s, skills))))
    unowned = [e for i, (_, e) in enumerate(theirs) if i not in owned]
    acts = []
    mentioned = False  # an earlier activation of this session @-mentioned a file (Claude Code)
    for a in got.activations:
        if a.skill == "capture-missing-skill":
            continue
        theirs_text = normalise(a.text, ws, home) if skill_lsp.activated(harness, a.text) else None
        try:
            exp = skill_lsp.activation(harness, ws, home, a.skill, a.arguments, recs)
            mine_text = None if exp.text is None else normalise(exp.text, ws, home)
        except ValueError:  # skill-lsp's preview refuses it (disable-model-invocation: true, ...)
            mine_text = None
        if harness == "opencode" and theirs_text and mine_text and skill_lsp.same_files(theirs_text, mine_text):
            mine_text = theirs_text
        flaky = NONDETERMINISTIC.get(harness)
        owners = [s for s in skills if s.call == a.skill or s.folder.rsplit("/", 1)[-1] == a.skill]
        unsettled = bool(flaky and any(flaky(s, skills) for s in owners))
        if harness == "opencode" and theirs_text and mine_text and theirs_text != mine_text and exp.record:
            base = os.path.dirname(exp.record.path)
            unsettled = unsettled or _sampled_alike(theirs_text, mine_text, base, ws, home)
        if harness == "claude-code" and mentioned and theirs_text and mine_text is None and _conditional(recs, a.skill):
            # A conditional skill (`paths`) turns on once a file matching its patterns is touched,
            # and an activated skill's `@path` mention touches one (probed: `@notes.txt` in one
            # skill's body makes a `paths: ["*"]` skill activatable afterwards; seed 6 of the real
            # runs). The preview answers for a session where nothing was touched yet: the
            # batch's order decides, counted apart as the release's own variations are.
            unsettled = True
        mentioned = mentioned or bool(theirs_text and _AT_MENTION.search(theirs_text))
        acts.append(ActivationVerdict(a.skill, a.arguments, theirs_text, mine_text, unsettled))
    flaky = NONDETERMINISTIC.get(harness)
    unsure = [s for s in skills if flaky and flaky(s, skills)]
    catalog_agrees = (_order_free(harness, _settled(harness, theirs_catalog, theirs, unsure))
                      == _order_free(harness, _settled(harness, mine_catalog, mine, unsure)))
    return Outcome(harness, verdicts, acts, catalog_agrees, theirs_catalog, mine_catalog, unowned)


def _conditional(recs: list, folder: str) -> bool:
    """Whether the skill of that folder names file patterns in `paths` (a conditional skill)."""
    from skill_lsp.engine.listing import path_patterns  # noqa: PLC0415

    return any(r.folder == folder and path_patterns(r.frontmatter.get("paths")) for r in recs)


# `@path` as Claude Code reads a file mention: an @ opening a word, a path-like token after it.
_AT_MENTION = re.compile(r"(?:^|\s)@[\w./~-]")


def describe(outcome: Outcome, limit: int = 400) -> list[dict]:
    """JSON-ready rows, one per disagreement (texts cut to ``limit`` characters)."""
    def cut(text: str | None) -> str | None:
        return None if text is None else (text if len(text) <= limit else text[:limit] + "…")

    rows = []
    for what, kind, v in outcome.disagreements():
        if isinstance(v, SkillVerdict):
            rows.append({"what": what, "kind": kind, "skill": f"{v.skill.where}/{v.skill.rel}", "tags": list(v.skill.tags),
                         "release": [cut(e) for e in v.theirs], "skill_lsp": [cut(e) for e in v.mine]})
        elif isinstance(v, ActivationVerdict):
            rows.append({"what": what, "kind": kind, "skill": v.call, "arguments": v.arguments,
                         "release": cut(v.theirs), "skill_lsp": cut(v.mine)})
    return rows


def dump(outcome: Outcome, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    row: dict = {"harness": outcome.harness, "error": outcome.error, "catalog_agrees": outcome.catalog_agrees,
                 "unowned": outcome.unowned, "disagreements": describe(outcome)}
    if not outcome.catalog_agrees:  # every entry alike, the text around them not: both catalogs whole
        row["catalogs"] = {"release": outcome.theirs_catalog, "skill_lsp": outcome.mine_catalog}
    path.write_text(json.dumps(row, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")

