"""Codex's second parse of a frontmatter its YAML parser refused (engine/codex_frontmatter.py), and what
listing and the catalog make of it. The rules are read from openai/codex (loader.rs
repair_frontmatter_scalar_fields); the differential tester holds them to Codex 0.171.0."""

from __future__ import annotations

from pathlib import Path

import pytest

from skill_lsp.engine import document
from skill_lsp.engine.codex_frontmatter import repair
from skill_lsp.engine.listing import listing
from skill_lsp.engine.ruststr import rust_lines as lines
from skill_lsp.engine.workspace import SkillResult

REPAIRS = [
    ("description: Build for AWS: ECS", "description: 'Build for AWS: ECS'"),
    ("description: it's a: b", "description: 'it''s a: b'"),
    ("description: a: b # note", "description: 'a: b' # note"),
    ("description:\ta: b", "description:\t'a: b'"),
    ("tags: [next,@supabase/ssr", "tags: '[next,@supabase/ssr'"),
    ("hint: @user", "hint: '@user'"),
    ("hint: `cmd`", "hint: '`cmd`'"),
    ("description: a:\u00a0b", "description: 'a:\u00a0b'"),  # Rust's whitespace takes a no-break space
    # A flow collection followed by more text is no document of its own (held-out seed 9003).
    ("description: {m} sync clean", "description: '{m} sync clean'"),
    ("tags: [a, b] c", "tags: '[a, b] c'"),
]
UNCHANGED = [
    "description: plain text",
    "description: 'quoted: already'",
    'description: "quoted: already"',
    "tags: [a, b]",  # valid on its own
    "tags: [a, b]#note",  # a comment right after the collection, as libyaml reads it
    "url: http://x",  # no whitespace after the colon
    "description:a: b",  # no whitespace after the key's colon: not a `key: value` line
]


@pytest.mark.parametrize(("line", "fixed"), REPAIRS)
def test_a_value_codex_quotes(line: str, fixed: str) -> None:
    assert repair(f"name: n\n{line}\n") == f"name: n\n{fixed}"


@pytest.mark.parametrize("line", UNCHANGED)
def test_a_value_codex_leaves(line: str) -> None:
    assert repair(f"name: n\n{line}\n") is None


def test_block_scalar_lines_are_left_as_written() -> None:
    text = "description: |\n  a: b\n  c: d\nname: x: y\n"
    assert repair(text) == "description: |\n  a: b\n  c: d\nname: 'x: y'"


def test_lines_split_as_rust_does() -> None:
    assert lines("a\r\nb\n\nc\n") == ["a", "b", "", "c"]
    assert lines("a\rb") == ["a\rb"]


def _listed(tmp_path: Path, text: str):
    path = tmp_path / ".agents" / "skills" / "demo" / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return listing(SkillResult(str(path), document.parse(text, str(path)), []), "codex", roots=False)


def test_codex_lists_a_skill_once_the_repair_parses(tmp_path: Path) -> None:
    got = _listed(tmp_path, "---\nname: 'demo'\ndescription: Deploys: to AWS\n---\nbody\n")
    assert got.listed and got.name == "demo"


def test_codex_leaves_a_skill_out_when_the_repair_fails_too(tmp_path: Path) -> None:
    # The value goes on below its key: quoting its first line leaves the next one broken.
    got = _listed(tmp_path, "---\nname: demo\ndescription: Deploys: to AWS\n  and more: here\n---\nbody\n")
    assert not got.listed and "also with its one-line values holding ': ' quoted" in (got.reason or "")


def test_a_map_name_makes_codex_repair_every_line() -> None:
    """Held-out seed 9002, batches 35 and 47 (`gen-codex-skill-bytes-name--a--1-bom-char-nel`): serde_yaml
    cannot read `name: {a: 1}` as a string, so Codex repairs the whole block. Quoted, a description whose
    NEL (a YAML 1.1 break) ended the plain scalar is read whole: NEL folds to a space."""
    from skill_lsp.engine.harness import HARNESSES
    from skill_lsp.engine.readings import read_by

    text = "---\nname: {a: 1}\ndescription: one \x85two a: b three\n---\nbody\n"
    doc = read_by(document.parse(text, "/ws/.agents/skills/demo/SKILL.md"), HARNESSES["codex"])
    assert doc.frontmatter_values() == {"name": "{a: 1}", "description": "one two a: b three"}
    # A string name leaves the block as YAML 1.1 reads it: the plain scalar ends at the NEL.
    plain = "---\nname: demo\ndescription: one \x85other: two\n---\nbody\n"
    doc = read_by(document.parse(plain, "/ws/.agents/skills/demo/SKILL.md"), HARNESSES["codex"])
    assert doc.frontmatter_values() == {"name": "demo", "description": "one", "other": "two"}


def test_a_list_name_the_repair_leaves_keeps_the_skill_out(tmp_path: Path) -> None:
    # `[a, b]` is valid on its own, so no line changes and the first error stands.
    got = _listed(tmp_path, "---\nname: [a, b]\ndescription: d\n---\nbody\n")
    assert not got.listed
