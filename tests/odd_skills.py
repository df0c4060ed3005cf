"""A generated set of odd skills: one folder per way a SKILL.md can go wrong or be unusual.

The catalog tests (tests/engine/test_catalog_references.py) write them into one root and
compare what each catalog dialect lists with its reference: skills-ref `to-prompt` for
`agentskills`, the skill tool's registry (spec 000 reference implementation) for `skill-tool`.
"""

from __future__ import annotations

from pathlib import Path

# (folder, file name, file bytes)
ODD: list[tuple[str, str, bytes]] = []


def _add(folder: str, text: str | bytes, filename: str = "SKILL.md") -> None:
    ODD.append((folder, filename, text if isinstance(text, bytes) else text.encode("utf-8")))


def _fm(body: str) -> str:
    return f"---\n{body}\n---\nBody text.\n"


_add("plain", _fm("name: plain\ndescription: A plain skill. Use when testing."))
_add("folder-differs", _fm("name: other-name\ndescription: Name differs from the folder."))
_add("display-title", _fm("name: Academic Citation Mapper\ndescription: A display title as the name."))
_add("Upper", _fm("name: Upper\ndescription: Uppercase name equal to its folder."))
_add("no-name", _fm("description: No name field."))
_add("no-description", _fm("name: no-description"))
_add("empty-description", _fm('name: empty-description\ndescription: ""'))
_add("blank-description", _fm("name: blank-description\ndescription: '   '"))
_add("null-description", _fm("name: null-description\ndescription:"))
_add("numeric-name", _fm("name: 123\ndescription: A number as the name."))
_add("bool-description", _fm("name: bool-description\ndescription: true"))
_add("list-description", _fm("name: list-description\ndescription:\n  - one\n  - two"))
_add("unknown-fields", _fm("name: unknown-fields\ndescription: Extra fields.\nversion: 1.0.0\nauthor: someone"))
_add("unquoted-colon", _fm("name: unquoted-colon\ndescription: Use when: the YAML breaks"))
_add("unclosed", "---\nname: unclosed\ndescription: Never closed.\nBody text.\n")
_add("no-frontmatter", "# Just a heading\n\nBody text.\n")
_add("bom", b"\xef\xbb\xbf" + _fm("name: bom\ndescription: Starts with a byte-order mark.").encode())
_add("crlf", _fm("name: crlf\ndescription: CRLF line ends.").replace("\n", "\r\n"))
_add("dashes-in-value", _fm("name: dashes-in-value\ndescription: Before --- after the dashes."))
_add("flow-list", _fm("name: flow-list\ndescription: A flow list.\nallowed-tools: [Read, Grep]"))
_add("block-list", _fm("name: block-list\ndescription: A block list.\nallowed-tools:\n  - Read\n  - Grep"))
_add("lowercase-file", _fm("name: lowercase-file\ndescription: Only skill.md."), "skill.md")
_add("case-variant", _fm("name: case-variant\ndescription: Only Skill.md."), "Skill.md")
_add("long-description", _fm("name: long-description\ndescription: " + "word " * 230))
_add("long-name-" + "x" * 60, _fm(f"name: long-name-{'x' * 60}\ndescription: A name over 64 characters."))
_add("café", _fm("name: café\ndescription: A Unicode name."))
_add("padded", _fm("name: '  padded  '\ndescription: '  spaced out  '"))
_add("quoted", _fm('name: "quoted"\ndescription: "Quoted <html> & \\"escapes\\"."'))
_add("duplicate-key", _fm("name: duplicate-key\ndescription: one\ndescription: two"))
_add("anchor", _fm("name: anchor\ndescription: &d Anchored.\ncompatibility: *d"))
_add("tagged", _fm("name: tagged\ndescription: !!str Tagged."))
_add("disabled", _fm("name: disabled\ndescription: Model may not invoke it.\ndisable-model-invocation: true"))
_add("empty-file", "")
_add("only-fence", "---\n")
_add("not-a-mapping", "---\n- a\n- b\n---\nBody.\n")
_add("fence-trailing-space", "--- \nname: fence-trailing-space\ndescription: Opening fence with a space.\n---\nB\n")
_add("nested-metadata", _fm("name: nested-metadata\ndescription: Nested metadata.\nmetadata:\n  a:\n    b: c"))
_add("long-compatibility", _fm("name: long-compatibility\ndescription: d\ncompatibility: " + "c" * 501))
_add("hint-list", _fm("name: hint-list\ndescription: d\nargument-hint:\n  - a"))
_add("block-description", _fm("name: block-description\ndescription: |\n  Line one.\n  Line <two>."))
_add("folded-description", _fm("name: folded-description\ndescription: >-\n  Folded\n  text."))
_add("invalid-utf8", b"---\nname: invalid-utf8\ndescription: Bad byte \xff here.\n---\nB\n")
_add("tab-indent", _fm("name: tab-indent\ndescription: d\nmetadata:\n\tkey: v"))
_add("comment-after", _fm("name: comment-after # a comment\ndescription: d # another"))
_add("empty-frontmatter", "---\n---\nBody.\n")


def write(root: Path) -> list[Path]:
    """Write every odd skill under ``root``; return the skill folders in name order."""
    out = []
    for folder, filename, data in ODD:
        d = root / folder
        d.mkdir(parents=True, exist_ok=True)
        (d / filename).write_bytes(data)
        out.append(d)
    return sorted(out)
