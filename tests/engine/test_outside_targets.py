"""SkillResult.outside: the paths a skill's links leave its folder for (what a rescan must watch)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from skill_lsp.engine.config import Settings
from skill_lsp.engine.workspace import SkillResult, check_file, check_text


def test_outside_lists_link_targets_that_leave_the_folder(tmp_path: Path) -> None:
    skill = tmp_path / "skills" / "linker"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: linker\ndescription: Links. Use when testing.\n---\n"
        "[notes](../../shared/notes.md), [zeta](../zeta/SKILL.md), [again](%2E%2E/zeta/SKILL.md),\n"
        "[local](references/a.md), [web](https://example.com/../x), `[code](../../no.md)`, [up](..)\n\n"
        "```\n[fenced](../fenced.md)\n```\n", encoding="utf-8")
    result = check_file(str(skill / "SKILL.md"), Settings()).slim(keep_text=False)
    assert result.outside == (os.path.join(str(tmp_path), "shared", "notes.md"), os.path.join(str(tmp_path), "skills"),
                              os.path.join(str(tmp_path), "skills", "zeta", "SKILL.md"))


def test_outside_is_empty_without_links_out(tmp_path: Path) -> None:
    skill = tmp_path / "skills" / "plain"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: plain\ndescription: Plain. Use when testing.\n---\n"
                                    "Wait... then see [a](references/a.md).\n", encoding="utf-8")
    assert check_file(str(skill / "SKILL.md"), Settings()).slim(keep_text=False).outside == ()


@pytest.mark.parametrize("link", ["[a](&#46;&#46;/alpha/SKILL.md)", "[a](\\.\\./alpha/SKILL.md)",
                                  "[a](&period;./alpha/SKILL.md)"])
def test_outside_and_link_mentions_see_targets_the_parse_decodes(tmp_path: Path, link: str) -> None:
    # Entities and escapes become '../' only in the CommonMark parse; the cheap gate in
    # front of the parse must let them through (it once looked for a literal '../').
    skill = tmp_path / "skills" / "coded"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        f"---\nname: coded\ndescription: Coded links. Use when testing.\n---\nSee {link} first.\n", encoding="utf-8")
    result = check_file(str(skill / "SKILL.md"), Settings()).slim(keep_text=False)
    assert result.outside == (os.path.join(str(tmp_path), "skills", "alpha", "SKILL.md"),)
    assert [(m.name, m.kind) for m in result.mentions] == [("alpha", "link")]


@pytest.mark.parametrize("body, leaves", [
    ("[a](%2E%2E/alpha/SKILL.md)", "alpha/SKILL.md"),  # percent-encoded, nothing else in the body
    ("[up](..)", ""),  # the folder above itself
    ("[a][r]\n\n[r]: ../alpha/SKILL.md", "alpha/SKILL.md"),  # a reference definition alone
])
def test_each_form_of_a_link_out_is_found_alone(tmp_path: Path, body: str, leaves: str) -> None:
    skill = tmp_path / "skills" / "alone"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(f"---\nname: alone\ndescription: One link. Use when testing.\n---\n{body}\n",
                                    encoding="utf-8")
    result = check_file(str(skill / "SKILL.md"), Settings()).slim(keep_text=False)
    assert result.outside == (os.path.normpath(os.path.join(str(tmp_path), "skills", leaves)),)


def test_an_unsaved_buffer_has_no_outside_paths() -> None:
    # Without a path there is no folder to leave (and no relative path to report).
    text = "---\nname: draft\ndescription: Draft. Use when testing.\n---\n[a](../other/SKILL.md)\n"
    doc, findings = check_text(text, "", Settings(), on_disk=False)
    assert SkillResult("", doc, findings).outside == ()
