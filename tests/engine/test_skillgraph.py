"""The skill graph (engine/skillgraph.py) driven directly, as SkillIndex drives it: names that
come and go, mentions that resolve or not, and the queries navigation and rename ask.

Results are built from text (no files): a skill's name is its frontmatter's, its mentions
are read from its body.
"""

from __future__ import annotations

import pytest

from skill_lsp.engine import document
from skill_lsp.engine.config import Settings
from skill_lsp.engine.datarecord import replace
from skill_lsp.engine.discovery import Location
from skill_lsp.engine.rules.name import MAX_NAME, problems
from skill_lsp.engine.skillgraph import (
    Near,
    SkillGraph,
    defines_name,
    link_mentions,
    name_problems,
    rename_conflicts,
)
from skill_lsp.engine.workspace import SkillResult

ROOT = "/ws/skills"


def result(folder: str, name: str, body: str = "") -> SkillResult:
    path = f"{ROOT}/{folder}/SKILL.md"
    text = f"---\nname: {name}\ndescription: Does {name}. Use when testing.\n---\n{body}"
    return SkillResult(path, document.parse(text, path), [], Location(f"{ROOT}/{folder}", path, 0, ROOT))


class Graph:
    """A SkillGraph and the results it knows, updated as SkillIndex does (results first)."""

    def __init__(self, *results: SkillResult) -> None:
        self.graph = SkillGraph(Settings())
        self.results = {r.path: r for r in results}
        self.graph.rebuild(self.results)

    def put(self, r: SkillResult) -> set[str]:
        old = self.results.get(r.path)
        self.results[r.path] = r
        return self.graph.update(self.results, r.path, old, r)

    def remove(self, path: str) -> set[str]:
        old = self.results.pop(path)
        return self.graph.update(self.results, path, old, None)

    def unknown(self, folder: str) -> list[tuple]:
        r = self.results[f"{ROOT}/{folder}/SKILL.md"]
        return [(f.code, f.message, f.data) for f in r.graph]


def test_edit_distance_grows_with_the_name() -> None:
    near = Near(["abcdefg", "abcdefgh", "abcdefghij"])
    assert near("abcdexy") == []  # 7 characters: one edit at most
    assert near("abcdefx") == ["abcdefg"]
    assert near("abcdexyh") == ["abcdefgh"]  # 8 characters: two edits
    assert near("abcdxyzhij") == []  # not three


def test_the_finding_names_the_candidates() -> None:
    # Equally near: by name.
    g = Graph(result("deploy", "deploy"), result("deplot", "deplot"),
              result("user", "user", "Run `/deplo` now.\n"))
    assert g.unknown("user") == [(
        "UNKNOWN_SKILL", "no skill named 'deplo' in this workspace; did you mean 'deplot' or 'deploy'?",
        {"name": "deplo", "candidates": ["deplot", "deploy"], "kind": "slash"})]


def test_only_certain_named_mentions_can_be_unknown() -> None:
    # A slash word in prose may be an endpoint, and a link's folder is BROKEN_LINK's business.
    g = Graph(result("deploy", "deploy"), result("user", "user", "Call /deplyo, see [d](../deplyo/SKILL.md).\n"))
    assert g.unknown("user") == []
    assert g.graph.unresolved == set()


def test_check_reports_only_certain_named_mentions_too() -> None:
    # `check` links every result in one batch (link_mentions), not through the incremental graph.
    results = [result("deploy", "deploy"), result("user", "user", "Call /deplyo, see [d](../deplyo/SKILL.md).\n"),
               result("sure", "sure", "Run `/deplyo`.\n")]
    link_mentions(results, Settings())
    assert [[f.data["name"] for f in r.graph] for r in results] == [[], [], ["deplyo"]]


def test_a_name_two_skills_share_stays_while_one_of_them_goes() -> None:
    a, b = result("deploy", "deploy"), result("deploy-copy", "deploy")
    g = Graph(a, b, result("deploys", "deploys"), result("user", "user", "Run `/deploy`.\n"))
    assert g.graph.definitions("deploy") == [b.path, a.path]  # sorted: '-' before '/'
    assert g.remove(b.path) == set()
    assert g.graph.definitions("deploy") == [a.path]
    assert g.graph.names["deploy"] == 1
    assert g.unknown("user") == []
    assert f"{ROOT}/deploy-copy" not in g.graph.dirs


def test_a_name_that_appears_resolves_its_mentions_and_one_that_vanishes_unresolves_them() -> None:
    user = result("user", "user", "Run `/deploy`.\n")
    g = Graph(result("deploys", "deploys"), user)
    assert [d["name"] for _, _, d in g.unknown("user")] == ["deploy"]
    assert g.graph.unresolved == {user.path}
    new = result("deploy", "deploy")
    assert g.put(new) == {user.path}
    assert g.unknown("user") == [] and g.graph.unresolved == set()
    assert g.remove(new.path) == {user.path}
    assert [d["name"] for _, _, d in g.unknown("user")] == ["deploy"]


def test_a_new_skill_with_an_unknown_mention_gets_its_finding_when_its_name_is_new_too() -> None:
    g = Graph(result("deploys", "deploys"))
    typo = result("typo", "typo", "Run `/deploy`.\n")
    assert g.put(typo) == set()  # its own findings are the caller's to publish
    assert [d["name"] for _, _, d in g.unknown("typo")] == ["deploy"]


def test_an_edit_forgets_the_mentions_it_removed() -> None:
    g = Graph(result("deploy", "deploy"), result("user", "user", "Run `/deploy` and $deploy.\n"))
    path = f"{ROOT}/user/SKILL.md"
    assert g.graph.mentioners["deploy"] == {path}
    g.put(result("user", "user", "Nothing now.\n"))
    assert g.graph.mentioners["deploy"] == set()
    assert g.graph.mentions_of(g.results, "deploy") == []


def test_a_result_that_stops_mentioning_an_unknown_name_leaves_the_unresolved_set() -> None:
    g = Graph(result("deploys", "deploys"), result("user", "user", "Run `/deploy`.\n"))
    g.put(result("user", "user", "Run `/deploys`.\n"))
    assert g.graph.unresolved == set()
    g.put(result("user", "user", "Run `/deploy`.\n"))
    g.remove(f"{ROOT}/user/SKILL.md")
    assert g.graph.unresolved == set()


def test_unknown_names_have_no_definitions_or_mentions() -> None:
    g = Graph(result("deploy", "deploy"))
    assert g.graph.definitions("nope") == []
    assert g.graph.mentions_of(g.results, "nope") == []


def test_mentions_of_a_skill_whose_folder_is_not_its_name() -> None:
    target = result("deploy-folder", "deploy")
    g = Graph(target, result("deploy", "other"),
              result("by-link", "by-link", "See [d](../deploy-folder/SKILL.md).\n"),
              result("by-name", "by-name", "Run `/deploy`.\n"),
              result("by-other-link", "by-other-link", "See [o](../deploy/SKILL.md).\n"))
    got = [(p.split("/")[-2], m.kind, m.name) for p, m in g.graph.mentions_of(g.results, "deploy", target.path)]
    # The link into the other folder named "deploy" is no mention of this skill.
    assert got == [("by-link", "link", "deploy-folder"), ("by-name", "slash", "deploy")]
    # Without its SKILL.md only named mentions are known.
    assert [(p.split("/")[-2], m.kind) for p, m in g.graph.mentions_of(g.results, "deploy")] == [("by-name", "slash")]
    # A folder nobody links to.
    assert g.graph.mentions_of(g.results, "by-name", f"{ROOT}/by-name/SKILL.md") == []


def test_mentions_of_skips_paths_the_results_no_longer_hold() -> None:
    g = Graph(result("deploy", "deploy"), result("a-user", "a-user", "Run `/deploy`.\n"),
              result("b-user", "b-user", "Run `/deploy`.\n"))
    held = {p: r for p, r in g.results.items() if "/a-user/" not in p}
    assert [p.split("/")[-2] for p, _ in g.graph.mentions_of(held, "deploy")] == ["b-user"]


def test_a_file_that_could_not_be_read_defines_no_name() -> None:
    path = f"{ROOT}/broken/SKILL.md"
    assert not defines_name(SkillResult(path, None, [], Location(f"{ROOT}/broken", path, 0, ROOT)))
    fenced = Location(f"{ROOT}/broken", path, 0, ROOT, ("SENSITIVE", "sensitive"))
    assert not defines_name(replace(result("broken", "broken"), location=fenced))
    assert defines_name(result("fine", "fine"))


@pytest.mark.parametrize(("name", "profile", "want"), [
    ("", "skill-tool", ["a skill name cannot be empty"]),
    ("   ", "skill-tool", ["a skill name cannot be empty"]),
    ("deploy", "skill-tool", []),
    (" deploy", "skill-tool", ["a skill name cannot start or end with whitespace", *problems(" deploy", False)]),
    ("Bad_Name", "skill-tool", problems("Bad_Name", False)),
    ("café", "skill-tool", problems("café", False)),
    ("café", "agentskills", []),  # skills-ref accepts Unicode letters
    ("a" * MAX_NAME, "skill-tool", []),
    ("a" * (MAX_NAME + 1), "skill-tool", [f"a skill name has at most {MAX_NAME} characters"]),
])
def test_name_problems(name: str, profile: str, want: list[str]) -> None:
    assert name_problems(name, Settings(profile=profile)) == want
    assert (want == []) == (not problems(name, profile == "agentskills") and name == name.strip() and
                            0 < len(name) <= MAX_NAME)


FOLDED = "once Unicode compatibility forms and case are folded (NFKC)"


@pytest.mark.parametrize(("new", "names", "want"), [
    ("deploy", ["deploy", "review"], []),  # its own name, and a name no other folds to
    ("\uff44\uff45\uff50\uff4c\uff4f\uff59", ["review", "deploy"],  # fullwidth
     [f"'\uff44\uff45\uff50\uff4c\uff4f\uff59' is the same name as the existing 'deploy' {FOLDED}"]),
    ("Review", ["review", "REVIEW", "other"], [f"'Review' is the same name as the existing 'REVIEW' {FOLDED}"]),
    ("d\u0435ploy", [], ["'d\u0435ploy' mixes Latin and Cyrillic letters: a look-alike of other names"]),
    ("\u0391lpha-\u0432", ["alpha"],  # Greek capital alpha first, then Latin, then Cyrillic
     ["'\u0391lpha-\u0432' mixes Greek and Latin and Cyrillic letters: a look-alike of other names"]),
    ("caf\u00e9-2", ["cafe-2"], []),  # accented Latin is Latin, and NFKC keeps the accent
])
def test_rename_conflicts(new: str, names: list[str], want: list[str]) -> None:
    assert rename_conflicts(new, names) == want
