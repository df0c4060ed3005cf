"""The quick-fix menu a user sees for each finding: title, whether fix-all applies it (safe),
whether the editor auto-applies it (preferred), a folder rename, and the resulting text."""

from __future__ import annotations

import pytest

from helpers import check
from skill_lsp.engine import markdown
from skill_lsp.engine.fixes import apply_edits, fixes_for

# (label, text, folder, profile, [(code, title, safe, preferred, rename (old, new folder), text after)])
MENUS = [
    ('trim', '---\nname: demo\ndescription: d\n---\ntext \t\n', 'demo', 'skill-tool', [
        ('TRAILING_WHITESPACE', 'Trim trailing whitespace', True, True, None, '---\nname: demo\ndescription: d\n---\ntext\n'),
    ]),
    # Three spaces before a line that text follows: a Markdown line break, kept by the safe fix.
    ('line break', '---\nname: demo\ndescription: d\n---\nfirst   \nsecond\n', 'demo', 'skill-tool', [
        ('TRAILING_WHITESPACE', 'Trim trailing whitespace to the two spaces of a line break', True, True, None,
         '---\nname: demo\ndescription: d\n---\nfirst  \nsecond\n'),
        ('TRAILING_WHITESPACE', 'Trim trailing whitespace (unsafe: the Markdown would read otherwise)', False, False, None,
         '---\nname: demo\ndescription: d\n---\nfirst\nsecond\n'),
    ]),
    # ... not before a blank line (the paragraph ends there), with a tab last, or after a heading.
    ('no line break', '---\nname: demo\ndescription: d\n---\nfirst   \n\nsecond  \t\r\nthird\n# Head   \nx\n',
     'demo', 'skill-tool', [
        ('TRAILING_WHITESPACE', 'Trim trailing whitespace', True, True, None,
         '---\nname: demo\ndescription: d\n---\nfirst\n\nsecond  \t\r\nthird\n# Head   \nx\n'),
        ('TRAILING_WHITESPACE', 'Trim trailing whitespace', True, True, None,
         '---\nname: demo\ndescription: d\n---\nfirst   \n\nsecond\r\nthird\n# Head   \nx\n'),
        ('TRAILING_WHITESPACE', 'Trim trailing whitespace', True, True, None,
         '---\nname: demo\ndescription: d\n---\nfirst   \n\nsecond  \t\r\nthird\n# Head\nx\n'),
    ]),
    # A line of a form feed is no blank line to Markdown: trimmed, it would end the paragraph.
    ('form feed', '---\nname: demo\ndescription: d\n---\nfirst\n\x0c\nsecond\n', 'demo', 'skill-tool', [
        ('TRAILING_WHITESPACE', 'Trim trailing whitespace (unsafe: the Markdown would read otherwise)', False,
         False, None, '---\nname: demo\ndescription: d\n---\nfirst\n\nsecond\n'),
    ]),
    # A backslash left last breaks the line.
    ('backslash', '---\nname: demo\ndescription: d\n---\nfirst\\ \nsecond\n', 'demo', 'skill-tool', [
        ('TRAILING_WHITESPACE', 'Trim trailing whitespace (unsafe: the Markdown would read otherwise)', False,
         False, None, '---\nname: demo\ndescription: d\n---\nfirst\\\nsecond\n'),
    ]),
    # A blank line between a CR and a LF: trimmed, the two make one line end and the lines join.
    ('cr tab lf', '---\nname: demo\ndescription: d\n---\nfirst\r\t\nsecond\n', 'demo', 'skill-tool', [
        ('TRAILING_WHITESPACE', 'Trim trailing whitespace (unsafe: the Markdown would read otherwise)', False,
         False, None, '---\nname: demo\ndescription: d\n---\nfirst\r\nsecond\n'),
    ]),
    ('mismatch', '---\nname: foo\ndescription: d\n---\n', 'bar', 'skill-tool', [
        ('NAME_MISMATCH', "Set name to the folder name 'bar'", False, True, None, '---\nname: bar\ndescription: d\n---\n'),
        ('NAME_MISMATCH', "Rename the folder to 'foo'", False, False, ('bar', 'foo'), '---\nname: foo\ndescription: d\n---\n'),
    ]),
    ('invalid', '---\nname: My Skill\ndescription: d\n---\n', 'my-skill', 'skill-tool', [
        ('NAME_INVALID', "Set name to the folder name 'my-skill'", False, True, None, '---\nname: my-skill\ndescription: d\n---\n'),
    ]),
    ('invalid-folder', '---\nname: My_Tool\ndescription: d\n---\n', 'other', 'skill-tool', [
        # A valid folder name wins (its kebab-case would create a mismatch); never a folder
        # rename to an invalid name.
        ('NAME_INVALID', "Set name to the folder name 'other'", False, True, None, '---\nname: other\ndescription: d\n---\n'),
        ('NAME_MISMATCH', "Set name to the folder name 'other'", False, True, None, '---\nname: other\ndescription: d\n---\n'),
    ]),
    ('metadata', '---\nname: demo\ndescription: d\nmetadata:\n  n: 3\n  on: true\n---\n', 'demo', 'skill-tool', [
        ('METADATA_NOT_STRING', 'Quote the value ("3")', False, True, None, '---\nname: demo\ndescription: d\nmetadata:\n  n: "3"\n  on: true\n---\n'),
        ('METADATA_NOT_STRING', 'Quote the value ("true")', False, True, None, '---\nname: demo\ndescription: d\nmetadata:\n  n: 3\n  on: "true"\n---\n'),
    ]),
    # Only a target that rejects unknown fields reports them (skills-ref: agentskills).
    ('unknown', '---\nname: demo\ndescription: d\nx-tags: [café, b]\nx-flag: true\nx-none: ~\n---\n', 'demo', 'agentskills', [
        ('UNKNOWN_FIELD', "Move 'x-tags' under metadata", False, False, None, '---\nname: demo\ndescription: d\nx-flag: true\nx-none: ~\nmetadata:\n  x-tags: "[\\"café\\", \\"b\\"]"\n---\n'),
        ('UNKNOWN_FIELD', "Move 'x-flag' under metadata", False, False, None, '---\nname: demo\ndescription: d\nx-tags: [café, b]\nx-none: ~\nmetadata:\n  x-flag: "true"\n---\n'),
        ('UNKNOWN_FIELD', "Move 'x-none' under metadata", False, False, None, '---\nname: demo\ndescription: d\nx-tags: [café, b]\nx-flag: true\nmetadata:\n  x-none: ""\n---\n'),
    ]),
    ('missing-crlf', '---\r\ndescription: d\r\n---\r\n', 'my-skill', 'skill-tool', [
        ('MISSING_FIELD', "Insert 'name'", False, True, None, '---\r\nname: my-skill\r\ndescription: d\r\n---\r\n'),
    ]),
    ('missing-one-line', '---\n---\n', 'demo', 'skill-tool', [
        ('MISSING_FIELD', "Insert 'name'", False, True, None, '---\nname: demo\n---\n'),
        ('MISSING_FIELD', "Insert 'description'", False, True, None, '---\ndescription: "Describe what this skill does and when to use it."\n---\n'),
    ]),
    ('no-frontmatter', '# Title\n', 'tool', 'skill-tool', [
        ('MISSING_FRONTMATTER', 'Insert frontmatter', False, True, None, '---\nname: tool\ndescription: "Describe what this skill does and when to use it."\n---\n# Title\n'),
    ]),
    ('tools-crlf', '---\r\nname: demo\r\ndescription: d\r\nallowed-tools:\r\n  - Read\r\n  - Grep\r\nlicense: MIT\r\n---\r\n', 'demo', 'agentskills', [
        ('INVALID_TYPE', 'Write allowed-tools as a space-separated string', True, True, None, '---\r\nname: demo\r\ndescription: d\r\nallowed-tools: Read Grep\r\nlicense: MIT\r\n---\r\n'),
    ]),
    ('camel', '---\nname: demo\ndescription: d\nuserInvocable: true\n---\n', 'demo', 'skill-tool', [
        ('CAMELCASE_FIELD', "Rename to 'user-invocable'", True, True, None, '---\nname: demo\ndescription: d\nuser-invocable: true\n---\n'),
    ]),
    ('unquoted-colon-long-crlf', '---\r\nname: demo\r\ndescription: Use when: the user asks about café menus, wine lists, opening hours, reservations and anything else a restaurant guest might ask\r\n---\r\n', 'demo', 'skill-tool', [
        ('INVALID_FRONTMATTER', 'Quote the value', True, True, None, '---\r\nname: demo\r\ndescription: "Use when: the user asks about café menus, wine lists, opening hours, reservations and anything else a restaurant guest might ask"\r\n---\r\n'),
        ('INVALID_FRONTMATTER', 'Turn the value into a block scalar', False, False, None, '---\r\nname: demo\r\ndescription: >-\r\n  Use when: the user asks about café menus, wine lists, opening hours,\r\n  reservations and anything else a restaurant guest might ask\r\n---\r\n'),
    ]),
    ('commas', '---\nname: demo\ndescription: d\nallowed-tools: Read, Grep\n---\n', 'demo', 'agentskills', [
        ('INVALID_VALUE', 'Separate tools with spaces', True, True, None, '---\nname: demo\ndescription: d\nallowed-tools: Read Grep\n---\n'),
    ]),
    ('unknown-into-metadata-before', '---\nname: demo\ndescription: d\nmetadata:\n  a: b\nx-owner: Zoë\n---\n', 'demo', 'agentskills', [
        ('UNKNOWN_FIELD', "Move 'x-owner' under metadata", False, False, None, '---\nname: demo\ndescription: d\nmetadata:\n  a: b\n  x-owner: "Zoë"\n---\n'),
    ]),
    ('unknown-into-metadata-after', '---\nname: demo\nx-owner: Zoë\ndescription: d\nmetadata:\n  a: b\n---\n', 'demo', 'agentskills', [
        ('UNKNOWN_FIELD', "Move 'x-owner' under metadata", False, False, None, '---\nname: demo\ndescription: d\nmetadata:\n  a: b\n  x-owner: "Zoë"\n---\n'),
    ]),
    ('boolean-string', '---\nname: demo\ndescription: d\nuser-invocable: "no"\n---\n', 'demo', 'skill-tool', [
        ('INVALID_VALUE', 'Write false as a YAML boolean', True, True, None, '---\nname: demo\ndescription: d\nuser-invocable: false\n---\n'),
    ]),
    ('unknown-false-and-list', '---\nname: demo\ndescription: d\nx-flag: false\nx-list:\n  - a\n  - b\nlicense: MIT\n---\n', 'demo', 'agentskills', [
        ('UNKNOWN_FIELD', "Move 'x-flag' under metadata", False, False, None, '---\nname: demo\ndescription: d\nx-list:\n  - a\n  - b\nlicense: MIT\nmetadata:\n  x-flag: "false"\n---\n'),
        ('UNKNOWN_FIELD', "Move 'x-list' under metadata", False, False, None, '---\nname: demo\ndescription: d\nx-flag: false\nlicense: MIT\nmetadata:\n  x-list: "[\\"a\\", \\"b\\"]"\n---\n'),
    ]),
    ('mixed-line-endings', '---\ndescription: d\r\n---\r\n', 'demo', 'skill-tool', [
        ('MISSING_FIELD', "Insert 'name'", False, True, None, '---\nname: demo\ndescription: d\r\n---\r\n'),
    ]),
    ('crlf-before-title', '\r\n# T\r\n', 'demo', 'skill-tool', [
        ('MISSING_FRONTMATTER', 'Insert frontmatter', False, True, None, '---\r\nname: demo\r\ndescription: "Describe what this skill does and when to use it."\r\n---\r\n\r\n# T\r\n'),
    ]),
]


@pytest.mark.parametrize(("label", "text", "folder", "profile", "expected"), MENUS, ids=[m[0] for m in MENUS])
def test_fix_menu(label: str, text: str, folder: str, profile: str, expected: list):
    doc, fs = check(text, folder=folder, profile=profile)
    got = [(f.code, fx.title, fx.safe, fx.preferred,
            None if fx.rename is None else tuple(p.rsplit("/", 1)[-1] for p in fx.rename),
            apply_edits(text, list(fx.edits)))
           for f in fs for fx in fixes_for(doc, f)]
    assert got == expected


@pytest.mark.parametrize(("b", "lines"), [(36, ["Use: " + "a" * 36 + " " + "b" * 36]),
                                          (37, ["Use: " + "a" * 36, "b" * 37])])
def test_block_scalar_lines_hold_at_most_78_characters(b: int, lines: list[str]):
    value = "Use: " + "a" * 36 + " " + "b" * b  # 78 characters, then 79
    doc, fs = check(f"---\nname: demo\ndescription: {value}\n---\n")
    (fold,) = [fx for f in fs for fx in fixes_for(doc, f) if fx.title.startswith("Turn")]
    assert fold.edits[0].text == ">-" + "".join(f"\n  {line}" for line in lines)


def test_a_skill_md_without_a_folder_gets_a_placeholder_name():
    doc, fs = check("# T\n", path="/SKILL.md")
    (f,) = fs
    (fix,) = fixes_for(doc, f)
    assert apply_edits("# T\n", list(fix.edits)).startswith("---\nname: my-skill\n")


def test_a_missing_name_without_a_folder_gets_the_placeholder_too():
    doc, fs = check("---\ndescription: d\n---\n", path="/SKILL.md")
    (fix,) = [fx for f in fs for fx in fixes_for(doc, f)]
    assert apply_edits("---\ndescription: d\n---\n", list(fix.edits)) == "---\nname: my-skill\ndescription: d\n---\n"


def test_moving_the_last_field_keeps_a_closing_fence_without_a_line_break():
    text = "---\nname: demo\ndescription: d\nx-a: b\n---"
    doc, fs = check(text, profile="agentskills")  # the target that reports unknown fields
    (fix,) = [fx for f in fs for fx in fixes_for(doc, f)]
    assert apply_edits(text, list(fix.edits)) == '---\nname: demo\ndescription: d\nmetadata:\n  x-a: "b"\n---'


@pytest.mark.parametrize("pyromark", [True, False])
def test_trailing_spaces_that_break_a_line_keep_two(pyromark: bool, monkeypatch: pytest.MonkeyPatch):
    """pyromark says where the body breaks a line; without it (no wheel), a line with text after
    the spaces is taken as a break: two spaces stay either way where the page shows one."""
    if not pyromark:
        monkeypatch.setattr(markdown, "_pyromark", None)
    text = "---\nname: demo\ndescription: d\n---\n- item   \n  more\n\n> quoted   \n> more\n"
    doc, fs = check(text)
    safe = [fx for f in fs for fx in fixes_for(doc, f) if fx.safe]
    assert apply_edits(text, [e for fx in safe for e in fx.edits]) == (
        "---\nname: demo\ndescription: d\n---\n- item  \n  more\n\n> quoted  \n> more\n")
