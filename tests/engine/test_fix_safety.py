"""Fix applicability: a safe fix never edits code, raw HTML, comments or "what not to do" examples.

The guard sits in fixes_for, so these tests go through the same call as the CLI,
fix-all and the quick-fix menu. tests/cli/test_fix_safety_proof.py runs the real
`check --fix` over the same skills.
"""

from __future__ import annotations

import pytest

from fix_safety_cases import FIXED, KEPT, SKILLS
from helpers import check
from skill_lsp.engine import _markdown_mdit, document, markdown, protected
from skill_lsp.engine.config import Settings
from skill_lsp.engine.fixes import (
    DISPLAY_ONLY,
    SAFE,
    UNSAFE,
    Edit,
    Fix,
    chosen_fix,
    fixes_for,
    guard,
)
from skill_lsp.engine.workspace import fix_all_text


def _fixes(text: str, folder: str = "demo"):
    doc, fs = check(text, folder=folder)
    return doc, [(f, fx) for f in fs for fx in fixes_for(doc, f)]


def _spans_of(text: str, needle: str) -> tuple[int, int]:
    i = text.index(needle)
    return i, i + len(needle)


@pytest.mark.parametrize("name", list(SKILLS))
def test_no_safe_fix_touches_kept_text(name: str):
    text = SKILLS[name]
    doc, pairs = _fixes(text, folder=name)
    kept = [_spans_of(text, k) for k in KEPT[name]]
    safe = [fx for _f, fx in pairs if fx.safe]
    assert safe, "each case has fixes that must stay safe"
    for fx in safe:
        for e in fx.edits:
            for s, t in kept:
                assert not (e.start < t and e.end > s), (fx.title, text[e.start:e.end])
    # And every fix that does touch kept text says why it is unsafe.
    for f, fx in pairs:
        if any(e.start < t and e.end > s for e in fx.edits for s, t in kept):
            assert not fx.safe and not fx.preferred and fx.applicability == UNSAFE
            assert fx.unsafe_because in protected.REASONS and "(unsafe: " in fx.title, (f.code, fx.title)


@pytest.mark.parametrize("name", list(SKILLS))
def test_fix_all_keeps_code_and_fixes_prose(name: str):
    text = SKILLS[name]
    fixed = fix_all_text(text, f"/w/skills/{name}/SKILL.md", Settings(), on_disk=False)
    for k in KEPT[name]:
        assert k in fixed, k
    for before, after in FIXED[name]:
        assert before in text and after in fixed and before not in fixed


# windows-setup has no finding in its code at all now (PowerShell paths are no BACKSLASH_PATH).
@pytest.mark.parametrize("name", [n for n in SKILLS if n != "windows-setup"])
def test_unsafe_fixes_do_reach_the_code(name: str):
    """With --unsafe-fixes the same edits apply: the guard changes applicability, not the fix."""
    text = SKILLS[name]
    fixed = fix_all_text(text, f"/w/skills/{name}/SKILL.md", Settings(), on_disk=False, unsafe=True)
    assert any(k not in fixed for k in KEPT[name])


def test_the_three_real_failures_are_unsafe_with_their_reason():
    _doc, pairs = _fixes(SKILLS["injection-guard"], "injection-guard")
    titles = {fx.title for _f, fx in pairs}
    assert "Delete the invisible characters (unsafe: inside a code block)" in titles
    assert "Delete the invisible characters" in titles  # the prose one stays safe
    _doc, pairs = _fixes(SKILLS["path-style"], "path-style")
    # "✗ Avoid: scripts\helper.py" is no BACKSLASH_PATH at all now (issue 26); the items of a
    # "**Bad:**" list still are, and their fixes are held back as examples.
    assert not [fx for _f, fx in pairs if fx.title.startswith("Write 'scripts/helper.py'")]
    bad = [fx for _f, fx in pairs if fx.title.startswith("Write 'assets/logo.png'")]
    assert [fx.unsafe_because for fx in bad] == ["example"]
    # PowerShell's `Import-Module .\scripts\...`: BACKSLASH_PATH no longer reports PowerShell at all
    # (issue 26), so there is no fix to hold back; a backslash path in other code is (test_protected_kinds).
    _doc, pairs = _fixes(SKILLS["windows-setup"], "windows-setup")
    assert not [fx for _f, fx in pairs if "Tools.psm1" in fx.title]


@pytest.mark.parametrize(("body", "needle", "kind"), [
    ("Run it:\n\n```sh\nx scripts\\a.py\n```\n", "scripts\\a.py", "code block"),
    ("Run it:\n\n    x scripts\\a.py\n", "scripts\\a.py", "code block"),
    ("Run `x scripts\\a.py` now.\n", "scripts\\a.py", "inline code"),
    ("Run <samp>scripts\\a.py</samp> now.\n", "scripts\\a.py", "inline code"),
    ("<!-- scripts\\a.py -->\n", "scripts\\a.py", "html"),
    ("Text <!-- a\nscripts\\a.py --> more.\n", "scripts\\a.py", "html"),
    ("<div>\nscripts\\a.py\n</div>\n", "scripts\\a.py", "html"),
    ("## Anti-patterns\n\nSay scripts\\a.py.\n\n### Sub\n\nscripts\\b.py too.\n", "scripts\\b.py", "example"),
    ("**Wrong:**\n\n1. scripts\\a.py\n2. scripts\\b.py\n", "scripts\\b.py", "example"),
    ("- ❌ paths such as\n  scripts\\a.py\n- fine\n", "scripts\\a.py", "example"),
    ("| Don't | Do |\n|---|---|\n| scripts\\a.py | scripts/a.py |\n", "scripts\\a.py", "example"),
    ("Never call scripts\\a.py directly.\n", "scripts\\a.py", "example"),
    ("Bad: scripts\\a.py\n", "scripts\\a.py", "example"),
    ("Use scripts/b.py instead of scripts\\a.py.\n", "scripts\\a.py", "example"),
    ("1. **Avoid** scripts\\a.py\n", "scripts\\a.py", "example"),
    ("| x | y |\n|---|---|\n| one | Don't: scripts\\a.py |\n", "scripts\\a.py", "example"),
    ("**Dry slides** (CRITICAL TO AVOID):\n- scripts\\a.py\n", "scripts\\a.py", "example"),
])
def test_protected_kinds(body: str, needle: str, kind: str):
    text = "---\nname: demo\ndescription: d\n---\n" + body
    doc = document.parse(text, "/w/demo/SKILL.md")
    s, e = _spans_of(text, needle)
    span = protected.covering(doc, s, e)
    assert span is not None and span.kind == kind


@pytest.mark.parametrize("body", [
    "Run scripts\\a.py now.\n",
    "## Usage\n\nRun scripts\\a.py now.\n\n## Bad inputs\n\nNone.\n",  # the section before the marked one
    "✗ Avoid: scripts\\b.py\n✓ Good: scripts\\a.py\n",  # the recommended line after a bad one
    "- ❌ Don't use b\n- use scripts\\a.py\n",  # the next list item
    "`code` then scripts\\a.py and <!-- c --> after.\n",
    # A marker word in running prose labels nothing (held-out: such lines only cost safe fixes).
    "If the user says the rule is bad, open scripts\\a.py.\n",
    "Rules use contrastive examples (Incorrect vs Correct); see scripts\\a.py.\n",
    "Filter out issues that don't meet the bar in scripts\\a.py.\n",
])
def test_prose_next_to_protected_text_is_not_protected(body: str):
    text = "---\nname: demo\ndescription: d\n---\n" + body
    doc = document.parse(text, "/w/demo/SKILL.md")
    s, e = _spans_of(text, "scripts\\a.py")
    assert protected.covering(doc, s, e) is None


def test_an_insertion_at_a_span_boundary_is_outside_it():
    text = "---\nname: demo\ndescription: d\n---\nA `code` b\n"
    doc = document.parse(text, "/w/demo/SKILL.md")
    s, e = _spans_of(text, "`code`")
    assert protected.covering(doc, s, s) is None and protected.covering(doc, e, e) is None
    assert protected.covering(doc, s + 1, s + 1) is not None


def test_frontmatter_edits_are_never_guarded():
    text = "---\nname: demo\ndescription: Don't use it: ever\n---\n"
    doc = document.parse(text, "/w/demo/SKILL.md")
    fix = Fix("Quote", (Edit(text.index("Don't"), text.index("\n---"), '"x"'),), safe=True, preferred=True)
    assert guard(doc, fix) is fix


def _deletion_fixes(text: str, code: str) -> list[Fix]:
    doc, fixes = _fixes(text)
    return [fx for f, fx in fixes if f.code == code]


def test_a_deletion_in_the_frontmatter_stays_safe_while_the_yaml_reads_the_same():
    inside = "---\nname: demo\ndescription: Converts PDF\u200b files to text. Use when asked.\n---\n# Demo\n"
    assert [fx.safe for fx in _deletion_fixes(inside, "INVISIBLE_CHARACTERS")] == [True]
    block = "---\nname: demo\ndescription: |\n  Converts PDF files.  \n  Use when asked.\n---\n# Demo\n"
    assert [fx.safe for fx in _deletion_fixes(block, "TRAILING_WHITESPACE")] == [True]  # the text, not its shape
    broken = "---\nname: demo  \ndescription: Converts PDF: files\n---\n# Demo\n"  # did not parse before
    assert [fx.safe for fx in _deletion_fixes(broken, "TRAILING_WHITESPACE")] == [True]


def test_a_deletion_that_changes_how_the_frontmatter_reads_is_unsafe():
    # A zero-width space before the quote: a plain string, quotes and `\u2014` as written.
    # Deleted, the value would be a quoted string with its escapes read.
    text = '---\nname: demo\ndescription: \u200b"PDF tools \\u2014 convert. Use when asked."\n---\n# Demo\n'
    (fix,) = _deletion_fixes(text, "INVISIBLE_CHARACTERS")
    assert not fix.safe and fix.unsafe_because == "yaml" and "frontmatter would read otherwise" in fix.title
    assert fix_all_text(text, "/w/demo/SKILL.md", Settings(), on_disk=False) == text
    # ... and one after which it no longer parses (a stray quote inside).
    text = '---\nname: demo\ndescription: \u200b"PDF tools, "convert" them. Use when asked."\n---\n# Demo\n'
    (fix,) = _deletion_fixes(text, "INVISIBLE_CHARACTERS")
    assert fix.unsafe_because == "yaml"


def test_trimmed_blanks_after_an_escaping_backslash_would_join_two_words():
    # `\ ` is an escaped space in a double-quoted value: the backslash left last, it escapes the line
    # break instead, and "Does a  thing." reads "Does athing." (unseen14 audit's question about
    # trimming in the frontmatter). Taking every space out of both values hid the join.
    text = '---\nname: demo\ndescription: "Does a\\  \n  thing. Use when asked."\n---\n# Demo\n'
    (fix,) = _deletion_fixes(text, "TRAILING_WHITESPACE")
    assert not fix.safe and fix.unsafe_because == "yaml"
    assert fix_all_text(text, "/w/demo/SKILL.md", Settings(), on_disk=False) == text
    # Without the backslash the folding drops the blanks either way: safe.
    text = '---\nname: demo\ndescription: "Does a  \n  thing. Use when asked."\n---\n# Demo\n'
    assert [fx.safe for fx in _deletion_fixes(text, "TRAILING_WHITESPACE")] == [True]


def test_an_invisible_character_in_a_links_destination_is_part_of_the_path():
    # Held-out fuzzing: deleting the BOM made the link name ../../references/x.md, outside the skill.
    text = ("---\nname: demo\ndescription: Demo skill. Use when asked.\n---\n# Demo\n\n"
            "See [the schema](.\ufeff./../references/x.md) and [the gu\ufeffide](references/guide.md).\n")
    fixes = _deletion_fixes(text, "INVISIBLE_CHARACTERS")
    by_place = {text[fx.edits[0].start - 1]: fx for fx in fixes}
    assert by_place["."].unsafe_because == "link" and "inside a link's destination" in by_place["."].title
    assert by_place["u"].safe  # in the link's text: prose
    fixed = fix_all_text(text, "/w/demo/SKILL.md", Settings(), on_disk=False)
    assert ".\ufeff./../references/x.md" in fixed and "the guide" in fixed


@pytest.mark.parametrize("body", [
    # Held-out fuzzing on disk: a BOM inside a fence line keeps it from being a fence. Deleted, a
    # code block opens and the links after it change sides (code to prose, or back).
    "`\ufeff``bash\nrun it\n```\n\nSee [x](../../x.md).\n\n```\ncode\n```\n",
    "See [the guide]\u2060(references/guide.md).\n",  # a link once joined
    "Now !\u2060`date` runs.\n",  # a command Claude Code runs once joined
    "Notes:\ufeff\n- \n",  # trailing blanks come to light
    "See <\ufeffhttps://example.com/x> now.\n",  # after '<': an autolink once joined
    # Next to a letter: joined, a tag opens (the body is read again and rendered to tell).
    "<\ufeffdiv>\nrm -rf x   \n</div>\n",
    "A tag <x\ufeff--> here.\n",
])
def test_a_deletion_that_may_change_what_the_body_is_made_of_is_unsafe(body: str):
    text = "---\nname: demo\ndescription: Demo skill. Use when asked.\n---\n# Demo\n\n" + body
    (fix,) = _deletion_fixes(text, "INVISIBLE_CHARACTERS")
    assert fix.unsafe_because == "markdown" and "Markdown would read otherwise" in fix.title
    assert fix_all_text(text, "/w/demo/SKILL.md", Settings(), on_disk=False).count("\ufeff") == text.count("\ufeff")


def test_a_deletion_next_to_a_letter_stays_safe():
    text = ("---\nname: demo\ndescription: Demo skill. Use when asked.\n---\n# Demo\n\n"
            "Read the gu\ufeffide, then run\u2060 `it` and [the\ufeff list](references/list.md).\n")
    assert [fx.safe for fx in _deletion_fixes(text, "INVISIBLE_CHARACTERS")] == [True, True, True]
    # Between whitespace and punctuation it may change emphasis (`*<U+FEFF> y*`): unsafe.
    assert [fx.safe for fx in _deletion_fixes(text.replace("run\u2060", "run \u2060"), "INVISIBLE_CHARACTERS")] == [
        True, False, True]


def test_applicability_and_the_fix_the_cli_chooses():
    safe = Fix("s", (Edit(0, 1, ""),), safe=True, preferred=True)
    guess = Fix("g", (Edit(0, 1, "x"),), preferred=True)
    other = Fix("o", (Edit(0, 1, "y"),))
    rename = Fix("r", (), rename=("/a", "/b"))
    assert [f.applicability for f in (safe, guess, rename)] == [SAFE, UNSAFE, DISPLAY_ONLY]
    assert chosen_fix([guess, safe]) is safe
    assert chosen_fix([guess, other]) is None
    assert chosen_fix([guess, other], unsafe=True) is guess  # the preferred one
    assert chosen_fix([other], unsafe=True) is other  # the only one
    assert chosen_fix([Fix("a", (Edit(0, 1, "a"),)), other], unsafe=True) is None  # a guess among guesses: none
    assert chosen_fix([rename], unsafe=True) is None  # display-only: never applied by the CLI


@pytest.mark.parametrize("name", list(SKILLS))
def test_markdown_it_fallback_protects_the_same_code(name: str):
    """Where pyromark has no wheel, markdown-it-py gives the raw spans: the kept code and HTML
    of every case is covered by both."""
    text = SKILLS[name].replace("\r\n", "\n")
    doc = document.parse(text, f"/w/{name}/SKILL.md")
    base = doc.body_start
    fast = markdown.raw_spans(doc.body_text, base)
    slow = _markdown_mdit.raw_spans(doc.body_text, base)
    blocks = doc.body.code_blocks
    for k in KEPT[name]:
        s, e = _spans_of(text, k.replace("\r\n", "\n"))
        if protected.covering(doc, s, e).kind == "example":
            continue
        for raw in (fast, slow):
            covered = {i for a, b in raw.code + raw.html + blocks for i in range(a, b)}
            assert set(range(s, e)) - {i for i in range(s, e) if text[i] == "\n"} <= covered, (k, raw)
