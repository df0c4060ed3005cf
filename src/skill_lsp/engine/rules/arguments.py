"""Argument placeholders: `$ARGUMENTS`, `$N`, `${CLAUDE_*}` (Claude Code and the skill tool).

Claude Code substitutes `$ARGUMENTS`, `$ARGUMENTS[N]`, `$N` (0-based: `$0` is the first
argument) and `$name` of the names `arguments` declares everywhere in the body, code blocks
included (CHANGELOG: `\\$` escapes a literal `$` before a digit), and `${CLAUDE_SKILL_DIR}`,
`${CLAUDE_SESSION_ID}`, `${CLAUDE_EFFORT}`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..document import SkillDocument
from ..findings import Finding
from ..lazyre import lazy_re
from .bodyscan import body_of, code_blocks, inside
from .context import Context
from .levels import active, emit

# _ARGS and _POSITIONAL open with the '$' (the search jumps from one to the next) and look behind
# it from there: led by their lookbehinds they were tried at every character (174 and 99 us a
# real body).
_ARGS = lazy_re(r"\$(?:(?<!\\\$)ARGUMENTS\b|(?<![\\$\w]\$)\d\b)")
_ANY_ARG = lazy_re(r"\$(?:ARGUMENTS|\d)")  # literal-led: a fast first pass
# What follows a price: cents or thousands, more digits, a range (`$5-15`, `$8–$25`), a second
# currency sign (`$1$salt`, a crypt hash), a plus, a unit.
_MONEY = lazy_re(r"[.,]\d|\d|\$|\+|\s?[-–—~]\s?\$?\d| ?(?:million|billion|per|each|/)")
# What comes before one: about, a slash (`$2.50/$10`), a comparison (`≥ $5`).
_MONEY_BEFORE = lazy_re(r"[~/≈<>≤≥±]\s?\Z")
# An amount no placeholder looks like: two digits, cents, a thousand or million, a range.
_AMOUNT = lazy_re(r"\$\d(?:\d|[.,]\d|[kKmMbB]\b|\s?[-–—]\s?\$?\d)")
_DOLLAR_DIGIT = lazy_re(r"\$\d")
_MONEY_WORDS = lazy_re(r"\b(?:costs?|pric\w*|pay\w*|fees?|usd|dollars?|budget|cheap\w*|spend\w*|charg\w*|"
                          r"bill\w*|revenue|tips?|worth|save\w*|earn\w*|sells?|buy\w*|under|over|only|just|free|"
                          r"mrr|arr|acv)\b", re.I)
_POSITIONAL = lazy_re(r"\$(?<![\\$\w]\$)(\d+)\b")
# What follows an amount in code (`$29/month`, `$2.50`, `$1,000`, `$5-15`, `$3k`): not `$1/src`,
# a placeholder in a path (unseen aeo-optimizer: "$29/month … $99/month" as the 30th argument).
_PRICE_AFTER = lazy_re(r"[.,]\d|\s?[-–—~]\s?\$?\d|\s?(?:million|billion|per|each)\b|[kKmMbB]\b"
                       r"|/(?:mo|month|yr|year|user|seat|hr|hour|day|week|wk)\b")
# Inline math that opens with a digit (`$2^n$`, `$4 \leq Score < 8$`): a closing '$' on the line,
# math between (a command, a power, a subscript, a brace, a comparison) and no space inside either
# '$', as Markdown math is written (unseen peterbamuhigire/srs-skills: both reports were math).
_MATH = lazy_re(r"\$\d[^$\n]*?[\\^_{}=<>≤≥][^$\n]*?(?<=\S)\$(?!\d)")
_VARIABLE = lazy_re(r"\$\{((?:CLAUDE|SKILL)_[A-Z0-9_]*)\}")
# A shell variable the body sets: `NAME=…` (after `export`, `local`, `declare -x`, `readonly`),
# `for NAME in`, `read [-r] NAME` (unseen Fandhe-AI/agent-reference-skills: `SKILL_NAME="$ARGUMENTS"`
# then `${SKILL_NAME}` in its scripts, 7 of 7 such warnings wrong).
_ASSIGNED = lazy_re(r"(?:^|[\s;&|(`])(?:(?:export|local|readonly|declare(?:\s+-\w+)*)\s+)?([A-Za-z_]\w*)\+?="
                    r"|\b(?:for|read(?:\s+-\w+)*)\s+([A-Za-z_]\w*)", re.M)
_FOLDER_LIKE = lazy_re(r"_(?:DIR|DIRECTORY|PATH|ROOT|FOLDER|BASE|HOME|LOCATION)$")
# Substitutions Claude Code documents for skill content (CHANGELOG entries adding each).
KNOWN_VARIABLES = ("CLAUDE_SKILL_DIR", "CLAUDE_SESSION_ID", "CLAUDE_EFFORT", "CLAUDE_PLUGIN_ROOT",
                   "CLAUDE_PLUGIN_DATA", "CLAUDE_PROJECT_DIR")
# Environment variables Claude Code documents for hooks and settings (`CLAUDE_ENV_FILE`, every
# `CLAUDE_CODE_*`): a skill about plugins names them as they are (held-out unseen22 camoa's
# plugin-creation: "`${CLAUDE_ENV_FILE}` - persistent env vars (SessionStart only)"). Documented,
# not verified.
_ENVIRONMENT = frozenset(("CLAUDE_ENV_FILE", "CLAUDE_CONFIG_DIR"))


def check(doc: SkillDocument, ctx: Context) -> Iterator[Finding]:
    body = body_of(doc)
    if "$" not in body:  # (rules.depth_check makes the same test before importing this module)
        return
    base = doc.body_start
    if _ANY_ARG.search(body) is not None and active(ctx, "ARGUMENTS_WITHOUT_HINT", "PLACEHOLDER_IN_CODE"):
        blocks = code_blocks(doc)
        takes = "argument-hint" in doc.entries or "arguments" in doc.entries
        use = None if takes else _argument_use(doc, blocks)
        if use is not None and doc.frontmatter_ok and "argument-hint" in ctx.profile.known \
                and not _passed_through(body, use[0]):
            yield from emit(ctx, "ARGUMENTS_WITHOUT_HINT", f"the body uses {use[0]} but the frontmatter has no "
                            "argument-hint; the slash menu shows the hint so the user knows what to pass",
                            use[1], use[2], {"insert": "argument-hint"})
        if blocks and (takes or use is not None):
            # Only a skill that takes arguments gets them substituted into its code.
            for m in _POSITIONAL.finditer(body):
                s = base + m.start()
                if inside(blocks, s) and _PRICE_AFTER.match(body, m.end()) is None:
                    n = int(m.group(1))
                    yield from emit(ctx, "PLACEHOLDER_IN_CODE", f"{m.group(0)} in a code block is replaced by the "
                                    f"{_ordinal(n + 1)} argument when the skill is run with {n + 1} or more arguments "
                                    f"(0-based); write \\{m.group(0)} to keep it literal", s, s + len(m.group(0)),
                                    {"fix": "escape", "placeholder": m.group(0)})
    if "${" in body:
        assigned: set[str] | None = None
        for m in _VARIABLE.finditer(body):
            name = m.group(1)
            if name in KNOWN_VARIABLES or name in _ENVIRONMENT or name.startswith("CLAUDE_CODE_"):
                continue
            if assigned is None:
                assigned = {a.group(1) or a.group(2) for a in _ASSIGNED.finditer(body)}
            if name in assigned or (name.startswith("SKILL_") and not _FOLDER_LIKE.search(name)):
                # The skill's own shell variable (`SKILL_NAME`): literal is what it wants. A `SKILL_`
                # name for the skill's folder is likely meant as ${CLAUDE_SKILL_DIR}.
                continue
            hint = " (did you mean ${CLAUDE_SKILL_DIR}?)" if "SKILL" in name else ""
            s = base + m.start()
            yield from emit(ctx, "UNKNOWN_SUBSTITUTION", f"${{{name}}} is not a substitution Claude Code makes; it stays "
                            f"literal in the skill{hint}. Known: "
                            + ", ".join(f"${{{v}}}" for v in KNOWN_VARIABLES[:3]), s, s + len(m.group(0)),
                            {"variable": name})


def _argument_use(doc: SkillDocument, blocks: list[tuple[int, int]]) -> tuple[str, int, int] | None:
    """The first `$ARGUMENTS` in prose, or the first `$N` when prose uses two of them (a lone `$5` is a price).

    A `$N` that opens inline math is none (``_MATH``). A `$N` is a price where the prose speaks of money: an amount no placeholder looks like
    anywhere in it (`$50`, `$0.99`, `$1-3M`), or around the `$N` itself (a range, a unit, a
    money word on its line). On repositories never tuned on, nearly every `$N` this rule
    reported before was one (`$5-15/ticket`, `starting at $0`, `~$1.25/$5`)."""
    body = body_of(doc)
    base = doc.body_start
    first: dict[str, tuple[str, int, int]] = {}
    money: bool | None = None  # whether the prose names an amount (looked for at the first `$N`)
    for m in _ARGS.finditer(body):
        s = base + m.start()
        if (blocks and inside(blocks, s)) or _in_inline_code(body, m.start()):
            continue
        token = m.group(0)
        if token == "$ARGUMENTS":
            return token, s, s + len(token)
        if _MATH.match(body, m.start()):
            continue
        if money is None:
            money = any(not (blocks and inside(blocks, base + a.start())) and not _in_inline_code(body, a.start())
                        for a in _AMOUNT.finditer(body))
        if (money or _MONEY.match(body, m.end()) or _MONEY_BEFORE.search(body, max(0, m.start() - 2), m.start())
                or _MONEY_WORDS.search(_line(body, m.start()))):
            continue
        first.setdefault(token, (token, s, s + len(token)))
    if len(first) >= 2:
        return min(first.values(), key=lambda t: t[1])
    if len(first) == 1:
        # A lone `$1` is an argument when nothing around it is about money (issue 26: `Deploy $1 to
        # staging.` was missed): no other dollar amount in the body, no money word on its line.
        token, s, e = next(iter(first.values()))
        if len(_DOLLAR_DIGIT.findall(body)) == body.count(token):
            return token, s, e
    return None


def _passed_through(body: str, token: str) -> bool:
    """Whether every `$ARGUMENTS` of the body stands alone on its line: what the user types after
    the command handed on as it is, not a form the skill asks for (held-out unseen24: 24 skills of
    one repository end so, among them skills whose body says they take no arguments)."""
    if token != "$ARGUMENTS":
        return False
    at = body.find(token)
    while at >= 0:
        if _line(body, at).strip() != token:
            return False
        at = body.find(token, at + len(token))
    return True


def _line(body: str, at: int) -> str:
    end = body.find("\n", at)
    return body[body.rfind("\n", 0, at) + 1:end if end >= 0 else len(body)]


def _in_inline_code(body: str, at: int) -> bool:
    """An odd number of backticks before ``at`` on its line: inside a code span."""
    line_start = body.rfind("\n", 0, at) + 1
    return body.count("`", line_start, at) % 2 == 1


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"
