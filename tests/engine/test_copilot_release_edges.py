"""GitHub Copilot CLI 1.0.102 at its edges: which names it loads, how it counts a description, the
user-invocable values it takes, which copy of a name wins, and the related files of an activation.

Every expected value here is what the real release answered when run (through the capture rig's
loopback model endpoint) on the same inputs, in December 2026: probes names, description-utf16,
user-invocable, precedence, related-files and related-files-2 (data.COPILOT's sources).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from skill_lsp.engine import document
from skill_lsp.engine.listing import listing
from skill_lsp.engine.render.copilot import related_files
from skill_lsp.engine.result import SkillResult


def _listed(text: str, folder: str = "f") -> str | None:
    """The name Copilot lists the skill under, or None when it does not load it."""
    path = f"/ws/.github/skills/{folder}/SKILL.md"
    got = listing(SkillResult(path, document.parse(text, path), []), "copilot", roots=False)
    return got.name if got.listed else None


def _skill(name_line: str, extra: str = "", description: str = "d") -> str:
    return f"---\n{name_line}\ndescription: {description}\n{extra}---\nbody\n"


# Loaded by the release (probe names).
@pytest.mark.parametrize("line", [
    "name: a b", "name: x_y.z:w", "name: 9nine", "name: " + "a" * 64, "name: '  lead'", 'name: "\\tlead2"',
    "name: " + "c" * 62 + "  ", "name: 'a  b  c'", "name: 'a - b'"])
def test_names_the_release_loads(line: str) -> None:
    assert _listed(_skill(line)) is not None


# Left out by the release (probe names).
@pytest.mark.parametrize("line", [
    "name: _under", "name: x/y", "name: x!y", "name: é-accent", "name: " + "b" * 65, "name: -dash", "name: .dot",
    'name: "t\\tab"', "name: " + "d" * 63 + " e", "name: x@y", "name: 'x\u00a0y'", "name: " + "e " * 33 + "e"])
def test_names_the_release_leaves_out(line: str) -> None:
    assert _listed(_skill(line)) is None


def test_the_folder_name_goes_through_the_same_pattern() -> None:
    no_name = "---\ndescription: d\n---\nbody\n"
    assert _listed(no_name, "_fold") is None
    assert _listed(no_name, "ümlaut") is None
    assert _listed(no_name, "fold with space") is not None


def test_description_length_counts_utf16_units() -> None:
    """1,000 x and 12 emoji (1,024 units) loaded; 13 emoji (1,026 units) not; 1,024 é loaded."""
    assert _listed(_skill("name: d1", description="x" * 1000 + "\U0001F600" * 12)) is not None
    assert _listed(_skill("name: d2", description="x" * 1000 + "\U0001F600" * 13)) is None
    assert _listed(_skill("name: d4", description="é" * 1024)) is not None


def test_a_block_description_running_to_the_closing_line_is_measured_without_its_last_newline() -> None:
    """Held-out seed 9001, batch 89: the release parses the frontmatter without the newline before
    `---`, so 1,024 characters in a `|` block are loaded; a blank line before `---` keeps the newline."""
    text = "\n".join("  " + "x" * 60 for _ in range(16)) + "\n  " + "y" * 48  # 16 * 61 + 48 + 1 = 1,025 with \n
    assert _listed(f"---\nname: b1\ndescription: |\n{text}\n---\nbody\n") == "b1"
    assert _listed(f"---\nname: b2\ndescription: |\n{text}\n\n---\nbody\n") is None
    assert _listed(f"---\nname: b3\ndescription: |+\n{text}\n---\nbody\n") == "b3"


def test_a_clipped_block_keeps_its_newline_before_a_blank_line() -> None:
    """Held-out seed 9001, batch 5: the catalog shows the block's newline when a blank line follows it."""
    from skill_lsp.engine.readings import block_runs_to_the_end

    assert block_runs_to_the_end("---\ndescription: |\n  a\n---\n", "description")
    assert not block_runs_to_the_end("---\ndescription: |\n  a\n\n---\n", "description")
    assert block_runs_to_the_end("---\ndescription: |+\n  a\n\n---\n", "description")
    # Held-out seed 9002, batch 105: to the YAML 1.1 reader a NEL ending the last line makes a blank line.
    nel = "---\ndescription: >\n  a\x85\n---\n"
    assert not block_runs_to_the_end(nel, "description", yaml11=True)
    assert block_runs_to_the_end(nel, "description")


@pytest.mark.parametrize(("value", "loaded"), [
    ("true", True), ("false", True), ("True", True), ("FALSE", True), ("'true'", False), ("yes", False),
    ("1", False), ("~", False), ("[x]", False), ("on", False), ('""', False)])
def test_user_invocable_must_be_a_yaml_boolean(value: str, loaded: bool) -> None:
    assert (_listed(_skill("name: u", f"user-invocable: {value}\n")) is not None) is loaded


def test_the_github_copy_of_a_name_wins(tmp_path: Path) -> None:
    from skill_lsp.capture import expect  # noqa: PLC0415

    ws, home = tmp_path / "ws", tmp_path / "home"
    for where, root in [(ws, ".github"), (ws, ".agents"), (ws, ".claude"), (home, ".copilot"), (home, ".agents")]:
        for name in ("same", "same2", "same3")[: {".github": 1, ".agents": 2}.get(root, 3)]:
            d = where / root / "skills" / f"{name}-{root.strip('.')}-{where.name}"
            d.mkdir(parents=True)
            (d / "SKILL.md").write_text(_skill(f"name: {name}"), encoding="utf-8")
    # ~/.copilot before ~/.agents: seed 2026, batch 100 (notes-100x15 in both), the release's activation.
    for root in (".copilot", ".agents"):
        d = home / root / "skills" / "same4"
        d.mkdir(parents=True)
        (d / "SKILL.md").write_text(_skill("name: same4"), encoding="utf-8")
    recs = expect.records("copilot", ws, home)
    want = {"same": "ws/.github", "same2": "ws/.agents", "same3": "ws/.claude", "same4": "home/.copilot"}
    for name, root in want.items():
        got = expect.activation("copilot", ws, home, name, "", recs).text
        assert got is not None and f"/{root}/skills/{name}" in got, (name, got)


def _touch(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("x", encoding="utf-8")


def test_related_files_skip_folders_links_and_skill_md(tmp_path: Path) -> None:
    skill = tmp_path / "r1"
    _touch(skill / "SKILL.md")
    for d in ("node_modules", "dist", ".git", "vendor", "bin", "Build", ".github", "lib", "sub/node_modules"):
        _touch(skill / d / "x.txt")
    for f in ("skill.md", "sub/Skill.MD", "sub/SKILL.md", "a b.txt", "a/b.txt", "a-c.txt", "B.txt"):
        _touch(skill / f)
    os.symlink("a-c.txt", skill / "link.txt")
    os.symlink("a", skill / "linkdir")
    got = related_files(str(skill))
    rels = [os.path.relpath(f, skill) for f in got.files]
    assert rels == [".github/x.txt", "B.txt", "Build/x.txt", "a/b.txt", "a b.txt", "a-c.txt", "lib/x.txt"]
    assert not got.summarized and not got.truncated


def test_related_files_summarize_big_folders_and_stop_at_100(tmp_path: Path) -> None:
    skill = tmp_path / "t3"
    for i in range(48):
        _touch(skill / "mix" / f"m{i:03}.txt")
    _touch(skill / "mix/node_modules/x")
    _touch(skill / "mix/skill.md")
    _touch(skill / "mix/.git/x")
    os.symlink("m000.txt", skill / "mix/l.txt")
    for i in range(51):
        _touch(skill / "zz/deep" / f"n{i:03}.txt")
        _touch(skill / "aa" / f"n{i:03}.txt")
    for i in range(50):
        _touch(skill / "fifty" / f"h{i:03}.txt")
    for i in range(60):
        _touch(skill / "node_modules" / f"n{i:03}.txt")
    _touch(skill / "zz/top.txt")
    got = related_files(str(skill))
    assert got.summarized == [("aa", 51), ("mix", 52), ("zz/deep", 51)]
    assert len(got.files) == 51 and not got.truncated
    assert got.text().startswith("Summarized directories:\n  - aa/ (51 items)\n  - mix/ (52 items)\n"
                                 "  - zz/deep/ (51 items)\nRelated files (use view tool to read):\n")
    hundred, more = tmp_path / "t1", tmp_path / "t2"
    for i in range(100):
        _touch(hundred / f"f{i:03}.txt")
        _touch(more / f"f{i:03}.txt")
    _touch(more / "f100.txt")
    assert not related_files(str(hundred)).truncated and len(related_files(str(hundred)).files) == 100
    cut = related_files(str(more))
    assert cut.truncated and len(cut.files) == 100
    assert cut.text().endswith("  ...and more files (listing truncated)\n\n")
    # The skill folder itself is entered whatever its size (probe: 55 files listed).
    assert len(related_files(str(tmp_path / "t1")).summarized) == 0


def test_activation_body_has_crlf_as_lf_and_keeps_a_lone_cr() -> None:
    """Probe related-files: the body `body\\r\\nline2\\rline3\\r\\n` was handed over as `body\\nline2\\rline3\\n`."""
    import sys  # noqa: PLC0415

    sys.path.insert(0, str(Path(__file__).parent / "fixtures_render"))
    from render_helpers import ok  # noqa: PLC0415

    from skill_lsp.engine.render.copilot import CopilotDialect  # noqa: PLC0415

    text = CopilotDialect(home="/h").render_ok(ok(dir="/nonexistent-skill-lsp-test/r1", resources=(),
                                                  body="body\r\nline2\rline3\r\n"))
    assert text.endswith("\n\nbody\nline2\rline3\n\n</skill-context>")


# Probe tabs: the description the release listed for each frontmatter line, None where it left the skill out.
TABS = [
    ("description: a \tb", "a \tb"), ("description: a\tb", "a\tb"), ("description:\ta", "a"), ("description: a\t", "a"),
    ("description: 'a' \t", "a"), ("description: |\n  \ta\n  b", None), ("description: |\n  a\n  \tb", "a\n\tb"),
    ("description: |-\n  \tdocs\n  notes", None), ("description: x\n\tfoo: y", None), ("description: x\nextra:\t1", "x"),
    ("description: x\nextra: [a,\tb]", "x"), ("description: x\nextra:\n  -\ta", None), ("description: a\n\tb", None),
    ("description: a\n \tb", "a b"), ("description: a\t# c", "a")]


@pytest.mark.parametrize(("line", "listed"), TABS)
def test_frontmatter_with_tabs_is_read_as_libyaml_reads_it(line: str, listed: str | None) -> None:
    from skill_lsp.engine.harness import HARNESSES  # noqa: PLC0415
    from skill_lsp.engine.readings import read_by  # noqa: PLC0415

    text = f"---\nname: t\n{line}\n---\nbody\n"
    assert (_listed(text) is not None) is (listed is not None)
    if listed is not None:
        doc = read_by(document.parse(text, "/ws/.github/skills/t/SKILL.md"), HARNESSES["copilot"])
        assert doc.value("description").rstrip("\n") == listed


def test_summarized_folder_counts_are_written_with_thousands_separators() -> None:
    """Probe item-counts (capture/diff/copilot_probes.py, stored): folders of 51, 999, 1,000 and 12,345
    files were summarized as `(51 items)`, `(999 items)`, `(1,000 items)`, `(12,345 items)` (found by
    capture diff --real seed 11: `references/operations/ (1,825 items)`)."""
    import json  # noqa: PLC0415

    from skill_lsp.engine.render.copilot import RelatedFiles  # noqa: PLC0415

    probe = json.loads((Path(__file__).parent.parent / "golden" / "probes" / "copilot@1.0.102" / "item-counts.json")
                       .read_text(encoding="utf-8"))
    related = RelatedFiles([], sorted(probe["folders"].items()), False)
    assert probe["activation"] == ('<skill-context name="many-items">\nBase directory for this skill: '
                                   f"<ws>/.github/skills/many-items\n\n{related.text()}Body.\n\n</skill-context>")
    assert "  - d1000/ (1,000 items)\n  - e12345/ (12,345 items)\n" in related.text()


# Capture case copilot-jwt-tails: a JWT is masked from its header up to JavaScript's whitespace, `;`, `'`
# or `"`, and only with a character after the header.
@pytest.mark.parametrize(("text", "masked"), [
    ("eyJhbGciOiJIUzI1NiJ9.e30.x)X", "******"), ("eyJhbGciOiJ9\\n'", "******'"), ("eyJhbGciOiJ9;x", "******;x"),
    ("eyJhbGciOiJ9\u00a0x", "******\u00a0x"), ("eyJhbGciOiJ9\u3000x", "******\u3000x"),
    ("eyJhbGciOiJ9\ufeffx", "******\ufeffx"), ("eyJhbGciOiJ9\rx", "******\rx"), ("eyJhbGciOiJ9\u0085x", "******"),
    ("eyJhbGciOiJ9\u200bx", "******"), ("eyJhbGciOiJ9\x1bx", "******"), ("eyJhbGciOi", "eyJhbGciOi"),
    ("eyJhbGciOi;x", "eyJhbGciOi;x"), ("9eyJhbGciOiJ9", "9eyJhbGciOiJ9"), ("\u00e9eyJhbGciOiJ9", "\u00e9******")])
def test_a_jwt_is_masked_up_to_whitespace_or_a_quote(text: str, masked: str) -> None:
    from skill_lsp.engine.render.copilot import mask_credentials  # noqa: PLC0415

    assert mask_credentials(text) == masked


# Capture case copilot-surrogate-escapes: a surrogate escape in a double-quoted scalar keeps the skill out.
SURROGATE_ESCAPES = [
    ('metadata: "\\ud83c\\udfdb"', False), ('metadata: "\\ud83c"', False), ('metadata: "\\udfdb"', False),
    ('metadata: "\\uD83C\\uDFDB"', False), ('metadata: "\\U0000d83c"', False),
    ('metadata:\n  a:\n    b: "x\\ud83c\\udfdby"', False), ('metadata: {"emoji":"\\ud83c\\udfdb\\ufe0f"}', False),
    ('tags:\n  - "\\ud83c\\udfdb"', False), ('metadata:\n  "\\ud83c": x', False),
    ('metadata: "\\U0001F3DB"', True), ('metadata: "\U0001F3DB"', True), ("metadata: '\\ud83c\\udfdb'", True),
    ("metadata: x\\ud83c\\udfdb", True), ("metadata: |\n  \\ud83c\\udfdb", True), ('metadata: x # "\\ud83c"', True),
    ('metadata: "\\\\ud83c"', True), ('metadata: "\\ud7ff"', True), ('metadata: "\\ue000"', True),
    ('metadata: "\\\\\\ud83c"', False), ('metadata: "a\\tb \\ud83c"\nx:\t1', False)]


@pytest.mark.parametrize(("line", "loaded"), SURROGATE_ESCAPES)
def test_a_surrogate_escape_in_a_double_quoted_scalar_keeps_the_skill_out(line: str, loaded: bool) -> None:
    assert (_listed(_skill("name: s", line + "\n")) is not None) is loaded


def test_the_reason_names_the_escape_and_its_line() -> None:
    path = "/ws/.github/skills/f/SKILL.md"
    text = _skill("name: f", 'metadata:\n  emoji: "\\ud83c\\udfdb"\n')
    got = listing(SkillResult(path, document.parse(text, path), []), "copilot", roots=False)
    assert not got.listed and got.reason is not None
    assert "the double-quoted `\\ud83c` on line 5 escapes a surrogate code point" in got.reason
    assert "case copilot-surrogate-escapes" in got.reason
    for other in ("claude-code", "codex", "opencode", "gemini"):  # not proven for the others
        assert listing(SkillResult(path, document.parse(text, path), []), other, roots=False).listed
