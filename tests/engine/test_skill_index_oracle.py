"""The incremental workspace index against `skill-lsp check`: a seeded walk of edits.

SkillIndex (engine/workspace.py) and SkillGraph (engine/skillgraph.py) keep cross-skill
findings (DUPLICATE_NAME, SHADOWED, UNKNOWN_SKILL) up to date one file at a time, as the
server feeds them: a skill written, renamed, broken or deleted, a rescan. After every step
the index must hold what `check` computes from scratch for the same files (a fresh scan,
`link_skills` and `link_mentions`, the batch path), answer navigation's queries as an index
rebuilt from scratch does, and name as touched exactly the other files whose findings
changed (the server republishes those and no others: a missing one keeps a stale
diagnostic in the editor).

Names and mentions are drawn from a small pool of near-typos, so names that appear and
vanish move the did-you-mean candidates of mentions elsewhere; one folder's SKILL.md is a
link out of the roots, which names nothing.
"""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import pytest

from helpers import skill_text, write_skill
from skill_lsp.engine.config import Settings
from skill_lsp.engine.discovery import Location, scan_roots
from skill_lsp.engine.skillgraph import link_mentions
from skill_lsp.engine.workspace import SkillIndex, SkillResult, check_file, link_skills

ROOTS = ("a", "b")
FOLDERS = ["a/deploy", "a/review", "a/tools", "b/deploy", "b/publish", "a/deplo"]
# a/deplo is only ever a SKILL.md linked outside the roots (OUTSIDE_WORKSPACE): it gives the
# workspace no name, so `/deplo` stays unknown.
OUTSIDE = "a/deplo"
NAMES = ["deploy", "deploi", "deplyo", "review", "reviews", "publish", "tools"]
MENTIONS = ["Run `/deploy` first.", "Then `/deplo`.", "Codex: $deploi.", "Ask `/reveiw`.", "See `/publsh`.",
            "Prose /deploy is not strict.", "Read [the tools](../tools/SKILL.md).",
            "And [publish notes](../publish/references/notes.md)."]


class Walk:
    def __init__(self, tmp: Path, rng: random.Random) -> None:
        self.tmp = tmp
        self.rng = rng
        self.settings = Settings(roots=ROOTS)
        self.index = SkillIndex(self.settings)

    def path(self, folder: str) -> str:
        return str(self.tmp / folder / "SKILL.md")

    def result(self, folder: str) -> SkillResult:
        """Checked as the server checks a file an event names: located as the scan locates it."""
        path = self.path(folder)
        (loc,) = [loc for loc in self.locations() if loc.path == path]
        return check_file(path, self.settings, loc).slim()

    def locations(self) -> list[Location]:
        return scan_roots(self.settings.resolved_roots(str(self.tmp)), self.settings.sensitive_patterns)

    def scan(self) -> list[SkillResult]:
        return [check_file(loc.path, self.settings, loc).slim() for loc in self.locations()]

    def text(self) -> str:
        rng = self.rng
        kind = rng.random()
        if kind < 0.08:
            return "# no frontmatter\n"
        body = "\n" + "\n\n".join(rng.sample(MENTIONS, rng.randint(0, 3))) + "\n"
        extra = "allowed-tools: Skill(review) Skill(deplyo)" if rng.random() < 0.2 else ""
        if kind < 0.2:  # no description: in no catalog, so it shadows nothing
            return f"---\nname: {rng.choice(NAMES)}\n{extra}\n---\n{body}"
        return skill_text(rng.choice(NAMES), extra=extra, body=body)

    def step(self) -> tuple[str, set[str]] | None:
        """One edit as the server applies it: the file edited and the others the index says
        it touched (None for a rescan, after which the server republishes everything)."""
        rng = self.rng
        existing = [f for f in FOLDERS if os.path.exists(self.path(f))]
        op = rng.random()
        if op < 0.1:
            self.index.rebuild(self.scan())
            return None
        if op < 0.3 and existing:
            folder = rng.choice(existing)
            shutil.rmtree(self.tmp / folder)
            return self.path(folder), self.index.remove(self.path(folder))
        folder = rng.choice(FOLDERS)
        root, name = folder.split("/")
        if folder == OUTSIDE:
            target = write_skill(self.tmp / "elsewhere", name, skill_text(name))
            shutil.rmtree(self.tmp / folder, ignore_errors=True)
            (self.tmp / folder).mkdir()
            os.symlink(target, self.path(folder))
        else:
            write_skill(self.tmp / root, name, self.text())
        return self.path(folder), self.index.put(self.result(folder))


def shown(findings) -> list[tuple]:
    return sorted((f.code, f.message, f.start, f.end, repr(f.data)) for f in findings)


def state(results) -> dict[str, tuple]:
    return {r.path: (shown(r.cross), shown(r.graph)) for r in results}


def checked(walk: Walk) -> dict[str, tuple]:
    """What `skill-lsp check` reports for the files on disk (commands/check.py's linking)."""
    results = walk.scan()
    link_skills(results, walk.settings)
    link_mentions(results, walk.settings)
    return state(results)


def queries(index: SkillIndex) -> dict:
    """What navigation and rename ask the graph, for every name and skill folder of the pool."""
    g = index.graph
    out: dict = {"dirs": dict(g.dirs)}
    for name in {*NAMES, "deplo", "reveiw", "publsh", "unknown"}:
        out[f"definitions {name}"] = g.definitions(name)
        out[f"mentions {name}"] = [(p, m.kind, m.start) for p, m in g.mentions_of(index.results, name)]
    for path in index.results:
        out[f"links {path}"] = [(p, m.kind, m.start)
                                for p, m in g.mentions_of(index.results, "", path)]
    return out


@pytest.mark.parametrize("seed", range(16))
def test_every_step_matches_a_check_from_scratch(tmp_path: Path, seed: int) -> None:
    walk = Walk(tmp_path, random.Random(seed))
    for root in ROOTS:
        (tmp_path / root).mkdir()
    walk.index.rebuild(walk.scan())
    before = state(walk.index.results.values())
    for n in range(40):
        step = walk.step()
        now = state(walk.index.results.values())
        assert now == checked(walk), f"seed {seed}, step {n}"
        if step is not None:
            edited, touched = step
            changed = {p for p in now if p != edited and now[p] != before.get(p)}
            # Exactly the other files whose findings changed: the server republishes those.
            assert touched == changed, f"seed {seed}, step {n}"
        fresh = SkillIndex(walk.settings)
        fresh.rebuild(walk.scan())
        assert queries(walk.index) == queries(fresh), f"seed {seed}, step {n}"
        before = now
