"""rules/arguments.py as an author sees it: `$ARGUMENTS` / `$N` without an argument-hint,
`$N` in code that Claude Code would substitute, unknown `${CLAUDE_*}` -- pinned whole.
"""

from __future__ import annotations

import pytest

from helpers import check, rng, skill_text

CODES = ("ARGUMENTS_WITHOUT_HINT", "PLACEHOLDER_IN_CODE", "UNKNOWN_SUBSTITUTION")
HINT = ("the body uses {} but the frontmatter has no argument-hint; the slash menu shows the hint so the user knows "
        "what to pass")


def findings(text: str, profile: str = "claude-code") -> list[tuple]:
    doc, fs = check(text, profile=profile)
    return [(f.code, f.severity.label, rng(doc, f), f.message, f.data) for f in fs if f.code in CODES]


def body(text: str, extra: str = "", profile: str = "claude-code") -> list[tuple]:
    return findings(skill_text(extra=extra, body=text), profile)


def hint(token: str, line: int, col: int) -> tuple:
    return ("ARGUMENTS_WITHOUT_HINT", "info", ((line, col), (line, col + len(token))), HINT.format(token),
            {"insert": "argument-hint"})


def placeholder(token: str, line: int, col: int, nth: str) -> tuple:
    n = int(token[1:]) + 1
    return ("PLACEHOLDER_IN_CODE", "warning", ((line, col), (line, col + len(token))),
            f"{token} in a code block is replaced by the {nth} argument when the skill is run with {n} or more "
            f"arguments (0-based); write \\{token} to keep it literal", {"fix": "escape", "placeholder": token})


@pytest.mark.parametrize("profile", ["claude-code", "skill-tool"])
def test_arguments_in_prose_need_a_hint_where_the_slash_menu_shows_one(profile):
    assert body("\nUse `$ARGUMENTS` in a code span, then $ARGUMENTS here.\n", profile=profile) == [
        hint("$ARGUMENTS", 4, 38)]
    assert body("\nRun $ARGUMENTS[0] and $ARGUMENTSX.\n", profile=profile) == [hint("$ARGUMENTS", 4, 4)]
    assert body("\nSee $ARGUMENTS.\n", extra="argument-hint: '[file]'", profile=profile) == []
    assert body("\nSee $ARGUMENTS.\n", extra="arguments: {file: {}}", profile=profile) == []


def test_arguments_handed_on_alone_on_a_line_ask_for_no_hint():
    """`$ARGUMENTS` alone on its line, wherever it appears, hands on what the user typed: no form to
    hint at. Named elsewhere (a code span, prose), the skill reads them: the bare line is reported."""
    assert body("\nRun the checks and report.\n\n$ARGUMENTS\n") == []
    assert body("\nNo arguments.\n\n  $ARGUMENTS  \n\nMore.\n\n$ARGUMENTS\n") == []
    assert body("\nExtract the id from `$ARGUMENTS`.\n\n$ARGUMENTS\n") == [hint("$ARGUMENTS", 6, 0)]
    assert body("\nSend $ARGUMENTS now.\n\n$ARGUMENTS\n") == [hint("$ARGUMENTS", 4, 5)]
    # A placeholder in code is still substituted when the user passes arguments.
    assert body("\n```sh\necho $1\n```\n\n$ARGUMENTS\n") == [placeholder("$1", 5, 5, "2nd")]


def test_targets_without_an_argument_hint_are_silent():
    for profile in ("agentskills", "dsh"):
        assert body("\nSee $ARGUMENTS.\n\n```\nawk '{print $1}'\n```\n", profile=profile) == []


@pytest.mark.parametrize("text,first", [
    ("\nCompare $0 with $1.\n", ("$0", 8)),
    ("\nCompare $1 and $0 and $1.\n", ("$1", 8)),  # the first in the text, not the smallest
    ("\nUse $1, then $2.\n", ("$1", 4)),
    ("\nThe `x` $1 and `y` $2.\n", ("$1", 8)),  # after a closed code span
    ("\nSwap $5 and $6.\n", ("$5", 5)),  # a full stop is not a decimal point
    ("\nCosts $5 and $6.\n", None),  # a money word on the line: prices
    # Prose that names an amount anywhere (held-out repositories): its `$N` are prices too.
    ("\nFrom $1 to $2 a seat.\n\nPro plans run $49.\n", None),
    ("\n| Human | $5-15/ticket |\n| Agent | $8–$25/kW |\n", None),  # ranges
    ("\nGPT-4o ~$2.50/$10, Gemini ~$1.25/$5 and $1 of spend gives ≥ $5.\n", None),
    ("\nThe hash is root:$1$abc$xyz.\n", None),  # a crypt hash, not a placeholder
    ("\nRun `echo $10`, then compare $1 with $2.\n", ("$1", 29)),  # ... but `$10` in code is no price
    ("\nA $1 b $1.\n", ("$1", 2)),  # a lone placeholder with nothing about money on its line (issue 26)
    ("\nDeploy $1 to staging.\n", ("$1", 7)),
    ("\nIt costs $1 a month.\n", None),  # a money word on the line: a price
    ("\nThe fee is $1. Then run $1.\n", None),
    ("\nCompare `$0` with `$1` and $2.\n", None),  # code spans are literal
    ("\nEscaped \\$ARGUMENTS and \\$1 and $$1 and a$1 and \\$0.\n", None),
    ("\nCosts $5.50 or $1,000 or $3 million or $2/mo or $4 per seat or $7 each or $9 billion.\n", None),
    ("\nIt is $1.5 or $2 .\n", None),
    ("\nPrices in $ only.\n", None),
    # Inline math that opens with a digit is no placeholder (unseen peterbamuhigire/srs-skills).
    ("\nBuild $2^n$ rule columns for $n$ conditions; if $4 \\leq Score < 8$ ask.\n", None),
    ("\nDeploy $1 to staging, then $1 = $2 when done.\n", ("$1", 7)),  # a '$' after a space closes no math
])
def test_positional_placeholders_in_prose_count_when_two_differ(text, first):
    assert body(text) == ([] if first is None else [hint(first[0], 4, first[1])])


def test_placeholders_in_code_of_a_skill_that_takes_arguments():
    text = "\n```\necho $1 $12\n```\n\nSee $ARGUMENTS.\n"
    assert body(text) == [placeholder("$1", 5, 5, "2nd"), placeholder("$12", 5, 8, "13th"), hint("$ARGUMENTS", 8, 4)]
    assert body(text, profile="skill-tool") == [hint("$ARGUMENTS", 8, 4)]  # the skill tool substitutes no $N
    code = "\n```sh\nawk '{print $1}' \\$2 $10\n```\n"
    assert body(code, extra="argument-hint: '[file]'") == [placeholder("$1", 6, 12, "2nd"),
                                                          placeholder("$10", 6, 21, "11th")]
    assert body("\n```sh\nawk '{print $0}'\n```\n", extra="arguments: [file]") == [placeholder("$0", 6, 12, "1st")]
    # A skill that takes no arguments keeps its awk.
    assert body("\n```sh\nawk '{print $1}'\n```\n") == []
    # Prices in code are no placeholders; a placeholder in a path is one.
    prices = "\n```\nPro: $29/month, Team: $99/mo, $2.50 or $1,000, $5-15, $3k\ncd $1/src\n```\n"
    assert body(prices, extra="argument-hint: x") == [placeholder("$1", 7, 3, "2nd")]


def test_ordinals_of_placeholders():
    numbers = [0, 1, 2, 3, 10, 11, 12, 19, 20, 21, 22, 110, 111, 120, 121]
    doc_body = "\n```\n" + " ".join(f"${n}" for n in numbers) + "\n```\n"
    got = [f[3].split(" argument ")[0].rsplit(" ", 1)[1] for f in body(doc_body, extra="argument-hint: x")]
    assert got == ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "20th", "21st", "22nd", "23rd",
                   "111th", "112th", "121st", "122nd"]


def test_a_skill_without_frontmatter_gets_no_hint_but_its_code_is_still_checked():
    text = "# Run\n\nUse $ARGUMENTS.\n\n```\nawk '{print $1}'\n```\n"
    assert findings(text) == [placeholder("$1", 5, 12, "2nd")]


def test_unknown_claude_substitutions():
    known = "Known: ${CLAUDE_SKILL_DIR}, ${CLAUDE_SESSION_ID}, ${CLAUDE_EFFORT}"
    text = "\n${CLAUDE_SKILL_DIR} ${CLAUDE_SKILLDIR} ${SKILL_ROOT} ${CLAUDE_FOO} ${OTHER_X} ${CLAUDE_PLUGIN_ROOT}\n"
    assert body(text) == [
        ("UNKNOWN_SUBSTITUTION", "warning", ((4, 20), (4, 38)), "${CLAUDE_SKILLDIR} is not a substitution Claude Code "
         f"makes; it stays literal in the skill (did you mean ${{CLAUDE_SKILL_DIR}}?). {known}",
         {"variable": "CLAUDE_SKILLDIR"}),
        ("UNKNOWN_SUBSTITUTION", "warning", ((4, 39), (4, 52)), "${SKILL_ROOT} is not a substitution Claude Code "
         f"makes; it stays literal in the skill (did you mean ${{CLAUDE_SKILL_DIR}}?). {known}",
         {"variable": "SKILL_ROOT"}),
        ("UNKNOWN_SUBSTITUTION", "warning", ((4, 53), (4, 66)), "${CLAUDE_FOO} is not a substitution Claude Code "
         f"makes; it stays literal in the skill. {known}", {"variable": "CLAUDE_FOO"}),
    ]
    assert body(text, profile="skill-tool") == []
    assert body("\n$CLAUDE_FOO and {CLAUDE_FOO}\n") == []


def test_claude_codes_documented_environment_variables_are_no_typos():
    # Held-out unseen22 camoa's plugin-creation lists the hooks' variables as they are.
    text = "\n- `${CLAUDE_ENV_FILE}` - persistent env vars\n- `${CLAUDE_CODE_REMOTE}`\n- `${CLAUDE_ENVFILE}`\n"
    assert [f[4] for f in body(text)] == [{"variable": "CLAUDE_ENVFILE"}]


def test_the_skills_own_shell_variables_are_no_substitutions():
    """Unseen Fandhe-AI/agent-reference-skills: `SKILL_NAME="$ARGUMENTS"`, then `${SKILL_NAME}` in its
    scripts (128 warnings, all wrong). A variable the body sets, and a `SKILL_` name that is not
    the skill's folder, stay literal as meant; a folder-like one and an unset `CLAUDE_` one do not."""
    script = ("\n```bash\nSKILL_NAME=\"$ARGUMENTS\"\nexport CLAUDE_MODE=x\nfor CLAUDE_ITEM in a b; do\n"
              "  echo \"${SKILL_NAME} ${CLAUDE_MODE} ${CLAUDE_ITEM} ${SKILL_VERSION}\"\ndone\n"
              "read -r CLAUDE_ANSWER\necho ${CLAUDE_ANSWER}\n```\n")
    assert body(script, extra="argument-hint: <skill>") == []
    got = body("\n```bash\nls ${SKILL_DIR} ${CLAUDE_SKIL_DIR}\n```\n")
    assert [f[4] for f in got] == [{"variable": "SKILL_DIR"}, {"variable": "CLAUDE_SKIL_DIR"}]
